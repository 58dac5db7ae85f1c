"""What a read of the table reports. Coordinates are in the frame's own pixels
(x right, y down); boxes are (x0, y0, x1, y1). Anything a reader is not sure of goes
to `unreadable` with a reason instead of being guessed.

A read holds only what the table can show: a die, tile or card the rules know, a
confidence from 0 to 1, finite places. Each record checks itself as it is made
(ValueError, which a recording's loader reports as a CorruptRecord), so a reader's
slip or a damaged recording stops there, not in the round that takes the read in;
the rules' own checks say what a piece can be.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from table.rules.cards import Card as PlayingCard
from table.rules.dice import check_die
from table.rules.tiles import Tile

Point = tuple[float, float]
Box = tuple[float, float, float, float]
# The pieces a reader finds, by the name its reads give them (a tile is a "domino").
UnreadableKind = Literal["die", "d10", "domino", "card"]
FaceDownKind = Literal["domino", "card"]  # only these have a back to lie on


def _check_numbers(name: str, numbers: Any, count: int) -> None:
    """A NaN passes no comparison, so a NaN centre lies in no box and sorts anywhere."""
    try:
        fine = len(numbers) == count and all(math.isfinite(number) for number in numbers)
    except TypeError:
        fine = False
    if not fine:
        raise ValueError(f"{name} is {count} finite numbers, not {numbers!r}")


def _check_place(center: object, box: object) -> None:
    _check_numbers("center", center, 2)
    if box is not None:
        _check_numbers("box", box, 4)


def _check_kind(kind: object, kinds: object) -> None:
    """The round counts face-down pieces and names refused ones by kind, so a kind no
    reader makes would count nothing and name nothing."""
    if kind not in get_args(kinds):
        raise ValueError(f"kind is one of {', '.join(map(repr, get_args(kinds)))}, not {kind!r}")


def _check_confidence(confidence: Any) -> None:
    _check_numbers("confidence", (confidence,), 1)
    if not 0 <= confidence <= 1:
        raise ValueError(f"confidence is 0 to 1, not {confidence!r}")


def inside(point: Point, box: Box) -> bool:
    """Whether a point lies in a box, edges included: how a read is matched to a
    labelled object (`tabletop21.evaluate`) and claimed by another reader's object
    (`vision.read.resolve_overlaps`)."""
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


@dataclass(frozen=True)
class Die:
    value: int
    center: Point
    box: Box
    confidence: float

    def __post_init__(self) -> None:
        check_die(self.value, 6)
        _check_place(self.center, self.box)
        _check_confidence(self.confidence)


@dataclass(frozen=True)
class D10:
    value: int
    center: Point
    box: Box
    confidence: float

    def __post_init__(self) -> None:
        check_die(self.value, 10)
        _check_place(self.center, self.box)
        _check_confidence(self.confidence)


@dataclass(frozen=True)
class Domino:
    halves: tuple[int, int]
    center: Point
    box: Box
    angle: float
    confidence: float
    # Why two dice side by side could also look like this ("" when they could not, as
    # when the divider line shows). `vision.read.read_table` refuses such a read where
    # the dice reader runs too, and keeps it at a table of tiles only. Not in the JSON
    # that `tabletop21 read` prints: by then it has been settled.
    dice_alike: str = field(default="", metadata={"json": False})

    def __post_init__(self) -> None:
        _check_numbers("halves", self.halves, 2)
        Tile(*self.halves)  # one of the 28 tiles; the halves themselves stay in reading order
        _check_place(self.center, self.box)
        _check_numbers("angle", (self.angle,), 1)
        _check_confidence(self.confidence)


@dataclass(frozen=True)
class Card:
    rank: str
    suit: str | None
    center: Point
    box: Box
    angle: float
    confidence: float

    def __post_init__(self) -> None:
        PlayingCard(self.rank, self.suit)
        _check_place(self.center, self.box)
        _check_numbers("angle", (self.angle,), 1)
        _check_confidence(self.confidence)


@dataclass(frozen=True)
class FaceDown:
    """A tile or card lying face down: counted, never read."""

    kind: FaceDownKind
    center: Point
    box: Box

    def __post_init__(self) -> None:
        _check_kind(self.kind, FaceDownKind)
        _check_place(self.center, self.box)


@dataclass(frozen=True)
class Unreadable:
    """Something that is there but cannot be read for certain; the round asks for a re-roll."""

    kind: UnreadableKind
    center: Point
    reason: str  # shown to the table as what to fix, so never empty
    box: Box | None = None

    def __post_init__(self) -> None:
        _check_kind(self.kind, UnreadableKind)
        if not isinstance(self.reason, str) or not self.reason.strip():
            raise ValueError(f"a reason is some words, not {self.reason!r}")
        _check_place(self.center, self.box)


@dataclass(frozen=True)
class TableRead:
    dice: tuple[Die, ...] = ()
    d10: tuple[D10, ...] = ()
    dominoes: tuple[Domino, ...] = ()
    cards: tuple[Card, ...] = ()
    face_down: tuple[FaceDown, ...] = ()
    unreadable: tuple[Unreadable, ...] = ()
    notes: tuple[str, ...] = field(default=())
