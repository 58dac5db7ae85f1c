"""read_cards: every card on the table, read from its corner index, or counted face down,
or reported unreadable with the reason. Nothing is guessed."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from table.reads import Card, FaceDown, TableRead, Unreadable
from vision.calibration import Calibration, checked_frame, in_play
from vision.cards import fan, index
from vision.cards.backs import find_borderless_backs
from vision.cards.find import Region, find_card_regions, holds
from vision.cards.white_stock import neutral
from vision.cards.working_size import NEAR_ONE, TARGET, working_factor
from vision.colour import grey_refusal, is_grey
from vision.resized_read import look_factor, read_in_frame, shrunk

# How far past the play area's edge cards are looked for, in pixels of the frame read:
# a card's length at the working size, more than half the diagonal of the longest card
# read at that size (1.35 TARGET), so that a card whose middle is inside is seen whole
# and one whose middle is outside is seen to be. The dice's band (calibration.PAST_EDGE,
# 80 px at 640x640) cut such cards off, and the piece seen could have its middle inside.
PAST_EDGE_PX = TARGET


def _upright_corners(rect: tuple) -> np.ndarray:
    """minAreaRect corners ordered so the first edge is a short side: warping them to a
    W x H card puts the long side vertical (either way up, which the reader handles)."""
    pts = cv2.boxPoints(rect).astype(np.float32)
    if np.linalg.norm(pts[1] - pts[0]) > np.linalg.norm(pts[2] - pts[1]):
        pts = np.roll(pts, -1, axis=0)
    return pts


def _angle(corners: np.ndarray) -> float:
    """Degrees the card's long axis is turned clockwise from the frame's vertical, 0-180:
    a printed card reads the same either way up, so which end is "up" means nothing."""
    top = (corners[0] + corners[1]) / 2
    bottom = (corners[2] + corners[3]) / 2
    dx, dy = top - bottom
    return float(np.degrees(np.arctan2(dx, -dy)) % 180)


def _box(points: np.ndarray) -> tuple[float, float, float, float]:
    x0, y0 = points.min(axis=0)
    x1, y1 = points.max(axis=0)
    return (float(x0), float(y0), float(x1), float(y1))


def _suit(index_suits: list[str | None], pip_suit: str | None) -> str | None:
    """The big pips decide, and the small index symbols may only agree. Without pips (court
    cards) no suit is named: two index symbols can agree on the wrong suit too often (a
    blurred small heart looks like a diamond; docs/tried/cards.md)."""
    return pip_suit if pip_suit is not None and set(index_suits) - {None} <= {pip_suit} else None


def upright_card(frame_bgr: np.ndarray, region: Region) -> np.ndarray:
    """The card cut out and warped to index.W x index.H, long side vertical."""
    target = np.array([[0, 0], [index.W, 0], [index.W, index.H]], np.float32)
    transform = cv2.getAffineTransform(_upright_corners(region.rect)[:3], target)  # a rotated rectangle: affine is exact
    return cv2.warpAffine(frame_bgr, transform, (index.W, index.H))


def read_lone_card(frame_bgr: np.ndarray, region: Region) -> Card | FaceDown | Unreadable:
    corners = _upright_corners(region.rect)
    card = upright_card(frame_bgr, region)
    centre = (float(region.rect[0][0]), float(region.rect[0][1]))
    box = _box(corners)
    white = index.card_white(card)
    if index.looks_face_down(card, white):
        return FaceDown("card", centre, box)
    ink = index.ink_mask(card)
    glyph_ink = index.index_ink(card)
    reads = [index.read_corner(card, glyph_ink), index.read_corner(card[::-1, ::-1], glyph_ink[::-1, ::-1])]
    pips = index.find_pips(card, ink)
    rank, score, reason = index.decide_rank(reads, index.middle_allows(card, ink, pips))
    if rank is None:
        return Unreadable("card", centre, reason, box)
    suit = None if rank in ("J", "Q", "K") else _suit([r.suit for r in reads], index.pip_suit(pips))
    both = all(r.ranks for r in reads)
    confidence = min(1.0, score) * (1.0 if both else 0.8)
    return Card(rank, suit, centre, box, _angle(corners), round(confidence, 3))


def _outlines_but(region: Region, regions: list[Region]) -> list[np.ndarray]:
    return [r.contour for r in regions if r is not region]


def read_cards(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
    """Cards, face-down cards and unreadable cards in a BGR frame (inside the play area
    when a vision.calibration.Calibration is given; one made for frames of another
    size is a FrameMismatch, its play area would lie elsewhere), read at the working size
    (vision.cards.working_size): the lone cards are measured on a copy at most 640
    pixels long, and that copy is read, with the regions the measuring found, when its
    cards are of the size the reader was set on; otherwise the frame is resized so
    they are.

    Cards are looked for a card's length past the play area's edge (PAST_EDGE_PX), so
    that a card lying across it is seen whole and refused, as the d6 reader refuses a
    die there: cut off at the edge, such a card could be read from its part inside,
    counted face down or missed without a word, or reported though its middle lay
    outside. A lamp's colour cast is taken out first (vision.cards.white_stock):
    card stock is found by being white."""
    frame_bgr = checked_frame(frame_bgr, calibration, min_side=32)
    if (refusal := grey_refusal(frame_bgr, "card", "cards")) is not None:
        return refusal
    look = _working_look(frame_bgr, calibration)
    read = refuse_two_faced(_read(look.frame, look.calibration, look.area, look.singles, look.blobs))
    return look.in_source(read)


@dataclass(frozen=True)
class _Look:
    """The frame as the hand-built reader reads it: at the working size, with the card
    regions found there."""

    source: np.ndarray
    frame: np.ndarray
    calibration: Calibration | None
    area: np.ndarray | None
    singles: list[Region]
    blobs: list[Region]

    def in_source(self, read: TableRead) -> TableRead:
        return read if self.frame is self.source else read_in_frame(read, self.frame.shape, self.source.shape)


def _working_look(frame_bgr: np.ndarray, calibration: Calibration | None) -> _Look:
    source = neutral(frame_bgr)
    shrink = look_factor(source.shape)
    frame, frame_calibration = shrunk(source, calibration, shrink)
    area = _area(frame, frame_calibration)
    singles, blobs = find_card_regions(frame, area)
    factor = shrink * working_factor(_long_sides(singles, frame_calibration))
    if factor != shrink:
        frame, frame_calibration = shrunk(source, calibration, 1.0 if abs(factor - 1) < NEAR_ONE else factor)
        area = _area(frame, frame_calibration)
        singles, blobs = find_card_regions(frame, area)
    return _Look(source, frame, frame_calibration, area, singles, blobs)


def read_backs(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
    """The face-down cards alone, found as read_cards finds them (a lone card region
    that looks face down, and full-bleed backs outside the regions read), without the
    hands' fan reading: the learned card reader reads the faces and finds no backs. A
    grey frame holds no back found (read_cards refuses it)."""
    frame_bgr = checked_frame(frame_bgr, calibration, min_side=32)
    if is_grey(frame_bgr):
        return TableRead()
    look = _working_look(frame_bgr, calibration)
    face_down: list[tuple[FaceDown | Unreadable, np.ndarray]] = []
    for region in look.singles:
        card = upright_card(look.frame, region)
        if index.looks_face_down(card, index.card_white(card)):
            corners = _upright_corners(region.rect)
            face_down.append((FaceDown("card", (float(region.rect[0][0]), float(region.rect[0][1])), _box(corners)),
                              cv2.boxPoints(region.rect)))
    for back in find_borderless_backs(look.frame, look.area, look.singles + look.blobs):
        corners = cv2.boxPoints(back.rect)
        face_down.append((FaceDown("card", (float(back.rect[0][0]), float(back.rect[0][1])), _box(corners)), corners))
    seen = [in_play(look.calibration, found, corners, "card", "card") for found, corners in face_down]
    return look.in_source(TableRead(face_down=tuple(f for f in seen if isinstance(f, FaceDown)),
                                    unreadable=tuple(f for f in seen if isinstance(f, Unreadable))))


TWO_FACED = 0.08  # reads this close, as a share of the larger box's long side, are of one card


def refuse_two_faced(read: TableRead) -> TableRead:
    """Two reads of one rank whose centres lie within TWO_FACED of a card's length of
    each other but whose suits differ are one card read two ways (in a fan, an index
    taken with the suit of the card beside it): both are refused, the card is not
    counted twice, and the table is asked to show it again. TWO_FACED lies between how
    close such a pair lies on rendered fans and how close two real cards of one rank
    side by side come."""
    cards = list(read.cards)
    doubted: set[int] = set()
    for i, a in enumerate(cards):
        for j in range(i):
            b = cards[j]
            reach = TWO_FACED * max(a.box[2] - a.box[0], a.box[3] - a.box[1], b.box[2] - b.box[0], b.box[3] - b.box[1])
            near = math.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]) < reach
            if near and a.rank == b.rank and a.suit and b.suit and a.suit != b.suit:
                doubted |= {i, j}
    if not doubted:
        return read
    refused = tuple(Unreadable("card", cards[k].center, f"read both as {cards[k].rank}{cards[k].suit} and as another "
                                                         "suit: show the card again", cards[k].box) for k in sorted(doubted))
    kept = tuple(card for k, card in enumerate(cards) if k not in doubted)
    return dataclasses.replace(read, cards=kept, unreadable=read.unreadable + refused)


def same_card(region: Region, card: Card, corners: np.ndarray) -> bool:
    """A lone region and a card the fan reader read are one card when either holds the
    other's centre: the region may be only the part of the card at one brightness (its
    centre then lies inside the card the fan reader outlined from both its indices)."""
    centre = tuple(float(v) for v in region.rect[0])
    return (cv2.pointPolygonTest(cv2.convexHull(region.contour), card.center, False) >= 0
            or cv2.pointPolygonTest(corners.astype(np.float32).reshape(-1, 1, 2), centre, False) >= 0)


def _area(frame_bgr: np.ndarray, calibration: Calibration | None) -> np.ndarray | None:
    return calibration.mask(frame_bgr.shape, past_edge=True, reach=PAST_EDGE_PX) if calibration is not None else None


def _long_sides(singles: list[Region], calibration: Calibration | None) -> list[float]:
    """The lone cards' lengths to measure the frame by: those whose middle is in the play
    area, as the band past its edge may cut a card outside short, and one such short card
    can get the frame enlarged for nothing and a hand inside lost."""
    return [max(r.rect[1]) for r in singles if calibration is None or calibration.contains(r.rect[0])]


def _read(frame_bgr: np.ndarray, calibration: Calibration | None, area: np.ndarray | None,
          singles: list[Region], blobs: list[Region]) -> TableRead:
    # Each read is kept with its card's corners (in a hand, as estimated from the index),
    # by which the play area's edge is judged once all are read.
    cards: list[tuple[Card, np.ndarray]] = []
    in_hands: list[tuple[Card, np.ndarray]] = []  # read by fan.read_fan, angles 0-360 until merged
    face_down: list[tuple[FaceDown, np.ndarray]] = []
    unreadable: list[tuple[Unreadable, np.ndarray]] = []
    in_blob = [[s for s in singles if holds(b, s)] for b in blobs]
    read_alone: dict[int, Card | FaceDown | Unreadable] = {}
    for region in singles:
        found = read_lone_card(frame_bgr, region)
        read_alone[id(region)] = found
        if isinstance(found, Unreadable) and not any(any(s is region for s in inside) for inside in in_blob):
            spread, doubtful = fan.read_fan(frame_bgr, region, others=_outlines_but(region, singles + blobs))
            if len(fan.merge_both_ends([card for card, _ in spread])) > 1:  # a neat overlapping spread can pass for one card
                in_hands.extend(spread)
                unreadable.extend(doubtful)
                continue
        corners = cv2.boxPoints(region.rect)
        if isinstance(found, Card):
            cards.append((found, corners))
        elif isinstance(found, FaceDown):
            face_down.append((found, corners))
        else:
            unreadable.append((found, corners))
    for region, inside in zip(blobs, in_blob):
        # Lone cards read (or counted) inside a hand are its top cards: their indices are not read again.
        top = [s for s in inside if not isinstance(read_alone[id(s)], Unreadable)]
        size = (max(top[0].rect[1]), min(top[0].rect[1])) if top else None
        fan_cards, fan_unreadable = fan.read_fan(frame_bgr, region, [cv2.boxPoints(s.rect) for s in top], size,
                                                 _outlines_but(region, [s for s in singles if not any(s is i for i in inside)] + blobs))
        in_hands.extend(fan_cards)
        unreadable.extend(fan_unreadable)
        for s in inside:  # a top card the fan reader did read is no longer unreadable
            found = read_alone[id(s)]
            if isinstance(found, Unreadable) and any(same_card(s, c, corners) for c, corners in fan_cards):
                unreadable = [(u, corners) for u, corners in unreadable if u is not found]
    cards += [(replace(c, angle=c.angle % 180), corners) for c, corners in fan.merge_outlined(in_hands)]
    # A full-bleed back's pale print may be cut out as a small "card" the index reader
    # refuses: such a piece does not hide the back, and is no card of its own.
    read_regions = [s for s in singles if not isinstance(read_alone[id(s)], Unreadable)]
    for back in find_borderless_backs(frame_bgr, area, read_regions + blobs):
        corners = cv2.boxPoints(back.rect)
        face_down.append((FaceDown("card", (float(back.rect[0][0]), float(back.rect[0][1])), _box(corners)), corners))
        hull = cv2.convexHull(back.contour)
        unreadable = [(u, c) for u, c in unreadable if cv2.pointPolygonTest(hull, u.center, False) < 0]
    # Judged by each card's own corners: a turned card's box stands off it, and in a hand
    # the card is known only as estimated from its index.
    seen = [in_play(calibration, found, corners, "card", "card") for found, corners in cards + face_down + unreadable]
    return TableRead(cards=tuple(f for f in seen if isinstance(f, Card)),
                     face_down=tuple(f for f in seen if isinstance(f, FaceDown)),
                     unreadable=tuple(f for f in seen if isinstance(f, Unreadable)))
