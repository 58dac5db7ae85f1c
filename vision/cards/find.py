"""Finding card stock in a frame. Cards are the large, bright, unsaturated things on
the table; light across a table is uneven, so instead of one global threshold the
frame is cut at several brightness levels and each card keeps the level at which it
looks most like a rectangle of card proportions (an MSER-like search, but cheap).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

LEVELS = (110, 130, 150, 170, 190, 210)
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
    low = frame_bgr.min(axis=2).astype(np.int16)
    high = frame_bgr.max(axis=2).astype(np.int16)
    return np.clip(low - (high - low) // 2, 0, 255).astype(np.uint8)


def _regions(white: np.ndarray, level: int, min_area: float, max_area: float) -> list[Region]:
    binary = cv2.morphologyEx((white >= level).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    for contour in contours:
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
    """(lone cards, other bright blobs such as fanned hands), neither overlapping another."""
    white = whiteness(frame_bgr)
    if area_mask is not None:
        white = cv2.bitwise_and(white, area_mask)
    total = white.shape[0] * white.shape[1]
    min_area, max_area = total * 0.008, total * 0.45
    singles: list[Region] = []
    blobs: list[Region] = []
    for level in LEVELS:
        for region in _regions(white, level, min_area, max_area):
            (singles if is_single_card(region) else blobs).append(region)
    singles = _suppress(sorted(singles, key=lambda r: -r.fill), [])
    blobs = _suppress(sorted(blobs, key=lambda r: -cv2.contourArea(r.contour)), singles)
    return singles, blobs


def _suppress(ranked: list[Region], already: list[Region]) -> list[Region]:
    """Keeps each region only if its centre is not inside one kept before."""
    kept: list[Region] = []
    for region in ranked:
        centre = tuple(float(v) for v in region.rect[0])
        if not any(cv2.pointPolygonTest(k.contour, centre, False) >= 0 or
                   cv2.pointPolygonTest(region.contour, tuple(float(v) for v in k.rect[0]), False) >= 0
                   for k in kept + already):
            kept.append(region)
    return kept
