"""The Blackjack Dice odds checked against the engine itself, for both banker's-1
house rules: an exact memoised walk through the engine's states must give the same
Fractions as the DP over totals. (The seed prints no figures to compare with.)"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from test_dice_blackjack_odds import engine_value

from table.errors import TableError
from table.odds import blackjack_dice as odds
from table.rules import blackjack_dice as game
from table.rules.blackjack_dice import Bets, Hit, Roll, Settings, Stand

RULES = ("choose", "eleven")


def hand_key(state):
    """Everything the rest of a heads-up round depends on."""
    player, banker = state.hands[0], state.banker_hand
    return (state.step, state.turn, game.count(player.dice), min(len(player.dice), 3), player.end,
            game.count(banker.dice), bool(banker.dice), banker.end)


def heads_up(settings=Settings(), stake=1):
    return game.new_round(settings, ("bea", "ann"), {"bea": 100, "ann": 100}, {"ann": Bets(stake)}, banker="bea")


@pytest.fixture(scope="module")
def figures():
    return odds.figures()


@pytest.mark.parametrize("rule", RULES)
def test_player_edge_equals_a_walk_through_the_engine(figures, rule):
    exact = engine_value(game, heads_up(Settings(banker_one=rule)), hand_key)
    assert str(exact) == figures["player_edge_by_banker_one_exact"][rule]
    assert figures["player_edge_by_banker_one"][rule] == float(exact)


def test_default_edge_is_a_number_for_the_default_rule(figures):
    assert figures["banker_one"] == Settings().banker_one == "choose"
    assert figures["player_edge"] == figures["player_edge_by_banker_one"]["choose"]
    # a banker free to count a 1 either way can only do better than one tied to eleven
    assert figures["player_edge_by_banker_one"]["choose"] < figures["player_edge_by_banker_one"]["eleven"] < 0


def test_blackjack_bonus_moves_the_edge_by_its_probability():
    plain, bonus = odds.player_edge(Settings(blackjack_pays=1)), odds.player_edge(Settings(blackjack_pays=2))
    assert bonus - plain == Fraction(2, 100)


def test_strategy_tables_are_json_and_sensible(figures):
    json.dumps(figures)
    assert figures["blackjack_probability"] == pytest.approx(0.02)
    for rule in RULES:
        table = figures["strategy_by_banker_one"][rule]
        assert set(table["hard"]) == {str(t) for t in range(4, 21)} and set(table["soft"]) == {str(t) for t in range(12, 21)}
        assert all(table["hard"][str(t)] == "hit" for t in range(4, 12))  # 11 or less cannot bust
        assert table["hard"]["20"] == "stand" and table["soft"]["12"] == "hit"
    assert figures["strategy"] == figures["strategy_by_banker_one"]["choose"]
    # facing 21, standing on a soft total below it loses for sure; a soft 21 ties, and ties are the banker's
    facing_21 = dict(figures["banker_strategy"]["21"])
    assert facing_21.pop("soft 21") == "stand" and set(facing_21.values()) == {"hit"}
    assert set(figures["banker_strategy"]["10"].values()) == {"stand"}


def test_player_action_values_match_the_engine_walk():
    state = game.apply(heads_up(stake=3), Roll((1, 5)))  # soft 16
    values = odds.action_values(state)
    assert set(values) == {Hit(), Stand()}
    for action, value in values.items():
        assert value == pytest.approx(float(engine_value(game, game.apply(state, action), hand_key)))  # settle counts the 3 chips


def test_banker_action_values_count_every_standing_player():
    seats = ("bea", "ann", "bob")
    state = game.new_round(Settings(), seats, {s: 100 for s in seats}, {"ann": Bets(2), "bob": Bets(3)}, banker="bea")
    for faces in ((0, 9), (0, 8)):
        state = game.apply(game.apply(state, Roll(faces)), Stand())  # ann 19, bob 18
    state = game.apply(state, Roll((1, 7)))  # banker soft 18
    values = odds.action_values(state)
    assert values[Stand()] == pytest.approx(-2 + 3)  # loses 2 to ann, takes bob's 3 on the tie
    assert values[Hit()] == pytest.approx(float(banker_best(game.apply(state, Hit()))))


def banker_best(state) -> Fraction:
    """The banker's exact chips from here with best play, walking the engine."""
    if game.is_terminal(state):
        return Fraction(game.settle(state)["bea"])
    if game.current_actor(state) == "bea":
        return max(banker_best(game.apply(state, a)) for a in game.legal_actions(state))
    return sum(p * banker_best(game.apply(state, a)) for a, p in game.chance_outcomes(state))


def test_action_values_need_a_decision():
    with pytest.raises(TableError):
        odds.action_values(heads_up())


def test_report_names_both_house_rules(figures):
    text = odds.report(figures)
    assert "'choose'" in text and "'eleven'" in text and f"{figures['player_edge']:+.5f}" in text
