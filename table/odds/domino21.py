"""Domino 21 counting tables and the hit/stand advisor.

The seed prints a table of "hands of n tiles which come to a given total" without
saying what it counts. Its numbers come out exactly when every way of scoring a hand
is counted: an unordered hand of n distinct tiles adds one to a total for each choice
of one value per tile (a double or a blank tile has two values, [0-0] three) that
sums to it. That is a generating-function product over the 28 tiles, done here by a
DP over tiles. Whether a hand can make 21 needs instead the set of totals it reaches,
carried as a bit mask per class of hands (a few hundred classes, not 6.9 million
hands). Both start from the engine's own hand_totals, so a rule change there changes
every figure here. See docs/odds/domino21.md.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from math import comb, perm

import numpy as np

from table.errors import TableError
from table.rules import domino21 as rules
from table.rules.tiles import Tile, full_set

SIZES = range(rules.OPENING_TILES, rules.MAX_TILES + 1)
TOTALS = range(1, rules.TARGET + 1)
_MASK = (1 << (rules.TARGET + 1)) - 1  # bit t set: the hand can be counted as t <= 21

READING = (
    "Each cell counts pairs (unordered hand of n distinct tiles, choice of one value per tile) "
    "whose values sum to the total, where a tile's values are its distinct counts under the "
    "rules (pips; half pips for a double; 7 for each blank half): every way of scoring a hand "
    "is counted once, so a hand that can be scored several ways is counted several times."
)


def _values(tile: Tile) -> tuple[int, ...]:
    """A one-tile hand's totals are exactly the tile's values."""
    return tuple(sorted(rules.hand_totals((tile,))))


def _ways_table() -> np.ndarray:
    """ways[n, t]: (hand, valuation) pairs of n tiles summing to t, by a DP over tiles."""
    ways = np.zeros((rules.MAX_TILES + 1, rules.TARGET + 1), dtype=np.int64)
    ways[0, 0] = 1
    for tile in full_set():
        grown = ways.copy()
        for value in _values(tile):
            grown[1:, value:] += ways[:-1, : rules.TARGET + 1 - value]
        ways = grown
    return ways


def _mask_classes() -> list[tuple[np.ndarray, np.ndarray]]:
    """For each n, the distinct masks of reachable totals <= 21 with how many n-tile
    hands have each. Busted hands drop out (their totals only grow)."""
    empty = (np.zeros(0, np.uint32), np.zeros(0, np.int64))
    classes = [(np.array([1], np.uint32), np.array([1], np.int64))] + [empty] * rules.MAX_TILES
    for tile in full_set():
        for size in range(rules.MAX_TILES - 1, -1, -1):
            masks, counts = classes[size]
            if not len(masks):
                continue
            grown = np.zeros_like(masks)
            for value in _values(tile):
                grown |= (masks << np.uint32(value)) & np.uint32(_MASK)
            alive = grown != 0
            merged = np.concatenate([classes[size + 1][0], grown[alive]])
            weights = np.concatenate([classes[size + 1][1], counts[alive]])
            unique, where = np.unique(merged, return_inverse=True)
            totals = np.zeros(len(unique), np.int64)
            np.add.at(totals, where, weights)
            classes[size + 1] = (unique, totals)
    return classes


def _bits(masks: np.ndarray) -> np.ndarray:
    """(len(masks), 22) booleans: column t says whether total t is reachable."""
    return ((masks[:, None] >> np.arange(rules.TARGET + 1, dtype=np.uint32)) & 1).astype(bool)


@lru_cache(maxsize=1)
def _figures() -> dict:
    ways = _ways_table()
    classes = _mask_classes()
    counts, hands, ordered, p21, seed_odds, can_make, best, alive = {}, {}, {}, {}, {}, {}, {}, {}
    for size in SIZES:
        key = str(size)
        masks, number = classes[size]
        bits = _bits(masks)
        top = rules.TARGET - np.argmax(bits[:, ::-1], axis=1)  # highest reachable total
        counts[key] = [int(ways[size, total]) for total in TOTALS]
        hands[key] = comb(len(full_set()), size)
        ordered[key] = perm(len(full_set()), size)
        makes_21 = int(number[bits[:, rules.TARGET]].sum())
        p21[key] = makes_21 / hands[key]
        seed_odds[key] = counts[key][-1] / ordered[key]
        can_make[key] = [int(number[bits[:, total]].sum()) for total in TOTALS]
        best[key] = [int(number[top == total].sum()) for total in TOTALS]
        alive[key] = int(number.sum())
    return {
        "counts": counts,
        "hands": hands,
        "ordered_hands": ordered,
        "p21": p21,
        "seed_odds_of_21": seed_odds,
        "hands_that_can_make": can_make,
        "hands_by_best_total": best,
        "hands_not_bust": alive,
        "reading": READING,
        "seed_discrepancies": _discrepancies(alive, best),
    }


def _discrepancies(alive: dict, best: dict) -> list[str]:
    """Where the seed's own words disagree with its table or with exact counting."""
    nine = str(rules.MAX_TILES)
    return [
        "The seed's 'Hands' column (756, 19,656, ...) counts ordered draws 28x27x..., while its "
        "table counts unordered hands (each valuation once); the numbers of distinct hands "
        "are C(28, n) (378, 3,276, ...).",
        "The seed's 'odds of making 21' is its table's 21 row divided by the ordered number of "
        "hands (e.g. 19/756 for two tiles): it mixes unordered valuations with ordered draws, "
        "so it is not the chance of holding a 21; p21 here is the exact chance that n random "
        "tiles can be counted to 21.",
        f"The seed calls the three nine-tile hands that total 19 'the only nine tile hands'; in "
        f"fact {alive[nine]} nine-tile hands can stay at 21 or under, every one of them can be "
        f"counted to exactly 21 (best totals 19..21: {best[nine][-3:]}); the three are the "
        f"hands whose lowest count is 19.",
    ]


def figures() -> dict:
    """JSON-able figures, computed once per process (about 0.1 s); a copy, so a
    caller editing it cannot change what the next caller sees."""
    return copy.deepcopy(_figures())


def report(figures: dict) -> str:
    lines = [
        "Domino 21 counting table: ways of scoring n-tile hands (double-six set, no duplicates)",
        "reading: " + figures["reading"],
        "total " + " ".join(f"{n:>7s}" for n in figures["counts"]),
    ]
    for row, total in enumerate(TOTALS):
        lines.append(f"{total:5d} " + " ".join(f"{figures['counts'][n][row]:7d}" for n in figures["counts"]))
    lines.append("")
    lines.append(" n   hands (unordered)  ordered draws       p21 (exact)     seed 'odds of 21'")
    for n in figures["hands"]:
        lines.append(f"{n:>2s}  {figures['hands'][n]:>17,d}  {figures['ordered_hands'][n]:>17,d}  "
                     f"{figures['p21'][n]:.6e}    {figures['seed_odds_of_21'][n]:.6e}")
    lines.append("")
    lines.append("p21: chance that n tiles dealt at random from the full set can be counted to exactly 21.")
    lines.append("Where the seed disagrees:")
    lines.extend("  - " + note for note in figures["seed_discrepancies"])
    return "\n".join(lines)
