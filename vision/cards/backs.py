"""Full-bleed card backs: a pattern or plain colour printed to the card's edge, with no
white frame for find.py's brightness cuts to catch. What is left to go by is the outline
where the back's colour meets the table's, so such a back is found as a region closed
in by colour edges, after smoothing away the fine print, that is a card-proportioned
rectangle, differs from the table round it and holds no white stock (an index or pips
would need white)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.components import components_with_stats
from vision.cards.find import BRIDGE, POKER, Region, holds, whiteness

SMOOTH_SIGMA = 2.0  # half-resolution pixels: washes out a back's printed lattice, keeps its outline
EDGE_LOW, EDGE_HIGH = 12, 30  # Canny thresholds on each smoothed Lab channel
MIN_FILL = 0.9  # region / its rotated rectangle: rounded corners and blur cost a little
ASPECTS = (POKER * 0.95, BRIDGE * 1.08)  # camera tilt stretches a card a little; 2:1 domino tiles stay out
MIN_CONTRAST = 18.0  # Lab distance between the back's median colour and the table's round it
WHITE, MAX_WHITE_SHARE = 150, 0.02  # find.whiteness of card stock; a face-up card is mostly stock, a back none
MARGIN = 6  # half-resolution pixels round a component: room for its table ring
SIZE_SPREAD = 1.6  # a back's long side against the other cards', either way: renders vary card size by 1.4, tilt adds more


def find_borderless_backs(frame_bgr: np.ndarray, area_mask: np.ndarray | None,
                          known: list[Region]) -> list[Region]:
    """Regions (full-resolution coordinates) of full-bleed backs not inside any `known`
    region. With cards known, a back must be about their size; without, a plausible card
    size for the frame."""
    small = cv2.resize(frame_bgr, (frame_bgr.shape[1] // 2, frame_bgr.shape[0] // 2), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (0, 0), SMOOTH_SIGMA), cv2.COLOR_BGR2Lab)
    edges = np.zeros(small.shape[:2], np.uint8)
    for channel in cv2.split(lab):
        edges |= cv2.Canny(channel, EDGE_LOW, EDGE_HIGH)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    inside = (edges == 0).astype(np.uint8)
    if area_mask is not None:
        inside &= cv2.resize(area_mask, inside.shape[::-1], interpolation=cv2.INTER_NEAREST) > 0
    count, labels, stats, _ = components_with_stats(inside)
    rows, cols = inside.shape
    total = rows * cols
    long_sides = [max(r.rect[1]) / 2 for r in known if _card_shaped(r.rect)]
    white = whiteness(small)
    found = []
    for k in range(1, count):
        x, y, w, h, area = stats[k]
        if area < total * 0.008 or area > total * 0.12 or x == 0 or y == 0 or x + w == cols or y + h == rows:
            continue
        x0, y0, x1, y1 = max(0, x - MARGIN), max(0, y - MARGIN), min(cols, x + w + MARGIN), min(rows, y + h + MARGIN)
        window = (slice(y0, y1), slice(x0, x1))
        region = _back_region((labels[window] == k).astype(np.uint8), (x0, y0), lab[window], white[window], long_sides)
        if region is not None:
            found.append(region)
    return [r for r in found if not any(holds(r, k) or holds(k, r) for k in known)]


def _card_shaped(rect: tuple) -> bool:
    w, h = rect[1]
    return ASPECTS[0] <= max(w, h) / max(1.0, min(w, h)) <= ASPECTS[1]


def _back_region(mask: np.ndarray, offset: tuple[int, int], lab: np.ndarray, white: np.ndarray,
                 long_sides: list[float]) -> Region | None:
    """The component (a 0/1 mask over a window of the half-size frame at `offset`) as a
    full-resolution Region if it passes for a back, else None. The component stops two
    pixels short of the edge line (the line and the band it was widened by), so it is
    grown by that before measuring."""
    if (white[mask > 0] >= WHITE).mean() > MAX_WHITE_SHARE:  # most candidates are face-up cards: cheapest test first
        return None
    card = cv2.dilate(mask, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(card, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    contour = max(contours, key=cv2.contourArea)
    rect = cv2.minAreaRect(contour)
    fill = cv2.contourArea(contour) / max(1.0, rect[1][0] * rect[1][1])
    if fill < MIN_FILL or not _card_shaped(rect):
        return None
    if long_sides and not 1 / SIZE_SPREAD <= max(rect[1]) / float(np.median(long_sides)) <= SIZE_SPREAD:
        return None
    ring = cv2.dilate(card, np.ones((9, 9), np.uint8)) - cv2.dilate(card, np.ones((5, 5), np.uint8))
    core = cv2.erode(card, np.ones((5, 5), np.uint8))
    if not ring.any() or not core.any():
        return None
    contrast = np.linalg.norm(np.median(lab[core > 0], axis=0).astype(float) - np.median(lab[ring > 0], axis=0))
    if contrast < MIN_CONTRAST:
        return None
    full = (contour + np.array(offset, np.int32)) * 2
    return Region(full, cv2.minAreaRect(full), fill, 0)
