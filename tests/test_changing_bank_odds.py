"""Odds for Blackjack with a changing bank. The seed prints no figures, so the dealer
is checked against the published infinite-deck tables for a dealer who stands on
all 17s, and the player's values against exact consequences of the game's rules."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from table.errors import TableError
from table.odds import changing_bank as odds
from table.rules import changing_bank as cb
from table.rules.cards import parse_card

# Dealer bust chance by up card, infinite deck, stands on soft 17, before any peek
# for a natural (widely published; e.g. the Wizard of Odds dealer tables).
PUBLISHED_BUST = {"2": 0.3536, "3": 0.3739, "4": 0.3945, "5": 0.4165, "6": 0.4232,
                  "7": 0.2623, "8": 0.2447, "9": 0.2284, "10": 0.2121}


@pytest.fixture(scope="module")
def figures():
    return odds.figures()


def cards(*texts):
    return tuple(parse_card(text) for text in texts)


def stand(hand, up):
    return odds.hand_values(cards(*hand), parse_card(up), cb.Settings(), (cb.STAND,))[cb.STAND]


def hit(hand, up):
    return odds.hand_values(cards(*hand), parse_card(up), cb.Settings(), (cb.HIT,))[cb.HIT]


def test_dealer_busts_as_the_published_tables_say(figures):
    for up, published in PUBLISHED_BUST.items():
        no_natural = 1 - (Fraction(1, 13) if up == "10" else 0)
        assert figures["dealer_bust_by_up_card"][up] * float(no_natural) == pytest.approx(published, abs=5e-4)


def test_dealer_natural_chance_is_exact(figures):
    assert figures["dealer_natural"] == pytest.approx(8 / 169, abs=1e-15)


def test_ties_go_to_the_dealer_so_standing_on_17_is_worth_no_more_than_16():
    for up in ("2", "6", "10", "A"):
        assert stand(("10", "7"), up) == pytest.approx(stand(("10", "6"), up), abs=1e-12)
        assert stand(("10", "6"), up) < stand(("10", "8"), up)


def test_stiff_hands_are_worth_twice_the_dealer_bust_less_one(figures):
    for up, bust in figures["dealer_bust_by_up_card"].items():
        assert stand(("10", "4"), up) == pytest.approx(2 * bust - 1, abs=1e-12)


def test_three_card_bonuses_show_in_the_value_of_hitting():
    """7-7, 8-6 and 9-5 differ only in what a 7 makes: 3x, 2x, or a plain 21."""
    plain_21 = stand(("9", "5", "7"), "10")
    assert hit(("7", "7"), "10") - hit(("9", "5"), "10") == pytest.approx((3 - plain_21) / 13, abs=1e-12)
    assert hit(("8", "6"), "10") - hit(("9", "5"), "10") == pytest.approx((2 - plain_21) / 13, abs=1e-12)


def test_a_charlie_stands_for_its_bonus_whatever_the_dealer_holds():
    assert stand(("2", "3", "2", "4", "A"), "10") == 2
    assert stand(("2", "3", "2", "A", "A", "3"), "A") == 4


def test_more_freedom_never_lowers_the_players_edge():
    base = odds.player_edge()
    assert odds.player_edge(cb.Settings(double_after_split=False)) < base
    assert odds.player_edge(cb.Settings(split_aces_one_card=False)) > base


def test_figures_hold_the_issue_keys_and_survive_json(figures):
    for key in ("player_edge", "interval95", "dealer_rule", "player_strategy", "method"):
        assert key in figures
    assert json.loads(json.dumps(figures)) == figures
    low, high = figures["interval95"]
    assert low < figures["simulated_edge"] < high
    assert figures["simulated_edge"] == pytest.approx((low + high) / 2)
    report = odds.report(figures)
    assert f"{figures['player_edge']:+.4f}" in report and "95% interval" in report


def test_the_exact_infinite_deck_edge_agrees_with_the_engine_played_from_one_pack(figures):
    """A loose cross-check (one pack differs from an infinite deck by about a point):
    a wrong payout or sign in either would put them far apart."""
    low, high = figures["interval95"]
    half = (high - low) / 2
    assert abs(figures["player_edge"] - figures["simulated_edge"]) < 3 * half
    assert -0.10 < figures["player_edge"] < -0.03  # ties and the dealer's double natural favour the bank


def test_the_simulation_is_reproducible():
    assert odds.simulate(300, seed=4) == odds.simulate(300, seed=4)
    assert odds.simulate(300, seed=4) != odds.simulate(300, seed=5)


# ------------------------------------------------------------------ advice for a live state


def dealt(*texts, stakes=None):
    state = cb.new_round(cb.Settings(), ("ann", "bob", "cat"), {"ann": 100, "bob": 100, "cat": 100},
                         {seat: cb.Bets(stake) for seat, stake in (stakes or {"bob": 2}).items()}, banker="ann")
    for step in ("2C",) + texts:
        state = cb.apply(state, cb.Draw(parse_card(step)) if isinstance(step, str) else step)
    return state


def test_player_values_cover_the_legal_moves_in_chips():
    state = dealt("10H", "9S", "6H", "KD")  # bob 16 against a face-up king
    values = odds.action_values(state)
    assert set(values) == set(cb.legal_actions(state))
    assert values[cb.STAND] == pytest.approx(2 * stand(("10", "6"), "K"))
    assert values[cb.DOUBLE] < values[cb.HIT]


def test_only_the_dealers_face_up_card_is_used():
    hidden_ten = odds.action_values(dealt("10H", "KS", "6H", "7D"))
    hidden_six = odds.action_values(dealt("10H", "6S", "6H", "7D"))
    assert hidden_ten == hidden_six


def test_dealer_values_weigh_the_open_hands():
    state = dealt("8H", "9S", "8D", "KD", cb.SPLIT, "QH", cb.STAND, "QC", cb.STAND)
    assert cb.current_actor(state) == "ann"  # dealer 19 against two visible 18s
    values = odds.action_values(state)
    assert values[cb.STAND] == 2 * 2
    assert values[cb.HIT] < values[cb.STAND]
    state = dealt("10H", "9S", "8D", "KD", cb.STAND)  # bob shows 8: no hidden card beats 19
    assert odds.action_values(state)[cb.STAND] == pytest.approx(2.0)


def test_the_dealer_does_not_see_a_players_hidden_card():
    state = dealt("10H", "7S", "9D", "KD", cb.STAND)  # dealer 17; bob's 19 shows only a 9
    # hidden A, 9 or ten-value beat 17 (6/13); 2..7 lose and 8 ties (7/13): stake 2
    assert odds.action_values(state)[cb.STAND] == pytest.approx(2 * (7 - 6) / 13)


def test_no_advice_without_a_decision():
    with pytest.raises(TableError):
        odds.action_values(dealt("10H"))
    over = dealt("AH", "AS", "QH", "KS")
    with pytest.raises(TableError):
        odds.action_values(over)
