"""Per-pixel darkest and brightest channel, which tell white stock, grey ink and coloured
ink apart. OpenCV's element-wise min/max are used because numpy's reduction over the
channel axis is several times slower on frames, and the readers have a time budget."""

from __future__ import annotations

import cv2
import numpy as np


def low_high(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    b, g, r = cv2.split(bgr)
    return cv2.min(cv2.min(b, g), r), cv2.max(cv2.max(b, g), r)


def percentiles(values: np.ndarray, *q: float) -> list[float]:
    """np.percentile's nearest-rank values (no interpolation) by one partial sort: about ten
    times quicker on the small patches the card reader asks this of many times a frame."""
    flat = np.ravel(values)
    ranks = [_rank(k, flat.size) for k in q]
    ordered = np.partition(flat, ranks)
    return [float(ordered[r]) for r in ranks]


def column_percentiles(rows: np.ndarray, q: float) -> list[float]:
    """percentiles(rows[:, c], q)[0] of every column c, by one partial sort of them all."""
    rank = _rank(q, len(rows))
    return [float(v) for v in np.partition(rows, rank, axis=0)[rank]]


def _rank(q: float, size: int) -> int:
    return round(q / 100 * (size - 1))
