"""Dicey 21 odds against the figures printed in the training manual's appendix."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from table.errors import TableError
from table.odds import dicey21 as odds
from table.rules import dicey21 as game
from table.rules.cards import Card

# The manual's DICEY 21 EDGE COMPUTATION table, column by column.
COLUMNS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
MANUAL = {
    "stand": (0.041667, -0.819444, -0.689815, -0.527778, -0.347222, -0.162037, 0.000000, 0.111111, 0.129630, 0.069444),
    "hit": (-0.025560, -0.139425, -0.181687, -0.246517, -0.321767, -0.406187, -0.497097, -0.590598, -0.680645, -0.763130),
    "stand_raise": (0.166667, -0.819444, -0.689815, -0.527778, -0.347222, -0.162037, 0.000000, 0.111111, 0.129630, 0.069444),
    "max": (0.166667, -0.139425, -0.181687, -0.246517, -0.321767, -0.162037, 0.000000, 0.111111, 0.129630, 0.069444),
    "p": (0.076923,) * 9 + (0.307692,),
}


@pytest.fixture(scope="module")
def figures():
    return odds.figures()


@pytest.mark.parametrize("row", sorted(MANUAL))
def test_edge_computation_table_to_six_decimals(figures, row):
    computed = tuple(round(figures["first_card"][column][row], 6) for column in COLUMNS)
    assert computed == MANUAL[row]


def test_overall_edge(figures):
    assert round(figures["edge"], 6) == -0.028173


@pytest.mark.parametrize("multiple, house_edge", [("1", 3.46), ("3", 2.82), ("4", 2.50)])
def test_edge_by_the_most_an_ace_may_raise(figures, multiple, house_edge):
    assert round(-100 * figures["edge_by_max_raise"][multiple], 2) == house_edge


def test_each_raise_multiple_moves_the_edge_by_the_manuals_step(figures):
    steps = [figures["edge_by_max_raise"][str(k + 1)] - figures["edge_by_max_raise"][str(k)] for k in range(1, 4)]
    assert [round(100 * step, 2) for step in steps] == [0.32] * 3  # "0.32%" in the manual
    assert steps[0] == pytest.approx(float(Fraction(1, 13) * Fraction(9, 216)))  # p(ace) x stand EV of an ace


@pytest.mark.xfail(strict=True, reason="the manual prints 3.13% for 2x; exact is 3.138% (3.14%), see docs/odds/dicey21.md")
def test_manual_two_times_figure(figures):
    assert round(-100 * figures["edge_by_max_raise"]["2"], 2) == 3.13


def test_basic_strategy_outcome_split(figures):
    split = figures["outcomes"]
    assert sum(split.values()) == pytest.approx(1)
    assert {k: round(100 * v) for k, v in split.items()} == {"win": 31, "push": 24, "lose": 45}


def test_raise_frequencies(figures):
    assert round(100 * figures["raise_chance"]) == 8
    assert round(100 * figures["may_raise_chance"]) == 20
    assert round(100 * figures["may_raise_first_card_ace"]) == 8
    assert round(100 * figures["may_raise_second_card_ace"]) == 2
    assert round(100 * figures["may_raise_seven_count"]) == 10
    assert figures["hit_chance"] == pytest.approx(4 / 13)  # first cards 2..5


def test_match_alone_and_any_match(figures):
    assert round(-100 * figures["match_edge_alone"], 2) == 6.48
    assert round(100 * figures["match_any_chance"]) == 42
    assert figures["match_any_chance"] == pytest.approx(91 / 216)


def test_exact_match_with_cards_for_the_six_spot_by_hand(figures):
    """Spot six, derived by hand: basic strategy stands on 6, K, Q and hits 2..5."""
    quad = Fraction(1, 13) + Fraction(4, 13) * Fraction(24, 311)
    royal = Fraction(2, 13) + Fraction(4, 13) * Fraction(48, 311)
    triple_pays = 40 * quad + 20 * royal + 6 * (1 - quad - royal)
    expected = (Fraction(75 * 1 + 15 * 2 - 125) + triple_pays) / 216
    assert figures["match_edge_exact_by_spot"]["6"] == pytest.approx(float(expected), abs=1e-12)
    assert figures["match_edge_exact"] == pytest.approx(sum(figures["match_edge_exact_by_spot"].values()) / 6)


def test_match_edge_with_cards_in_the_manuals_model(figures):
    assert round(-100 * figures["match_edge_six_decks"], 2) == 3.34


def test_figures_are_json_and_report_states_the_deck_model(figures):
    assert json.loads(json.dumps(figures)) == figures
    text = odds.report(figures)
    assert "-0.028173" in text and "6-deck shoe" in text and "6.48%" in text


# ----- the advisor -------------------------------------------------------------------------


def dealt(rank: str, bets: game.Bets, chips: int = 1000) -> game.State:
    state = game.new_round(game.Settings(), ("ann",), {"ann": chips}, {"ann": bets})
    return game.apply(state, game.Deal(Card(rank)))


def test_action_values_for_a_first_card_ace(figures):
    values = odds.action_values(dealt("A", game.Bets(10)))
    assert set(values) == {game.Stand(), game.Hit()}
    assert values[game.Stand()] == pytest.approx(40 * 9 / 216)  # stand and raise 3x: ace EV 9/216
    # hitting keeps the ace, so a raise is still open after the second card, yet standing is better
    assert values[game.Hit()] == pytest.approx(10 * figures["first_card"]["A"]["hit_then_best_raise"])
    assert 0 < values[game.Hit()] < values[game.Stand()]


def test_action_values_for_the_raise_are_linear_in_the_stake():
    values = odds.action_values(game.apply(dealt("A", game.Bets(10)), game.Stand()))
    assert values == pytest.approx({game.Raise(10 * k): (10 + 10 * k) * 9 / 216 for k in range(4)})


def test_action_values_include_the_match_bets():
    plain = odds.action_values(dealt("5", game.Bets(10)))
    with_match = odds.action_values(dealt("5", game.Bets(10, ((5, 2),))))
    # holding a five, a hit may bring the second five a Hi-Five needs
    assert with_match[game.Hit()] - plain[game.Hit()] > with_match[game.Stand()] - plain[game.Stand()]
    assert plain[game.Hit()] == pytest.approx(10 * -0.321767, abs=1e-5)


def test_action_values_need_a_pending_decision():
    with pytest.raises(TableError):
        odds.action_values(game.new_round(game.Settings(), ("ann",), {"ann": 100}, {"ann": game.Bets(1)}))
