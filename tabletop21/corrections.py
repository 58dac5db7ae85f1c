"""Corrections of recorded reads (dice, d10s, domino tiles, cards), kept as teaching
examples.

`tabletop21 replay SESSION --correct` goes through every settled read of dice, d10s,
domino tiles or cards in a session and asks whether it was right. A read the person confirms or
corrects is saved in a teaching folder of its kind (a labels.json in the `eval` format
with the frames in images/), so `tabletop21 teach KIND FOLDER` learns from it next
time: the frame the camera saw, and each piece's box with the value the person gave.
Teaching at the table and a correction from a round's results screen
(tabletop21.teaching) keep theirs with `keep_example` too."""

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
from table.rules.cards import RANKS, SUITS
from tabletop21.recording import SessionReader

# Where the examples of each kind are kept unless told (teaching at the table, a round
# corrected on its results screen, and `replay --correct` alike).
TEACH_FOLDERS = {"dice": Path("~/tabletop21/teach-dice"), "d10": Path("~/tabletop21/teach-d10"),
                 "dominoes": Path("~/tabletop21/teach-dominoes"), "cards": Path("~/tabletop21/teach-cards")}
TEACH_FOLDER = TEACH_FOLDERS["dice"]
# Each kind's Unreadable.kind; a read holding pieces of several kinds is corrected as the
# first of them in this order.
REFUSED = {"dice": "die", "d10": "d10", "dominoes": "domino", "cards": "card"}
# What one read of each kind is called: a roll of dice, a picture of tiles or cards laid out.
ROUNDS = {"dice": "roll", "d10": "roll", "dominoes": "picture", "cards": "picture"}


@dataclass(frozen=True)
class Roll:
    """One settled read of dice (d10s, domino tiles, cards), and the recorded frame it was
    read from."""

    number: int  # the roll's count in the session, from 1
    frame: str  # the frame's path in the session folder
    boxes: tuple[tuple[float, float, float, float], ...]
    read: tuple[Value | None, ...]  # each box's value as read (a tile (low, high), a card (rank, suit)); None: refused
    kind: str = "dice"


def found_values(read: TableRead, kind: str) -> list[tuple[Box, Value]]:
    """Each piece of `kind` the read holds, with its box and value (a tile as (low, high),
    a card as (rank, suit); a card read without its suit is `unsure`, not here)."""
    if kind == "dominoes":
        return [(tile.box, (min(tile.halves), max(tile.halves))) for tile in read.dominoes]
    if kind == "cards":
        return [(card.box, (card.rank, card.suit)) for card in read.cards if card.suit is not None]
    return [(die.box, die.value) for die in (read.dice if kind == "dice" else read.d10)]


def unsure(read: TableRead, kind: str) -> list[Box]:
    """The boxes of pieces of `kind` read only in part (a card's rank without its suit):
    the person gives their value as for a piece the reader refused."""
    return [card.box for card in read.cards if card.suit is None] if kind == "cards" else []


def _places(read: TableRead, kind: str) -> list[tuple[Box, Value | None]]:
    places: list[tuple[Box, Value | None]] = list(found_values(read, kind))
    places += [(box, None) for box in unsure(read, kind)]
    return places + [(u.box, None) for u in read.unreadable if u.kind == REFUSED[kind] and u.box is not None]


def settled_rolls(session: SessionReader) -> Iterator[Roll]:
    """The session's settled reads that hold dice, d10s, domino tiles or cards (the first
    of these kinds it holds, in REFUSED's order), each with the last frame before it."""
    frame = None
    number = 0
    for event in session.events:
        if event.kind == "frame" and isinstance(event.data, dict):
            frame = event.data.get("path")
        elif event.kind == "input" and isinstance(event.data, SettledRead):
            read: TableRead = event.data.read
            places, kind = [], "dice"
            for kind in REFUSED:
                places = _places(read, kind)
                if places:
                    break
            if not places or not isinstance(frame, str):
                continue
            places.sort(key=lambda place: (place[0][1], place[0][0]))
            number += 1
            yield Roll(number, frame, tuple((float(b[0]), float(b[1]), float(b[2]), float(b[3])) for b, _ in places),
                       tuple(value for _, value in places), kind)


# What a piece shows: a die's value, a domino tile's two halves (low, high), or a card's
# rank and suit ("10", "H").
Tile = tuple[int, int]
PlayingCard = tuple[str, str]
Value = int | Tile | PlayingCard
# The tiles of a double-six set, each once: (0, 0), (0, 1) ... (6, 6).
DOUBLE_SIX: tuple[Tile, ...] = tuple((low, high) for low in range(7) for high in range(low, 7))
# The 52 cards of a deck, each once: A to K of clubs, then of diamonds, hearts and spades.
DECK: tuple[PlayingCard, ...] = tuple((rank, suit) for suit in SUITS for rank in RANKS)
# The values each kind of piece shows, as a labels.json gives them ("dice": d6, "d10",
# "dominoes": the tiles of one double-six set, "cards": the cards of one deck).
FACES: dict[str, tuple[Value, ...]] = {"dice": (1, 2, 3, 4, 5, 6), "d10": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
                                       "dominoes": DOUBLE_SIX, "cards": DECK}
# Kinds of which one picture shows each value at most once (one set, one deck), and
# what that whole is called.
ONE_OF_EACH = {"dominoes": "set", "cards": "deck"}
PIECE_WORDS = {"dice": "a die shows 1 to 6", "d10": "a d10 shows 0 to 9",
               "dominoes": "a tile shows two halves of 0 to 6 pips, typed 3-5",
               "cards": "a card is a rank (A, 2-10, J, Q, K) and a suit (C, D, H, S), typed QS or 10H"}
NOUNS = {"dice": ("die", "dice"), "d10": ("d10", "d10s"), "dominoes": ("tile", "tiles"),
         "cards": ("card", "cards")}  # one, many
# How a value is typed, said where the person is asked for it.
TYPED_AS = {"dominoes": "a tile as 3-5", "cards": "a card as QS or 10H"}


def message_nouns(kind: str) -> tuple[str, str]:
    """What one piece and many are called in the messages and prompts: a d10 is a die
    there as a d6 is ("die", "dice"); a tile a tile, a card a card."""
    return NOUNS[kind] if kind in ("dominoes", "cards") else ("die", "dice")


def no_value(given: str, kind: str) -> str:
    """The words that refuse a value the kind's pieces do not show: "'7' is no die's
    value", "'11H' is no card"."""
    one, _ = message_nouns(kind)
    return f"{given} is no card" if kind == "cards" else f"{given} is no {one}'s value"


TILE_SEPARATORS = "-|/:"  # 3-5, 3|5, 3/5, 3:5 (or 35) name the tile with halves 3 and 5


def value_text(value: Value) -> str:
    """A value as the screen and the prompts say it: "4", a tile's "3-5", a card's "10H"."""
    if isinstance(value, tuple):
        return f"{value[0]}{value[1]}" if isinstance(value[0], str) else f"{value[0]}-{value[1]}"
    return str(value)


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


def parse_card(word: str) -> PlayingCard | None:
    """The card a word names, its rank then its suit, in any case ("QS", "10h", "th":
    the ten of hearts); None: the word names no card of a deck ("1S", "11H", "Q")."""
    word = word.strip().upper()
    rank, suit = word[:-1], word[-1:]
    rank = "10" if rank == "T" else rank
    return (rank, suit) if rank in RANKS and suit in SUITS else None


def parse_values(text: str, count: int, kind: str = "dice") -> tuple[Value | None, ...]:
    """What a person typed for `count` pieces: a value (1-6 for a d6, 0-9 for a d10, a
    tile as 3-5, a card as QS or 10H) or x (no piece there) for each, in the order shown.
    Raises TableError in words."""
    faces = FACES[kind]
    one, _ = message_nouns(kind)
    words = text.replace(",", " ").split()
    if len(words) != count:
        shown = TYPED_AS.get(kind) or f"{value_text(faces[0])} to {value_text(faces[-1])}"
        raise TableError(f"type {count} value{'s' if count > 1 else ''} ({shown}, or x where no "
                         f"{one} is), one for each {one} in the order shown; {len(words)} typed")
    values: list[Value | None] = []
    for word in words:
        value: Value | None = parse_tile(word) if kind == "dominoes" else parse_card(word) if kind == "cards" else (
            int(word) if word in {str(face) for face in faces} else None)
        if word.lower() == "x":
            values.append(None)
        elif value is not None:
            values.append(value)
        else:
            raise TableError(f"{no_value(repr(word), kind)}: {PIECE_WORDS[kind]} (x: no {one} there)")
    return tuple(values)


def is_value(value: object, kind: str) -> TypeGuard[Value]:
    """Whether `value` is one the kind's pieces show (a tile as (low, high), a card as
    (rank, suit))."""
    if isinstance(value, bool):
        return False
    if kind in ("dominoes", "cards"):
        return isinstance(value, tuple) and value in FACES[kind]
    return isinstance(value, int) and value in FACES[kind]


def _label(kind: str, box: Box, value: Value) -> dict:
    """A piece as a labels.json holds it."""
    if kind == "dominoes":
        assert isinstance(value, tuple)
        return {"halves": list(value), "box": list(box)}
    if kind == "cards":
        assert isinstance(value, tuple)
        return {"rank": value[0], "suit": value[1], "box": list(box)}
    return {"value": value, "box": list(box)}


def keep_example(folder: Path, name: str, write: Callable[[Path], object], boxes: tuple[Box, ...],
                 values: tuple[Value | None, ...], kind: str = "dice",
                 fix: str = "give another folder with --into") -> str:
    """A photo and its pieces, as the person said they were, added to the teaching folder
    (a labels.json in the `eval` format, the photos in images/) under `name`: `write`
    puts the photo at the path it is given. A value of None is no piece there, and is
    left out; a tile is its halves, (low, high), a card its rank and suit. labels.json is read (and refused in
    words) before anything is written, and written whole beside itself and put in place;
    `fix` says what to do when the folder cannot hold it."""
    if kind not in FACES:
        raise TableError(f"only {', '.join(FACES)} are kept for teaching, not {kind}")
    one, many = message_nouns(kind)
    if len(boxes) != len(values):
        raise TableError(f"{len(values)} values for {len(boxes)} {many}: give one value for each {one}")
    for value in values:
        if value is not None and not is_value(value, kind):
            raise TableError(f"{no_value(repr(value), kind)}: {PIECE_WORDS[kind]}; nothing was kept")
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
    """The roll's frame and its pieces, as the person said they were, added to the
    teaching folder (`keep_example`)."""
    try:
        source = (session.folder / roll.frame).resolve()
        inside = session.folder.resolve() in source.parents and source.is_file()
    except (OSError, RuntimeError):  # a link that loops
        inside = False
    if not inside:
        raise TableError(f"{session.folder}: the frame {roll.frame} is not in the session")
    return keep_example(folder, f"{session.folder.name}-{Path(roll.frame).stem}.jpg",
                        lambda path: shutil.copyfile(source, path), roll.boxes, values, roll.kind)


def correct(session: SessionReader, folder_for: Callable[[str], Path], ask: Callable[[str], str],
            say: Callable[[str], None]) -> dict[Path, tuple[str, int]]:
    """Asks about every settled read of dice, d10s, tiles or cards in the session; returns each
    teaching folder written to, with its kind and how many reads were saved there
    (`folder_for(kind)` names the folder of a kind)."""
    saved: dict[Path, tuple[str, int]] = {}
    for roll in settled_rolls(session):
        one, many = message_nouns(roll.kind)
        shown = " ".join("?" if v is None else value_text(v) for v in roll.read)
        where = ", ".join(f"({(b[0] + b[2]) / 2:.0f}, {(b[1] + b[3]) / 2:.0f})" for b in roll.boxes)
        say(f"{ROUNDS[roll.kind]} {roll.number} ({roll.frame}): read {shown}, {many} at {where}")
        typing = f" ({TYPED_AS[roll.kind]})" if roll.kind in TYPED_AS else ""
        while True:
            answer = ask(f"  Enter: right as read; or the values of the {many} in that order{typing} (x: no "
                         f"{one}), s: skip > ").strip()
            if answer.lower() == "s":
                break
            try:
                values = roll.read if not answer else parse_values(answer, len(roll.boxes), roll.kind)
                if None in values and not answer:
                    raise TableError(f"a {one} was not read (?): type every {one}'s value to keep this "
                                     f"{ROUNDS[roll.kind]}")
                given = [value for value in values if value is not None]
                if roll.kind in ONE_OF_EACH and len(set(given)) < len(given):
                    twice = next(value for value in given if given.count(value) > 1)
                    raise TableError(f"two {many} are given {value_text(twice)}: a {ONE_OF_EACH[roll.kind]} has "
                                     f"each {one} once")
            except TableError as err:
                say(f"  {err}")
                continue
            folder = folder_for(roll.kind)
            name = save_example(folder, session, roll, values)
            kind, count = saved.get(folder, (roll.kind, 0))
            saved[folder] = (kind, count + 1)
            say(f"  kept as {folder / 'images' / name}")
            break
    return saved
