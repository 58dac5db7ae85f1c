"""Dice Blackjack rules pinned with hand-built rounds: the seed's own examples, the
dealer's restricted choices, Blackjack, settlement in exact chips and bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table import serial
from table.errors import BadBet, BadValue, IllegalAction
from table.rules import CHANCE, TERMINAL
from table.rules import dice_blackjack as game
from table.rules.dice_blackjack import Bets, Hit, Roll, Settings, Stand, Use

SEATS = ("dee", "ann")


def round_helpers(eng, seats, banker):
    """start() and play() for hand-built rounds of a player-banked dice engine (the
    Blackjack Dice tests use them too)."""

    def start(stake=2, settings=None, seats=seats, bankrolls=None, bets=None, banker=banker):
        bankrolls = bankrolls or {seat: 100 for seat in seats}
        bets = bets or {seat: eng.Bets(stake) for seat in seats if seat != banker}
        return eng.new_round(settings or eng.Settings(), seats, bankrolls, bets, banker=banker)

    def play(state, *actions):
        for action in actions:
            assert action in eng.legal_actions(state), (eng.label(action), eng.describe(state))
            state = eng.apply(state, action)
        return state

    return start, play


start, play = round_helpers(game, SEATS, "dee")


def roll(a, b):
    return Roll((a, b))


def test_seed_walkthrough_player_counts_one_die_and_beats_a_forced_18():
    state = play(start(), roll(3, 4))
    assert game.current_actor(state) == "ann" and state.duels[0].player_hand.total == 14
    state = play(state, Hit(), roll(2, 6))
    assert game.legal_actions(state) == (Use((6,)), Use((2,)))  # 2+6 would be 22
    state = play(state, Use((6,)), Stand(), roll(3, 6))
    assert game.is_terminal(state)
    assert state.duels[0].dealer_hand.total == 18 and state.duels[0].dealer_hand.end == "stand"
    assert game.settle(state) == {"dee": -2, "ann": 2}
    assert game.next_banker(state) == "ann"


def test_a_count_of_21_stands_by_itself():
    state = play(start(), roll(3, 5), Hit(), roll(1, 1))  # 16, then 1-1: 18 or 17
    state = play(state, Use((1, 1)), Hit(), roll(3, 5))  # 18 + 3 = 21 is the only count left
    assert state.duels[0].player_hand.total == 21 and state.duels[0].player_hand.end == "stand"
    assert game.current_actor(state) == CHANCE  # the dealer's dice are due


def test_bust_only_when_every_way_of_counting_passes_21():
    state = play(start(), roll(4, 5), Hit(), roll(5, 6))  # 18: 29, 24, 23
    assert state.duels[0].player_hand.end == "bust" and game.is_terminal(state)
    assert state.duels[0].dealer_hand.rolls == ()  # the dealer never rolls
    assert game.settle(state) == {"dee": 2, "ann": -2}
    assert game.next_banker(state) == "dee"


def test_first_roll_of_eleven_doubles_to_a_bust():
    state = play(start(), roll(5, 6))
    assert state.duels[0].player_hand.end == "bust" and game.settle(state)["ann"] == -2


def test_two_pairs_in_a_row_is_blackjack_paid_two_to_one_at_once():
    state = play(start(stake=2), roll(2, 2), Hit(), roll(3, 3))
    assert state.duels[0].player_hand.end == "blackjack" and game.is_terminal(state)
    assert game.settle(state) == {"dee": -4, "ann": 4}
    assert game.next_banker(state) == "ann"


def test_second_pair_that_busts_every_count_is_still_blackjack_unless_set_otherwise():
    state = play(start(), roll(5, 5), Hit(), roll(2, 2))  # 20: 24, 22
    assert state.duels[0].player_hand.end == "blackjack"
    strict = play(start(settings=Settings(blackjack_even_if_bust=False)), roll(5, 5), Hit(), roll(2, 2))
    assert strict.duels[0].player_hand.end == "bust"


def test_a_pair_on_a_later_roll_is_not_blackjack():
    state = play(start(), roll(1, 1), Hit(), roll(1, 2), Use((1, 2)), Hit(), roll(2, 2))
    assert state.duels[0].player_hand.end == "" and game.current_actor(state) == "ann"


def stood_on(total_roll, *more):
    """ann's hand played to a stand; the dealer's first roll is next."""
    return play(start(), total_roll, *more, Stand())


def test_seed_dealer_example_may_tie_or_dodge_a_losing_17():
    state = stood_on(roll(4, 4), Hit(), roll(1, 2), Use((1, 2)))  # ann stands on 19
    state = play(state, roll(2, 5), roll(2, 3))  # dealer 14, then 2-3: 19 tie, 17 loses, 16
    assert game.current_actor(state) == "dee"
    assert set(game.legal_actions(state)) == {Use((2, 3)), Use((3,)), Use((2,))}
    tie = play(state, Use((2, 3)))
    assert game.is_terminal(tie) and game.settle(tie) == {"dee": 0, "ann": 0}
    assert game.next_banker(tie) == "dee"
    dodge = play(state, Use((2,)))
    assert dodge.duels[0].dealer_hand.total == 16 and game.current_actor(dodge) == CHANCE


def test_dealer_who_can_reach_a_non_losing_17_must_take_a_17_or_more():
    state = stood_on(roll(4, 5))  # ann stands on 18
    state = play(state, roll(2, 5), roll(2, 4))  # dealer 14, then 2-4: 20 wins, 18 ties, 16
    assert set(game.legal_actions(state)) == {Use((2, 4)), Use((4,))}
    with pytest.raises(IllegalAction):
        game.apply(state, Use((2,)))


def test_dealer_first_roll_of_17_or_more_stands_even_when_losing():
    state = play(stood_on(roll(4, 5), Hit(), roll(1, 1), Use((1,))), roll(4, 5))  # ann 19, dealer 18
    assert game.is_terminal(state) and game.settle(state)["ann"] == 2


def test_dealer_must_hit_below_17_even_when_ahead_but_may_take_a_tie():
    ahead = play(stood_on(roll(2, 4)), roll(1, 6))  # ann 12, dealer 14
    assert game.current_actor(ahead) == CHANCE
    level = play(stood_on(roll(3, 4)), roll(3, 4))  # ann 14, dealer 14
    assert game.current_actor(level) == "dee" and game.legal_actions(level) == (Hit(), Stand())
    assert game.settle(play(level, Stand())) == {"dee": 0, "ann": 0}


def test_dealer_forced_to_the_only_safe_count_and_dealer_bust_pays():
    forced = play(stood_on(roll(3, 4)), roll(2, 6), roll(5, 6))  # ann 14; dealer 16: 27, 22, 21
    assert forced.duels[0].dealer_hand.total == 21 and game.settle(forced) == {"dee": 2, "ann": -2}
    bust = play(stood_on(roll(4, 5)), roll(4, 4), roll(6, 6))  # ann 18; dealer 16: 28, 22
    assert bust.duels[0].dealer_hand.end == "bust" and game.settle(bust) == {"dee": -2, "ann": 2}


def test_each_player_duels_the_dealer_in_seat_order():
    seats = ("dee", "ann", "bob")
    state = start(seats=seats, bets={"ann": Bets(3), "bob": Bets(5)})
    state = play(state, roll(5, 6))  # ann busts at once
    assert game.current_actor(state) == CHANCE and state.turn == 1  # bob's first roll
    state = play(state, roll(4, 5), Stand(), roll(3, 3), roll(1, 2), Use((1, 2)))  # bob 18, dealer 12 -> 15
    state = play(state, roll(1, 2), Use((1, 2)))  # dealer 18: tie
    assert game.settle(state) == {"dee": 3, "ann": -3, "bob": 0}


def test_short_dealer_pays_winners_in_seat_order_after_collecting():
    seats = ("dee", "ann", "bob", "cat")
    bets = {"ann": Bets(5), "bob": Bets(4), "cat": Bets(2)}
    state = start(seats=seats, bankrolls={"dee": 3, "ann": 50, "bob": 50, "cat": 50}, bets=bets)
    state = play(state, roll(1, 1), Hit(), roll(2, 2))  # ann Blackjack: owed 10
    state = play(state, roll(5, 6))  # bob busts: 4 to the dealer
    state = play(state, roll(4, 5), Stand(), roll(6, 6))  # cat 18, dealer bust: owed 2
    assert game.settle(state) == {"dee": -3, "ann": 7, "bob": -4, "cat": 0}


def test_refuse_rule_turns_away_bets_the_dealer_cannot_cover():
    with pytest.raises(BadBet, match="could owe"):
        start(settings=Settings(short_banker="refuse"), bankrolls={"dee": 3, "ann": 50})
    assert start(settings=Settings(short_banker="refuse"), stake=2, bankrolls={"dee": 4, "ann": 50})


def test_refuse_rule_covers_a_plain_win_when_a_blackjack_pays_less():
    """With blackjack_pays=0 the dealer was asked to cover nothing, yet a plain win
    still pays one stake, which a short dealer then could not."""
    cheap = Settings(short_banker="refuse", blackjack_pays=0)
    with pytest.raises(BadBet, match="could owe 2"):
        start(settings=cheap, stake=2, bankrolls={"dee": 1, "ann": 50})
    assert start(settings=cheap, stake=2, bankrolls={"dee": 2, "ann": 50})


def test_without_a_dealer_the_highest_die_deals_and_ties_roll_again():
    seats = ("ann", "bob", "cat")
    state = game.new_round(Settings(), seats, {s: 50 for s in seats}, {s: Bets(2) for s in seats})
    assert game.chance_outcomes(state)[0][0] == Roll((1,))
    state = play(state, Roll((6,)), Roll((2,)), Roll((6,)))
    assert state.roll_off.rollers == ("ann", "cat")
    state = play(state, Roll((3,)), Roll((5,)))
    assert state.table.banker == "cat" and [d.player for d in state.duels] == ["ann", "bob"]


@pytest.mark.parametrize(
    "bets, bankrolls",
    [
        ({"ann": Bets(0)}, None),
        ({"ann": Bets(101)}, None),
        ({"ann": Bets(60)}, {"dee": 100, "ann": 50}),
        ({"zed": Bets(2)}, None),
        ({"ann": Bets("2")}, None),
    ],
)
def test_bad_bets_are_refused(bets, bankrolls):
    with pytest.raises(BadBet):
        start(bets=bets, bankrolls=bankrolls)


def test_bad_dice_and_wrong_moves_are_refused_and_change_nothing():
    state = play(start(), roll(3, 4))
    snapshot = serial.dumps(state)
    with pytest.raises(IllegalAction):
        game.apply(state, roll(2, 2))  # ann must decide, no dice due
    with pytest.raises(IllegalAction):
        game.apply(state, Use((3,)))
    rolling = play(state, Hit())
    with pytest.raises(BadValue):
        game.apply(rolling, Roll((7, 1)))
    with pytest.raises(BadValue):
        game.apply(rolling, Roll((3,)))
    with pytest.raises(BadValue):
        game.parse_outcome(rolling, "0 4")
    assert game.parse_outcome(rolling, "5 2") == roll(2, 5)
    assert serial.dumps(state) == snapshot


def test_chance_outcomes_are_the_21_unordered_rolls():
    outcomes = game.chance_outcomes(start())
    assert len(outcomes) == 21 and sum(p for _, p in outcomes) == 1
    assert dict(outcomes)[roll(1, 1)] * 36 == 1 and dict(outcomes)[roll(1, 2)] * 36 == 2


def test_a_whole_round_survives_a_recording():
    state = play(start(), roll(2, 2), Hit(), roll(1, 5), Use((5,)), Stand(), roll(2, 3))
    assert serial.loads(serial.dumps(state)) == state
    assert "ann" in game.describe(state) and game.current_actor(state) == CHANCE
    done = play(state, roll(4, 5))  # dealer 10: only 19 is allowed against 13, so it is taken
    assert done.duels[0].dealer_hand.total == 19
    assert game.current_actor(done) == TERMINAL and "Settled" in game.describe(done)


def test_refuse_rule_without_a_dealer_leaves_out_of_the_roll_off_whoever_cannot_cover():
    """cat's 3 chips could owe 8 (two stakes of 2, a Blackjack paying double): cat does
    not roll for the dice, and the others still play. Only when no seat could cover is
    the round refused, saying what each holds and could owe."""
    seats = ("ann", "bob", "cat")
    refuse = Settings(short_banker="refuse")
    bets = {"ann": Bets(2), "bob": Bets(2)}
    state = game.new_round(refuse, seats, {"ann": 50, "bob": 50, "cat": 3}, bets)
    assert state.roll_off.rollers == ("ann", "bob")
    assert "cat cannot cover the others' bets, so not rolling" in game.describe(state)
    state = game.new_round(refuse, seats, {"ann": 50, "bob": 50, "cat": 0}, bets)
    assert state.roll_off.rollers == ("ann", "bob")  # cat has nothing to bank with
    assert "cannot cover" not in game.describe(state)
    assert game.new_round(Settings(), seats, {"ann": 50, "bob": 50, "cat": 3}, bets).roll_off.rollers == seats
    everyone = {seat: Bets(2) for seat in seats}
    with pytest.raises(BadBet, match=r"^nobody can bank these bets: .*\(ann holds 3 chips but could owe 8, "
                                     r"bob holds 3 chips but could owe 8, cat holds 4 chips but could owe 8\)$"):
        game.new_round(refuse, seats, {"ann": 3, "bob": 3, "cat": 4}, everyone)


def test_under_refuse_a_winner_who_cannot_cover_passes_the_dice_to_the_next_seat_that_can():
    """ann wins and would deal, but her 3 chips cannot pay the smallest bet (1) from
    dee and bob at a Blackjack's double (4): the dice go on round the table to bob.
    Once the bets are placed, banker_for passes them on again if bob cannot cover
    those, and ann then plays with her own bet."""
    seats = ("dee", "ann", "bob")
    bankrolls = {"dee": 100, "ann": 2, "bob": 100}
    bets = {"ann": Bets(1), "bob": Bets(2)}
    rounds = {rule: play(start(settings=Settings(short_banker=rule), seats=seats, bankrolls=bankrolls, bets=bets),
                         roll(4, 5), Stand(), roll(6, 6), roll(5, 6))  # ann 18 beats a bust; bob busts
              for rule in ("seat-order", "refuse")}
    assert game.settle(rounds["refuse"]) == {"dee": 1, "ann": 1, "bob": -2}
    assert game.next_banker(rounds["seat-order"]) == "ann"
    assert game.next_banker(rounds["refuse"]) == "bob"

    refuse = Settings(short_banker="refuse")
    after = {"dee": 101, "ann": 3, "bob": 98}
    assert game.banker_for(refuse, seats, after, {"dee": Bets(5), "ann": Bets(1), "bob": Bets(5)}, "bob") == "bob"
    big = {"dee": Bets(49), "ann": Bets(1), "bob": Bets(5)}  # bob could owe 100 of his 98; dee 12 of 101
    assert game.banker_for(refuse, seats, after, big, "bob") == "dee"
    assert game.banker_for(Settings(), seats, after, big, "bob") == "bob"
    state = game.new_round(refuse, seats, after, big, banker="dee")
    assert state.table.banker == "dee" and [duel.player for duel in state.duels] == ["ann", "bob"]


@settings(max_examples=60, deadline=None)
@given(
    banker_chips=st.integers(0, 30),
    results=st.lists(st.tuples(st.integers(1, 20), st.sampled_from((-1, 0, 1, 2))), min_size=1, max_size=5),
)
def test_short_banker_settlement_balances_and_never_overdraws(banker_chips, results):
    from table.rules.dice_hands import Limits, open_table, settle_with_banker

    seats = ("bank",) + tuple(f"p{n}" for n in range(len(results)))
    bankrolls = {"bank": banker_chips, **{seat: 20 for seat in seats[1:]}}
    bets = {seat: Bets(stake) for seat, (stake, _) in zip(seats[1:], results)}
    table = open_table(Limits(max_bet=20), seats, bankrolls, bets, "bank", best_payout=2)
    net = settle_with_banker(table, Limits(), {seat: units for seat, (_, units) in zip(seats[1:], results)})
    assert sum(net.values()) == 0
    assert all(bankrolls[seat] + chips >= 0 for seat, chips in net.items())
    for seat, (stake, units) in zip(seats[1:], results):
        assert net[seat] == units * stake if units <= 0 else 0 <= net[seat] <= units * stake
    if banker_chips - sum(min(units, 0) * stake for stake, units in results) >= sum(max(u, 0) * s for s, u in results):
        assert all(net[seat] == units * stake for seat, (stake, units) in zip(seats[1:], results))


def test_describe_says_whats_due_the_ways_to_count_and_why_each_duel_ended():
    seats = ("ann", "bob", "cat")
    state = game.new_round(Settings(), seats, {s: 50 for s in seats}, {s: Bets(2) for s in seats})
    state = play(state, Roll((6,)), Roll((2,)), Roll((6,)))
    assert "ann and cat tied, so they roll again" in game.describe(state)
    state = play(start(), roll(3, 4))
    assert "ann (bet 2 of 100 chips): 3-4 doubled = 14" in game.describe(state)
    state = play(state, Hit())
    assert "next: ann rolls 2 dice" in game.describe(state)
    state = play(state, roll(1, 5))
    assert "(both make 20, the 5 makes 19, the 1 makes 15)" in game.describe(state)
    done = play(state, Use((5,)), Stand(), roll(4, 5))
    assert "ann wins 2 chip(s): 19 against the dealer's 18" in game.describe(done)
    tie = play(start(), roll(4, 5), Stand(), roll(2, 2), roll(5, 5))  # dealer 8, then 10 ties 18
    assert "tie at 18: no chips change hands" in game.describe(tie)
    blackjack = play(start(stake=3), roll(2, 2), Hit(), roll(3, 3))
    assert "ann wins 6 chip(s): Blackjack" in game.describe(blackjack)
