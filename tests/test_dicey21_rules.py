"""Dicey 21 rules pinned with hand-built rounds and exact chip amounts."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from table import serial
from table.errors import BadBet, BadValue, IllegalAction, TableError
from table.rules import CHANCE, HOUSE, TERMINAL
from table.rules import dicey21 as game
from table.rules.cards import Card
from table.rules.dicey21_pay import ante_ratio, hand_score, match_result
from table.rules.dicey21_shoe import Shoe

Bets, Deal, Hit, Raise, Roll, Stand = game.Bets, game.Deal, game.Hit, game.Raise, game.Roll, game.Stand


def cards(*ranks: str) -> tuple[Card, ...]:
    return tuple(Card(rank) for rank in ranks)


def open_round(bets: dict, chips: int = 1000, settings: game.Settings | None = None, **kwargs) -> game.State:
    seats = tuple(bets)
    return game.new_round(settings or game.Settings(), seats, {seat: chips for seat in seats}, bets, **kwargs)


def play(state: game.State, *actions) -> game.State:
    for action in actions:
        state = game.apply(state, action)
    return state


def deal(rank: str) -> game.Deal:
    return Deal(Card(rank))


# ----- scoring and pay tables -------------------------------------------------------


@pytest.mark.parametrize(
    "score, ratio", [(3, -1), (15, -1), (16, 0), (17, 0), (18, 0), (19, 1), (20, 1), (21, 2), (22, -1), (28, -1)]
)
def test_ante_pay_table(score, ratio):
    assert ante_ratio(score) == ratio


@pytest.mark.parametrize(
    "ranks, dice, score",
    [
        (("10",), (3, 4, 4), 21),
        (("A",), (3, 3, 4), 21),  # the ace counts 11 when that stays at 21 or less
        (("A",), (6, 6, 6), 19),  # ... and 1 when 11 would bust
        (("A", "A"), (1, 1, 1), 15),  # only one ace is ever counted 11
        (("K", "Q"), (1, 1, 1), 23),
        (("2", "5"), (6, 6, 2), 21),
    ],
)
def test_hand_score(ranks, dice, score):
    assert hand_score(cards(*ranks), dice) == score


@pytest.mark.parametrize(
    "spot, dice, ranks, expected",
    [
        (4, (1, 2, 3), (), ("no match", -1)),
        (4, (4, 2, 3), (), ("single", 1)),
        (4, (4, 4, 3), ("4",), ("double", 2)),  # a matching card only counts with a triple
        (4, (4, 4, 4), ("9",), ("triple", 6)),
        (4, (4, 4, 4), ("9", "K"), ("royal", 20)),
        (4, (4, 4, 4), ("Q",), ("royal", 20)),
        (4, (4, 4, 4), ("J",), ("triple", 6)),  # only a king or queen makes a Royal
        (4, (4, 4, 4), ("4", "K"), ("quad", 40)),  # highest payout only
        (4, (4, 4, 4), ("4", "4"), ("hi-five", 500)),
        (1, (1, 1, 1), ("A",), ("quad", 40)),
        (1, (1, 1, 1), ("A", "A"), ("hi-five", 500)),
    ],
)
def test_match_pay_table(spot, dice, ranks, expected):
    assert match_result(spot, dice, cards(*ranks), ace_matches_one=True) == expected


def test_ace_need_not_match_the_one_spot():
    assert match_result(1, (1, 1, 1), cards("A"), ace_matches_one=False) == ("triple", 6)


# ----- whole rounds with exact chips --------------------------------------------------


def test_two_seat_round_with_raises_settles_exactly():
    state = open_round({"ann": Bets(10), "bob": Bets(10, ((5, 4), (6, 2)))})
    assert game.current_actor(state) == CHANCE
    state = play(state, deal("7"), deal("A"))  # first cards go round before anyone decides
    assert game.current_actor(state) == "ann"
    assert game.legal_actions(state) == (Stand(), Hit())
    state = play(state, Stand())
    assert game.legal_actions(state) == tuple(Raise(10 * k) for k in range(8))  # 7-count: up to 7x
    state = play(state, Raise(70), Stand())
    assert game.legal_actions(state) == tuple(Raise(10 * k) for k in range(4))  # ace: up to 3x
    state = play(state, Raise(30))
    assert game.current_actor(state) == CHANCE
    state = play(state, Roll((5, 5, 4)))
    assert game.is_terminal(state) and game.current_actor(state) == TERMINAL
    # ann 7+14 = 21 pays 2:1 on 80; bob A+14 = 15 loses 40, MATCH 5 is a double (+8), MATCH 6 loses 2
    assert game.settle(state) == {"ann": 160, "bob": -34, HOUSE: -126}
    assert "score 21" in game.describe(state)


def test_hit_gives_one_final_card_and_a_two_card_seven_may_raise():
    state = play(open_round({"ann": Bets(5)}), deal("3"), Hit())
    assert game.current_actor(state) == CHANCE
    state = play(state, deal("4"))
    assert game.legal_actions(state) == tuple(Raise(5 * k) for k in range(8))
    state = play(state, Raise(35), Roll((6, 6, 2)))
    assert game.settle(state) == {"ann": 80, HOUSE: -80}  # 7 + 14 = 21 on ante 5 + raise 35


def test_push_and_loss():
    pushed = play(open_round({"ann": Bets(10)}), deal("K"), Stand(), Roll((2, 3, 2)))
    assert game.settle(pushed) == {"ann": 0, HOUSE: 0}
    bust = play(open_round({"ann": Bets(10)}), deal("K"), Stand(), Roll((6, 6, 1)))
    assert game.settle(bust) == {"ann": -10, HOUSE: 10}


def test_no_raise_step_without_an_ace_or_seven():
    state = play(open_round({"ann": Bets(10)}), deal("9"), Stand())
    assert game.current_actor(state) == CHANCE and len(game.legal_actions(state)) == 216


def test_second_card_ace_raise_follows_the_setting():
    allowed = play(open_round({"ann": Bets(10)}), deal("2"), Hit(), deal("A"))
    assert game.legal_actions(allowed) == tuple(Raise(10 * k) for k in range(4))
    strict = game.Settings(raise_on_drawn_ace=False)
    refused = play(open_round({"ann": Bets(10)}, settings=strict), deal("2"), Hit(), deal("A"))
    assert game.current_actor(refused) == CHANCE


def test_no_raise_after_hit_setting():
    strict = game.Settings(raise_after_hit=False)
    state = play(open_round({"ann": Bets(10)}, settings=strict), deal("3"), Hit(), deal("4"))
    assert game.current_actor(state) == CHANCE


def test_ace_and_seven_count_take_the_larger_allowance():
    state = play(open_round({"ann": Bets(1)}), deal("6"), Hit(), deal("A"))
    assert max(game.legal_actions(state), key=lambda a: a.amount) == Raise(7)


def test_raise_is_limited_by_the_bankroll_and_can_be_any_chip_amount():
    state = play(open_round({"ann": Bets(10, ((2, 5),))}, chips=40), deal("A"), Stand())
    assert game.legal_actions(state) == (Raise(0), Raise(10), Raise(20))  # 40 - 15 staked leaves 25
    loose = game.Settings(raise_in_whole_antes=False)
    state = play(open_round({"ann": Bets(2)}, settings=loose), deal("A"), Stand())
    assert game.legal_actions(state) == tuple(Raise(n) for n in range(7))


def test_match_with_cards_pays_hi_five():
    state = play(open_round({"ann": Bets(1, ((4, 2),))}), deal("4"), Hit(), deal("4"), Roll((4, 4, 4)))
    # ante: 4+4+12 = 20 pays 1:1; MATCH on four: two matching cards and a triple, 500:1
    assert game.settle(state) == {"ann": 1 + 1000, HOUSE: -1001}


def test_match_alone_needs_the_setting_and_deals_no_cards():
    with pytest.raises(BadBet, match="MATCH alone"):
        open_round({"ann": Bets(0, ((3, 5),))})
    alone = game.Settings(match_alone=True)
    state = open_round({"ann": Bets(0, ((3, 5),)), "bob": Bets(10)}, settings=alone)
    state = play(state, deal("Q"), Stand())
    assert game.current_actor(state) == CHANCE
    state = play(state, Roll((3, 3, 3)))
    assert game.settle(state) == {"ann": 30, "bob": 10, HOUSE: -40}  # no cards: a plain triple; Q+9 = 19


# ----- the shoe ---------------------------------------------------------------------------------


def test_cards_are_drawn_from_the_shoe_composition():
    state = open_round({"ann": Bets(1), "bob": Bets(1)})
    outcomes = dict(game.chance_outcomes(state))
    assert len(outcomes) == 13 and all(p == Fraction(24, 312) for p in outcomes.values())
    state = play(state, deal("9"))
    assert dict(game.chance_outcomes(state))[deal("9")] == Fraction(23, 311)
    assert dict(game.chance_outcomes(state))[deal("K")] == Fraction(24, 311)


def test_a_rank_gone_from_the_shoe_cannot_be_dealt():
    no_aces = Shoe((0,) + (24,) * 12)
    state = open_round({"ann": Bets(1)}, shoe=no_aces)
    assert deal("A") not in game.legal_actions(state)
    with pytest.raises(IllegalAction):
        game.apply(state, deal("A"))


def test_shoe_is_kept_until_the_cut_card_then_reshuffled():
    used = Shoe((8,) * 13)  # 104 cards left: above the cut
    assert open_round({"ann": Bets(1)}, shoe=used).shoe == used
    nearly_done = Shoe((4,) * 13)  # 52 left: the cut card is out
    assert open_round({"ann": Bets(1)}, shoe=nearly_done).shoe == Shoe.fresh(6)
    with pytest.raises(TableError):
        open_round({"ann": Bets(1)}, shoe=Shoe((25,) * 13))  # more than six decks hold


def test_roll_outcomes_are_the_216_ordered_rolls():
    state = play(open_round({"ann": Bets(1)}), deal("9"), Stand())
    outcomes = game.chance_outcomes(state)
    assert len({roll for roll, _ in outcomes}) == 216
    assert sum(p for _, p in outcomes) == 1
    assert Roll((6, 1, 3)) in game.legal_actions(state) and Roll((1, 3, 6)) in game.legal_actions(state)


# ----- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bet",
    [
        Bets(0),  # no ANTE
        Bets(501),  # over the table maximum
        Bets(-5),
        Bets(10, ((7, 5),)),  # no seven-spot
        Bets(10, ((3, 5), (3, 5))),  # one spot twice
        Bets(10, ((1, 1), (2, 1), (3, 1), (4, 1))),  # four MATCH wagers
        Bets(10, ((3, 0),)),
        Bets(10, ((3, 101),)),
        Bets(10, "3:5"),
        "ten chips",
    ],
)
def test_bad_bets_are_refused(bet):
    with pytest.raises(BadBet):
        open_round({"ann": bet})


def test_bets_over_the_bankroll_and_strangers_are_refused():
    with pytest.raises(BadBet, match="only 20"):
        open_round({"ann": Bets(15, ((2, 6),))}, chips=20)
    with pytest.raises(BadBet, match="zed"):
        game.new_round(game.Settings(), ("ann",), {"ann": 100}, {"zed": Bets(5)})
    six = tuple(f"s{n}" for n in range(6))
    with pytest.raises(TableError, match="up to 5"):
        game.new_round(game.Settings(), six, {s: 100 for s in six}, {"s0": Bets(5)})


def test_illegal_actions_change_nothing():
    state = play(open_round({"ann": Bets(10)}), deal("5"))
    before = serial.dumps(state)
    for wrong in (Roll((1, 2, 3)), deal("K"), Raise(10)):
        with pytest.raises(IllegalAction):
            game.apply(state, wrong)
    with pytest.raises(BadValue):
        Roll((7, 1, 1))
    with pytest.raises(BadValue):
        Roll((1, 2))
    assert serial.dumps(state) == before
    done = play(state, Stand(), Roll((1, 1, 1)))
    with pytest.raises(IllegalAction, match="over"):
        game.apply(done, Hit())
    with pytest.raises(TableError):
        game.settle(state)


def test_raise_outside_the_allowance_is_refused():
    state = play(open_round({"ann": Bets(1)}), deal("A"), Stand())
    for wrong in (Raise(4), Raise(-1), Raise(True), Hit()):
        with pytest.raises(IllegalAction):
            game.apply(state, wrong)
    assert game.apply(state, Raise(3)).hands[0].raised == 3


def test_bad_settings_are_refused():
    with pytest.raises(TableError):
        open_round({"ann": Bets(1)}, settings=game.Settings(decks=0))
    with pytest.raises(TableError):
        open_round({"ann": Bets(1)}, settings=game.Settings(reshuffle_at=400))


# ----- recordings, typing, simple play ------------------------------------------------------


def test_states_and_actions_round_trip_through_a_recording():
    state = open_round({"ann": Bets(10, ((2, 3),)), "bob": Bets(4)})
    for action in (deal("A"), deal("3"), Stand(), Raise(30), Hit(), deal("Q"), Roll((2, 6, 1))):
        assert serial.loads(serial.dumps(action)) == action
        state = game.apply(state, action)
        assert serial.loads(serial.dumps(state)) == state


def test_typed_outcomes_and_bets():
    state = open_round({"ann": Bets(1)})
    assert game.parse_outcome(state, "qs") == deal("Q")  # the suit never matters here
    state = play(state, deal("Q"), Stand())
    assert game.parse_outcome(state, "3 1 6") == Roll((3, 1, 6))
    with pytest.raises(BadValue):
        game.parse_outcome(state, "3 1 7")
    assert game.parse_bets(game.Settings(), "10 3:5 6:2") == Bets(10, ((3, 5), (6, 2)))
    for text in ("", "ten", "10 3-5", "10 3:5:1"):
        with pytest.raises(BadBet):
            game.parse_bets(game.Settings(), text)
    assert [game.label(a) for a in (Stand(), Hit(), Raise(0), Raise(20), deal("10"), Roll((1, 2, 3)))] == [
        "stand", "hit", "no raise", "raise 20", "card 10", "roll 1 2 3",
    ]


@pytest.mark.parametrize("rank, move", [("2", Hit()), ("5", Hit()), ("6", Stand()), ("A", Stand()), ("K", Stand())])
def test_auto_action_is_the_manuals_basic_strategy(rank, move):
    assert game.auto_action(play(open_round({"ann": Bets(10)}), deal(rank)), random.Random(1)) == move


def test_auto_action_raises_the_most_on_a_first_card_ace_only():
    rng = random.Random(1)
    assert game.auto_action(play(open_round({"ann": Bets(10)}), deal("A"), Stand()), rng) == Raise(30)
    assert game.auto_action(play(open_round({"ann": Bets(10)}), deal("7"), Stand()), rng) == Raise(0)
    assert game.auto_action(play(open_round({"ann": Bets(10)}), deal("2"), Hit(), deal("A")), rng) == Raise(0)


def test_auto_bets_are_legal_and_skip_the_broke():
    settings = replace(game.Settings(), min_ante=5)
    bets = game.auto_bets(settings, ("ann", "bob"), {"ann": 500, "bob": 3}, random.Random(2))
    assert set(bets) == {"ann"} and bets["ann"].ante == 10
    game.new_round(settings, ("ann", "bob"), {"ann": 500, "bob": 3}, bets)


def test_describe_names_whats_due_and_explains_every_bet_once_the_dice_are_down():
    state = open_round({"ann": Bets(10, ((3, 5), (6, 2))), "bob": Bets(5)})
    assert "next: ann's first card" in game.describe(state)
    state = play(state, deal("A"), deal("5"), Stand(), Raise(30), Hit(), deal("2"), Raise(0))
    text = game.describe(state)
    assert "A (count 1 or 11)" in text and "5 2 (count 7)" in text and "ann [1000 chips]" in text
    assert "next: the 3 dice" in text
    text = game.describe(play(state, Roll((3, 3, 3))))
    # ann A+9 = 20 pays 1:1 on 10+30; MATCH 3 is a triple (6:1 on 5); MATCH 6 loses 2
    assert "score 20 (pays 1 to 1): ante+raise +40, match 3 triple +30, match 6 no match -2 | net +68" in text
    assert "score 16 (push): ante +0 | net +0" in text
