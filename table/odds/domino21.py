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
from collections.abc import Callable
from functools import cache, lru_cache
from math import comb, perm
from typing import Any

import numpy as np

from table.errors import TableError
from table.rules import CHANCE, TERMINAL
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
def _figures() -> dict[str, Any]:
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


def _discrepancies(alive: dict[str, Any], best: dict[str, Any]) -> list[str]:
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


def figures() -> dict[str, Any]:
    """JSON-able figures, computed once per process (about 0.1 s); a copy, so a
    caller editing it cannot change what the next caller sees."""
    return copy.deepcopy(_figures())


def report(figures: dict[str, Any]) -> str:
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


# ---------------------------------------------------------------- the advisor

Outcome = tuple[int | None, bool]  # (best total or None when bust, holds the special three-tile 21)
Tiles = frozenset[Tile]  # the tiles a hand has grown by


class _Grower:
    """Hands grown a tile at a time from `base` over a pool, each hand's totals kept
    (only those <= 21, the others can never come back) so a search never recounts."""

    def __init__(self, base: tuple[Tile, ...], settings: rules.Settings) -> None:
        self.base = base
        self.settings = settings
        self.totals: dict[Tiles, frozenset[int]] = {frozenset(): frozenset(t for t in rules.hand_totals(base) if t <= rules.TARGET)}

    def grow(self, extra: Tiles, tile: Tile) -> Tiles:
        bigger = extra | {tile}
        if bigger not in self.totals:
            self.totals[bigger] = _add_fitting(self.totals[extra], tile)
        return bigger

    def outcome(self, extra: Tiles) -> Outcome:
        best = rules.best_of(self.totals[extra])
        size = len(self.base) + len(extra)
        special = size == 3 and rules.is_special_21(self.base + tuple(extra), self.settings)
        return best, special


@cache
def _add_fitting(totals: frozenset[int], tile: Tile) -> frozenset[int]:
    """rules.add_tile keeping totals <= 21; few distinct total sets occur, so cached."""
    return frozenset(total for total in rules.add_tile(totals, tile) if total <= rules.TARGET)


def _final_outcomes(known: tuple[Tile, ...], hidden: int, pool: tuple[Tile, ...],
                    settings: rules.Settings, draws: bool) -> dict[Outcome, float]:
    """Distribution of a hand's final outcome when `hidden` of its tiles are unseen
    (uniform from `pool`) and, if `draws`, it keeps drawing by rules.keeps_drawing."""
    grower = _Grower(known, settings)
    memo: dict[Tiles, dict[Outcome, float]] = {}

    def finish(extra: Tiles) -> dict[Outcome, float]:
        if extra in memo:
            return memo[extra]
        outcome = grower.outcome(extra)
        rest = [tile for tile in pool if tile not in extra]
        if len(extra) < hidden:  # still dealing the unseen tiles
            stop = False
        else:
            stop = (not draws or not rest or len(known) + len(extra) >= rules.MAX_TILES
                    or not rules.keeps_drawing(outcome[0]))
        if stop:
            memo[extra] = {outcome: 1.0}
            return memo[extra]
        spread: dict[Outcome, float] = {}
        for tile in rest:
            for final, chance in finish(grower.grow(extra, tile)).items():
                spread[final] = spread.get(final, 0.0) + chance / len(rest)
        memo[extra] = spread
        return spread

    return finish(frozenset())


def _player_gain(settings: rules.Settings, price: int, tiles: int, mine: Outcome, bank: Outcome) -> int:
    """The player's net chips against one banker outcome, by the engine's own rules."""
    match = rules.banker_match(settings, price, tiles)
    stake = price * tiles
    if mine[0] is None:
        return -stake
    if bank[0] is None:
        return {"pays-match": match, "pays-stake": stake, "refunds": 0}[settings.bank_over]
    if mine[1] != bank[1]:
        return match if mine[1] else -stake
    return match if mine[0] > bank[0] else -stake


def _unseen(state: rules.State, me: rules.Hand) -> tuple[Tile, ...]:
    """Tiles the decider cannot see: not in his hand, not face up anywhere."""
    seen = set(me.tiles) | rules.face_up_tiles(state)
    return tuple(tile for tile in full_set() if tile not in seen)


def _best_play(tiles: tuple[Tile, ...], pool: tuple[Tile, ...], settings: rules.Settings,
               stand_value: Callable[[int, Outcome], float],
               may_hit: Callable[[int], bool]) -> tuple[float, float | None]:
    """(EV of standing, EV of hitting or None) with optimal later play over `pool`;
    stand_value(size, outcome) values a finished hand."""
    grower = _Grower(tiles, settings)
    memo: dict[Tiles, float] = {}
    stand_value = lru_cache(maxsize=None)(stand_value)  # depends on size and outcome only

    def value(extra: Tiles) -> float:
        if extra not in memo:
            outcome = grower.outcome(extra)
            stand = stand_value(len(tiles) + len(extra), outcome)
            hit = None if outcome[0] is None else hit_value(extra)
            memo[extra] = stand if hit is None else max(stand, hit)
        return memo[extra]

    def hit_value(extra: Tiles) -> float | None:
        rest = [tile for tile in pool if tile not in extra]
        if not rest or not may_hit(len(tiles) + len(extra) + 1):
            return None
        return sum(value(grower.grow(extra, tile)) for tile in rest) / len(rest)

    return stand_value(len(tiles), grower.outcome(frozenset())), hit_value(frozenset())


def _face_up(hand: rules.Hand) -> tuple[Tile, ...]:
    return tuple(held.tile for held in hand.held if held.face_up)


def _player_values(state: rules.State, me: rules.Hand) -> tuple[float, float | None]:
    settings = state.settings
    pool = _unseen(state, me)
    banker = state.hands[-1]
    bank = _final_outcomes(_face_up(banker), len(banker.face_down), pool, settings, draws=True)
    index = state.hands.index(me)

    def stand_value(size: int, mine: Outcome) -> float:
        return sum(chance * _player_gain(settings, me.price, size, mine, outcome) for outcome, chance in bank.items())

    def may_hit(size: int) -> bool:
        return size <= rules.MAX_TILES and rules.stake_allowed(state, index, size)

    return _best_play(me.tiles, pool, settings, stand_value, may_hit)


def _banker_values(state: rules.State) -> tuple[float, float | None, float]:
    """(stand, hit or None, concede) for the banker, against every player's hand as
    far as the banker can see it (live players' face-down tiles from his unseen pool)."""
    settings = state.settings
    me = state.hands[-1]
    pool = _unseen(state, me)
    players = []
    for hand in state.hands[:-1]:
        spread = _final_outcomes(_face_up(hand), len(hand.face_down), pool, settings, draws=False)
        if rules.best_total(hand.tiles) is not None:  # he did not bust, so his hidden tiles fit
            spread = {o: p for o, p in spread.items() if o[0] is not None}
        weight = sum(spread.values())
        players.append((hand, {o: p / weight for o, p in spread.items()}))

    def stand_value(size: int, bank: Outcome) -> float:
        return -sum(chance * _player_gain(settings, hand.price, len(hand.held), outcome, bank)
                    for hand, spread in players for outcome, chance in spread.items())

    stand, hit = _best_play(me.tiles, pool, settings, stand_value, lambda size: size <= rules.MAX_TILES)
    return stand, hit, stand_value(len(me.held), (None, False))


def action_values(state: rules.State) -> dict[Any, float]:
    """Expected chips of each legal action for the one who must decide.

    A documented approximation (docs/odds/domino21.md): every unseen tile is equally
    likely to be anywhere unseen; a player's banker draws by rules.keeps_drawing;
    the banker's view of each player's face-down tiles ignores the other hands;
    exposing a tile carries no value of its own.
    """
    if rules.current_actor(state) in (CHANCE, TERMINAL):
        raise TableError(f"no decision is pending ({state.step})")
    me = rules.current_hand(state)
    legal = rules.legal_actions(state)
    if me.owner == state.banker:
        stand, hit, concede = _banker_values(state)
    else:
        (stand, hit), concede = _player_values(state, me), None
    if state.step == "announce":
        return {action: (stand if action.total is not None else _valued(concede)) for action in legal}
    if state.step == "expose":
        best = stand if hit is None else max(stand, hit)
        return {action: best for action in legal}
    return {action: (_valued(hit) if isinstance(action, rules.Hit) else stand) for action in legal}


def _valued(value: float | None) -> float:
    """A move's value, worked out wherever the move is legal (a hit where a hit is
    allowed, conceding where the banker announces)."""
    if value is None:
        raise TableError("no value for a move the rules do not offer here")
    return value
