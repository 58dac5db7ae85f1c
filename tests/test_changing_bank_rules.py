"""Blackjack with a changing bank, pinned with stacked packs and exact chip amounts."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from table import serial
from table.errors import BadBet, BadValue, IllegalAction, TableError
from table.rules import CHANCE, TERMINAL
from table.rules import changing_bank as cb
from table.rules.cards import Card, full_pack, parse_card

SEATS = ("ann", "bob", "cat")  # ann banks: bob plays first, then cat, then the dealer
RICH = {"ann": 100, "bob": 100, "cat": 100}


def start(stakes=None, bankrolls=None, banker="ann", settings=cb.Settings(), pack=None, seats=SEATS):
    stakes = {"bob": 2, "cat": 3} if stakes is None else stakes
    bets = {seat: cb.Bets(stake) for seat, stake in stakes.items()}
    return cb.new_round(settings, seats, bankrolls or RICH, bets, banker=banker, pack=pack)


def play(state, *steps):
    """Card texts are drawn from the pack, anything else is a decision."""
    for step in steps:
        action = cb.Draw(parse_card(step, suit_required=True)) if isinstance(step, str) else step
        state = cb.apply(state, action)
    return state


def deal(state, *cards):
    """Burn card 2C, then the cards in dealing order."""
    return play(state, "2C", *cards)


def results(state):
    return [(hand.seat, hand.result) for hand in state.hands]


# ------------------------------------------------------------------ the deal


def test_deal_order_burns_first_then_one_round_down_and_one_up():
    state = deal(start(), "3H", "4H", "5H", "6H", "7H", "8H")
    assert state.pack.burn == Card("2", "C")
    assert [hand.cards for hand in state.hands] == [(Card("3", "H"), Card("6", "H")), (Card("4", "H"), Card("7", "H"))]
    assert state.dealer == (Card("5", "H"), Card("8", "H"))
    assert cb.current_actor(state) == "bob"
    assert cb.legal_actions(state) == (cb.STAND, cb.HIT, cb.DOUBLE)
    assert "?? 8H" in cb.describe(state) and "5H" not in cb.describe(state)  # hole card face down
    assert "5H 8H" in cb.describe(play(state, cb.STAND, cb.STAND))  # turned up for the dealer's turn


def test_cards_are_drawn_uniformly_from_the_unseen_stock():
    state = deal(start(), "3H")
    outcomes = cb.chance_outcomes(state)
    assert len(outcomes) == 50
    assert all(p == Fraction(1, 50) for _, p in outcomes)
    assert tuple(action.card for action, _ in outcomes) == cb.unseen_cards(state)
    assert cb.Draw(Card("3", "H")) not in [a for a, _ in outcomes]
    with pytest.raises(IllegalAction, match="3H"):
        cb.apply(state, cb.Draw(Card("3", "H")))


# ------------------------------------------------------------------ naturals


def test_dealer_natural_collects_double_but_single_from_a_natural():
    state = deal(start(), "AH", "KH", "AS", "QH", "5H", "KS")
    assert cb.is_terminal(state)
    assert results(state) == [("bob", -2), ("cat", -6)]
    assert cb.settle(state) == {"ann": 8, "bob": -2, "cat": -6}
    assert cb.next_banker(state) == "ann"


def test_player_natural_is_paid_double_at_once_and_takes_the_bank():
    state = deal(start(), "AH", "9H", "9S", "KH", "8H", "8S")
    assert results(state) == [("bob", 4), ("cat", None)]
    assert cb.current_actor(state) == "cat"
    state = play(state, cb.STAND, cb.STAND)
    assert cb.settle(state) == {"ann": -4 + 3, "bob": 4, "cat": -3}  # cat's 17 ties the dealer's 17
    assert cb.next_banker(state) == "bob"


def test_two_naturals_the_nearest_to_the_dealers_left_takes_the_bank():
    state = deal(start(stakes={"cat": 3, "ann": 1}, banker="bob"), "AH", "AS", "9S", "KH", "QH", "8S")
    # bob banks: cat sits on his left, then ann
    assert [hand.seat for hand in state.hands] == ["cat", "ann"]
    assert cb.is_terminal(state)
    assert cb.next_banker(state) == "cat"


# ------------------------------------------------------------------ play


def test_bust_is_collected_at_once_and_dealer_bust_pays_the_rest():
    state = deal(start(), "10H", "10S", "6S", "6H", "7S", "QS")
    state = play(state, cb.HIT, "9D")  # bob 25, bust
    assert results(state) == [("bob", -2), ("cat", None)]
    state = play(state, cb.STAND, cb.HIT, "KD")  # dealer 26
    assert cb.settle(state) == {"ann": 2 - 3, "bob": -2, "cat": 3}


def test_ties_go_to_the_dealer_and_higher_totals_win():
    state = deal(start(), "10H", "10S", "9S", "9H", "8S", "QS")
    state = play(state, cb.STAND, cb.STAND, cb.STAND)  # bob 19 v 19, cat 18 v 19
    assert cb.settle(state) == {"ann": 5, "bob": -2, "cat": -3}
    state = deal(start(), "10H", "10S", "7S", "9H", "8S", "QS")
    state = play(state, cb.STAND, cb.STAND, cb.STAND)  # dealer 17
    assert cb.settle(state) == {"ann": -5, "bob": 2, "cat": 3}


def test_dealer_may_stand_on_any_total_and_hit_on_any_below_21():
    state = deal(start(), "10H", "10S", "4S", "9H", "7S", "QS")
    state = play(state, cb.STAND, cb.STAND)
    assert cb.current_actor(state) == "ann"
    assert cb.legal_actions(state) == (cb.STAND, cb.HIT)
    state = play(state, cb.STAND)  # a dealer's 14 beats nobody here
    assert cb.settle(state) == {"ann": -5, "bob": 2, "cat": 3}


def test_double_down_doubles_the_stake_and_takes_exactly_one_card():
    state = deal(start(), "6H", "10S", "9S", "5D", "8S", "QS")
    state = play(state, cb.DOUBLE, "2D")  # bob 13 on a doubled stake of 4
    assert state.hands[0].stake == 4 and state.hands[0].done
    state = play(state, cb.STAND, cb.STAND)
    assert cb.settle(state) == {"ann": 4 + 3, "bob": -4, "cat": -3}


def test_splits_and_doubles_are_only_offered_when_the_bankroll_covers_them():
    def first_split_hand(bob_chips):
        state = start(bankrolls={"ann": 100, "bob": bob_chips, "cat": 100})
        return play(deal(state, "8H", "10S", "9S", "8D", "8S", "QS"), cb.SPLIT, "8C")

    assert cb.legal_actions(first_split_hand(5)) == (cb.STAND, cb.HIT)  # 2 + 2 staked, 5 chips
    assert cb.legal_actions(first_split_hand(6)) == (cb.STAND, cb.HIT, cb.DOUBLE, cb.SPLIT)
    with pytest.raises(IllegalAction, match="split"):
        cb.apply(first_split_hand(5), cb.SPLIT)


def test_split_makes_two_hands_each_dealt_a_second_card():
    state = deal(start(), "8H", "10S", "7S", "8D", "8S", "QS")
    assert cb.SPLIT in cb.legal_actions(state)
    state = play(state, cb.SPLIT)
    assert cb.current_actor(state) == CHANCE
    state = play(state, "3C", cb.STAND, "KC", cb.STAND, cb.STAND, cb.STAND)  # 11 and 18 v dealer 17
    assert [(h.seat, h.cards, h.result) for h in state.hands[:2]] == [
        ("bob", (Card("8", "H"), Card("3", "C")), -2),
        ("bob", (Card("8", "D"), Card("K", "C")), 2),
    ]
    assert cb.settle(state) == {"ann": -3, "bob": 0, "cat": 3}


def test_split_aces_take_one_card_and_ace_ten_is_21_not_a_natural():
    state = deal(start(), "AH", "10S", "9S", "AD", "8S", "QS")
    state = play(state, cb.SPLIT, "KC", "5C", cb.STAND)  # bob: 21 and 16, no choice on either
    assert [hand.done for hand in state.hands[:2]] == [True, True]
    state = play(state, cb.STAND)  # dealer 19
    assert [hand.result for hand in state.hands] == [2, -2, -3]
    assert cb.next_banker(state) == "ann"  # a split ace and ten is not a natural


def test_ten_values_split_only_when_the_setting_allows():
    cards = ("KH", "10S", "9S", "QD", "8S", "QS")
    assert cb.SPLIT not in cb.legal_actions(deal(start(), *cards))
    assert cb.SPLIT in cb.legal_actions(deal(start(settings=cb.Settings(split_ten_values=True)), *cards))


# ------------------------------------------------------------------ bonuses


def test_five_card_charlie_pays_double_at_once_and_cannot_lose():
    state = deal(start(), "2H", "10S", "10D", "3H", "8S", "QS")
    state = play(state, cb.HIT, "2D", cb.HIT, "4D", cb.HIT, "AC")  # 2 3 2 4 A = 12
    assert cb.legal_actions(state) == (cb.STAND, cb.HIT)
    state = play(state, cb.STAND)
    assert state.hands[0].result == 4  # 2x a stake of 2, paid before the dealer's 20
    state = play(state, cb.STAND, cb.STAND)
    assert cb.settle(state) == {"ann": -4 + 3, "bob": 4, "cat": -3}


def test_each_card_past_five_doubles_the_charlie():
    state = deal(start(), "2H", "10S", "10D", "3H", "8S", "QS")
    state = play(state, cb.HIT, "2D", cb.HIT, "AD", cb.HIT, "AC", cb.HIT, "3D", cb.STAND)  # six cards, 12
    assert state.hands[0].result == 8  # 4x a stake of 2
    state = deal(start(), "2H", "10S", "10D", "3H", "8S", "QS")
    state = play(state, cb.HIT, "2D", cb.HIT, "AD", cb.HIT, "AC", cb.HIT, "3D", cb.HIT, "9D")  # seven cards, 21
    assert state.hands[0].result == 16 and state.hands[0].done


def test_three_sevens_pay_triple_and_eight_seven_six_double():
    state = deal(start(), "7H", "8C", "10D", "7D", "7C", "QS")
    state = play(state, cb.HIT, "7S", cb.HIT, "6D")
    assert results(state) == [("bob", 6), ("cat", 6)]
    assert cb.is_terminal(state)  # nothing left for the dealer to play against


def test_a_doubled_eight_seven_six_pays_double_the_doubled_stake():
    state = deal(start(), "8H", "8C", "10D", "7D", "9C", "QS")
    state = play(state, cb.DOUBLE, "6C")
    assert state.hands[0].result == 2 * 4


def test_an_ordinary_21_waits_for_the_dealer():
    state = deal(start(), "9H", "8C", "10D", "5D", "9C", "QS")
    state = play(state, cb.HIT, "7C")  # 9 5 7 = 21, no bonus
    assert state.hands[0].done and state.hands[0].result is None


# ------------------------------------------------------------------ the bank


def test_a_short_bank_pays_as_far_as_its_chips_and_collections_reach():
    seats = ("ann", "bob", "cat", "dan")
    bankrolls = {"ann": 3, "bob": 100, "cat": 100, "dan": 100}
    state = start(stakes={"bob": 5, "cat": 5, "dan": 1}, bankrolls=bankrolls, seats=seats)
    state = deal(state, "10H", "10S", "5C", "9D", "9H", "9S", "5D", "8S")  # dealer 17
    state = play(state, cb.STAND, cb.STAND, cb.STAND, cb.STAND)  # bob 19, cat 19 win; dan 10 loses
    assert results(state) == [("bob", 4), ("cat", 0), ("dan", -1)]
    assert "bank short" in state.hands[0].note
    assert cb.settle(state) == {"ann": -3, "bob": 4, "cat": 0, "dan": -1}
    assert cb.next_banker(state) == "bob"  # ann is out of chips, the bank moves left


def test_a_bet_for_the_banker_is_ignored_and_a_round_without_players_is_over():
    state = start(stakes={"ann": 2, "bob": 2})
    assert [hand.seat for hand in state.hands] == ["bob"]
    empty = start(stakes={"ann": 2})
    assert cb.is_terminal(empty) and cb.settle(empty) == {"ann": 0, "bob": 0, "cat": 0}


@pytest.mark.parametrize("stake", [1, 9, cb.Bets(1)])
def test_a_stake_listed_for_a_named_banker_is_not_even_checked(stake):
    """ann banks with 1 chip: a stake of 1 would need 2 to cover a dealer's natural,
    but the banker does not bet, so nothing she lists for herself can refuse the round."""
    bets = {"ann": stake if isinstance(stake, cb.Bets) else cb.Bets(stake), "bob": cb.Bets(2)}
    state = cb.new_round(cb.Settings(), SEATS, {"ann": 1, "bob": 100, "cat": 100}, bets, banker="ann")
    assert [hand.seat for hand in state.hands] == ["bob"] and "ann" not in dict(state.stakes)


def test_a_seat_with_no_chips_is_passed_over_in_the_first_banker_deal():
    """ann holds nothing, so she can be no bank: the deal goes bob, cat, bob..."""
    state = start(stakes={"bob": 2, "cat": 3}, bankrolls={"ann": 0, "bob": 100, "cat": 100}, banker=None)
    state = play(state, "JH", "JS")  # the second card goes to cat, not bob
    assert state.banker == "cat"
    assert cb.bank_candidates(SEATS, {"ann": 0, "bob": 0, "cat": 0}) == SEATS


# ------------------------------------------------------------------ the pack


def test_next_pack_puts_the_rounds_cards_under_the_burned_card():
    state = play(deal(start(), "AH", "KH", "AS", "QH", "5H", "KS"))
    pack = cb.next_pack(state)
    assert pack.burn == Card("2", "C") and len(pack.discards) == 6 and len(pack.stock) == 45
    again = start(pack=pack)
    assert cb.chance_outcomes(again)[0][1] == Fraction(1, 45)
    with pytest.raises(TableError):
        cb.next_pack(deal(start(), "AH"))


def test_reaching_the_burned_card_reshuffles_discards_and_burns_again():
    stock = (Card("3", "H"), Card("4", "H"))
    rest = tuple(card for card in full_pack() if card not in stock and card != Card("2", "C"))
    state = start(pack=cb.Pack(stock=stock, burn=Card("2", "C"), discards=rest))
    state = play(state, "3H", "4H")  # the last two unseen cards
    assert len(cb.chance_outcomes(state)) == 50  # 49 discards + the burned card
    state = play(state, "9C")  # the new burn card
    assert state.pack.burn == Card("9", "C") and cb.current_actor(state) == CHANCE
    assert len(cb.chance_outcomes(state)) == 49


def test_a_pack_that_is_not_one_whole_pack_is_refused():
    with pytest.raises(BadValue):
        start(pack=cb.Pack(stock=full_pack()[:-1]))
    with pytest.raises(BadValue):
        start(pack=cb.Pack(stock=full_pack()[1:], discards=full_pack()[:1]))
    with pytest.raises(BadValue):
        start(pack=full_pack())


# ------------------------------------------------------------------ first banker


def test_first_banker_is_dealt_the_first_black_jack():
    cards = tuple(parse_card(text) for text in ("JH", "3C", "JS", "JC"))
    assert cb.first_banker(cards, SEATS) == "cat"
    assert cb.first_banker(cards[:2], SEATS) is None


def test_first_banker_phase_deals_face_up_then_shuffles_a_whole_pack():
    state = start(stakes={"ann": 1, "bob": 2, "cat": 3}, banker=None)
    assert cb.current_actor(state) == CHANCE and cb.next_banker(state) is None
    state = play(state, "JH", "5D", "3S", "JC")  # the fourth card goes to ann
    assert state.banker == "ann"
    assert [(hand.seat, hand.stake) for hand in state.hands] == [("bob", 2), ("cat", 3)]
    assert len(cb.chance_outcomes(state)) == 52 and state.pack.burn is None


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("stake", [0, 6, 2.5, True])
def test_stakes_outside_the_limits_are_refused(stake):
    with pytest.raises(BadBet):
        start(stakes={"bob": stake})


def test_a_stake_must_be_covered_twice_for_a_dealers_natural():
    with pytest.raises(BadBet, match="natural"):
        start(stakes={"bob": 3}, bankrolls={"ann": 100, "bob": 5, "cat": 100})


def test_bad_tables_are_refused():
    with pytest.raises(TableError):
        start(seats=("ann",), stakes={})
    with pytest.raises(TableError):
        start(banker="zed")
    with pytest.raises(BadBet):
        start(bankrolls={"ann": -1, "bob": 100, "cat": 100})
    with pytest.raises(BadBet):
        start(stakes={"zed": 1})


def test_typed_cards_and_bets_are_checked():
    state = deal(start(), "3H")
    assert cb.parse_outcome(state, "qs") == cb.Draw(Card("Q", "S"))
    with pytest.raises(BadValue):
        cb.parse_outcome(state, "ZZ")
    with pytest.raises(BadValue):
        cb.parse_outcome(state, "Q")  # the pack is tracked card by card
    with pytest.raises(IllegalAction):
        cb.parse_outcome(state, "3h")
    assert cb.parse_bets(cb.Settings(), " 4 ") == cb.Bets(4)
    for text in ("four", "9"):
        with pytest.raises(BadBet):
            cb.parse_bets(cb.Settings(), text)


def test_refused_actions_leave_the_state_as_it_was():
    state = deal(start(), "10H", "10S", "6S", "6H", "7S", "QS")
    before = serial.dumps(state)
    for action in (cb.SPLIT, cb.Draw(Card("9", "D")), "hit"):
        with pytest.raises(IllegalAction):
            cb.apply(state, action)
    assert serial.dumps(state) == before
    over = deal(start(), "AH", "KH", "AS", "QH", "5H", "KS")
    assert cb.current_actor(over) == TERMINAL
    with pytest.raises(IllegalAction):
        cb.apply(over, cb.STAND)
    with pytest.raises(TableError):
        cb.settle(state)
    with pytest.raises(TableError, match="over"):
        cb.auto_action(over, random.Random(1))  # was STAND, or an IndexError


# ------------------------------------------------------------------ records and automatic play


def test_states_round_trip_through_a_recording():
    state = play(deal(start(), "8H", "10S", "9S", "8D", "8S", "QS"), cb.SPLIT, "3C")
    assert serial.loads(serial.dumps(state)) == state
    pack = cb.next_pack(play(state, cb.STAND, "KC", cb.STAND, cb.STAND, cb.STAND))
    assert serial.loads(serial.dumps(pack)) == pack


def test_a_chained_session_keeps_one_pack_and_conserves_chips():
    rng = random.Random(5)
    bankrolls, banker, pack = dict(RICH), None, None
    for _ in range(30):
        bets = cb.auto_bets(cb.Settings(), SEATS, bankrolls, rng)
        state = cb.new_round(cb.Settings(), SEATS, bankrolls, bets, banker=banker, pack=pack)
        while not cb.is_terminal(state):
            state = cb.apply(state, cb.auto_action(state, rng))
        for seat, net in cb.settle(state).items():
            bankrolls[seat] += net
        banker, pack = cb.next_banker(state), cb.next_pack(state)
        cb.new_round(cb.Settings(), SEATS, bankrolls, {}, banker=banker, pack=pack)  # the pack stays whole
    assert sum(bankrolls.values()) == 300 and min(bankrolls.values()) >= 0
    assert pack.burn is not None and pack.discards


def cards_everywhere(state):
    pack = state.pack
    on_table = [card for hand in state.hands for card in hand.cards] + list(state.dealer)
    return list(pack.stock) + list(pack.discards) + ([pack.burn] if pack.burn else []) + on_table


@hypothesis_settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 7),
    chips=st.lists(st.integers(0, 40), min_size=7, max_size=7),
    options=st.tuples(st.booleans(), st.booleans(), st.booleans(), st.integers(1, 4)),
)
def test_random_sessions_keep_one_whole_pack_and_never_overdraw(seed, players, chips, options):
    aces_one, das, tens, max_hands = options
    settings = cb.Settings(split_aces_one_card=aces_one, double_after_split=das, split_ten_values=tens, max_hands=max_hands)
    rng = random.Random(seed)
    seats = tuple(f"p{i}" for i in range(players))
    bankrolls = dict(zip(seats, chips))
    banker, pack = None, None
    for _ in range(8):
        bets = cb.auto_bets(settings, seats, bankrolls, rng)
        state = cb.new_round(settings, seats, bankrolls, bets, banker=banker, pack=pack)
        while not cb.is_terminal(state):
            assert cb.current_actor(state) == CHANCE or cb.legal_actions(state)
            state = cb.apply(state, rng.choice(cb.legal_actions(state)))
            if state.phase != cb.FIND_BANKER:
                everything = cards_everywhere(state)
                assert len(everything) == 52 and set(everything) == set(full_pack())
                paid_out = sum(hand.result for hand in state.hands if hand.result is not None)
                assert paid_out <= bankrolls[state.banker]  # the bank never pays more than it holds
        net = cb.settle(state)
        assert sum(net.values()) == 0
        for seat, delta in net.items():
            bankrolls[seat] += delta
            assert bankrolls[seat] >= 0
        banker, pack = cb.next_banker(state), cb.next_pack(state)
