"""Double-six domino tiles as people type them and the camera reads them.

A tile is the same piece whichever way round it lies on the table, so [5-3] and
[3-5] are one tile: the halves are stored low first and the two compare equal.
Parsing is strict because a misread tile changes a hand's value; anything that is
not one of the 28 tiles is a BadValue, never a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from table.errors import BadValue

HIGHEST_PIPS = 6  # a double-six set
_TEXT = re.compile(r"^\[?\s*(\d+)\s*[-|/:,\s]\s*(\d+)\s*\]?$")


def _check_half(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= HIGHEST_PIPS:
        raise BadValue(f"a tile half shows 0 to {HIGHEST_PIPS} pips, not {value!r}")
    return value


@dataclass(frozen=True, order=True)
class Tile:
    low: int
    high: int

    def __post_init__(self) -> None:
        first, second = _check_half(self.low), _check_half(self.high)
        # Normalised here so Tile(5, 3) == Tile(3, 5): the camera reports halves in
        # whatever order the tile happens to lie.
        object.__setattr__(self, "low", min(first, second))
        object.__setattr__(self, "high", max(first, second))

    def __str__(self) -> str:
        return f"[{self.low}-{self.high}]"

    @property
    def pips(self) -> int:
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        return self.low == self.high


def parse_tile(text: str) -> Tile:
    """'3-5', '[0-0]', '6|2', '4 4' -> Tile; '7-1', '35', '' -> BadValue."""
    match = _TEXT.match(text.strip()) if isinstance(text, str) else None
    if not match:
        raise BadValue(f"{text!r} is not a tile: type the two halves like 3-5 or [0-0]")
    return Tile(int(match.group(1)), int(match.group(2)))


@lru_cache(maxsize=1)
def full_set() -> tuple[Tile, ...]:
    """The 28 tiles of a double-six set, in sorted order (built once: searches call it a lot)."""
    return tuple(Tile(low, high) for low in range(HIGHEST_PIPS + 1) for high in range(low, HIGHEST_PIPS + 1))
