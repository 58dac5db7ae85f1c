"""Finding card stock in a frame. Cards are the large, bright, unsaturated things on
the table; light across a table is uneven, so instead of one global threshold the
frame is cut at several brightness levels and each card keeps the level at which it
looks most like a rectangle of card proportions (an MSER-like search, but cheap).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards.colour import low_high

LEVELS = (70, 90, 110, 130, 150, 170, 190, 210)
POKER, BRIDGE = 88 / 63, 88 / 57


@dataclass(frozen=True)
class Region:
    contour: np.ndarray  # N x 1 x 2 int32, frame pixels
    rect: tuple  # cv2.minAreaRect of the contour
    fill: float  # contour area / rect area: 1 for a lone card, less for a fan
    level: int


def whiteness(frame_bgr: np.ndarray) -> np.ndarray:
    """Brightness that only white things have: the darkest channel, minus a share of the
    saturation so a bright yellow or pale green table does not pass for card stock."""
    low, high = low_high(frame_bgr)
    return cv2.subtract(low, cv2.subtract(high, low) // 2)


def _regions(white: np.ndarray, level: int, min_area: float, max_area: float) -> list[Region]:
    binary = cv2.morphologyEx((white >= level).astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    for contour in contours:
        _, _, w, h = cv2.boundingRect(contour)
        if w * h < min_area:  # specks of light: cheaper to drop before taking its hull
            continue
        area = cv2.contourArea(cv2.convexHull(contour))
        if not min_area <= area <= max_area:
            continue
        rect = cv2.minAreaRect(contour)
        rect_area = rect[1][0] * rect[1][1]
        if rect_area > 0:
            found.append(Region(contour, rect, area / rect_area, level))
    return found


def is_single_card(region: Region) -> bool:
    w, h = region.rect[1]
    aspect = max(w, h) / max(1.0, min(w, h))
    return region.fill > 0.93 and POKER * 0.88 < aspect < BRIDGE * 1.1


def find_card_regions(frame_bgr: np.ndarray, area_mask: np.ndarray | None) -> tuple[list[Region], list[Region]]:
    """(lone cards, other bright blobs such as fanned hands). Lone cards do not overlap one
    another, nor do blobs; a blob may hold lone cards, as the top card of a hand is a
    whole rectangle at one brightness and the hand round it one blob at another.
    Outlines are searched for at half resolution (a card is still 60+ pixels long there)
    and only the ones found are traced again in full, which keeps within the time budget."""
    small = cv2.resize(frame_bgr, (frame_bgr.shape[1] // 2, frame_bgr.shape[0] // 2), interpolation=cv2.INTER_AREA)
    white = whiteness(small)
    if area_mask is not None:
        white = cv2.bitwise_and(white, cv2.resize(area_mask, white.shape[::-1], interpolation=cv2.INTER_NEAREST))
    total = white.shape[0] * white.shape[1]
    min_area, max_area = total * 0.008, total * 0.45
    singles: list[Region] = []
    blobs: list[Region] = []
    for level in LEVELS:
        for region in _regions(white, level, min_area, max_area):
            if is_single_card(region):
                singles.append(region)
            elif _solidity(region) >= MIN_SOLIDITY and frame_edge_share(region, white.shape) < TABLE_EDGE_SHARE:
                blobs.append(region)
    singles = _suppress(sorted(singles, key=lambda r: -r.fill), [])
    blobs = _suppress(sorted(blobs, key=lambda r: -cv2.contourArea(r.contour)), [])
    blobs = [b for b in blobs if not any(_same_or_part(b, s) for s in singles)]
    return [_doubled(r, frame_bgr) for r in singles], [_doubled(r, frame_bgr) for r in blobs]


def _doubled(region: Region, frame_bgr: np.ndarray) -> Region:
    """The region traced again at full resolution, inside a window around its half-size outline."""
    x, y, w, h = cv2.boundingRect(region.contour)
    x0, y0 = max(0, 2 * x - 6), max(0, 2 * y - 6)
    x1, y1 = min(frame_bgr.shape[1], 2 * (x + w) + 6), min(frame_bgr.shape[0], 2 * (y + h) + 6)
    window = whiteness(frame_bgr[y0:y1, x0:x1])
    outline = np.zeros_like(window)
    cv2.drawContours(outline, [cv2.convexHull(region.contour) * 2 - [x0, y0]], -1, 255, -1)
    binary: np.ndarray = (window >= region.level).astype(np.uint8) & (cv2.dilate(outline, np.ones((7, 7), np.uint8)) > 0)
    binary = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return region
    contour = max(contours, key=lambda c: cv2.contourArea(cv2.convexHull(c))) + np.array([x0, y0], np.int32)
    rect = cv2.minAreaRect(contour)
    fill = cv2.contourArea(cv2.convexHull(contour)) / max(1.0, rect[1][0] * rect[1][1])
    return Region(contour, rect, fill, region.level)


HOLDS_MORE = 1.25  # a blob round a lone card must be this much bigger to hold more than that card


MIN_SOLIDITY = 0.75  # cards, fanned or not, fill most of their hull; bright table seen through gaps does not


TABLE_EDGE_SHARE = 0.5  # a blob running along this share of a frame side is pale table, not cards


def frame_edge_share(region: Region, shape: tuple[int, ...]) -> float:
    """The longest share of a frame side the region runs along. A brightness cut through
    pale table runs out of the frame along much of a side; a card or hand cut off by the
    frame meets it along less than half of one."""
    x, y, w, h = cv2.boundingRect(region.contour)
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [region.contour - np.array([x, y], np.int32)], -1, 1, -1)
    rows, cols = shape[:2]
    runs = [inside[0].sum() / cols if y == 0 else 0.0, inside[-1].sum() / cols if y + h == rows else 0.0,
            inside[:, 0].sum() / rows if x == 0 else 0.0, inside[:, -1].sum() / rows if x + w == cols else 0.0]
    return float(max(runs))


def _solidity(region: Region) -> float:
    return cv2.contourArea(region.contour) / max(1.0, _hull_area(region))


def _hull_area(region: Region) -> float:
    return cv2.contourArea(cv2.convexHull(region.contour))


def holds(outer: Region, inner: Region) -> bool:
    centre = tuple(float(v) for v in inner.rect[0])
    return cv2.pointPolygonTest(cv2.convexHull(outer.contour), centre, False) >= 0


def _same_or_part(blob: Region, single: Region) -> bool:
    """The blob is that lone card traced at another brightness, or a piece of it."""
    if holds(blob, single):
        return _hull_area(blob) < HOLDS_MORE * _hull_area(single)
    return holds(single, blob)


def _suppress(ranked: list[Region], already: list[Region]) -> list[Region]:
    """Keeps each region only if neither it nor one kept before holds the other's centre.
    Hulls are compared, as a card back's thin white border may be traced as a broken ring."""
    kept: list[tuple[Region, np.ndarray]] = [(k, cv2.convexHull(k.contour)) for k in already]
    for region in ranked:
        hull = cv2.convexHull(region.contour)
        centre = tuple(float(v) for v in region.rect[0])
        if not any(cv2.pointPolygonTest(k_hull, centre, False) >= 0 or
                   cv2.pointPolygonTest(hull, tuple(float(v) for v in k.rect[0]), False) >= 0
                   for k, k_hull in kept):
            kept.append((region, hull))
    return [region for region, _ in kept[len(already):]]
