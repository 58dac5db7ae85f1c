"""Blackjack Dice rules pinned with hand-built rounds: 0 as ten, the 1 as one or eleven,
Blackjack, ties to the banker, busts, both banker's-1 house rules, the first banker."""

from __future__ import annotations

import pytest
from test_dice_blackjack_rules import round_helpers

from table import serial
from table.errors import BadBet, BadValue, IllegalAction
from table.rules import CHANCE, TERMINAL
from table.rules import blackjack_dice as game
from table.rules.blackjack_dice import Bets, Hit, Roll, Settings, Stand

SEATS = ("bea", "ann")


start, play = round_helpers(game, SEATS, "bea")


def dice(*faces):
    return Roll(faces)


def test_hand_values_count_zero_as_ten_and_a_one_as_eleven_when_it_fits():
    assert game.hand_total((0, 7)) == 17
    assert game.hand_total((1, 7)) == 18
    assert game.hand_total((1, 0, 5)) == 16
    assert game.hand_total((1, 1)) == 12
    assert game.hand_total((0, 9, 5)) == 24
    assert game.is_blackjack((1, 0)) and not game.is_blackjack((0, 1, 0)) and not game.is_blackjack((9, 2))


def test_two_dice_21_is_blackjack_and_wins_at_once():
    state = play(start(stake=3), dice(0, 1))
    assert state.hands[0].end == "blackjack" and game.is_terminal(state)
    assert state.banker_hand.dice == ()  # nobody left for the banker to beat
    assert game.settle(state) == {"bea": -3, "ann": 3}


def test_blackjack_beats_a_banker_21_but_a_hit_21_only_ties_and_loses():
    seats = ("bea", "ann", "bob")
    state = start(seats=seats)
    state = play(state, dice(0, 1), dice(1, 1), Hit(), dice(9))  # ann Blackjack, bob 1+1+9 = 21
    assert state.hands[1].end == "stand"
    state = play(state, dice(0, 1), Stand())  # the banker keeps the 1 as eleven: 21
    assert game.settle(state) == {"bea": 0, "ann": 2, "bob": -2}


def test_player_one_as_eleven_beats_a_banker_17():
    state = play(start(), dice(1, 7), Stand(), dice(0, 7))
    assert game.is_terminal(state) and game.settle(state) == {"bea": -2, "ann": 2}


def test_ties_go_to_the_banker():
    state = play(start(), dice(0, 8), Stand(), dice(9, 9))
    assert game.settle(state) == {"bea": 2, "ann": -2}


def test_bust_loses_even_when_the_banker_busts_too():
    seats = ("bea", "ann", "bob")
    state = start(seats=seats, bets={"ann": Bets(4), "bob": Bets(5)})
    state = play(state, dice(0, 5), Hit(), dice(9))  # ann 24
    state = play(state, dice(0, 2), Stand())  # bob 12
    state = play(state, dice(0, 5), dice(9))  # banker 15, must draw, 24
    assert state.banker_hand.end == "bust"
    assert game.settle(state) == {"bea": -1, "ann": -4, "bob": 5}


def test_banker_draws_below_17_and_stops_on_17():
    state = play(start(), dice(0, 9), Stand(), dice(2, 3))
    assert game.current_actor(state) == CHANCE
    state = play(state, dice(2), dice(0))
    assert state.banker_hand.end == "stand" and game.hand_total(state.banker_hand.dice) == 17
    assert game.settle(state)["ann"] == 2


def test_banker_who_chooses_may_count_a_1_as_one_and_draw_on():
    state = play(start(), dice(0, 9), Stand(), dice(1, 6))  # ann 19; banker soft 17
    assert game.current_actor(state) == "bea" and game.legal_actions(state) == (Hit(), Stand())
    assert game.settle(play(state, Stand()))["ann"] == 2
    drew = play(state, Hit(), dice(2))  # soft 19: a choice again
    assert game.current_actor(drew) == "bea"
    assert game.settle(play(drew, Stand()))["ann"] == -2  # tie goes to the banker


def test_banker_whose_1_is_always_eleven_stands_on_soft_17():
    state = play(start(settings=Settings(banker_one="eleven")), dice(0, 9), Stand(), dice(1, 6))
    assert game.is_terminal(state) and game.settle(state)["ann"] == 2


def test_a_1_that_would_bust_as_eleven_counts_one_for_either_rule():
    for rule in ("choose", "eleven"):
        state = play(start(settings=Settings(banker_one=rule)), dice(0, 9), Stand(), dice(1, 1))
        assert game.current_actor(state) == CHANCE  # 12 (or 2): must draw, not bust
        state = play(state, dice(0), dice(5))  # 1+1+10+5 = 17 hard
        assert state.banker_hand.end == "stand" and game.settle(state)["ann"] == 2


def test_first_banker_is_the_lowest_d10_with_zero_as_ten():
    assert game.first_banker({"ann": 3, "bob": 0, "cat": 1}) == "cat"
    assert game.first_banker({"ann": 0, "bob": 9}) == "bob"
    assert game.first_banker({"ann": 4, "bob": 4, "cat": 6}) is None
    with pytest.raises(BadValue):
        game.first_banker({"ann": 10})


def test_without_a_banker_the_table_rolls_off_and_the_bankers_bet_is_not_taken():
    seats = ("ann", "bob", "cat")
    state = game.new_round(Settings(), seats, {s: 50 for s in seats}, {s: Bets(2) for s in seats})
    assert len(game.chance_outcomes(state)) == 10
    state = play(state, dice(3), dice(0), dice(3))
    assert state.roll_off.rollers == ("ann", "cat") and state.table.banker is None
    state = play(state, dice(5), dice(2))
    assert state.table.banker == "cat" and state.players == ("ann", "bob")


def test_the_bank_rotates_to_the_next_seat_with_chips():
    seats = ("bea", "ann", "bob")
    state = start(seats=seats, bankrolls={"bea": 50, "ann": 2, "bob": 50})
    state = play(state, dice(0, 5), Hit(), dice(9), dice(0, 4), Stand(), dice(0, 7))  # ann busts, bob 14 loses
    assert game.settle(state) == {"bea": 4, "ann": -2, "bob": -2}
    assert game.next_banker(state) == "bob"  # ann has no chips left


def test_under_refuse_the_bank_passes_over_a_seat_that_cannot_cover_to_the_next_that_can():
    """After the round ann holds 2 chips: enough to be passed the bank under the
    default rule, but under "refuse" not enough to pay the smallest bet (1) from each
    of the three others, so the bank goes on to bob. When the bets are placed,
    banker_for passes over whoever cannot cover them, and that seat plays its bet."""
    seats = ("bea", "ann", "bob", "cat")
    bankrolls = {"bea": 100, "ann": 3, "bob": 100, "cat": 100}
    bets = {"ann": Bets(1), "bob": Bets(1), "cat": Bets(1)}
    rounds = {rule: play(start(settings=Settings(short_banker=rule), seats=seats, bankrolls=bankrolls, bets=bets),
                         dice(0, 5), Hit(), dice(9), dice(0, 7), Stand(), dice(0, 8), Stand(), dice(0, 9))
              for rule in ("seat-order", "refuse")}  # ann busts; bob 17 and cat 18 lose to 19
    assert game.settle(rounds["refuse"]) == {"bea": 3, "ann": -1, "bob": -1, "cat": -1}
    assert game.next_banker(rounds["seat-order"]) == "ann"
    assert game.next_banker(rounds["refuse"]) == "bob"

    refuse = Settings(short_banker="refuse")
    after = {"bea": 103, "ann": 2, "bob": 99, "cat": 99}
    placed = {"bea": Bets(5), "ann": Bets(2), "bob": Bets(5), "cat": Bets(5)}
    assert game.banker_for(refuse, seats, after, placed, "ann") == "bob"  # ann could owe 15
    assert game.banker_for(refuse, seats, after, placed, "bob") == "bob"
    assert game.banker_for(refuse, seats, after, placed, None) is None  # new_round's roll-off decides
    state = game.new_round(refuse, seats, after, placed, banker="bob")
    assert state.players == ("bea", "ann", "cat") and state.table.stake("ann") == 2


def test_under_refuse_when_nobody_can_cover_the_bets_nobody_banks_and_the_table_is_told_why():
    """Each of three seats holds 3 chips and could owe the other two stakes of 2: no
    seat can bank, whoever's turn it is, and the words say so without asking for
    smaller bets (at the appliance those are not the players' to change)."""
    refuse = Settings(short_banker="refuse")
    seats = ("bea", "ann", "bob", "dan")
    chips = {"bea": 3, "ann": 3, "bob": 3, "dan": 0}
    bets = {"bea": Bets(2), "ann": Bets(2), "bob": Bets(2)}
    for turn in (*seats, None):
        with pytest.raises(BadBet) as refused:
            game.banker_for(refuse, seats, chips, bets, turn)
        assert str(refused.value) == ("nobody can bank these bets: the banker must be able to pay every other "
                                      "player at once (bea holds 3 chips but could owe 4, ann holds 3 chips but "
                                      "could owe 4, bob holds 3 chips but could owe 4)")
    with pytest.raises(BadBet, match="^nobody can bank these bets"):
        game.new_round(refuse, seats, chips, bets)
    assert game.banker_for(Settings(), seats, chips, bets, "dan") == "bea"  # dan has no chips to bank with


def test_short_banker_pays_in_seat_order():
    seats = ("bea", "ann", "bob")
    state = start(seats=seats, bankrolls={"bea": 1, "ann": 50, "bob": 50}, bets={"ann": Bets(5), "bob": Bets(5)})
    state = play(state, dice(0, 1), dice(0, 1))
    assert game.settle(state) == {"bea": -1, "ann": 1, "bob": 0}


def test_bad_input_is_refused_and_changes_nothing():
    state = start()
    snapshot = serial.dumps(state)
    with pytest.raises(BadValue):
        game.apply(state, Roll((10, 2)))
    with pytest.raises(BadValue):
        game.apply(state, Roll((5,)))  # two dice start a hand
    with pytest.raises(IllegalAction):
        game.apply(state, Hit())
    with pytest.raises(BadValue):
        game.parse_outcome(state, "11 3")
    assert game.parse_outcome(state, "0 1") == dice(0, 1)
    assert game.parse_outcome(state, "10 3") == dice(0, 3)  # the face printed 0 is the ten people say
    assert serial.dumps(state) == snapshot
    deciding = play(state, dice(4, 5))
    with pytest.raises(IllegalAction):
        game.apply(deciding, dice(3))
    assert game.parse_outcome(play(deciding, Hit()), "7") == dice(7)
    with pytest.raises(BadBet):
        start(bets={"ann": Bets(101)})
    with pytest.raises(BadBet):
        start(bets={"ann": Bets(30)}, bankrolls={"bea": 100, "ann": 20})
    with pytest.raises(BadValue):
        Settings(banker_one="sometimes")


def test_chance_outcomes_are_exact():
    first = dict(game.chance_outcomes(start()))
    assert len(first) == 55 and sum(first.values()) == 1 and first[dice(0, 1)] * 100 == 2
    hit = dict(game.chance_outcomes(play(start(), dice(2, 3), Hit())))
    assert len(hit) == 10 and all(p * 10 == 1 for p in hit.values())


def test_a_whole_round_survives_a_recording():
    state = play(start(), dice(1, 4), Hit(), dice(3), Stand(), dice(1, 6))
    assert serial.loads(serial.dumps(state)) == state
    done = play(state, Stand())
    assert game.current_actor(done) == TERMINAL and serial.loads(serial.dumps(done)) == done
    assert "Settled" in game.describe(done)


def test_describe_says_whats_due_the_bankers_choice_and_why_each_hand_won_or_lost():
    seats = ("ann", "bob", "cat")
    state = game.new_round(Settings(), seats, {s: 50 for s in seats}, {s: Bets(2) for s in seats})
    state = play(state, dice(3), dice(3), dice(5))
    assert "ann and bob tied, so they roll again" in game.describe(state)
    state = start(stake=4)
    assert "next: ann rolls 2 dice (d10" in game.describe(state)
    state = play(state, dice(9, 8), Stand(), dice(1, 5))  # banker soft 16 must roll on
    assert "next: the banker bea rolls one die" in game.describe(state)
    state = play(state, dice(1))  # 1 5 1: hard 7, soft 17
    assert "may count eleven (17, stand) or one (7, hit and roll on)" in game.describe(state)
    done = play(state, Stand())
    assert "ann (bet 4 of 100 chips): 8 9 = 17 stands -> loses: 17 ties the banker" in game.describe(done)
    assert "wins: Blackjack" in game.describe(play(start(), dice(1, 0)))
