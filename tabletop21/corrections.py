"""Corrections of recorded dice reads, kept as teaching examples.

`tabletop21 replay SESSION --correct` goes through every settled dice read of a session
and asks whether it was right. A roll the person confirms or corrects is saved in a
teaching folder (a labels.json in the `eval` format with the frames in images/), so
`tabletop21 teach dice FOLDER` learns from it next time: the frame the camera saw, and
each die's box with the value the person gave. Teaching at the table and a correction
from a round's results screen (tabletop21.teaching) keep theirs with `keep_example` too."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeGuard

from table.driver import SettledRead
from table.errors import TableError
from table.reads import Box, TableRead
from tabletop21.recording import SessionReader

TEACH_FOLDER = Path("~/tabletop21/teach-dice")  # where corrections go unless told


@dataclass(frozen=True)
class Roll:
    """One settled read of dice, and the recorded frame it was read from."""

    number: int  # the roll's count in the session, from 1
    frame: str  # the frame's path in the session folder
    boxes: tuple[tuple[float, float, float, float], ...]
    read: tuple[int | None, ...]  # each box's value as read; None: refused as unreadable


def dice_rolls(session: SessionReader) -> Iterator[Roll]:
    """The session's settled reads that hold dice, each with the last frame before it."""
    frame = None
    number = 0
    for event in session.events:
        if event.kind == "frame" and isinstance(event.data, dict):
            frame = event.data.get("path")
        elif event.kind == "input" and isinstance(event.data, SettledRead):
            read: TableRead = event.data.read
            places: list[tuple[tuple[float, ...], int | None]] = [(die.box, die.value) for die in read.dice]
            places += [(u.box, None) for u in read.unreadable if u.kind == "die" and u.box is not None]
            if not places or not isinstance(frame, str):
                continue
            places.sort(key=lambda place: (place[0][1], place[0][0]))
            number += 1
            yield Roll(number, frame, tuple((float(b[0]), float(b[1]), float(b[2]), float(b[3])) for b, _ in places),
                       tuple(value for _, value in places))


# What a piece shows: a die's value, or a domino tile's two halves (low, high).
Value = int | tuple[int, int]
# The tiles of a double-six set, each once: (0, 0), (0, 1) ... (6, 6).
DOUBLE_SIX: tuple[tuple[int, int], ...] = tuple((low, high) for low in range(7) for high in range(low, 7))
# The values each kind of piece shows, as a labels.json gives them ("dice": d6, "d10",
# "dominoes": the tiles of one double-six set).
FACES: dict[str, tuple[Value, ...]] = {"dice": (1, 2, 3, 4, 5, 6), "d10": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
                                       "dominoes": DOUBLE_SIX}
PIECE_WORDS = {"dice": "a die shows 1 to 6", "d10": "a d10 shows 0 to 9",
               "dominoes": "a tile shows two halves of 0 to 6 pips, typed 3-5"}
NOUNS = {"dice": ("die", "dice"), "d10": ("d10", "d10s"), "dominoes": ("tile", "tiles")}  # one, many
TILE_SEPARATORS = "-|/:"  # 3-5, 3|5, 3/5, 3:5 (or 35) name the tile with halves 3 and 5


def value_text(value: Value) -> str:
    """A value as the screen and the prompts say it: "4", or a tile's "3-5"."""
    return f"{value[0]}-{value[1]}" if isinstance(value, tuple) else str(value)


def parse_tile(word: str) -> tuple[int, int] | None:
    """The tile a word names ("3-5", "5|3", "35": halves 3 and 5, low half first);
    None: the word names no tile of a double-six set."""
    for separator in TILE_SEPARATORS:
        word = word.replace(separator, " ")
    halves = word.split()
    if len(halves) == 1 and len(halves[0]) == 2:
        halves = list(halves[0])
    if len(halves) != 2 or not all(half in "0123456" and len(half) == 1 for half in halves):
        return None
    low, high = sorted(int(half) for half in halves)
    return low, high


def parse_values(text: str, count: int, kind: str = "dice") -> tuple[Value | None, ...]:
    """What a person typed for `count` pieces: a value (1-6 for a d6, 0-9 for a d10, a
    tile as 3-5) or x (no piece there) for each, in the order shown. Raises TableError
    in words."""
    faces = FACES[kind]
    one = NOUNS[kind][0] if kind == "dominoes" else "die"  # a d10 is a die to type for
    words = text.replace(",", " ").split()
    if len(words) != count:
        shown = f"{value_text(faces[0])} to {value_text(faces[-1])}"
        raise TableError(f"type {count} value{'s' if count > 1 else ''} ({shown}, or x where no "
                         f"{one} is), one for each {one} in the order shown; {len(words)} typed")
    values: list[Value | None] = []
    for word in words:
        value: Value | None = parse_tile(word) if kind == "dominoes" else (
            int(word) if word in {str(face) for face in faces} else None)
        if word.lower() == "x":
            values.append(None)
        elif value is not None:
            values.append(value)
        else:
            raise TableError(f"{word!r} is no {one}'s value: {PIECE_WORDS[kind]} (x: no {one} there)")
    return tuple(values)


def is_value(value: object, kind: str) -> TypeGuard[Value]:
    """Whether `value` is one the kind's pieces show (a tile as (low, high))."""
    if isinstance(value, bool):
        return False
    if kind == "dominoes":
        return isinstance(value, tuple) and value in FACES[kind]
    return isinstance(value, int) and value in FACES[kind]


def _label(kind: str, box: Box, value: Value) -> dict:
    """A piece as a labels.json holds it."""
    if kind == "dominoes":
        assert isinstance(value, tuple)
        return {"halves": list(value), "box": list(box)}
    return {"value": value, "box": list(box)}


def keep_example(folder: Path, name: str, write: Callable[[Path], object], boxes: tuple[Box, ...],
                 values: tuple[Value | None, ...], kind: str = "dice",
                 fix: str = "give another folder with --into") -> str:
    """A photo and its pieces, as the person said they were, added to the teaching folder
    (a labels.json in the `eval` format, the photos in images/) under `name`: `write`
    puts the photo at the path it is given. A value of None is no piece there, and is
    left out; a tile is its halves, (low, high). labels.json is read (and refused in
    words) before anything is written, and written whole beside itself and put in place;
    `fix` says what to do when the folder cannot hold it."""
    if kind not in FACES:
        raise TableError(f"only {', '.join(FACES)} are kept for teaching, not {kind}")
    one, many = NOUNS[kind] if kind == "dominoes" else ("die", "dice")
    if len(boxes) != len(values):
        raise TableError(f"{len(values)} values for {len(boxes)} {many}: give one value for each {one}")
    for value in values:
        if value is not None and not is_value(value, kind):
            raise TableError(f"{value!r} is no {one}'s value: {PIECE_WORDS[kind]}; nothing was kept")
    images = folder / "images"
    labels_path = folder / "labels.json"
    try:
        labels = json.loads(labels_path.read_text()) if labels_path.is_file() else {}
        if not isinstance(labels, dict):
            raise TableError(f"{labels_path}: not a labels.json of photos; {fix}")
        images.mkdir(parents=True, exist_ok=True)
        write(images / name)
        labels[name] = {kind: [_label(kind, box, value) for box, value in zip(boxes, values) if value is not None]}
        part = labels_path.with_name("labels.json.part")
        part.write_text(json.dumps(labels, indent=1) + "\n")
        os.replace(part, labels_path)
    except TableError:
        raise
    except OSError as err:
        raise TableError(f"{folder}: the correction could not be saved ({err.strerror or err})") from None
    except ValueError:  # json's own error: the file is there but is no JSON
        raise TableError(f"{labels_path}: not a labels.json (not JSON); {fix}") from None
    return name


def save_example(folder: Path, session: SessionReader, roll: Roll, values: tuple[Value | None, ...]) -> str:
    """The roll's frame and its dice, as the person said they were, added to the teaching
    folder (`keep_example`)."""
    try:
        source = (session.folder / roll.frame).resolve()
        inside = session.folder.resolve() in source.parents and source.is_file()
    except (OSError, RuntimeError):  # a link that loops
        inside = False
    if not inside:
        raise TableError(f"{session.folder}: the frame {roll.frame} is not in the session")
    return keep_example(folder, f"{session.folder.name}-{Path(roll.frame).stem}.jpg",
                        lambda path: shutil.copyfile(source, path), roll.boxes, values)


def correct(session: SessionReader, folder: Path, ask: Callable[[str], str], say: Callable[[str], None]) -> int:
    """Asks about every roll of dice in the session; returns how many were saved."""
    saved = 0
    for roll in dice_rolls(session):
        shown = " ".join("?" if v is None else str(v) for v in roll.read)
        where = ", ".join(f"({(b[0] + b[2]) / 2:.0f}, {(b[1] + b[3]) / 2:.0f})" for b in roll.boxes)
        say(f"roll {roll.number} ({roll.frame}): read {shown}, dice at {where}")
        while True:
            answer = ask("  Enter: right as read; or the dice's values in that order (x: no die), s: skip > ").strip()
            if answer.lower() == "s":
                break
            try:
                values = roll.read if not answer else parse_values(answer, len(roll.boxes))
                if None in values and not answer:
                    raise TableError("a die was not read (?): type every die's value to keep this roll")
            except TableError as err:
                say(f"  {err}")
                continue
            name = save_example(folder, session, roll, values)
            saved += 1
            say(f"  kept as {folder / 'images' / name}")
            break
    return saved
