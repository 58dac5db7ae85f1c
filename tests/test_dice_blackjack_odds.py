"""The Dice Blackjack odds checked against the engine itself: a memoised game-tree
walk through new_round/apply/chance_outcomes/settle must give exactly the same
Fractions as the DP over totals. (The seed prints no figures to compare with.)"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from table.errors import TableError
from table.odds import dice_blackjack as odds
from table.rules import CHANCE, TERMINAL
from table.rules import dice_blackjack as game
from table.rules.dice_blackjack import Bets, Hit, Roll, Settings, Stand, Use


def engine_value(eng, state, key, banker_move=None, memo=None) -> Fraction:
    """Seat "ann"'s expected chips, walking the engine's own states: ann maximises,
    the banker minimises (or plays `banker_move`), chance averages exactly."""
    memo = {} if memo is None else memo
    k = key(state)
    if k not in memo:
        actor = eng.current_actor(state)
        if actor == TERMINAL:
            memo[k] = Fraction(eng.settle(state)["ann"])
        elif actor == CHANCE:
            memo[k] = sum(p * engine_value(eng, eng.apply(state, a), key, banker_move, memo) for a, p in eng.chance_outcomes(state))
        elif actor != "ann" and banker_move is not None:
            memo[k] = engine_value(eng, eng.apply(state, banker_move(state)), key, banker_move, memo)
        else:
            values = [engine_value(eng, eng.apply(state, a), key, banker_move, memo) for a in eng.legal_actions(state)]
            memo[k] = max(values) if actor == "ann" else min(values)
    return memo[k]


def duel_key(state):
    """Everything the rest of a heads-up round depends on."""
    duel = state.duels[state.turn] if state.turn < len(state.duels) else state.duels[-1]
    player, dealer = duel.player_hand, duel.dealer_hand
    first = player.rolls[0] if len(player.rolls) == 1 else bool(player.rolls)
    return (state.step, state.pending, player.total, player.end, first, dealer.total, dealer.end, bool(dealer.rolls))


def heads_up(settings=Settings()):
    return game.new_round(settings, ("dee", "ann"), {"dee": 100, "ann": 100}, {"ann": Bets(1)}, banker="dee")


@pytest.fixture(scope="module")
def figures():
    return odds.figures()


def test_player_edge_equals_a_walk_through_the_engine(figures):
    exact = engine_value(game, heads_up(), duel_key)
    assert exact == odds.player_edge() and str(exact) == figures["player_edge_exact"]
    assert figures["player_edge"] == float(exact)


def test_simple_dealer_value_equals_the_engine_walk_with_the_engines_own_dealer(figures):
    exact = engine_value(game, heads_up(), duel_key, banker_move=lambda s: game.auto_action(s, None))
    assert str(exact) == figures["player_edge_vs_simple_dealer_exact"]
    assert figures["dealer_choices_worth"] > 0  # the seed's dealer choices do help the dealer


def test_blackjack_setting_moves_the_edge_as_the_engine_does():
    strict = Settings(blackjack_even_if_bust=False, blackjack_pays=1)
    assert engine_value(game, heads_up(strict), duel_key) == odds.player_edge(True, strict) < odds.player_edge()


def test_strategy_table_is_json_and_follows_from_the_values(figures):
    json.dumps(figures)
    table = figures["strategy"]["hit_or_stand"]
    assert set(table) == {str(t) for t in range(4, 21)} and set(table.values()) <= {"hit", "stand"}
    assert table["20"] == "stand"  # 20 stands: only 1-1 improves it and the dealer must still reach 21
    assert table["16"] == "hit"  # below 17 a standing player wins only on a dealer bust
    assert figures["stand_value"]["16"] == figures["stand_value"]["4"]
    assert figures["blackjack_chance_when_hitting_pairs"] == pytest.approx(5 / 36 / 6)


def test_action_values_match_the_engine_walk_for_player_and_dealer():
    state = heads_up()
    for action in (Roll((2, 2)), Hit(), Roll((1, 3))):
        state = game.apply(state, action)  # ann 8, then 1-3: 12, 11, 9
    values = odds.action_values(state)
    assert set(values) == set(game.legal_actions(state))
    for action, value in values.items():
        assert value == pytest.approx(float(engine_value(game, game.apply(state, action), duel_key)))
    stood = game.apply(game.apply(game.apply(heads_up(), Roll((4, 5))), Stand()), Roll((2, 5)))
    stood = game.apply(stood, Roll((2, 3)))  # ann 18; dealer 14, then 2-3: 19, 17 loses, 16
    dealer_values = odds.action_values(stood)
    assert set(dealer_values) == {Use((2, 3)), Use((3,)), Use((2,))}
    assert dealer_values[Use((2, 3))] == pytest.approx(1.0)  # 19 beats 18 outright
    for action, value in dealer_values.items():
        assert value == pytest.approx(-float(engine_value(game, game.apply(stood, action), duel_key)))


def test_action_values_scale_with_the_stake_and_need_a_decision():
    state = game.new_round(Settings(), ("dee", "ann"), {"dee": 100, "ann": 100}, {"ann": Bets(5)}, banker="dee")
    with pytest.raises(TableError):
        odds.action_values(state)  # dice are due
    state = game.apply(state, Roll((3, 4)))
    assert odds.action_values(state)[Stand()] == pytest.approx(5 * float(odds.stand_value(14, True, Settings())))


def test_report_states_the_edge_and_assumptions(figures):
    text = odds.report(figures)
    assert f"{figures['player_edge']:+.5f}" in text and "heads-up" in text
