"""Median and percentile of a short 1-D array, giving exactly what np.median and
np.percentile give (same value, same type).

Every tile asks a dozen of them of rows and profiles a few dozen values long; there
numpy's general machinery (any axis, any method, weights) costs several times what
the partial sort itself does, and the reader must keep within its time budget.
"""

from __future__ import annotations

import numpy as np


def median(values: np.ndarray):
    """np.median(values, axis=0): the mean of the one or two middle values (for a
    1-D array a scalar, for a 2-D one a row), as a float of numpy's type."""
    n = values.shape[0]
    half = n // 2
    kth = [half] if n % 2 else [half - 1, half]
    nan_aware = values.dtype.kind == "f"
    ranked = np.partition(values, kth + [-1] if nan_aware else kth, axis=0)
    low, high = ranked[kth[0]], ranked[half]
    if not nan_aware:  # integers are averaged as float64, as np.mean does
        low, high = low.astype(np.float64), high.astype(np.float64)
    middle = low if n % 2 else (low + high) / 2
    if nan_aware and np.isnan(ranked[-1]).any():  # as np.median: a NaN gives NaN
        middle = np.where(np.isnan(ranked[-1]), np.nan, middle).astype(ranked.dtype)[()]
    return middle


def percentile(values: np.ndarray, q: float):
    """np.percentile(values, q) for a 1-D float array without NaN (numpy's default
    'linear' method: between the two nearest ranks, from whichever end is nearer)."""
    at = (values.size - 1) * (q / 100)
    lo = int(at)
    hi = min(lo + 1, values.size - 1)
    t = at - lo
    ranked = np.partition(values, [lo, hi])
    a, b = ranked[lo], ranked[hi]
    step = b - a
    return b - step * (1 - t) if t >= 0.5 else a + step * t
