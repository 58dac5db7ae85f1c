"""One call that reads everything on the table, whatever readers exist.

READERS names each reader's function; each imports its module on first use, so a
reader whose module is missing or broken disables only its own kind (with a note in
the result) and adding a reader is one function and one line. Each reader fills only its own
fields of a TableRead; merging concatenates field by field, then `resolve_overlaps`
gets the chance to settle objects claimed by two readers (a die read on a card, say)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from table.reads import Box, Card, Domino, FaceDown, Point, TableRead, Unreadable, inside
from vision.calibration import Calibration, checked_frame, in_play_area
from vision.colour import is_grey

if TYPE_CHECKING:
    from vision.teach import Taught

Reader = Callable[[np.ndarray, Calibration | None], TableRead]
SAME_OBJECT = 0.4  # share of the smaller box two reads' boxes must share to be one object
# Length over width of the shapes a card (poker, bridge size) and a domino tile come in.
ASPECTS = {"card": (88 / 63, 88 / 57), "domino": (2.0,)}
OUTSIZED = 4.0  # a refusal whose box is this many times an object's is not of that object



def read_dice(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
    """The hand-built and learned d6 readers together, die by die (vision.dice_seen;
    docs/vision.md, "The two readers together")."""
    from vision.dice_seen import read_dice_seen

    return read_dice_seen(frame_bgr, calibration)


def read_dice_hand_built(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
    """The hand-built d6 reader alone (vision.dice), without the learned one."""
    from vision.dice import read_dice

    return read_dice(frame_bgr, calibration)


def read_d10(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
    from vision.d10 import read_d10

    return read_d10(frame_bgr, calibration)


def read_dominoes(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
    """The hand-built and the learned domino readers, merged (vision.dominoes.both;
    docs/vision-dominoes.md)."""
    from vision.dominoes.both import read_dominoes_both

    return read_dominoes_both(frame_bgr, calibration)


def read_dominoes_hand_built(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
    """The hand-built domino reader alone (vision.dominoes.reader), the default before
    the merged one."""
    from vision.dominoes import read_dominoes

    return read_dominoes(frame_bgr, calibration)


def read_cards(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
    """The learned card reader's faces with the hand-built reader's backs
    (vision.cards.learned; docs/vision-cards-d10.md)."""
    from vision.cards.learned import read_cards_learned

    return read_cards_learned(frame_bgr, calibration)


def read_cards_hand_built(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
    """The hand-built card reader (vision.cards.read), the default before the learned one."""
    from vision.cards import read_cards

    return read_cards(frame_bgr, calibration)


def read_dice_learned(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
    """The learned d6 reader (vision.dice_net, ONNX): not yet the default, see
    docs/vision-dice-net.md for its figures. It keeps to the play area (`in_play_area`)."""
    from vision.dice_net import read_dice_net

    return in_play_area(read_dice_net(checked_frame(frame_bgr, calibration)), calibration)


def read_d10_learned(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
    """The learned d10 reader (vision.d10.net, ONNX; docs/vision-cards-d10.md)."""
    from vision.d10.net import read_d10_net

    return read_d10_net(frame_bgr, calibration)


def read_dominoes_learned(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
    """The learned domino reader (vision.dominoes.net, ONNX): not the default, see
    docs/vision-dominoes.md for its figures."""
    from vision.dominoes.net import read_dominoes_net

    return read_dominoes_net(frame_bgr, calibration)


def taught_reader(taught: Taught) -> Reader:
    """The learned d6, d10, domino or card reader with the owner's teaching (vision.teach),
    in place of the shipped reader of `taught.kind` ("dice", "d10", "dominoes" or
    "cards"). A taught d6 reader reads with the hand-built reader as the shipped one
    does (vision.dice_seen.read_dice_seen_taught). A taught d6 or d10 reader keeps to
    the play area as every reader does (`in_play`: a die whose middle lies outside it is
    not reported, one across its edge is refused). A taught domino reader is merged with the hand-built one as the
    shipped learned one is (vision.dominoes.both); a taught card reader keeps the back
    finder and the play area, as the shipped card reader does (vision.cards.learned)."""
    if taught.kind == "dominoes":  # merged with the hand-built reader, as the shipped one is (vision.dominoes.both)
        from vision.dominoes.both import read_dominoes_both
        from vision.teach_dominoes import read_taught_dominoes

        def sure(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
            return read_taught_dominoes(frame_bgr, taught, sure_tiles=True)

        def merged(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
            return read_dominoes_both(frame_bgr, calibration, sure)

        return merged
    if taught.kind == "cards":  # with the back finder, as the shipped card reader (vision.cards.learned)
        from vision.cards.learned import read_cards_learned
        from vision.teach_cards import read_taught_cards

        def faces(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
            return read_taught_cards(frame_bgr, taught, calibration)

        def cards(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
            return read_cards_learned(frame_bgr, calibration, faces)

        return cards
    if taught.kind == "dice":  # with the hand-built reader, as the shipped d6 reader (vision.dice_seen)
        from vision.dice_seen import read_dice_seen_taught

        def dice(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
            return read_dice_seen_taught(frame_bgr, taught, calibration)

        return dice
    from vision.teach import read_taught

    def read(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
        return in_play_area(read_taught(checked_frame(frame_bgr, calibration), taught), calibration)

    return read



READERS: dict[str, Reader] = {"dice": read_dice, "d10": read_d10, "dominoes": read_dominoes, "cards": read_cards}
# Readers to choose by name in place of a shipped one (`read --kinds`, `eval --dice-net`).
OTHER_READERS: dict[str, Reader] = {"dice-net": read_dice_learned, "dice-hand": read_dice_hand_built,
                                    "d10-net": read_d10_learned,
                                    "dominoes-net": read_dominoes_learned, "dominoes-hand": read_dominoes_hand_built,
                                    "cards-net": read_cards,
                                    "cards-hand": read_cards_hand_built}


def merge(reads: list[TableRead]) -> TableRead:
    """Field-by-field concatenation of partial reads."""
    fields = {f.name: tuple(item for read in reads for item in getattr(read, f.name))
              for f in dataclasses.fields(TableRead)}
    return TableRead(**fields)


def _area(box: Box) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])


def _same_object(centre_a, box_a, centre_b, box_b) -> bool:
    if inside(centre_a, box_b) or inside(centre_b, box_a):
        return True
    w = min(box_a[2], box_b[2]) - max(box_a[0], box_b[0])
    h = min(box_a[3], box_b[3]) - max(box_a[1], box_b[1])
    return w > 0 and h > 0 and w * h >= SAME_OBJECT * min(_area(box_a), _area(box_b))


@dataclass(frozen=True)
class Place:
    """Where an object lies, for telling what is on it. A die's is its box. A card or
    tile lies at any angle, and the box of a tilted one takes in bare table at its
    corners (a die there, beside a tilted card, would be dropped as part of it),
    so it lies in the largest rectangle along its long axis, about its centre, that its
    box holds, of a shape its kind comes in (ASPECTS): that is the card or tile itself
    (the box bounds the corners the reader found), or a little wider and shorter near
    45 degrees for the other card size, never outside the box. Taking one card size
    only cut the ends off the other, where the index sits that the dice reader takes
    for a die. The readers' objects carry no more of their outline than box, centre
    and angle."""

    centre: Point
    box: Box
    axis: tuple[float, float] | None = None  # unit vector along a card's or tile's long axis
    aspects: tuple[float, ...] = ()

    def holds(self, point: Point) -> bool:
        axis = self.axis
        return inside(point, self.box) and (axis is None or any(self._within(point, axis, a) for a in self.aspects))

    def _within(self, point: Point, axis: tuple[float, float], aspect: float) -> bool:
        ux, uy = axis
        dx, dy = point[0] - self.centre[0], point[1] - self.centre[1]
        half_width = self._half_width(axis, aspect)
        return abs(dx * ux + dy * uy) <= aspect * half_width and abs(dy * ux - dx * uy) <= half_width

    def _half_width(self, axis: tuple[float, float], aspect: float) -> float:
        """Half the width of the largest rectangle of this aspect along the axis about
        the centre that the box holds: its half-extents across x and y fit either side."""
        ux, uy = abs(axis[0]), abs(axis[1])
        (x, y), (x0, y0, x1, y1) = self.centre, self.box
        return min(min(x - x0, x1 - x) / (aspect * ux + uy), min(y - y0, y1 - y) / (aspect * uy + ux))


def _card_place(card: Card) -> Place:
    """Its angle is its long axis, clockwise from the frame's vertical."""
    angle = math.radians(card.angle)
    return Place(card.center, card.box, (math.sin(angle), -math.cos(angle)), ASPECTS["card"])


def _tile_place(tile: Domino) -> Place:
    """Its angle is its long axis, from the frame's x axis (y down)."""
    angle = math.radians(tile.angle)
    return Place(tile.center, tile.box, (math.cos(angle), math.sin(angle)), ASPECTS["domino"])


def _flat_places(read: TableRead) -> list[Place]:
    """Where the cards and tiles lie, read or not. A face-down or unreadable one
    carries no angle: its box and its kind's shape tell how far it is tilted, not which
    way it leans, and only the middle both ways share is surely on it. Claiming only
    that middle lets phantom dice read on a back's corners through, so such a card or
    tile claims its whole box: a die beside a tilted one, in a corner of that box, is
    still taken for part of it."""
    refused: tuple[FaceDown | Unreadable, ...] = (*read.face_down, *read.unreadable)
    return [*map(_tile_place, read.dominoes), *map(_card_place, read.cards),
            *(Place(x.center, x.box) for x in refused if x.kind in ASPECTS and x.box is not None)]


def _part_of(refusal: Unreadable, place: Place) -> bool:
    """A refusal centred on an object is of that object, unless its box is OUTSIZED
    times the object's: a whole-view refusal ("too grainy") is centred on whatever
    covers the middle of the frame and must not vanish into it, while a reader's
    refusal of another kind's piece (a d10, a tile's pips) stays well under OUTSIZED
    times that piece's box (seen on the fixtures)."""
    return place.holds(refusal.center) and not (refusal.box is not None and
                                                _area(refusal.box) > OUTSIZED * _area(place.box))


def resolve_overlaps(read: TableRead, kinds: Iterable[str] = READERS) -> TableRead:
    """Objects claimed by two readers. A domino half or a card's pips can look like a
    die face (and a pip pair like a d10's number), so a die or a d10, read or not,
    centred on a tile or a card (on the rectangle it lies in, `Place`) is part of that
    tile or card, also when the tile or card itself could not be read. A court card's
    picture can look like a tile: a tile refusal centred on a read card is part of
    the card. A d6 read and a d10 read of one object (centre in the other's box, or
    boxes sharing SAME_OBJECT of the smaller) are a d10: the d10 reader reads only
    with one sure look and none leaning elsewhere and reads no real d6 die as a d10,
    while the d6 reader takes some d10 digits for pips, even confidently. A read stands over
    the other reader's refusal (the refusal says only that it is not that reader's
    kind). No object takes in a refusal much bigger than itself (`_part_of`). A tile
    read without its divider line (`Domino.dice_alike`) could be two dice side by
    side: where the dice reader is among `kinds`, the readers that ran, it is refused
    with that doubt; at a table of tiles only it stands."""
    flat = _flat_places(read)
    if "dice" in kinds:
        doubted = [t for t in read.dominoes if t.dice_alike]
        read = dataclasses.replace(
            read, dominoes=tuple(t for t in read.dominoes if not t.dice_alike),
            unreadable=(*read.unreadable, *(Unreadable("domino", t.center, t.dice_alike, t.box)
                                            for t in doubted)))
    dice = [d for d in read.dice if not any(place.holds(d.center) for place in flat)]
    d10 = [t for t in read.d10 if not any(place.holds(t.center) for place in flat)]
    dice = [d for d in dice if not any(_same_object(d.center, d.box, t.center, t.box) for t in d10)]
    claimed = {"die": [*flat, *(Place(t.center, t.box) for t in d10)],
               "d10": [*flat, *(Place(d.center, d.box) for d in dice)],
               "domino": [*map(_card_place, read.cards)]}
    unreadable = [u for u in read.unreadable if not any(_part_of(u, place) for place in claimed.get(u.kind, ()))]
    return dataclasses.replace(read, dice=tuple(dice), d10=tuple(d10), unreadable=tuple(unreadable))


def read_table(frame_bgr: np.ndarray, calibration: Calibration | None = None,
               readers: dict[str, Reader] | None = None) -> TableRead:
    """Everything the chosen readers (all registered ones unless `readers` is given)
    see in one frame. No readers chosen reads nothing: a table whose pieces are all
    typed in, or labels holding no kind, must not have every reader run on it. A
    calibration made for frames of another size is refused here, before any reader
    runs, so that no reader reads the wrong pixels of its play area."""
    frame_bgr = checked_frame(frame_bgr, calibration)
    readers = READERS if readers is None else readers
    parts: list[TableRead] = []
    for kind, reader in readers.items():
        try:
            parts.append(reader(frame_bgr, calibration))
        except ImportError as err:  # a reader's module missing or broken: that kind alone is not read
            parts.append(TableRead(notes=(f"{kind} reader unavailable: {err}",)))
    # A grey frame is one refusal of the whole view from each reader: none of them is
    # an object that the others' refusals could be part of.
    return merge(parts) if is_grey(frame_bgr) else resolve_overlaps(merge(parts), readers)
