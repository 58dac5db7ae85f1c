"""Where the pips of each number sit on a square half of a tile, and tile naming.

Both the fixture renderer and the reader use this one table, so a rendered tile and
the reader's idea of a legal half can never drift apart. Positions are in units of
the pip spacing, relative to the half's centre: (-1, -1) is a corner pip.
"""

from __future__ import annotations

import numpy as np

from table.errors import BadValue

MAX_PIPS = 6
ALL_TILES: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a in range(MAX_PIPS + 1) for b in range(a, MAX_PIPS + 1)
)

_PATTERNS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}


def check_value(value: int) -> int:
    if not isinstance(value, (int, np.integer)) or not 0 <= value <= MAX_PIPS:
        raise BadValue(f"a domino half shows 0 to {MAX_PIPS} pips, not {value!r}")
    return int(value)


def tile_key(halves: tuple[int, int]) -> tuple[int, int]:
    """The tile's identity in a double-six set: the same tile whichever end is first."""
    a, b = (check_value(v) for v in halves)
    return (min(a, b), max(a, b))


def pattern(value: int) -> np.ndarray:
    """(n, 2) pip positions of the canonical pattern for `value`."""
    return np.array(_PATTERNS[check_value(value)], np.float32).reshape(-1, 2)


def pattern_variants(value: int) -> list[np.ndarray]:
    """The pattern as it may appear on a real tile: makers turn 2, 3 and 6 either way."""
    return _VARIANTS[check_value(value)]


def _variants(value: int) -> list[np.ndarray]:
    base = pattern(value)
    turned = base[:, ::-1] * np.array([1, -1], np.float32)
    variants = [base]
    if not _same_points(base, turned):
        variants.append(turned)
    return variants


def _same_points(a: np.ndarray, b: np.ndarray) -> bool:
    return sorted(map(tuple, a.round(3).tolist())) == sorted(map(tuple, b.round(3).tolist()))


_VARIANTS = {value: _variants(value) for value in range(MAX_PIPS + 1)}
