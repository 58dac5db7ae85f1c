"""Median and percentile of a short 1-D array, giving exactly what np.median and
np.percentile give (same value, same type).

Every tile asks a dozen of them of rows and profiles a few dozen values long; there
numpy's general machinery (any axis, any method, weights) costs several times what
the partial sort itself does, and the reader must keep within its time budget.
"""

from __future__ import annotations

import numpy as np


def median(values: np.ndarray):
    """np.median(values) for a 1-D array: the mean of its one or two middle values."""
    n = values.size
    half = n // 2
    kth = [half] if n % 2 else [half - 1, half]
    nan_aware = values.dtype.kind == "f"
    ranked = np.partition(values, kth + [-1] if nan_aware else kth)
    if nan_aware and np.isnan(ranked[-1]):
        return ranked.dtype.type(np.nan)  # as np.median: a NaN anywhere gives NaN
    return ranked[kth[0]:half + 1].mean()


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
