"""Reading one tile once it has been cut out and turned to lie flat and level.

Pips are found as small marks that stand out from the tile's own colour whichever
way (dark on ivory, white on black, coloured on ivory), measured against a local
background so broad glare and bevel shading are not marks. A half is only read when
its marks are the right size, all alike, and sit where that number's pips belong;
anything else is a reason to refuse, never a best guess.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.dominoes import ranks
from vision.dominoes.layout import MAX_PIPS, pattern_variants

S = 48  # canonical tile: S high, 2*S wide, halves side by side
MARGIN = int(0.07 * S)  # bevel and rounded corners: no pips there
DIVIDER_BAND = int(0.1 * S)
SPINNER_R = int(0.13 * S)
FLOOR = 14.0  # weakest mark (colour distance, Lab units) that can be a pip
DIVIDER_MIN = 5.0  # weakest divider: how far a line stands above its sides, in most rows
MAX_SLANT = 0.1  # steepest slant of the divider in a warped tile (pixels across per row)
SEAM_REACH = 0.6  # a middle line this strong at the edges (of its middle strength) is a seam
_LAB_UNITS = np.array([100 / 255, 1.3, 1.3], np.float32)  # 8-bit Lab to Lab, chroma weighted
_MIDDLE_ROWS = np.r_[int(0.2 * S):S // 2 - SPINNER_R, S // 2 + SPINNER_R:int(0.8 * S)]
_STRIP = np.arange(len(_MIDDLE_ROWS))  # each middle row once, for picking a place per row
_PAIRS = np.triu_indices(len(_MIDDLE_ROWS), 1)  # every two middle rows, for a line's slant
_PAIR_ROWS = _MIDDLE_ROWS[_PAIRS[1]] - _MIDDLE_ROWS[_PAIRS[0]]
_ROWS = np.arange(S)
_EDGE_ROWS = np.r_[0:3, S - 3:S]  # where a seam between dice still shows and a divider does not
_GRID = np.array([(gx, gy) for gx in (-1, 0, 1) for gy in (-1, 0, 1)], np.float32)  # pip spots
_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (21, 21))
_LINE_KERNEL = np.ones((1, 9), np.uint8)  # across a vertical line only


@dataclass(frozen=True)
class FaceRead:
    halves: tuple[int, int] | None  # None when blank or unreadable
    face_down: bool
    # Why it was refused; with halves, why two dice side by side could look the same
    # ("" when they could not).
    reason: str
    confidence: float
    divider: bool = True  # False: pips read, but no divider line was seen
    seam: bool = False  # the middle line runs out to both edges, as between two dice
    marks: int = -1  # clean pips seen (-1: unknown, or marks that are no clean pips)


# Clear marks, no divider, no pip patterns: two dice side by side look just like
# this, so it is not reported at all rather than as an unreadable tile.
NOT_A_TILE = FaceRead(None, False, "marks but no divider line: not a domino", 0.0, False)


def read_face(tile_bgr: np.ndarray) -> FaceRead:
    """Read a canonical (S x 2S) tile image."""
    marks = mark_strength(tile_bgr)
    lines = _line_marks(tile_bgr)
    by_colour, by_light = _divider_strength(marks), _divider_strength(lines)
    divider = max(by_colour, by_light)
    strongest = float(ranks.percentile(marks[_ZONE], 99.7))
    if strongest < FLOOR:
        excess = max(_divider_strength(m) - _noise_strength(m) for m in (marks, lines))
        if excess >= DIVIDER_MIN:
            # Two plain faces side by side (backs, or a pair of tiles parted the wrong
            # way) show a seam there, which runs out to both edges; a divider does not.
            seen = marks if by_colour >= by_light else lines
            return NOT_A_TILE if _reaches_the_edges(seen) else FaceRead((0, 0), False, "", 0.8)
        if excess >= DIVIDER_MIN / 2 or _blank_line(marks):
            return FaceRead(None, False, "a blank face with a trace of a divider: double "
                                         "blank or a tile's back?", 0.0)
        return FaceRead(None, True, "", 0.9)
    threshold = max(FLOOR, 0.35 * strongest)
    blobs = _blobs(marks, _ZONE, threshold)
    seam = divider >= DIVIDER_MIN and _reaches_the_edges(marks if by_colour >= by_light else lines)
    divided = divider >= DIVIDER_MIN and not seam
    if not divided and strongest < 2.5 * FLOOR and not _pip_patterns(blobs):
        return FaceRead(None, True, "", 0.6)  # a plain back under a patch of glare
    if isinstance(blobs, str):
        return FaceRead(None, False, blobs, 0.0) if divided else NOT_A_TILE
    if not blobs and not divided:
        return NOT_A_TILE  # no pips and no divider: never 0-0 (a back with glare, or not a tile)
    halves, fits, spacings = _halves(blobs)
    if halves is None and divided:
        # A pip dimmed by glare may show only a pixel or two above the threshold; at
        # half its own peak it is as big as the others. Such marks are let in only to
        # complete a pattern the clear marks alone do not form.
        faint = _blobs(marks, _ZONE, threshold, least_px=1)
        if isinstance(faint, list) and len(faint) > len(blobs) and _halves(faint)[0]:
            blobs = faint
            halves, fits, spacings = _halves(blobs)
    if halves is None:
        if not divided:
            return NOT_A_TILE
        return FaceRead(None, False, f"{fits} marks on one half in no pip pattern", 0.0,
                        marks=len(blobs))
    if blobs and _faint_pip(marks, blobs, spacings):
        return FaceRead(None, False, "a faint mark where a pip may be (worn pip or glare)", 0.0)
    if not divided and _mark_off_centre_in_the_middle(marks, threshold):
        # Marks in the middle band are left out as the divider's; with no divider to
        # centre the picture, one there may be a pip of a tile seen off-centre (its
        # outline took in a visible side), and leaving it out would be a misread.
        return FaceRead(None, False, "a mark in the middle of a tile without a divider "
                                     "line: where does the tile lie?", 0.0)
    contrast = min(1.0, strongest / (3 * FLOOR))
    confidence = min(fits) * contrast * (1.0 if divided else 0.7)
    return FaceRead((halves[0], halves[1]), False, "", round(confidence, 3), divided, seam,
                    len(blobs))


def _halves(blobs):
    """Each half's number, how tightly its marks fit its pattern and their spacing;
    or None, the number of marks on the first half in no pattern, and None."""
    halves, fits, spacings = [], [], []
    for side in (0, 1):
        centre = np.array([S * (side + 0.5), S * 0.5], np.float32)
        mine = [b for b in blobs if (b[0] >= S) == bool(side)]
        value, fit, spacing = _match(np.array(mine, np.float32).reshape(-1, 2) - centre)
        if value is None:
            return None, len(mine), None
        halves.append(value)
        fits.append(fit)
        spacings.append(spacing)
    return halves, fits, spacings


def _mark_off_centre_in_the_middle(marks: np.ndarray, threshold: float) -> bool:
    """Whether a round, pip-like mark (not a line) stands in the middle band, where
    the divider would run, away from the tile's centre (where a spinner sits)."""
    inner = np.zeros((S, 2 * S), np.uint8)
    inside = (slice(MARGIN, S - MARGIN), slice(MARGIN, 2 * S - MARGIN))
    inner[inside] = marks[inside] > threshold
    _, _, stats, centres = cv2.connectedComponentsWithStats(inner, connectivity=8)
    w, h, area = stats[1:, 2], stats[1:, 3], stats[1:, 4]
    cx, cy = centres[1:, 0], centres[1:, 1]
    return bool(np.any((np.abs(cx - S) <= 0.15 * S) & (np.abs(cy - S / 2) > SPINNER_R + 2)
                       & (area >= 4) & (np.maximum(w, h) <= 1.8 * np.minimum(w, h))))


def _pip_patterns(blobs) -> bool:
    """Whether faint marks are still pips: two or more, on both halves in their
    numbers' patterns (a small tile's pips blur faint; glare on a back is one spot)."""
    if isinstance(blobs, str) or len(blobs) < 2:
        return False
    for side in (0, 1):
        centre = np.array([S * (side + 0.5), S * 0.5], np.float32)
        mine = [b for b in blobs if (b[0] >= S) == bool(side)]
        if _match(np.array(mine, np.float32).reshape(-1, 2) - centre)[0] is None:
            return False
    return True


def mark_strength(tile_bgr: np.ndarray) -> np.ndarray:
    """How far each pixel stands out of the tile's body colour, at pip scale."""
    lab8 = cv2.cvtColor(tile_bgr, cv2.COLOR_BGR2Lab)
    body = ranks.median(lab8[MARGIN:-MARGIN:2, MARGIN:-MARGIN:2].reshape(-1, 3))
    diff = (lab8.astype(np.float32) - body.astype(np.float32)) * _LAB_UNITS
    diff *= diff
    distance = np.sqrt(diff[..., 0] + diff[..., 1] + diff[..., 2])
    # Keep only what is small: a pip or line stands out of its surroundings, a broad
    # glare or shadow does not.
    return distance - cv2.morphologyEx(distance, cv2.MORPH_OPEN, _KERNEL)


def _pip_zone() -> np.ndarray:
    zone = np.zeros((S, 2 * S), bool)
    zone[MARGIN:-MARGIN, MARGIN:-MARGIN] = True
    zone[:, S - DIVIDER_BAND:S + DIVIDER_BAND] = False
    return zone


_ZONE = _pip_zone()  # where pips may sit: the same for every tile


def _line_marks(tile_bgr: np.ndarray) -> np.ndarray:
    """Thin dark or light lines by lightness alone. A groove under glare is darker
    than the glare around it but no further from the body colour, so the colour
    marks lose it; this does not."""
    light = cv2.cvtColor(tile_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32) * (100 / 255)
    darker = cv2.morphologyEx(light, cv2.MORPH_CLOSE, _LINE_KERNEL) - light
    lighter = light - cv2.morphologyEx(light, cv2.MORPH_OPEN, _LINE_KERNEL)
    return np.maximum(darker, lighter)


def _divider_strength(marks: np.ndarray) -> float:
    """How clearly a straight line runs across the tile's middle, off the spinner."""
    return _line_strength(marks, S)


def _blank_line(marks: np.ndarray) -> bool:
    """On a face with no pips: does the middle band hold a narrow ridge that the rest
    of the face does not? (Averaged down the columns, so it holds under glare.)"""
    rows = slice(int(0.15 * S), int(0.85 * S))
    profile = marks[rows, MARGIN:2 * S - MARGIN].mean(axis=0)
    middle = profile[S - MARGIN - DIVIDER_BAND:S - MARGIN + DIVIDER_BAND]
    rest = np.r_[profile[:S - MARGIN - 2 * DIVIDER_BAND], profile[S - MARGIN + 2 * DIVIDER_BAND:]]
    return float(middle.max()) >= max(2.0, 2.0 * float(rest.max()))


def _noise_strength(marks: np.ndarray) -> float:
    """What the same line test scores where a blank face has no line: the middle of
    each half. A double blank and a plain back differ only by the divider, so the
    divider must beat this."""
    return max(0.0, _line_strength(marks, S // 2), _line_strength(marks, 3 * S // 2))


def _line_strength(marks: np.ndarray, centre: int) -> float:
    """Row by row, the strongest mark near x = centre against the marks a few pixels
    to either side; the line must show in most rows, at a steady place, so a blob of
    glare or a pip near the middle is no divider."""
    lo, hi = centre - DIVIDER_BAND - 4, centre + DIVIDER_BAND + 4
    strip = marks[_MIDDLE_ROWS, lo:hi]
    # Smooth along the line first: a faint groove is one or two pixels wide.
    smooth = cv2.blur(strip, (1, 5))
    place = smooth[:, 4:-4].argmax(axis=1) + 4
    steady = np.sort(place)
    if steady[int(0.8 * len(steady))] - steady[int(0.2 * len(steady))] > 4:
        return 0.0
    # A line is thin: it must stand above the marks a few pixels to either side of
    # it, which a broad patch of glare does not.
    beside = np.maximum(smooth[_STRIP, place - 4], smooth[_STRIP, place + 4])
    return float(ranks.median(smooth[_STRIP, place] - beside))


def top_face(tile_bgr: np.ndarray) -> tuple[float, float, float, float] | None:
    """Where the top face lies in a canonical picture whose outline took in one of the
    tile's visible sides (a dark tile's side is as dark as its top, so the outline
    cannot tell them apart): the divider sits in the middle of the top face along the
    tile and is inset equally from both long edges, so the face is the part of the
    picture centred on it. Returns (x0, y0, x1, y1) in picture pixels, or None when
    no divider is seen or the picture is centred on it already."""
    marks = _divider_marks(tile_bgr)
    if _divider_strength(marks) < DIVIDER_MIN:
        return None
    x, line = _line_rows(cv2.blur(marks, (1, 5)))  # smoothed along it: a dashed line is whole
    present = line > 0.5 * ranks.median(line[_MIDDLE_ROWS])
    top = bottom = S // 2
    while top > 0 and present[top - 1]:
        top -= 1
    while bottom < S - 1 and present[bottom + 1]:
        bottom += 1
    shift = x - S
    # A line running off the picture says nothing of where the face ends that side.
    across = S / 2 if top == 0 or bottom == S - 1 else (top + bottom) / 2
    if abs(shift) < 1.5 and abs(across - S / 2) < 1.5 or abs(shift) > 0.2 * S:
        return None
    half = min(across, S - across)
    x0, x1 = (2.0 * shift, 2.0 * S) if shift > 0 else (0.0, 2.0 * S + 2 * shift)
    return x0, across - half, x1, across + half


def _divider_marks(tile_bgr: np.ndarray) -> np.ndarray:
    """The marks (by colour or by lightness) in which the divider shows better."""
    return max((mark_strength(tile_bgr), _line_marks(tile_bgr)), key=_divider_strength)


def _line_rows(marks: np.ndarray) -> tuple[int, np.ndarray]:
    """The column of the line near the middle, and row by row how far it stands
    above the marks a few pixels to either side."""
    lo = S - DIVIDER_BAND - 4
    band = marks[:, lo:S + DIVIDER_BAND + 4]
    # Followed as a straight, perhaps slightly slanted line (a tile seen under tilt is
    # never warped quite square): a fixed column loses a slanted line towards its
    # ends. Whichever path, upright or slanted, the line shows more strongly along.
    places = band[_MIDDLE_ROWS, 4:-4].argmax(axis=1) + 4
    slope = float(np.clip(ranks.median((places[_PAIRS[1]] - places[_PAIRS[0]]) / _PAIR_ROWS),
                          -MAX_SLANT, MAX_SLANT))
    place, line = _along(band, ranks.median(places), 0.0)
    if slope:
        slanted = _along(band, ranks.median(places - slope * _MIDDLE_ROWS), slope)
        if ranks.median(slanted[1][_MIDDLE_ROWS]) > ranks.median(line[_MIDDLE_ROWS]):
            place, line = slanted
    return lo + int(place[S // 2]), line


def _along(band: np.ndarray, start: float, slope: float) -> tuple[np.ndarray, np.ndarray]:
    """Row by row, the column of the path x = start + slope * y and how far the marks
    on it stand above those a few pixels to either side."""
    place = np.clip(np.round(start + slope * _ROWS).astype(int), 4, band.shape[1] - 5)
    on = np.maximum(np.maximum(band[_ROWS, place - 1], band[_ROWS, place]), band[_ROWS, place + 1])
    return place, on - np.maximum(band[_ROWS, place - 4], band[_ROWS, place + 4])


def _reaches_the_edges(marks: np.ndarray) -> bool:
    """Whether the middle line runs out to both long edges as strongly as it shows in
    the middle: the seam between two dice side by side does, a tile's divider stops
    short of its edges. A line too faint to follow along its own path says nothing
    of where it ends."""
    _, line = _line_rows(marks)
    middle = float(ranks.median(line[_MIDDLE_ROWS]))
    edges = float(ranks.median(line[_EDGE_ROWS]))
    return middle >= DIVIDER_MIN / 2 and edges >= SEAM_REACH * middle


def _blobs(marks, zone, threshold, least_px=4):
    """Centres of pip-like marks, or a reason why the marks are not clean pips.
    A mark needs `least_px` pixels above the threshold; fewer than 4 only if it is
    pip-sized at half its own peak."""
    binary = ((marks > threshold) & zone).astype(np.uint8)
    count, labels, stats, centres = cv2.connectedComponentsWithStats(binary, connectivity=8)
    boxes, centres = stats[1:], centres[1:]
    keep = boxes[:, cv2.CC_STAT_AREA] >= least_px
    # Ends of a slightly skewed divider poke out of its band, and a loosely fitted
    # outline lets the tile's own edge into the zone as a stripe along its border;
    # no pip sits on the divider or lies flat along the edge.
    x0, y0, w, h = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    keep &= ~(((y0 <= MARGIN) | (y0 + h >= S - MARGIN)) & (w >= 2 * h))
    keep &= ~(((x0 <= MARGIN) | (x0 + w >= 2 * S - MARGIN)) & (h >= 2 * w))
    keep &= np.abs(centres[:, 0] - S) > 0.15 * S
    # A rounded corner of a loosely fitted outline shows as a speck in the corner.
    cx, cy = centres[:, 0], centres[:, 1]
    near = 0.17 * S
    keep &= ~(((cx < near) | (cx > 2 * S - near)) & ((cy < near) | (cy > S - near)))
    if not keep.any():
        return []
    boxes, centres = boxes[keep], centres[keep]
    # A pip's size is measured at half its own strength, so glare that dims some pips
    # does not make them look smaller than the rest.
    areas, peaks = np.array([_own_area(marks, labels, i, box)
                             for i, box in zip(np.flatnonzero(keep) + 1, boxes)]).T
    # Faint specks (JPEG blocks, grain) are neither pips nor reasons to refuse.
    real = (areas >= 8) | ((peaks >= 2 * FLOOR) & (boxes[:, cv2.CC_STAT_AREA] >= 4))
    # JPEG smears a brass spinner's colour into a faint halo around it.
    real &= (peaks >= 1.5 * FLOOR) | (np.hypot(centres[:, 0] - S, centres[:, 1] - S / 2) > 0.3 * S)
    if not real.any():
        return []
    areas, boxes, centres = areas[real], boxes[real], centres[real]
    if areas.max() > 0.05 * S * S:
        return "a mark far too big for a pip (glare or dirt?)"
    if areas.max() > 3.0 * areas.min():
        return "marks of very different sizes on one tile"
    sides = boxes[:, 2:4]
    if (sides.max(axis=1) > 2.2 * sides.min(axis=1)).any():
        return "an elongated mark that is no pip"
    return [tuple(c) for c in centres]


def _own_area(marks, labels, label, box) -> tuple[float, float]:
    """Area at half its own peak, and the peak. A pip dimmed by glare may have half
    its peak below the threshold that found it, so the area is grown outward from
    the peak a few pixels past the mark, not cut at the threshold."""
    x, y, w, h = box[:4]
    y0, y1, x0, x1 = max(0, y - 3), min(S, y + h + 3), max(0, x - 3), min(2 * S, x + w + 3)
    window = marks[y0:y1, x0:x1]
    own = np.where(labels[y0:y1, x0:x1] == label, window, -np.inf)
    top = int(own.argmax())
    peak = float(own.flat[top])
    above = (window >= 0.5 * peak).astype(np.uint8)
    seed = (top % window.shape[1], top // window.shape[1])
    return float(cv2.floodFill(above, None, seed, 2, flags=8)[0]), peak


def _match(points: np.ndarray) -> tuple[int | None, float, float | None]:
    """The number whose pattern these marks form, how tightly (0..1), and the pip
    spacing that fits them best."""
    n = len(points)
    if n == 0:
        return 0, 1.0, None
    if n > MAX_PIPS:
        return None, 0.0, None
    best, best_spacing = np.inf, None
    spacings = np.linspace(0.2 * S, 0.34 * S, 8, dtype=np.float32)
    for variant in pattern_variants(n):
        expected = spacings[:, None, None] * variant[None]  # spacing x pip x 2
        gap = points[None, :, None] - expected[:, None]  # spacing x mark x pip x 2
        cost = np.sqrt((gap * gap).sum(axis=-1))
        # Every mark near a pip spot, and every pip spot near a mark.
        error = np.maximum(cost.min(axis=2).max(axis=1), cost.min(axis=1).max(axis=1))
        k = int(error.argmin())
        if error[k] < best:
            best, best_spacing = float(error[k]), float(spacings[k])
    tolerance = 0.12 * S
    if best > tolerance:
        return None, 0.0, None
    # A lone pip sits at the centre whatever the spacing: it tells none.
    return n, float(1.0 - 0.5 * best / tolerance), best_spacing if n > 1 else None


def _faint_pip(marks, blobs, spacings) -> bool:
    """Whether a spot where a pip could sit, but none was counted, still holds a
    mark half as strong as the pips: a 5 that lost two corners to glare reads as a
    3, and that must be refused, not reported."""
    centres = np.array(blobs, np.float32)
    peaks = marks[np.round(centres[:, 1]).astype(int), np.round(centres[:, 0]).astype(int)]
    faint = 0.45 * float(ranks.median(peaks))
    known = [sp for sp in spacings if sp is not None]
    radius = max(2, int(0.07 * S))
    spots = np.vstack([np.array([S * (side + 0.5), S * 0.5]) +
                       _GRID * (spacing or (known[0] if known else 0.27 * S))
                       for side, spacing in enumerate(spacings)])
    gaps = np.hypot(spots[:, None, 0] - centres[None, :, 0], spots[:, None, 1] - centres[None, :, 1])
    for x, y in spots[gaps.min(axis=1) >= 0.12 * S]:
        x0, x1 = int(max(2, x - radius)), int(min(2 * S - 2, x + radius + 1))
        y0, y1 = int(max(2, y - radius)), int(min(S - 2, y + radius + 1))
        if abs(x - S) < DIVIDER_BAND + radius or x1 <= x0 or y1 <= y0:
            continue
        if marks[y0:y1, x0:x1].max() >= faint:
            return True
    return False
