"""Connected components of an 8-connected 0/1 mask, labelled in 16 bits whenever the mask
is too small to hold more labels than that: OpenCV 5 labels small masks about three
times quicker so (on one thread), with the same labels,
stats and centroids, and the card reader labels a few dozen small masks per hand."""

from __future__ import annotations

import cv2
import numpy as np

_MOST_16_BIT = 2**16 - 1


def _ltype(mask: np.ndarray) -> int:
    """8-connected components never touch, so a mask holds at most one per 2x2 block."""
    rows, cols = mask.shape[:2]
    most = ((rows + 1) // 2) * ((cols + 1) // 2)  # and the background's label
    return cv2.CV_16U if most + 1 <= _MOST_16_BIT else cv2.CV_32S


def components_with_stats(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """cv2.connectedComponentsWithStats(mask, connectivity=8)."""
    return cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=_ltype(mask))


def components(mask: np.ndarray) -> tuple[int, np.ndarray]:
    """cv2.connectedComponents(mask, connectivity=8)."""
    return cv2.connectedComponents(mask, connectivity=8, ltype=_ltype(mask))
