"""From a frame to the tiles on the table: outline, cut out, read, then check the set.

A double-six set holds every tile once, so two reads of the same tile mean at least
one of them is wrong; both are refused (reason "duplicate tile a-b ...") rather than
one being picked, and the round driver sees two Unreadable tiles and asks again.
"""

from __future__ import annotations

import dataclasses
import math
from collections import defaultdict

import cv2
import numpy as np

from table.reads import Domino, FaceDown, TableRead, Unreadable
from vision.calibration import checked_frame, in_play
from vision.colour import grey_refusal
from vision.dominoes import face, pairs, segment
from vision.dominoes.layout import tile_key
from vision.resized_read import look_factor

SMALL_TILE = 36.0  # tiles whose short side is less (median, in pixels) there are read again
READABLE_TILE = 48.0  # at a size that makes them this wide
MOST_ENLARGED = 2.0  # ...enlarging a frame at most this much (its pixels hold no more detail)
TINY_TILE = 28.0  # ...but only tiles narrower than this if that means enlarging it
TILE_ASPECT = (1.65, 2.4)
MIN_FILL = 0.84
LOOSE_ASPECT = (1.4, 2.8)  # before tightening: a shadow or fringe may still cling on
LOOSE_FILL = 0.7
NO_SEAM = "two tiles side by side without a visible seam: cannot tell which way they lie"
NOTCH = 0.03  # a blob's hull fills its rectangle this much more: a second look (read_blob)
CRISP_OUTLINE = 0.3  # share of an unread outline that edge lines must run along
_CANONICAL = np.array([[0, 0], [2 * face.S, 0], [2 * face.S, face.S], [0, face.S]], np.float32)


def read_dominoes(frame_bgr: np.ndarray, calibration=None) -> TableRead:
    """Every domino tile in the frame (or in calibration's play area; a calibration
    made for frames of another size is a FrameMismatch, its play area would lie
    elsewhere).

    Frames are read at 640 pixels (vision.resized_read.look_factor: tiles are
    usually far above MIN_SHORT_PX there, and it keeps the time down); when the
    tiles found there are small, the frame is read again at a size where they are not: the frame itself when it has
    the pixels (pips and divider of a small tile blur together when a big photo is
    shrunk), or enlarged, since the pixel constants were set on bigger tiles and small
    tiles read without enlarging are often missed (docs/vision-dominoes.md).

    Tiles are looked for a little past the play area's edge (Calibration.mask(past_edge)),
    so that a tile lying across it is seen whole and refused, as the d6 reader refuses
    a die there: cut off at the edge, the part inside could be read as another tile
    (half a 5-6 as a 1-1)."""
    frame_bgr = checked_frame(frame_bgr, calibration)
    if (refusal := grey_refusal(frame_bgr, "domino", "domino tiles")) is not None:
        return refusal
    scale = look_factor(frame_bgr.shape)
    found = _read_scaled(frame_bgr, calibration, scale)
    sizes = [_short_side(c) for c, read in found if read.halves or read.face_down]
    typical = float(np.median(sizes)) if sizes else None
    if typical is not None and typical < SMALL_TILE and (scale < 1.0 or typical < TINY_TILE):
        scale = min(MOST_ENLARGED if typical < TINY_TILE else 1.0, scale * READABLE_TILE / typical)
        found = _read_scaled(frame_bgr, calibration, scale)
    return _as_table_read(found, 1.0 / scale, calibration)


def _read_scaled(frame_bgr, calibration, scale: float) -> list:
    """(corners, FaceRead) for every tile-like blob, in pixels of the frame resized
    by `scale`."""
    work = frame_bgr if scale == 1.0 else cv2.resize(
        frame_bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    area = seen = None
    if calibration is not None:
        area, seen = (calibration.mask(frame_bgr.shape, past_edge) for past_edge in (False, True))
        if scale != 1.0:
            area, seen = (cv2.resize(m, (work.shape[1], work.shape[0]), interpolation=cv2.INTER_NEAREST)
                          for m in (area, seen))
    fg = segment.foreground(work, area, seen)
    die_px = None if calibration is None or calibration.die_px is None \
        else calibration.die_px * scale
    found: list = []
    squares = []
    for outline in segment.outlines(work, fg):
        if 0.8 <= outline.aspect <= 1.25:
            # A pair's refusal from specks would say nothing. A ragged square may
            # hold the pair's parts (segment.necked_parts, parts_beside_faces): read when it is
            # no pair's outline, or when the pair it outlines reads no tile.
            square = [] if outline.whole else [dataclasses.replace(tight, necked=outline.necked)
                                                for tight in _tight_square(work, outline)]
            squares.extend(square)
            found.extend([] if square else _read_parts(work, outline, die_px))
        else:
            found.extend(read_blob(work, outline, die_px))
    halves_found, squares = pairs.halves_of_tiles(squares)
    for rect, fill in halves_found:
        found.extend(_read_tight(work, rect, fill))
    # Some readings need company: tiles of the same size read in full in this very
    # frame. A square blob is two tiles side by side only then (a die is square too),
    # and pips without a divider line only then (two dice side by side show that), as
    # two dice are about two thirds the length of a tile.
    sizes = [_short_side(c) for c, read in found if read.divider and (read.halves or
                                                                       read.face_down)]
    typical = float(np.median(sizes)) if sizes else None
    found = [(c, read if read.divider or _near(_short_side(c), typical) else _undivided(read))
             for c, read in found]
    for outline in squares:
        if _near(outline.short / 2, typical):
            pair = _read_square(work, outline.rect)
            read = any(reading.halves is not None for _, reading in pair)
            found.extend(pair if read else _read_parts(work, outline, die_px) or pair)
    # A back, or a pair without a seam, shows no marks to prove it is a tile: it must
    # at least have a crisp outline, which a tile-shaped patch of blotchy or unevenly
    # lit table has not.
    return [(c, read) for c, read in found
            if not (read.face_down or read.reason == NO_SEAM) or _crisp(work, c)]


def _crisp(frame, corners) -> bool:
    """Whether edge lines run along most of the outline (a tile's edge, its shadow)."""
    h, w = frame.shape[:2]
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)) - 4, 0).astype(int)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0)) + 5, [w, h]).astype(int)
    grey = cv2.GaussianBlur(cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY), (5, 5), 1.0)
    near = cv2.dilate(cv2.Canny(grey, 20, 50), np.ones((5, 5), np.uint8))
    steps = np.linspace(0, 1, 20, endpoint=False)[:, None]
    points = np.vstack([a + (b - a) * steps for a, b in zip(corners, np.roll(corners, -1, axis=0))])
    points = np.clip(np.round(points - [x0, y0]).astype(int), 0, [x1 - x0 - 1, y1 - y0 - 1])
    return float((near[points[:, 1], points[:, 0]] > 0).mean()) >= CRISP_OUTLINE


def _undivided(read: face.FaceRead) -> face.FaceRead:
    """A reading with pips in tile patterns but no divider and no company: a tile
    whose divider is lost (worn, glare, blur) or two dice side by side. Only the
    caller knows whether dice can be on the table, so the read carries the doubt
    (`Domino.dice_alike`) and `vision.read.read_table` settles it; with a blank half
    there is no doubt (a die has no blank face). Not reported at all: a middle line
    running out to both edges (the seam between two dice; a divider stops short),
    and a blank face without a divider (a back, or table)."""
    if read.halves is None or read.halves == (0, 0) or read.seam:
        return face.NOT_A_TILE
    a, b = read.halves
    if 0 in read.halves:
        return read  # a die has no blank face: no two dice look like this
    return dataclasses.replace(read, reason=f"pips {a} and {b} but no divider line: one "
                                            "tile or two dice side by side?")


def _short_side(corners) -> float:
    return float(np.linalg.norm(corners[2] - corners[1]))


def _near(size: float, typical: float | None) -> bool:
    return typical is not None and abs(size / typical - 1) < 0.2


def read_blob(frame, outline: segment.Outline, die_px):
    """Results for one blob that is not square. Glare on a black tile can look like
    the table and cut a notch into its blob, edge lines can cut a small tile into
    specks (then the whole blob is taken), and two tiles touching corner to corner
    make one ragged blob: such a blob gets a second look with its convex hull's
    fill, and then at the parts of it a narrow neck joins, but the blob no longer
    proves a tile's shape (two dice touching corner to corner fill their hull as
    well), so only a tile read in full, pips and divider, counts from the hull, and
    only tiles read with their pips from the parts."""
    first = [] if outline.whole else _read_outline(frame, outline, die_px)
    if any(read.halves or read.face_down for _, read in first) or \
            not outline.whole and outline.hull < outline.fill + NOTCH and not outline.necked:
        return first
    hulled = dataclasses.replace(outline, fill=max(outline.fill, outline.hull))
    full = [(corners, read) for corners, read in _read_outline(frame, hulled, die_px)
            if read.halves is not None and read.divider]
    return full or _read_parts(frame, outline, die_px) or first


def _read_parts(frame, outline: segment.Outline, die_px):
    """Tiles read with their pips in the parts of a ragged blob (`Outline.necked`):
    each part has a tile's shape of its own (a die's part is square)."""
    return [(corners, read) for part in outline.necked
            for corners, read in _read_outline(frame, part, die_px) if read.halves is not None]


def _read_outline(frame, outline: segment.Outline, die_px):
    """Results (as tuples) for one blob: none when it is plainly not a tile."""
    if outline.fill < segment.RAGGED_FILL or outline.short < segment.MIN_SHORT_PX:
        return []
    if die_px is not None and outline.short < 1.1 * die_px:
        return []  # die-sized: the dice reader's business
    aspect = outline.aspect
    if LOOSE_ASPECT[0] <= aspect <= LOOSE_ASPECT[1] and outline.fill >= LOOSE_FILL:
        return _read_tight(frame, outline.rect, outline.fill)
    if LOOSE_ASPECT[1] < aspect <= 2 * TILE_ASPECT[1]:
        # Two tiles end to end; short of 4:1 only when their shadows, or one lying a
        # little askew of the other, widen the blob: then their bodies must show it.
        rect, fill = _tightest(frame, outline, aspect) if aspect >= 2 * TILE_ASPECT[0] \
            else segment.tighten(frame, outline.rect, aspect=2 * TILE_ASPECT[0])[:2]
        w, h = rect[1]
        if fill < MIN_FILL or not 2 * TILE_ASPECT[0] <= max(w, h) / max(min(w, h), 1e-6):
            # The bodies did not show as one 4:1 rectangle (both tiles' visible sides
            # and shadows widen the blob): a well-filled blob is parted as it is, and
            # each part is tightened on its own.
            if outline.fill < MIN_FILL:
                return []
            rect, fill = outline.rect, outline.fill
        halves = pairs.split_end_to_end(frame, _corners(rect))
        readings = [r for half in halves for r in _read_tight(frame, half, fill)]
        # A long plain strip (a tray's wall) parts into two "backs": a pair is only
        # taken for tiles when one of them shows a face.
        return readings if any(read.halves for _, read in readings) else []
    return []


def _tightest(frame, outline: segment.Outline, aspect: float):
    """The blob's rectangle and fill, or its body's when a clinging shadow or a
    tile's visible side has made the blob itself look ragged."""
    if outline.fill >= MIN_FILL:
        return outline.rect, outline.fill
    tight, fill, _ = segment.tighten(frame, outline.rect, aspect=aspect)
    return (tight, fill) if fill > outline.fill else (outline.rect, outline.fill)


def _tight_square(frame, outline: segment.Outline) -> list[segment.Outline]:
    """The blob as a square outline, if it is one once tightened."""
    if outline.fill < segment.RAGGED_FILL or outline.short < segment.MIN_SHORT_PX:
        return []
    # The bodies' square when it can be told (its size is what is compared with the
    # tiles read in full; the blob may hold their sides and shadows), else the blob's
    # (which, ragged, fails as the bodies' square did: no second tightening is due).
    for rect, fill in (segment.tighten(frame, outline.rect, aspect=1.0)[:2],
                       (outline.rect, outline.fill)):
        w, h = rect[1]
        if fill >= MIN_FILL and max(w, h) / max(min(w, h), 1e-6) <= 1.25:
            return [segment.Outline(rect, fill * w * h, fill)]
    return []


def _read_tight(frame, rect, fill):
    """Read a rectangle once it hugs the tile's body; nothing if it is no tile shape.

    The tightened outline is tried first, but glare can make part of a tile look
    unlike its body and cut the tightened outline short: then the blob's own
    outline, if it has a tile's shape, gets its turn."""
    tight, tight_fill, quad = segment.tighten(frame, rect)
    first = None
    for candidate, candidate_fill, corners in ((tight, tight_fill, quad),
                                               (rect, fill, cv2.boxPoints(rect))):
        w, h = candidate[1]
        aspect = max(w, h) / max(min(w, h), 1e-6)
        if candidate_fill < MIN_FILL or not TILE_ASPECT[0] <= aspect <= TILE_ASPECT[1] \
                or min(w, h) < segment.MIN_SHORT_PX:
            continue
        reading = _read_quad(frame, _long_side_first(corners.astype(np.float32)))
        if reading[1].halves is None and not reading[1].face_down and reading[1].divider:
            reading = _read_top_face(frame, reading)
        if reading[1].halves is not None or reading[1].face_down:
            return [reading]
        first = first or reading
    return [first] if first else []


def _read_top_face(frame, reading):
    """A second look at a tile whose pips fell off their pattern, in the part of its
    outline centred on its divider (the outline may have taken in a visible side).
    The first reading stands unless this one is read in full, divider and all."""
    corners, _ = reading
    m = cv2.getPerspectiveTransform(corners, _CANONICAL)
    box = face.top_face(cv2.warpPerspective(frame, m, (2 * face.S, face.S), flags=cv2.INTER_AREA,
                                            borderMode=cv2.BORDER_REPLICATE))
    if box is None:
        return reading
    x0, y0, x1, y1 = box
    inner = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float32)
    second = _read_quad(frame, cv2.perspectiveTransform(inner, np.linalg.inv(m))[0])
    # Only a refusal for clean pips off their pattern gets it, and every pip seen at
    # first must be read again (more may show once a corner is no longer cut off):
    # cutting a pip away would be a misread.
    read = second[1]
    return second if read.halves is not None and read.divider and \
        0 <= reading[1].marks <= sum(read.halves) else reading


def _corners(rect) -> np.ndarray:
    return _long_side_first(cv2.boxPoints(rect).astype(np.float32))


def _read_quad(frame, corners):
    m = cv2.getPerspectiveTransform(corners, _CANONICAL)
    tile = cv2.warpPerspective(frame, m, (2 * face.S, face.S), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)
    return corners, face.read_face(tile)


def _long_side_first(pts: np.ndarray) -> np.ndarray:
    """Corners (in cyclic order) rolled so corner 0 -> 1 runs along a long side."""
    if np.linalg.norm(pts[1] - pts[0]) < np.linalg.norm(pts[2] - pts[1]):
        pts = np.roll(pts, -1, axis=0)
    return pts


def _read_square(frame, rect):
    """Two tiles side by side, parted along their seam, or refused if it is not seen.

    Each way of parting is read, the one along the clearer line first, and the first
    stands in which a part read with pips shows a divider of its own and none shows a
    seam: parted the wrong way (along the dividers), each part is half of each tile
    and its middle line is the true seam, which runs out to its edges (a faint
    divider may not show on one of two tiles rightly parted; company is there, as
    for every square). Two parts with no pips (two backs) show no divider either
    way; they are parted only along a line that reaches the edges clearly and twice
    as clearly as the other."""
    # `rect` is usually tightened already (_tight_square); tightening it once more
    # moves it by a few pixels onto the pair's bodies, which some touching pairs need
    # to be parted at all (seen on rendered tiles).
    tight, fill, _ = segment.tighten(frame, rect, aspect=1.0)
    if fill >= MIN_FILL and 0.85 <= tight[1][0] / max(tight[1][1], 1e-6) <= 1.18:
        rect = tight
    (clearest, first), (other, second) = pairs.side_by_side_ways(frame, _corners(rect))
    readings = []
    for halves in (first, second):
        parts = [r for half in halves for r in _read_tight(frame, half, 1.0)]
        faces = [read for _, read in parts if read.halves is not None]
        if any(read.divider for read in faces) and not any(read.seam for read in faces):
            return parts
        readings.append(parts)
    if clearest >= face.DIVIDER_MIN and clearest >= 1.5 * max(other, 0.0) and \
            not any(read.halves is not None for _, read in readings[0]):
        return readings[0]
    return [(cv2.boxPoints(rect).astype(np.float32), face.FaceRead(None, False, NO_SEAM, 0.0))]


def _as_table_read(found, back: float, calibration) -> TableRead:
    dominoes: list[Domino] = []
    face_down: list[FaceDown] = []
    unreadable: list[Unreadable] = []
    for corners, read in found:
        if read == face.NOT_A_TILE:
            continue
        corners = corners * back
        cx, cy = corners.mean(axis=0)
        (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
        centre = (float(cx), float(cy))
        box = (float(x0), float(y0), float(x1), float(y1))
        tile: Domino | FaceDown | Unreadable
        if read.face_down:
            tile = FaceDown("domino", centre, box)
        elif read.halves is None:
            tile = Unreadable("domino", centre, read.reason, box)
        else:
            halves, angle = _reading_order(read.halves, corners)
            tile = Domino(halves, centre, box, angle, read.confidence, read.reason)
        # Judged by the tile's own corners, not its box's: a tile lies at any angle, and
        # the corners of a turned tile's box stand well off it.
        placed = in_play(calibration, tile, corners, "domino", "tile")
        if isinstance(placed, Domino):
            dominoes.append(placed)
        elif isinstance(placed, FaceDown):
            face_down.append(placed)
        elif isinstance(placed, Unreadable):
            unreadable.append(placed)
    return TableRead(dominoes=tuple(_refuse_duplicates(dominoes, unreadable)),
                     face_down=tuple(face_down), unreadable=tuple(unreadable))


def _reading_order(halves, corners):
    """halves[0] is the left end (top end when upright); angle in (-90, 90] degrees."""
    dx, dy = corners[1] - corners[0]
    angle = math.degrees(math.atan2(dy, dx))
    if -90 < angle <= 90:
        return halves, round(angle, 1)
    return (halves[1], halves[0]), round(angle + (180 if angle <= -90 else -180), 1)


def _refuse_duplicates(dominoes, unreadable):
    by_tile = defaultdict(list)
    for d in dominoes:
        by_tile[tile_key(d.halves)].append(d)
    kept = []
    for (a, b), reads in by_tile.items():
        if len(reads) == 1:
            kept.extend(reads)
            continue
        for d in reads:
            unreadable.append(Unreadable("domino", d.center,
                                         f"duplicate tile {a}-{b}: read {len(reads)} times", d.box))
    return kept
