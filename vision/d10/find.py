"""Where the dice are: things that differ clearly in colour from the table around them.

The table is estimated by a wide median at quarter resolution (a die covers well under
half of the window, so the median is table, whatever colour the die is)."""

from __future__ import annotations

import cv2
import numpy as np

MEDIAN_WINDOW = 31  # quarter-resolution pixels: 124 frame pixels, wider than two dice
DIFFERENCE = 28.0  # Lab distance from the table that counts as "something on it"


def foreground(frame_bgr: np.ndarray) -> np.ndarray:
    """uint8 mask (1 = differs from the table) at half resolution."""
    h, w = frame_bgr.shape[:2]
    half = cv2.resize(frame_bgr, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    quarter = cv2.resize(half, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    table = cv2.resize(cv2.medianBlur(quarter, MEDIAN_WINDOW), (w // 2, h // 2), interpolation=cv2.INTER_LINEAR)
    lab = cv2.cvtColor(half, cv2.COLOR_BGR2LAB).astype(np.float32)
    table_lab = cv2.cvtColor(table, cv2.COLOR_BGR2LAB).astype(np.float32)
    diff = cv2.magnitude(lab[..., 0] - table_lab[..., 0], cv2.magnitude(lab[..., 1] - table_lab[..., 1],
                                                                       lab[..., 2] - table_lab[..., 2]))
    mask = (diff > DIFFERENCE).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def die_blobs(frame_bgr: np.ndarray, area_mask: np.ndarray | None, die_px: float | None) -> list[np.ndarray]:
    """Outlines (full-resolution contours) of die-sized things on the table."""
    mask = foreground(frame_bgr)
    if area_mask is not None:
        mask &= cv2.resize(area_mask, mask.shape[::-1], interpolation=cv2.INTER_NEAREST) > 0
    # Every outer outline, also those lying inside another thing's outline: a dice tray's
    # rim is one big ring around everything on the tray.
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    low, high = (0.6 * die_px, 2.4 * die_px) if die_px else (20.0, 130.0)
    found = []
    for contour, (_, _, _, parent) in zip(contours, hierarchy[0] if hierarchy is not None else []):
        if parent >= 0:
            continue  # a hole
        (_, _), (w, h), _ = cv2.minAreaRect(contour)
        side = 2 * max(w, h)
        if low <= side <= high and min(w, h) > 0.5 * max(w, h):
            found.append(contour * 2)
    return found
