"""Teaching the table your dice at the table, and keeping the corrections made on a
round's results screen.

`tabletop21 teach dice` (or `d10`) without a folder runs `TableTeaching` with the
appliance's own camera, display and buttons: the owner rolls, the table takes a
settled picture and reads it, the owner confirms or corrects each die (a
tabletop21.rollcheck.RollCheck), and each roll kept goes into the teaching folder as
`replay --correct` keeps one (tabletop21.corrections.keep_example). Once enough rolls
are kept (`[teach] rolls`), or the owner holds NEXT between rolls, the reader is taught
from the folder (tabletop21.taught.teach_folder), the taught file written and named in
the settings' `[table] taught`, so `run` reads with it from its next start.

`teach dominoes` at the table goes the same way with pictures of tiles laid out face up
in place of rolls: the owner lays out the set a few tiles at a time, and each picture's
check offers first the tiles of the double-six set not shown yet (RollCheck.proposed);
the screen says how many of the 28 have been shown and which are still to come.

`teach cards` at the table goes as dominoes do, with the 52 cards of a deck laid out face
up in rows: each picture's check offers first the deck's cards not shown yet, a card
is typed as QS or 10H, and the screen counts the deck shown.

On a touchscreen each check screen also shows a value picker under the picture: the
selected piece's values as targets (`picker_targets`, from RollCheck.choices), a touch on
one said as "pick:PART" (`touch_check`, RollCheck.pick), beside SHAKE's one value at a
time.

`Corrections` is where the appliance keeps a round corrected from its results screen
(tabletop21.appliance); a correction of tiles or cards offers first those its teaching
folder does not hold yet (`Corrections.to_show`), as teaching at the table does."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import cv2
import numpy as np

from hardware.frames import CameraLost, FrameSource
from table.driver import CONFIRM, NEXT, SHAKE
from table.errors import TableError
from table.reads import Box, TableRead
from table.rules.cards import SUITS
from tabletop21.corrections import (
    FACES,
    ONE_OF_EACH,
    REFUSED,
    ROUNDS,
    TEACH_FOLDERS,
    Value,
    found_values,
    is_value,
    keep_example,
    unsure,
    value_text,
)
from tabletop21.rollcheck import NO_DIE, UNREAD, RollCheck
from vision.image_io import NotAnImage

if TYPE_CHECKING:
    from display.live import Display
    from display.teach import CheckScreen, PickTarget

PICK_WORD = "pick"  # a touch on the value picker: "pick:Q" (display.teach.PickTarget.word)

# Where a taught file is written when the settings name none (the examples go into
# tabletop21.corrections.TEACH_FOLDERS).
TAUGHT_FILES = {"dice": Path("~/tabletop21/taught-dice.json"), "d10": Path("~/tabletop21/taught-d10.json"),
                "dominoes": Path("~/tabletop21/taught-dominoes.json"), "cards": Path("~/tabletop21/taught-cards.json")}
NAMES = {"dice": ("DICE", "dice", "die"), "d10": ("D10S", "d10s", "d10"),
         "dominoes": ("DOMINO TILES", "tiles", "tile"), "cards": ("CARDS", "cards", "card")}  # heading, many, one
# What one round of teaching is for each kind (ROUNDS: a roll of the dice, or a picture of
# tiles or cards laid out), and what the owner is asked to do for it.
DO = {"dice": "Roll the dice on the table", "d10": "Roll the d10s on the table",
      "dominoes": "Lay some tiles of your set face up on the table",
      "cards": "Lay out cards of your deck face up in rows, corners in view"}
# While waiting after a picture was taken: what makes the next one differ from it.
CHANGE = {"dice": "Roll the dice: the picture is taken when they stop",
          "d10": "Roll the d10s: the picture is taken when they stop",
          "dominoes": "Lay out other tiles (or move them): the picture is taken when the table is still",
          "cards": "Lay out other cards (or move them): the picture is taken when the table is still"}
# How to lay out a whole set of tiles (a deck of cards) over the pictures: the check offers
# first the values not shown yet.
WHOLE = {"dominoes": "Lay out your whole set, a few tiles at a time, face up and flat; then again, mixed",
         "cards": "Lay out your whole deck, a few rows of cards at a time, face up with a corner of each in view; "
                  "then again, mixed"}
JPEG_QUALITY = 95  # a kept picture: the reader reads exactly the pixels kept
STILL = 3  # frames without motion before a picture is taken (vision.settle's own "settled")
HAND_STILL = 10  # frames: a large object this still is no hand (hands tremble), and is read
DONE_SECONDS = 30.0  # how long the last screen stays without a press


class SettleReport(Protocol):
    @property
    def state(self) -> str: ...

    @property
    def still_frames(self) -> int: ...


class Settle(Protocol):
    def update(self, frame_bgr: np.ndarray, /) -> SettleReport: ...


class Controls(Protocol):
    def poll(self) -> list[str]: ...

    def show(self, lit: Collection[str]) -> None: ...


def read_kind(read: TableRead) -> str | None:
    """Which kind of piece a read holds that can be corrected and taught ("dice", "d10",
    "dominoes" or "cards"), read or refused, in that order; None: none of them."""
    return next((kind for kind, refused in REFUSED.items()
                 if found_values(read, kind) or unsure(read, kind) or any(u.kind == refused for u in read.unreadable)),
                None)


def jpeg(image: np.ndarray) -> tuple[bytes, np.ndarray]:
    """The picture as kept (JPEG) and as the reader will read it again."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise NotAnImage("the camera's picture could not be encoded as JPEG")
    kept = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return data.tobytes(), image if kept is None else kept


def keep_picture(folder: Path, stem: str, picture: bytes, boxes: tuple[Box, ...], values: tuple[Value | None, ...],
                 kind: str, fix: str) -> str:
    """A JPEG picture and its pieces added to the teaching folder under a name of its own
    (STEM.jpg, else STEM-2.jpg...); returns the name."""
    name, copy = f"{stem}.jpg", 1
    while (folder / "images" / name).exists():
        copy += 1
        name = f"{stem}-{copy}.jpg"
    return keep_example(folder, name, lambda path: path.write_bytes(picture), boxes, values, kind, fix)


def examples_in(folder: Path) -> int:
    """How many labelled photos the teaching folder holds (0 when none, or no labels.json)."""
    try:
        labels = json.loads((folder / "labels.json").read_text())
    except (OSError, ValueError):
        return 0
    return len(labels) if isinstance(labels, dict) else 0


def shown_in(folder: Path, kind: str) -> frozenset[Value]:
    """The values of a whole set the teaching folder's labels.json holds: the tiles of a
    double-six set (as (low, high)), the cards of a deck (as (rank, suit)); none when
    there is no labels.json, or it holds none."""
    try:
        labels = json.loads((folder / "labels.json").read_text())
    except (OSError, ValueError):
        return frozenset()
    shown: set[Value] = set()
    for entry in labels.values() if isinstance(labels, dict) else ():
        for piece in entry.get(kind, ()) if isinstance(entry, dict) else ():
            value: object = None
            if isinstance(piece, dict) and kind == "dominoes":
                halves = piece.get("halves")
                value = (min(halves), max(halves)) if isinstance(halves, list) and len(halves) == 2 else None
            elif isinstance(piece, dict) and kind == "cards":
                value = (piece.get("rank"), piece.get("suit"))
            if is_value(value, kind):
                shown.add(value)
    return frozenset(shown)


def still_to_show(kind: str, shown: Collection[Value]) -> tuple[Value, ...]:
    """Dominoes (cards): the tiles of the set (the cards of the deck) not among `shown`,
    in FACES' order: what a check offers first (RollCheck.proposed); () for dice."""
    return tuple(face for face in FACES[kind] if face not in shown) if kind in ONE_OF_EACH else ()


def tiles_in(folder: Path) -> frozenset[Value]:
    """The tiles of a double-six set the teaching folder's labels.json holds (as (low,
    high)); none when there is no labels.json or it holds no tiles."""
    return shown_in(folder, "dominoes")


def check_folder(folder: Path, fix: str) -> None:
    """A teaching folder whose labels.json is there but is no labels.json is refused
    before anything is rolled, in one line."""
    path = folder / "labels.json"
    if not path.exists():
        if folder.exists() and not folder.is_dir():
            raise TableError(f"{folder}: not a folder, so no teaching folder; {fix}")
        return
    try:
        labels = json.loads(path.read_text())
    except (OSError, ValueError) as err:
        raise TableError(f"{path}: not a labels.json ({getattr(err, 'strerror', None) or err}); {fix}") from None
    if not isinstance(labels, dict):
        raise TableError(f"{path}: not a labels.json of photos; {fix}")


def check_screen(check: RollCheck, *, title: str, message: str, side: str, targets: tuple[tuple[str, str], ...],
                 frame_size: tuple[int, int] | None) -> CheckScreen:
    """What the display shows of a roll check: plain boxes, words and flags."""
    from display.teach import CheckScreen

    return CheckScreen(title=title, message=check.message or message, boxes=check.boxes, labels=check.labels(),
                       unread=tuple(value is UNREAD for value in check.values),
                       absent=tuple(value == NO_DIE for value in check.values), changed=check.changed,
                       selected=check.selected if check.boxes else None, frame_size=frame_size,
                       shake="change value", next=f"next {check.one}", targets=targets, side=side, addable=True,
                       picker=picker_targets(check))


def picker_targets(check: RollCheck) -> tuple[tuple[PickTarget, ...], ...]:
    """The value picker of the check's selected piece (RollCheck.choices) as the display
    draws it: each target said as PICK_WORD:part when touched, a card's suit drawn as
    its shape."""
    from display.teach import PickTarget

    return tuple(tuple(PickTarget(f"{PICK_WORD}:{part}", label, mark,
                                  suit=part if check.kind == "cards" and part in SUITS else None)
                       for part, label, mark in row) for row in check.choices())


def touch_check(check: RollCheck, word: str) -> RollCheck | None:
    """A tap on the check screen's picture or value picker, as display.teach.target_at
    says it: "die:N" selects die N or changes it, "frame:X,Y" adds a die at (X, Y) of the
    frame's pixels where no die was touched (RollCheck.add), "pick:PART" is a touch on the
    picker's PART (RollCheck.pick: "4", "Q", "H", "none"). None: the word is none of these."""
    where, _, rest = word.partition(":")
    if where == "die" and rest.isdigit():
        return check.tap(int(rest))
    if where == PICK_WORD and rest:
        return check.pick(rest)
    if where == "frame":
        try:
            x, y = (float(part) for part in rest.split(","))
        except ValueError:
            return None
        return check.add((x, y))
    return None


def check_words(check: RollCheck) -> str:
    """What the selected piece is given and what the buttons do."""
    one = check.one
    if not check.boxes:
        return f"No {one} was found in this picture"
    label = check.labels()[check.selected]
    added = " (added by you)" if check.added[check.selected] else ""
    return (f"{one.capitalize()} {check.selected + 1} of {len(check.boxes)}{added}: {label}. SHAKE changes it, NEXT "
            f"picks the next {one}, hold NEXT keeps the {ROUNDS[check.kind]}")


# The side panel of a check: what SHAKE does (NEXT and holding NEXT are on the message line
# and the screen's targets), and the touches, the value picker's among them.
HOW = ("SHAKE: the selected {one}'s next value ({faces}). On a touchscreen: touch a {one}, then its {value} below"
       "{marks}; touch a {one} with no box to add it. *: changed by you.")


def how_words(kind: str) -> str:
    faces = FACES[kind]
    if kind == "dominoes":
        return HOW.format(one="tile", faces="tiles of your set not shown yet first", value="two halves",
                          marks=" (a dot: not shown yet)")
    if kind == "cards":
        return HOW.format(one="card", faces="cards not shown yet first", value="rank and suit",
                          marks=" (a dot: not shown yet)") + " Or type QS, 10h (x: no card)."
    return HOW.format(one="die", faces=f"{faces[0]}-{faces[-1]}, then no die", value="value", marks="")


# --- correcting a round from its results screen ---------------------------------------------------------------

@dataclass(frozen=True)
class Correction:
    """A round's last read being corrected on its results screen: its check and picture."""

    check: RollCheck
    image: np.ndarray
    round_no: int


class Corrections:
    """Where a round corrected from the results screen is kept: the teaching folder of
    its kind (default ~/tabletop21/teach-dice, teach-d10, teach-dominoes or teach-cards;
    `folders` names others, and a kind it does not name keeps its default)."""

    def __init__(self, folders: Mapping[str, Path] | None = None, now: Callable[[], datetime] = datetime.now,
                 die_side: float | None = None) -> None:
        self.folders = {kind: Path(folder).expanduser() for kind, folder in {**TEACH_FOLDERS, **(folders or {})}.items()}
        self._now = now
        self.die_side = die_side  # px: the calibration's die, the side of a die added where the roll gives none

    def to_show(self, kind: str) -> tuple[Value, ...]:
        """Dominoes (cards): the tiles of the set (the cards of the deck) the kind's
        teaching folder does not hold yet, which the correction offers first, as teaching
        at the table does; () for dice."""
        return still_to_show(kind, shown_in(self.folders[kind], kind)) if kind in ONE_OF_EACH else ()

    def keep(self, correction: Correction, values: tuple[Value | None, ...]) -> tuple[Path, str]:
        """The picture and the values kept; the folder and the picture's name. TableError
        in words when it cannot be, and nothing is kept."""
        kind = correction.check.kind
        folder = self.folders[kind]
        picture, _ = jpeg(correction.image)
        name = keep_picture(folder, f"round{correction.round_no}-{self._now():%Y%m%d-%H%M%S}", picture,
                            correction.check.boxes, values, kind, "fix or move that folder")
        return folder, name

    def screen(self, correction: Correction) -> CheckScreen:
        check = correction.check
        return check_screen(
            check, title=f"ROUND {correction.round_no} - CORRECT THE {NAMES[check.kind][0]}",
            message=check_words(check),
            side=f"{how_words(check.kind)} The round stays as settled; KEEP puts the picture in the teaching "
                 "folder.",
            targets=(("keep", "KEEP"), ("skip", "CANCEL")),
            frame_size=(correction.image.shape[1], correction.image.shape[0]))


# --- teaching at the table ------------------------------------------------------------------------------------

class TableTeaching:
    """One sitting of teaching at the table. `tick` once per pass of the loop: a frame is
    read while a roll is awaited, the buttons (GPIO through `controls`, or `presses`
    from the display's keys and buttons), taps (`touched`, display.Display.touched's
    words) and typed values are applied; `screen` and `picture` are what to show.

    Phases: "roll" (roll, then press NEXT), "waiting" (for the dice to move and then
    stop: the first still frame is read), "check" (confirm or correct each die), "teaching"
    (the next tick teaches), "done" (taught; `finished` after a press)."""

    def __init__(self, kind: str, source: FrameSource, settle: Settle, read: Callable[[np.ndarray], TableRead], *,
                 folder: Path, teach: Callable[[], str], rolls: int = 15, controls: Controls | None = None,
                 leds: Collection[str] = (), now: Callable[[], datetime] = datetime.now,
                 clock: Callable[[], float] = time.monotonic, die_side: float | None = None) -> None:
        if kind not in FACES:
            raise TableError(f"only {' and '.join(FACES)} can be taught at the table, not {kind}")
        self.kind = kind
        self.source, self.settle, self.read = source, settle, read
        self.folder, self.rolls = folder, rolls
        self._teach = teach  # teaches from the folder and writes the file and setting; returns what it did
        self.controls, self.leds = controls, frozenset(leds)
        self._now, self._clock = now, clock
        self.die_side = die_side  # px: the calibration's die, the side of a die added where the roll gives none
        self.phase = "roll"
        self.check: RollCheck | None = None
        self.picture: np.ndarray | None = None  # the live frame, or the one being checked
        self._kept_picture = b""
        self.kept = 0  # rolls kept in this sitting
        self.message = ""
        self.done = ""  # what teaching did, once it has
        self.camera_error = ""
        self.motion = ""
        self.moved = False  # the dice have moved since the last picture was taken
        self.taken = 0  # pictures taken in this sitting
        self.finished = False
        self._done_at = 0.0
        self._teaching_shown = False  # the "teaching" screen was drawn once before teaching blocks the loop
        # Dominoes (cards): the tiles of the set (the cards of the deck) kept in the folder so
        # far, this sitting's and earlier ones.
        self.shown: frozenset[Value] = shown_in(folder, kind) if kind in ONE_OF_EACH else frozenset()

    # what happens -------------------------------------------------------------------------------------------------

    def tick(self, presses: Sequence[str] = (), touched: Sequence[str] = (), typed: Sequence[str] = ()) -> None:
        names = [*(self.controls.poll() if self.controls else []), *presses]
        if self.phase in ("roll", "waiting"):
            self._watch()
        for name in names:
            self._press(name)
        for word in touched:
            self._touch(word)
        for text in typed:
            self._typed(text)
        if self.phase == "teaching" and not self._teaching_shown:
            self._teaching_shown = True  # shown for one pass first: teaching takes seconds
        elif self.phase == "teaching":
            self._run_teaching()
        elif self.phase == "done" and self._clock() - self._done_at > DONE_SECONDS:
            self.finished = True
        if self.controls:
            self.controls.show(self.lit())

    def lit(self) -> frozenset[str]:
        lamp = ("error" if self.camera_error and self.phase in ("roll", "waiting") else
                "reading" if self.phase in ("waiting", "teaching") else "win" if self.phase == "done" else "ready")
        return frozenset({lamp}) & self.leds

    def _watch(self) -> None:
        """One frame: shown, watched for motion, and read once the dice have moved and
        stopped after NEXT."""
        try:
            frame = self.source.read()
            report = self.settle.update(frame.image)
        except CameraLost as err:
            self.camera_error = str(err)
            return
        except NotAnImage as err:  # a frame the calibration does not fit
            self.camera_error = f"the camera's picture cannot be read: {err}"
            return
        self.camera_error = ""
        self.picture = frame.image
        self.motion = report.state
        if report.still_frames == 0:
            self.moved = True
        if self.phase != "waiting" or not (self.moved or not self.taken):
            return
        still = (report.state in ("settled", "empty") and report.still_frames >= STILL
                 or report.state == "hand" and report.still_frames >= HAND_STILL)
        if still:
            self._take(frame.image)

    def _take(self, image: np.ndarray) -> None:
        try:
            self._kept_picture, shown = jpeg(image)
            read = self.read(shown)
        except NotAnImage as err:
            self.phase, self.message = "roll", f"the picture cannot be read ({err}): roll again"
            return
        self.taken += 1
        self.moved = False
        self.picture = shown
        check = RollCheck.of_read(self.kind, read, frame_size=(shown.shape[1], shown.shape[0]),
                                  die_side=self.die_side, proposed=self.to_show())
        if not check.boxes:
            one = NAMES[self.kind][2]
            again = "lay them out again" if self.kind in ONE_OF_EACH else "roll again"
            self.phase = "roll"
            self.message = (f"No {one} found in the picture: {again} (are they in the camera's view, on the play "
                            f"area{', face up' if self.kind in ONE_OF_EACH else ''}?)")
            return
        self.check, self.phase, self.message = check, "check", ""

    def _press(self, name: str) -> None:
        if self.phase == "check" and self.check is not None:
            if name == SHAKE:
                self.check = self.check.cycle()
            elif name == NEXT:
                self.check = self.check.next()
            elif name == CONFIRM:
                self._keep()
        elif self.phase in ("roll", "waiting"):
            if name == CONFIRM:
                self._start_teaching()
            elif self.phase == "roll":
                self.phase, self.message = "waiting", ""
        elif self.phase == "done":
            self.finished = True

    def _touch(self, word: str) -> None:
        if self.phase == "check" and self.check is not None:
            touched = touch_check(self.check, word)
            if touched is not None:
                self.check = touched
            elif word == "keep":
                self._keep()
            elif word == "skip":
                self._skip()
        elif self.phase in ("roll", "waiting"):
            if word == "teach":
                self._start_teaching()
            elif word in ("take", "screen") and self.phase == "roll":
                self.phase, self.message = "waiting", ""
        elif self.phase == "done":
            self.finished = True

    def _typed(self, text: str) -> None:
        word = text.strip().lower()
        if self.phase == "check" and self.check is not None:
            if word in ("k", "keep"):
                self._keep()
            elif word in ("s", "skip"):
                self._skip()
            else:
                self.check = self.check.typed(text)
        elif self.phase in ("roll", "waiting") and word == "teach":
            self._start_teaching()

    def _keep(self) -> None:
        assert self.check is not None
        check, values = self.check.confirm()
        self.check = check
        if values is None:
            return
        try:
            keep_picture(self.folder, f"table-{self._now():%Y%m%d-%H%M%S}", self._kept_picture, check.boxes, values,
                         self.kind, "give another folder with --into")
        except TableError as err:
            self.check = replace(check, message=str(err))
            return
        self.kept += 1
        self.check, self.phase = None, "roll"
        dice = sum(value is not None for value in values)
        if self.kind in ONE_OF_EACH:
            self.shown = self.shown | {value for value in values if value is not None}
        of_set = f"; {self.set_words()}" if self.kind in ONE_OF_EACH else ""
        self.message = (f"{ROUNDS[self.kind].capitalize()} {self.kept} kept ({dice} "
                        f"{NAMES[self.kind][1 if dice != 1 else 2]}{of_set})")
        if self.kept >= self.rolls:
            self._start_teaching()

    def _skip(self) -> None:
        again = f"lay out {NAMES[self.kind][1]} again" if self.kind in ONE_OF_EACH else "roll again"
        self.check, self.phase, self.message = None, "roll", f"That {ROUNDS[self.kind]} was not kept: {again}"

    def to_show(self) -> tuple[Value, ...]:
        """Dominoes (cards): the tiles of the set (the cards of the deck) not kept yet, in
        FACES' order, which each check offers first; () for dice."""
        return still_to_show(self.kind, self.shown)

    def set_words(self) -> str:
        """Dominoes (cards): how much of the set (the deck) has been shown, in words."""
        left, whole, many = self.to_show(), len(FACES[self.kind]), NAMES[self.kind][1]
        if not left:
            return f"the whole {ONE_OF_EACH[self.kind]} of {whole} shown"
        named = " ".join(value_text(face) for face in left[:8]) + (" ..." if len(left) > 8 else "")
        return f"{whole - len(left)} of {whole} {many} shown; still to show: {named}"

    def _start_teaching(self) -> None:
        if not examples_in(self.folder):
            self.message = (f"Nothing to teach from yet: keep some {ROUNDS[self.kind]}s first ({self.rolls} are "
                            "enough)")
            return
        self.phase, self._teaching_shown = "teaching", False

    def _run_teaching(self) -> None:
        try:
            self.done = self._teach()
        except TableError as err:
            self.phase = "roll"
            self.message = f"Not taught: {err}. Keep more {ROUNDS[self.kind]}s"
            return
        self.phase, self._done_at = "done", self._clock()

    # what is shown ------------------------------------------------------------------------------------------------

    def screen(self) -> CheckScreen:
        from display.teach import CheckScreen

        heading, many, _ = NAMES[self.kind]
        rounds = ROUNDS[self.kind]
        roll = f"{rounds.upper()} {min(self.kept + 1, self.rolls)} OF {self.rolls}"
        title = f"TEACH THE TABLE YOUR {heading} - {roll}"
        earlier = examples_in(self.folder)
        side = (f"Each {rounds} you keep goes into {self.folder} ({earlier} there now). After {self.rolls} {rounds}s "
                f"the table learns your {many}; hold NEXT between {rounds}s to teach it sooner.")
        if self.kind in ONE_OF_EACH:
            words = self.set_words()  # not str.capitalize: that would lower the cards' "QS"
            side = f"{WHOLE[self.kind]}. {words[:1].upper()}{words[1:]}. {side}"
        if self.phase == "check" and self.check is not None:
            keep = (("keep", "KEEP PICTURE"), ("skip", "TAKE AGAIN")) if ROUNDS[self.kind] == "picture" else (
                ("keep", "KEEP ROLL"), ("skip", "ROLL AGAIN"))
            return check_screen(self.check, title=f"{title} - CHECK", message=check_words(self.check),
                                side=how_words(self.kind), targets=keep, frame_size=self._size())
        if self.phase == "teaching":
            return CheckScreen(title=f"TEACHING THE TABLE YOUR {heading}",
                               message=f"Teaching from the {rounds}s in {self.folder}... (a few seconds)", side=side,
                               frame_size=self._size())
        if self.phase == "done":
            return CheckScreen(title=f"THE TABLE KNOWS YOUR {heading}", message="Taught. Press a button to finish",
                               side=self.done, next="finish", shake="finish", frame_size=self._size())
        if self.camera_error:
            message = f"Camera lost: {self.camera_error}. Check its cable; it is tried again"
        elif self.phase == "waiting":
            message = (CHANGE[self.kind] if self.taken and not self.moved else
                       "Hands off the table: the picture is taken when it is still" if self.motion == "hand" else
                       f"Waiting for the {many} to stop...")
        else:
            message = self.message or f"{DO[self.kind]}, then press NEXT"
        targets = (("take", "TAKE PICTURE"), ("teach", "TEACH NOW")) if self.phase == "roll" else (("teach", "TEACH NOW"),)
        return CheckScreen(title=title, message=message, side=side, targets=targets,
                           next="take picture" if self.phase == "roll" else "", frame_size=self._size())

    def _size(self) -> tuple[int, int] | None:
        return None if self.picture is None else (self.picture.shape[1], self.picture.shape[0])


# --- opening it: settings, devices, files ---------------------------------------------------------------------

def taught_target(kind: str, given: str | None, named: str) -> tuple[Path, str]:
    """Where the taught file goes, and a line to say about it: -o FILE, else the
    settings' `[table] taught` when it is there for this kind or not there at all,
    else (it teaches the other kind) TAUGHT_FILES[kind]. A file there that is no
    taught-reader file is never written over."""
    from vision.teach import FORMAT

    def kind_of(path: Path) -> str | None:
        """The kind a taught file there teaches; None: no file. TableError: another file."""
        if not path.exists():
            return None
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            data = None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise TableError(f"{path} is there and is not a taught-reader file: teaching writes no file over it; "
                             "give another with -o FILE, or fix [table] taught in the settings")
        return str(data.get("kind"))

    if given:
        path = Path(given).expanduser().absolute()
        kind_of(path)
        return path, ""
    if named:
        path = Path(named).expanduser().absolute()
        if kind_of(path) in (None, kind):
            return path, ""
        other = path
        path = TAUGHT_FILES[kind].expanduser().absolute()
        kind_of(path)
        return path, (f"[table] taught names {other}, which teaches another kind: it is kept, and [table] taught will "
                      f"name {path} (one taught reader is read at a time)")
    path = TAUGHT_FILES[kind].expanduser().absolute()
    kind_of(path)
    return path, ""


@dataclass
class Opened:
    teacher: TableTeaching
    display: Display
    settings: Path  # the settings file [table] taught is set in
    out: Path


@contextmanager
def teaching_at_table(kind: str, config_path: str | None = None, *, out: str | None = None, into: str | None = None,
                      fullscreen: bool = False, pin_factory: object = None,
                      say: Callable[[str], None] = print) -> Iterator[Opened]:
    """The teacher on the appliance's own devices, as `run` opens them: the settings
    file found as `run` finds it, its calibration, camera, GPIO buttons (gpiozero;
    `pin_factory` for tests) and display. Everything that can be refused is checked
    before anything is opened or written: the settings, where the taught file goes,
    the teaching folder, the camera. Closed (LEDs off, camera released) on leaving."""
    from tabletop21.appliance import table_reader
    from tabletop21.devices import settings_calibration
    from tabletop21.settings import find_settings, load_config, set_taught
    from tabletop21.taught import load_taught, pieces_taught, save_taught, teach_folder
    from vision.settle import SettleDetector

    settings_path, said = find_settings(config_path)
    config = load_config(settings_path)
    say(said)
    target, note = taught_target(kind, out, config.table.taught)
    if note:
        say(f"tabletop21: {note}")
    settings_file = set_taught(settings_path, target, check_only=True)
    folder = Path(into).expanduser() if into else TEACH_FOLDERS[kind].expanduser()
    check_folder(folder, "give another folder with --into")
    calibration = settings_calibration(config)
    taught = None
    if config.table.taught and Path(config.table.taught).expanduser().is_file():
        try:
            taught = load_taught(Path(config.table.taught).expanduser())
        except TableError as err:
            say(f"tabletop21: the taught reader is not used to read these rolls: {err}")
        else:
            taught = taught if taught.kind == kind else None

    def teach() -> str:
        taught_now = teach_folder(kind, folder)
        save_taught(taught_now, target)
        on = taught_now.taught_on
        done = f"Taught from {on['photos']} photos ({pieces_taught(taught_now)}) in {folder}, written to {target}."
        try:
            written = set_taught(settings_path, target)
        except TableError as err:  # the file is taught all the same: say how to name it
            return f"{done} The settings could not name it: {err}"
        return (f"{done} {written} names it as [table] taught: `tabletop21 run` reads your {NAMES[kind][1]} with it "
                "from its next start.")

    from hardware.frames import ReconnectingSource
    from tabletop21.devices import open_controls, open_display, open_source

    with ExitStack() as opened:
        camera = ReconnectingSource(lambda: open_source(config), first=_open_camera(config))
        opened.callback(camera.close)
        controls = None
        if config.gpio.enabled:  # GpioUnavailable says itself in words (`tabletop21` exits 2)
            controls = open_controls(config.gpio, pin_factory=pin_factory)
            opened.callback(controls.close)
        display = open_display(config, fullscreen)
        opened.callback(display.close)
        teacher = TableTeaching(kind, camera, SettleDetector(calibration),
                                table_reader((kind,), calibration, taught), folder=folder, teach=teach,
                                rolls=config.teach.rolls, controls=controls, leds=tuple(config.gpio.leds),
                                die_side=calibration.die_px if calibration is not None else None)
        yield Opened(teacher, display, settings_file, target)


def _open_camera(config) -> FrameSource:
    """The camera of the settings, or one line saying why not (nothing has been changed)."""
    from tabletop21 import devices

    try:
        return devices.open_source(config)
    except (CameraLost, OSError) as err:
        raise TableError(f"the camera did not open ({err}): check its cable and [camera] in the settings "
                         "(`tabletop21 doctor` tells more); nothing was kept or taught") from None


def run_at_table(opened: Opened, say: Callable[[str], None] = print) -> int:
    """The loop: the display's keys, buttons and taps and the GPIO buttons in, the check
    screen out, until teaching is done (and a button pressed) or Esc."""
    from display import QUIT
    from tabletop21.recording import EndOfRecording

    teacher, display = opened.teacher, opened.display
    screenless = _screenless()
    try:
        while not teacher.finished:
            presses = display.poll()
            if QUIT in presses:
                break
            teacher.tick(presses=[p for p in presses if p != QUIT], touched=display.touched(), typed=display.typed())
            screen = teacher.screen()
            if display.typing:
                screen = replace(screen, message=f"Typed: {display.typing}_  (Enter to give it)")
            display.show_check(screen, teacher.picture)
            if teacher.phase == "done" and screenless:
                break
            if teacher.phase not in ("roll", "waiting") or teacher.camera_error:
                time.sleep(0.02)  # no camera frame to wait on: do not spin
    except KeyboardInterrupt:
        pass
    except EndOfRecording as err:  # a recorded session as the camera, played to its end
        say(f"tabletop21: {err}: teaching ends.")
    if teacher.done:
        say(teacher.done)
    else:
        say(f"{teacher.kept} {ROUNDS[teacher.kind]}{'s' if teacher.kept != 1 else ''} kept in {teacher.folder}; "
            "nothing taught yet: "
            f"`tabletop21 teach {teacher.kind}` goes on, or `tabletop21 teach {teacher.kind} {teacher.folder}` "
            "teaches from them")
    return 0


def _screenless() -> bool:
    import pygame

    try:
        return pygame.display.get_driver() in ("dummy", "offscreen")
    except pygame.error:
        return True
