"""Domino 21 rules pinned with hand-built rounds: tile values, the special 21, the
exposure rule, every settlement path in exact chips, and refusal of bad input."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import pytest

from table import serial
from table.errors import BadBet, BadValue, IllegalAction, TableError
from table.rules import CHANCE, TERMINAL
from table.rules import domino21 as d
from table.rules.tiles import Tile, full_set, parse_tile

SEATS = ("bank", "ann", "bob")


def t(text: str) -> Tile:
    return parse_tile(text)


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tile(part) for part in text.split())


def start(prices=None, chips=None, settings=d.Settings(), seats=SEATS, banker="bank"):
    prices = {"ann": 2, "bob": 1} if prices is None else prices
    bankrolls = {seat: 100 for seat in seats} if chips is None else chips
    return d.new_round(settings, seats, bankrolls, {s: d.Bets(p) for s, p in prices.items()}, banker=banker)


def play(state, script: str):
    """Words: a tile like 3-5 is drawn, 'hit', 'stand', 'up:3-5' exposes,
    'say:19' / 'say:over' is the banker's announcement."""
    for word in script.split():
        if word == "hit":
            action = d.Hit()
        elif word == "stand":
            action = d.Stand()
        elif word.startswith("up:"):
            action = d.Expose(t(word[3:]))
        elif word.startswith("say:"):
            action = d.Announce(None if word == "say:over" else int(word[4:]))
        else:
            action = d.Draw(t(word))
        state = d.apply(state, action)
    return state


# ---------------------------------------------------------------- tiles


@pytest.mark.parametrize("text, low, high", [("3-5", 3, 5), ("[0-0]", 0, 0), (" 6|2 ", 2, 6), ("4 4", 4, 4), ("[5-3]", 3, 5)])
def test_tiles_parse_in_the_ways_people_type_them(text, low, high):
    assert parse_tile(text) == Tile(low, high)


@pytest.mark.parametrize("text", ["7-1", "35", "", "[3-]", "-1-2", "3-5-1", "a-b", "10-1"])
def test_impossible_tiles_are_bad_values(text):
    with pytest.raises(BadValue):
        parse_tile(text)


def test_tile_halves_are_checked_and_order_does_not_matter():
    assert Tile(5, 3) == Tile(3, 5) and str(Tile(5, 3)) == "[3-5]"
    for low, high in ((7, 1), (-1, 2), (True, 2), ("3", 4)):
        with pytest.raises(BadValue):
            Tile(low, high)


def test_a_double_six_set_has_28_tiles_seven_of_them_doubles():
    tiles_ = full_set()
    assert len(set(tiles_)) == 28 and sum(tile.is_double for tile in tiles_) == 7


# ---------------------------------------------------------------- values


@pytest.mark.parametrize("text, values", [
    ("4-4", {4, 8}), ("0-4", {4, 11}), ("0-0", {0, 7, 14}), ("2-5", {7}), ("6-6", {6, 12}), ("0-6", {6, 13}),
])
def test_tile_values_follow_the_three_rules(text, values):
    assert d.tile_values(t(text)) == frozenset(values)


def test_hand_totals_and_best_total():
    assert d.hand_totals(tiles("4-4 0-4")) == {8, 15, 12, 19}
    assert d.best_total(tiles("4-4 0-4")) == 19
    assert d.hand_totals(tiles("0-0 0-1")) == {1, 8, 15, 22}
    assert d.best_total(tiles("6-6 5-6 5-5")) is None  # 6 + 11 + 5 = 22 at the least
    assert d.best_total(()) == 0


def test_a_hand_cannot_hold_a_tile_twice():
    with pytest.raises(BadValue):
        d.hand_totals(tiles("3-5 5-3"))


def test_the_seed_names_four_special_hands_and_pips_reading_finds_exactly_four():
    others = [tile for tile in full_set() if tile != d.DOUBLE_BLANK]
    special = [pair for pair in combinations(others, 2)
               if d.is_special_21((d.DOUBLE_BLANK,) + pair, d.Settings())]
    assert sorted(special) == sorted([tiles("3-6 6-6"), tiles("4-5 6-6"), tiles("4-6 5-6"), tiles("5-5 5-6")])
    loose = d.Settings(special_21="any")
    assert d.is_special_21(tiles("0-0 0-3 4-4"), loose) and not d.is_special_21(tiles("0-0 0-3 4-4"), d.Settings())
    assert not d.is_special_21(tiles("6-6 3-6 4-5"), loose)  # no [0-0]
    assert not d.is_special_21(tiles("0-0 6-6 3-6 0-1"), loose)  # four tiles


@pytest.mark.parametrize("match, tiles_held, price, chips", [
    ("tiles-squared", 2, 1, 4), ("tiles-squared", 5, 1, 25), ("tiles-squared", 3, 2, 18),
    ("stake-squared", 3, 2, 36), ("stake-squared", 2, 1, 4),
])
def test_the_banker_matches_the_square(match, tiles_held, price, chips):
    assert d.banker_match(d.Settings(match=match), price, tiles_held) == chips


# ---------------------------------------------------------------- flow


def test_tiles_are_drawn_uniformly_from_the_boneyard():
    state = start()
    assert d.current_actor(state) == CHANCE
    outcomes = d.chance_outcomes(state)
    assert len(outcomes) == 28 and {p for _, p in outcomes} == {Fraction(1, 28)}
    state = play(state, "6-6 3-4 5-5 1-2 5-6 2-4")
    assert d.current_actor(state) == "ann"  # first to the banker's left plays first
    state = play(state, "stand hit")
    outcomes = d.chance_outcomes(state)
    assert len(outcomes) == 22 and sum(p for _, p in outcomes) == 1
    assert all(draw.tile not in d.in_play(state) for draw, _ in outcomes)


def test_a_tile_in_play_is_refused_and_changes_nothing():
    state = play(start(), "6-6 3-4")
    before = serial.dumps(state)
    with pytest.raises(IllegalAction, match=r"\[6-6\] is already in play"):
        d.apply(state, d.Draw(t("6-6")))
    with pytest.raises(BadValue):
        d.parse_outcome(state, "3-4")
    with pytest.raises(BadValue):
        d.parse_outcome(state, "7-1")
    assert d.parse_outcome(state, "[2-1]") == d.Draw(Tile(1, 2))
    assert serial.dumps(state) == before


def test_after_each_hit_one_of_three_face_down_tiles_is_exposed():
    state = play(start(), "6-6 3-4 5-5 1-2 5-6 2-4 stand hit 2-3")
    assert d.current_actor(state) == "bob" and state.step == "expose"
    assert set(d.legal_actions(state)) == {d.Expose(t("5-5")), d.Expose(t("1-2")), d.Expose(t("2-3"))}
    with pytest.raises(IllegalAction):
        d.apply(state, d.Stand())
    state = play(state, "up:5-5")
    bob = state.hands[1]
    assert [held.face_up for held in bob.held] == [True, False, False]
    assert bob.face_down == tiles("1-2 2-3")
    assert d.face_up_tiles(state) == {t("5-5")}  # all the camera may see
    assert state.step == "decide" and d.current_actor(state) == "bob"
    assert serial.loads(serial.dumps(state)) == state


def test_a_full_round_settles_in_exact_chips():
    state = play(start(), "6-6 3-4 5-5 1-2 5-6 2-4 stand hit 2-3 up:5-5 stand")
    assert d.current_actor(state) == "bank"
    state = play(state, "stand")
    assert state.step == "announce"
    assert d.legal_actions(state) == (d.Announce(17), d.Announce(None))
    state = play(state, "say:17")
    assert d.is_terminal(state) and d.current_actor(state) == TERMINAL
    # ann 19 beats 17 with two tiles at 2: match 2*2*2 = 8; bob 18 with three tiles at 1: 9.
    assert d.settle(state) == {"bank": -17, "ann": 8, "bob": 9}
    assert all(held.face_up for hand in state.hands for held in hand.held)
    text = d.describe(state)
    assert "bank announced 17" in text and "bob +9" in text and "[5-5] [1-2] [2-3]" in text


def test_an_unfinished_round_cannot_be_settled():
    with pytest.raises(TableError, match="not over"):
        d.settle(play(start(), "6-6 3-4"))


def test_ties_go_to_the_banker_and_lower_hands_pay_their_stake():
    state = play(start(), "6-6 3-4 2-3 1-4 5-6 0-1 stand stand stand say:19")
    # ann 19 ties the banker's 19 ([5-6] + [0-1] as 8); bob's 5+5 = 10 loses.
    assert d.settle(state) == {"bank": 6, "ann": -4, "bob": -2}


def test_a_busted_player_shows_all_and_pays_at_once():
    state = play(start({"ann": 2}), "6-6 5-6 1-1 2-2 hit 5-5")
    ann = state.hands[0]
    assert ann.finished and all(held.face_up for held in ann.held)
    assert d.is_terminal(state)  # every player bust: the banker does not play
    assert d.settle(state) == {"bank": 6, "ann": -6, "bob": 0}


@pytest.mark.parametrize("rule, ann", [("pays-match", 8), ("pays-stake", 4), ("refunds", 0)])
def test_a_banker_over_21_pays_by_the_chosen_rule_and_keeps_tiles_hidden(rule, ann):
    state = play(start({"ann": 2}, settings=d.Settings(bank_over=rule)), "1-2 2-2 6-6 5-6 stand hit 5-5")
    assert d.is_terminal(state) and state.banker_total is None
    assert not any(held.face_up for held in state.hands[-1].held)
    assert d.settle(state) == {"bank": -ann, "ann": ann, "bob": 0}


def test_the_banker_may_concede_without_showing_or_must_show_when_the_table_says_so():
    conceded = play(start({"ann": 2}), "1-2 2-2 6-6 5-6 stand stand say:over")
    assert d.settle(conceded) == {"bank": -8, "ann": 8, "bob": 0}
    assert not any(held.face_up for held in conceded.hands[-1].held)
    strict = play(start({"ann": 2}, settings=d.Settings(banker_may_concede=False)), "1-2 2-2 6-6 5-6 stand stand")
    assert d.is_terminal(strict) and strict.banker_total == 17
    assert d.settle(strict) == {"bank": 4, "ann": -4, "bob": 0}


def test_the_special_three_tile_21_beats_a_banker_21():
    state = play(start({"ann": 2}), "0-0 6-6 5-6 4-6 hit 3-6 up:6-6 stand stand say:21")
    assert d.settle(state) == {"bank": -18, "ann": 18, "bob": 0}


def test_a_plain_21_loses_to_the_bankers_special_21():
    state = play(start({"ann": 2}), "6-6 3-6 0-0 5-6 stand hit 4-6 up:5-6 stand say:21")
    assert d.is_special_21(state.hands[-1].tiles, state.settings)
    assert d.settle(state) == {"bank": 4, "ann": -4, "bob": 0}


def test_hits_stop_at_nine_tiles():
    state = play(start({"ann": 1}), "0-0 0-1 5-6 4-6")
    for tile in ("1-1", "0-2", "2-2", "1-2", "0-3", "3-3", "0-4"):
        state = play(state, f"hit {tile} up:{tile}")
    assert len(state.hands[0].held) == 9 and d.best_total(state.hands[0].tiles) == 21
    assert d.legal_actions(state) == (d.Stand(),)
    with pytest.raises(IllegalAction, match="cannot buy another tile"):
        d.apply(state, d.Hit())


# ---------------------------------------------------------------- the bank's cover

TWO_PLAYERS = "0-1 1-1 2-3 2-4 3-4 2-5 hit 1-2 up:1-2"


def test_a_hit_is_not_sold_when_the_bank_could_not_pay_the_bigger_pot():
    chips = {"bank": 13, "ann": 100, "bob": 100}
    state = play(start({"ann": 1, "bob": 1}, chips), TWO_PLAYERS)
    # ann at 4 tiles would need 16 + bob's 4 = 20 chips of cover; the bank holds 13.
    assert d.legal_actions(state) == (d.Stand(),)


def test_under_seat_order_the_bank_pays_winners_in_turn_until_it_runs_dry():
    chips = {"bank": 13, "ann": 100, "bob": 100}
    state = play(start({"ann": 1, "bob": 1}, chips, d.Settings(bank_cover="seat-order")), TWO_PLAYERS)
    state = play(state, "hit 0-2 up:0-1 stand stand stand say:14")
    assert d.best_total(state.hands[0].tiles) == 21
    # ann is owed 16 but the bank has its 13 plus bob's lost 2.
    assert d.settle(state) == {"bank": -13, "ann": 15, "bob": -2}


def test_a_player_cannot_buy_a_tile_his_bankroll_does_not_cover():
    chips = {"bank": 100, "ann": 5, "bob": 100}
    state = play(start({"ann": 2}, chips), "1-2 2-2 6-6 5-6")
    assert d.legal_actions(state) == (d.Stand(),)  # a third tile would make the stake 6


# ---------------------------------------------------------------- bets and the bank


@pytest.mark.parametrize("prices, chips, message", [
    ({"ann": 0}, None, "price per tile"),
    ({"ann": 101}, None, "price per tile"),
    ({"ann": 51}, None, "cost 102 chips"),
    ({"ann": 2, "bob": 1}, {"bank": 11, "ann": 100, "bob": 100}, "opening pots need 12"),
    ({"zed": 1}, None, "not at the table"),
])
def test_bad_bets_are_refused(prices, chips, message):
    with pytest.raises(BadBet, match=message):
        start(prices, chips)


def test_bad_table_setup_is_refused():
    with pytest.raises(BadBet):
        start(banker="zed")
    with pytest.raises(BadBet):
        d.new_round(d.Settings(), ("ann",), {"ann": 10}, {})
    with pytest.raises(BadBet):
        start(chips={"bank": -1, "ann": 10, "bob": 10})
    with pytest.raises(BadBet):
        d.new_round(d.Settings(), SEATS, {s: 100 for s in SEATS}, {"ann": 3})
    with pytest.raises(TableError):
        d.Settings(bank_over="sometimes")
    with pytest.raises(BadBet):
        d.parse_bets(d.Settings(), "lots")
    assert d.parse_bets(d.Settings(), " 3 ") == d.Bets(3)


def test_the_bankers_own_bet_is_void_and_a_round_without_players_is_over():
    state = start({"bank": 5, "ann": 2})
    assert [hand.owner for hand in state.hands] == ["ann", "bank"]
    empty = start({})
    assert d.is_terminal(empty) and d.settle(empty) == {"bank": 0, "ann": 0, "bob": 0}


def test_with_no_banker_named_the_first_seat_that_covers_the_others_banks():
    chips = {"bank": 3, "ann": 100, "bob": 100}
    state = start({"bank": 1, "ann": 1, "bob": 1}, chips, banker=None)
    assert state.banker == "ann" and [hand.owner for hand in state.hands] == ["bob", "bank", "ann"]


def test_the_bank_rotates_left_past_anyone_who_cannot_cover():
    state = play(start({"ann": 2}), "1-2 2-2 6-6 5-6 stand stand say:17")
    assert d.next_banker(state) == "ann"
    poor = play(start({"bob": 1}, {"bank": 100, "ann": 5, "bob": 100}), "1-2 2-2 6-6 5-6 stand stand say:17")
    assert d.next_banker(poor) == "bob"  # ann's 5 chips cannot cover two opening pots of 4


def test_once_the_prices_are_bet_the_bank_passes_over_a_seat_that_cannot_cover_them():
    """bob's 10 chips cover two opening pots at the lowest price (8), so the bank comes
    to him; at the prices bet (2 a tile: 16) they do not, and it goes on to bank."""
    state = play(start({"bob": 1}, {"bank": 100, "ann": 100, "bob": 12}, banker="ann"),
                 "1-2 2-2 6-6 5-6 stand stand say:17")  # bob's 7 loses 2 to ann's 17
    assert d.next_banker(state) == "bob"
    chips = {"bank": 100, "ann": 102, "bob": 10}
    prices = {seat: d.Bets(2) for seat in SEATS}
    assert d.banker_for(d.Settings(), SEATS, chips, prices, "bob") == "bank"
    assert d.banker_for(d.Settings(), SEATS, chips, {"bank": d.Bets(1), "ann": d.Bets(1)}, "bob") == "bob"
    assert d.banker_for(d.Settings(), SEATS, chips, prices, None) is None
    dealt = d.new_round(d.Settings(), SEATS, chips, prices, banker="bank")
    assert [hand.owner for hand in dealt.hands] == ["ann", "bob", "bank"]  # bob plays his bet
    with pytest.raises(BadBet, match="^nobody can bank these bets"):
        d.banker_for(d.Settings(), SEATS, {"bank": 10, "ann": 10, "bob": 10}, prices, "bob")


def test_apply_never_changes_the_state_it_is_given():
    state = play(start(), "6-6 3-4 5-5 1-2 5-6 2-4 stand hit")
    before = serial.dumps(state)
    after = d.apply(state, d.Draw(t("2-3")))
    assert serial.dumps(state) == before and after != state


def test_auto_play_bets_the_lowest_price_and_takes_legal_actions():
    bets = d.auto_bets(d.Settings(), SEATS, {"bank": 100, "ann": 1, "bob": 9}, random.Random(1))
    assert bets == {"bank": d.Bets(1), "bob": d.Bets(1)}
    state = play(start(), "0-1 1-1 5-5 1-2 5-6 2-4")
    assert d.auto_action(state, random.Random(1)) == d.Hit()  # best 10 is under 17
    state = play(state, "hit 0-2")
    assert d.auto_action(state, random.Random(1)) == d.Expose(t("0-1"))  # the fewest pips
    with pytest.raises(TableError):
        d.auto_action(play(state, "up:0-1 hit"), random.Random(1))  # a draw is not a decision


def test_describe_says_whats_due_what_a_hit_costs_and_why_each_pot_went_as_it_did():
    state = start()
    assert "next: a tile for ann, 1 of 2" in d.describe(state)
    state = play(state, "6-6 3-4 5-5 1-2 5-6 2-4")
    text = d.describe(state)
    assert "ann (2/tile of 100 chips; stake 4, banker's match 8): (6-6) (3-4)  best 19" in text
    assert "a hit costs 2 more (stake 6) and the banker's match grows to 18" in text
    state = play(state, "stand hit 2-3")
    assert "bob turns one of his three face-down tiles face up" in d.describe(state)
    done = play(state, "up:5-5 stand stand say:17")
    assert "best 19 -> wins the match: 19 against 17" in d.describe(done)
    bust = play(start({"ann": 2}), "6-6 5-6 1-1 2-2 hit 5-5")
    assert "BUST -> loses his stake: over 21" in d.describe(bust)


def test_auto_bets_stop_once_no_seat_could_bank_for_the_others():
    rng = random.Random(1)
    assert d.auto_bets(d.Settings(), SEATS, {"bank": 8, "ann": 2, "bob": 2}, rng) == {
        seat: d.Bets(1) for seat in SEATS}  # bank covers two opening pots of 4
    assert d.auto_bets(d.Settings(), SEATS, {"bank": 7, "ann": 7, "bob": 1}, rng) == {
        "bank": d.Bets(1), "ann": d.Bets(1)}  # either can bank for the other's 4
    assert d.auto_bets(d.Settings(), SEATS, {"bank": 149, "ann": 1, "bob": 0}, rng) == {}
