"""What a read of the table reports. Coordinates are in the frame's own pixels
(x right, y down); boxes are (x0, y0, x1, y1). Anything a reader is not sure of goes
to `unreadable` with a reason instead of being guessed."""

from __future__ import annotations

from dataclasses import dataclass, field

Point = tuple[float, float]
Box = tuple[float, float, float, float]


def inside(point: Point, box: Box) -> bool:
    """Whether a point lies in a box, edges included: how a read is matched to a
    labelled object (`vision.evaluate`) and claimed by another reader's object
    (`vision.read.resolve_overlaps`)."""
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


@dataclass(frozen=True)
class Die:
    value: int
    center: Point
    box: Box
    confidence: float


@dataclass(frozen=True)
class D10:
    value: int
    center: Point
    box: Box
    confidence: float


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


@dataclass(frozen=True)
class Card:
    rank: str
    suit: str | None
    center: Point
    box: Box
    angle: float
    confidence: float


@dataclass(frozen=True)
class FaceDown:
    """A tile or card lying face down: counted, never read."""

    kind: str  # "domino" or "card"
    center: Point
    box: Box


@dataclass(frozen=True)
class Unreadable:
    """Something that is there but cannot be read for certain; the round asks for a re-roll."""

    kind: str  # "die", "d10", "domino" or "card"
    center: Point
    reason: str
    box: Box | None = None


@dataclass(frozen=True)
class TableRead:
    dice: tuple[Die, ...] = ()
    d10: tuple[D10, ...] = ()
    dominoes: tuple[Domino, ...] = ()
    cards: tuple[Card, ...] = ()
    face_down: tuple[FaceDown, ...] = ()
    unreadable: tuple[Unreadable, ...] = ()
    notes: tuple[str, ...] = field(default=())
