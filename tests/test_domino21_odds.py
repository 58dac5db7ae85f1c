"""Domino 21 figures against the seed's printed table and odds, against brute force
through the engine's own functions, and the advisor against exact play-outs."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from itertools import combinations, product
from math import comb
from pathlib import Path

import pytest

from table.errors import TableError
from table.odds import domino21 as odds
from table.rules import CHANCE
from table.rules import domino21 as d
from table.rules.tiles import full_set, parse_tile

SEED = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "domino-21.txt"  # beside the clone

# Cells typed from the seed's table, kept here so the check survives without ../shared.
TYPED_CELLS = {  # (tiles, total): count
    (2, 1): 2, (2, 8): 45, (2, 13): 67, (2, 21): 19, (3, 2): 1, (3, 19): 720, (4, 4): 2,
    (4, 21): 4665, (5, 6): 1, (5, 21): 11756, (6, 9): 3, (6, 21): 13390, (7, 12): 3,
    (7, 20): 4295, (8, 15): 1, (8, 21): 1500, (9, 19): 3, (9, 20): 16, (9, 21): 65,
}


@pytest.fixture(scope="module")
def figures():
    return odds.figures()


@pytest.fixture(scope="module")
def seed_text():
    if not SEED.is_file():
        pytest.skip(f"seed text not found at {SEED} (../shared is absent)")
    return SEED.read_text()


def test_typed_cells_match(figures):
    for (tiles, total), count in TYPED_CELLS.items():
        assert figures["counts"][str(tiles)][total - 1] == count, (tiles, total)


def test_every_cell_of_the_seed_table_matches(figures, seed_text):
    rows = re.findall(r"^(\d+) \|((?: *\d+ *\|){8})\s*$", seed_text, re.M)
    assert [int(total) for total, _ in rows] == list(range(1, 22))
    for total, cells in rows:
        for tiles, cell in zip(range(2, 10), cells.split("|")):
            assert figures["counts"][str(tiles)][int(total) - 1] == int(cell), (tiles, total)


def _seed_numbers(block: str) -> list[float]:
    """'2 756 3 19,656 ... 8 1.253187936 * 10^11' -> the numbers after each tile count."""
    pairs = re.findall(r"([2-9]) ([\d.,]+)(?: \* 10\^(-?\d+))?", block)
    return [float(value.replace(",", "")) * 10 ** int(power or 0) for _, value, power in pairs]


def test_the_seeds_hands_and_odds_columns_are_ordered_draws(figures, seed_text):
    hands_block = seed_text[seed_text.index("tiles Hands"):seed_text.index("tiles odds")]
    odds_block = seed_text[seed_text.index("tiles odds"):]
    hands = _seed_numbers(hands_block.split("=", 1)[1].lstrip("= "))
    seed_odds = _seed_numbers(odds_block.split("=", 1)[1].lstrip("= "))
    assert len(hands) == len(seed_odds) == 8
    for n, printed in zip(range(2, 10), hands):
        assert figures["ordered_hands"][str(n)] == pytest.approx(printed, rel=1e-9)
    for n, printed in zip(range(2, 10), seed_odds):
        assert figures["seed_odds_of_21"][str(n)] == pytest.approx(printed, rel=1e-9)


def test_counts_hands_and_p21_agree_with_brute_force_through_the_engine(figures):
    for n in (2, 3):
        ways = [0] * 22
        best = [0] * 22
        makes_21 = 0
        for hand in combinations(full_set(), n):
            for values in product(*(d.tile_values(tile) for tile in hand)):
                if 1 <= sum(values) <= 21:
                    ways[sum(values)] += 1
            top = d.best_total(hand)
            if top:
                best[top] += 1
            makes_21 += 21 in d.hand_totals(hand)
        assert figures["counts"][str(n)] == ways[1:]
        assert figures["hands_by_best_total"][str(n)] == best[1:]
        assert figures["hands"][str(n)] == comb(28, n)
        assert figures["p21"][str(n)] == pytest.approx(makes_21 / comb(28, n), rel=1e-12)


def test_exact_p21_values(figures):
    assert figures["p21"]["2"] == pytest.approx(19 / 378)
    assert figures["hands"]["9"] == 6_906_900
    assert figures["hands_not_bust"]["9"] == 65
    assert figures["p21"]["9"] == pytest.approx(65 / 6_906_900)


def test_figures_are_json_and_report_states_the_reading(figures):
    again = json.loads(json.dumps(figures))
    assert again == figures
    for key in ("counts", "hands", "p21", "reading", "seed_discrepancies"):
        assert key in figures
    assert all(len(figures["counts"][str(n)]) == 21 for n in range(2, 10))
    text = odds.report(figures)
    assert "reading" in text and "11756" in text and "6,906,900" in text
    figures["counts"]["2"][0] = -1
    assert odds.figures()["counts"]["2"][0] == 2  # the cache is not shared with callers


# ---------------------------------------------------------------- the advisor


def _start(script: str, prices=None):
    prices = prices or {"ann": 1}
    state = d.new_round(d.Settings(), ("bank", "ann", "bob"), {"bank": 500, "ann": 100, "bob": 100},
                        {seat: d.Bets(price) for seat, price in prices.items()}, banker="bank")
    for word in script.split():
        action = {"hit": d.Hit(), "stand": d.Stand()}.get(word) or d.Draw(parse_tile(word))
        state = d.apply(state, action)
    return state


def _expected(state, account: str, memo: dict) -> float:
    """Exact expected settlement of a state with every decision by auto_action; only
    the banker is still playing, and the order of his tiles does not matter."""
    key = (frozenset(state.hands[-1].tiles), state.step)
    if key not in memo:
        if d.is_terminal(state):
            memo[key] = float(d.settle(state)[account])
        elif d.current_actor(state) == CHANCE:
            memo[key] = sum(float(p) * _expected(d.apply(state, draw), account, memo) for draw, p in d.chance_outcomes(state))
        else:
            memo[key] = _expected(d.apply(state, d.auto_action(state, None)), account, memo)
    return memo[key]


def test_standing_value_is_exact_against_play_outs_over_the_bankers_hidden_tiles():
    state = _start("6-6 3-5 5-6 4-6")  # ann 20 (or 14) against a banker she cannot see
    values = odds.action_values(state)
    assert set(values) == set(d.legal_actions(state))
    unseen = [tile for tile in full_set() if tile not in state.hands[0].tiles]
    total, memo = 0.0, {}
    pairs = list(combinations(unseen, 2))
    for pair in pairs:  # the banker's two face-down tiles could be any unseen pair
        banker = replace(state.hands[-1], held=tuple(d.HeldTile(tile) for tile in pair))
        total += _expected(d.apply(replace(state, hands=(state.hands[0], banker)), d.Stand()), "ann", memo)
    assert values[d.Stand()] == pytest.approx(total / len(pairs), rel=1e-9)


def test_the_bankers_announcement_values_are_exact_over_a_players_hidden_tiles():
    state = _start("6-6 5-6 2-3 1-4 5-5 1-2 hit 4-5 stand stand", {"ann": 1, "bob": 2})
    assert state.step == "announce" and d.best_total(state.hands[0].tiles) is None
    values = odds.action_values(state)
    bob = state.hands[1]
    seen = set(state.hands[-1].tiles) | set(state.hands[0].tiles) | {h.tile for h in bob.held if h.face_up}
    unseen = [tile for tile in full_set() if tile not in seen]
    for action in d.legal_actions(state):
        outcomes = []
        for pair in combinations(unseen, len(bob.face_down)):
            held = tuple(h for h in bob.held if h.face_up) + tuple(d.HeldTile(tile) for tile in pair)
            hands = (state.hands[0], replace(bob, held=held), state.hands[-1])
            if d.best_total(held_tile.tile for held_tile in held) is not None:  # bob did not bust
                outcomes.append(d.settle(d.apply(replace(state, hands=hands), action))["bank"])
        assert values[action] == pytest.approx(sum(outcomes) / len(outcomes), rel=1e-9)


def test_advice_is_refused_when_nobody_is_deciding():
    with pytest.raises(TableError):
        odds.action_values(_start(""))


def test_a_low_flexible_hand_is_worth_hitting_and_a_hopeless_hit_is_not():
    soft = odds.action_values(_start("0-1 0-4 5-6 4-6"))  # counts 5, 12, 15 or 19
    assert soft[d.Hit()] > soft[d.Stand()]
    hard = odds.action_values(_start("5-6 4-6 3-5 2-2"))  # exactly 21, no other count
    assert hard[d.Stand()] > hard[d.Hit()]
