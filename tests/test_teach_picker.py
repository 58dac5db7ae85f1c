"""The value picker of the check screen: on a touchscreen the selected piece's value is
given in one touch (a die's value, "no die") or two (a card's rank and suit, a tile's
two halves, either first), from targets under the picture, instead of stepping through
every value with SHAKE.

The pick itself (RollCheck.pick, RollCheck.choices) is pure and tested alone; the screen
is drawn headless and touched through display.Display as a finger would; teaching at
the table and the results-screen correction take the touches as they take the others.
The buttons' path (SHAKE, NEXT, hold NEXT) is the one the other teach tests check, and
is checked here to be untouched by a pick left half done."""

from tabletop21.rollcheck import NEW, NO_DIE, ON, PICK_NONE, USED, RollCheck
from tests.test_teach_at_table import three_dice
from tests.test_teach_cards_at_table import three_cards_and_a_refusal
from tests.test_teach_dominoes_at_table import two_tiles_and_a_refusal


def marks(check: RollCheck) -> dict[str, str]:
    """Each picker target's mark, by its part."""
    return {part: mark for row in check.choices() for part, _, mark in row}


# --- the pick ---------------------------------------------------------------------------------------------------

def test_a_die_is_given_its_value_or_no_die_in_one_touch():
    check = three_dice()  # 2, 4, ? with the 2 selected
    assert check.pick("5").values == (5, 4, None) and check.pick("5").selected == 0
    assert check.pick(PICK_NONE).values == (NO_DIE, 4, None)
    unread = check.next().next().pick("6")
    assert unread.values == (2, 4, 6) and unread.confirm()[1] == (2, 4, 6)
    d10 = RollCheck("d10", ((0.0, 0.0, 9.0, 9.0),), (9,), (9,))
    assert d10.pick("0").values == (0,)
    for bad in ("7", "0", "Q", ""):  # no face of a d6
        refused = check.pick(bad)
        assert refused.values == check.values and "is no part of a die's value" in refused.message


def test_a_card_changes_once_its_rank_and_suit_are_both_touched_in_either_order():
    check = three_cards_and_a_refusal()  # 10H, QS, ?, ? with the 10H selected
    half = check.pick("Q")
    assert half.values == check.values and half.pending == "Q", "one touch alone changes nothing"
    assert half.message == "Q: now touch the card's suit"
    assert half.pick("H").values[0] == ("Q", "H") and half.pick("H").pending == ""
    assert check.pick("D").message == "D: now touch the card's rank"
    assert check.pick("D").pick("K").values[0] == ("K", "D")
    assert check.pick("Q").pick("K").pick("C").values[0] == ("K", "C"), "another rank takes the first one's place"
    assert check.pick("Q").pick(PICK_NONE).values[0] == NO_DIE and check.pick("Q").pick(PICK_NONE).pending == ""
    unread = check.next().next().pick("3").pick("S")
    assert unread.values == (("10", "H"), ("Q", "S"), ("3", "S"), None)
    assert check.pick("1").values == check.values and "'1' is no part of a card's value" in check.pick("1").message


def test_a_tile_changes_once_both_halves_are_touched_and_the_same_half_twice_is_the_double():
    check = two_tiles_and_a_refusal().next()  # 0-0, 2-5, ? with the 2-5 selected
    assert check.pick("6").values == check.values and check.pick("6").pending == "6"
    assert check.pick("6").pick("1").values[1] == (1, 6), "low half first, whichever was touched first"
    assert check.pick("4").pick("4").values[1] == (4, 4)
    assert "4 again for the double 4-4" in check.pick("4").message


def test_a_half_done_pick_is_let_go_by_anything_else_and_the_buttons_go_on_as_before():
    check = three_cards_and_a_refusal(proposed=(("A", "S"), ("2", "D")))
    half = check.pick("Q")
    for step in (RollCheck.cycle, RollCheck.next, lambda c: c.tap(2), lambda c: c.typed("ks"),
                 lambda c: c.add((300.0, 250.0))):
        assert step(half) == step(check), "SHAKE, NEXT, a tap, typing, an added card: as with no pick begun"
        assert step(half).pending == ""
    held, kept = half.confirm()  # cards 3 and 4 are not read yet
    assert kept is None and held.selected == 2 and held.pending == "", "the queen touched was for card 1"


def test_a_card_another_card_of_the_picture_has_is_given_and_said_and_not_kept_till_changed():
    check = three_cards_and_a_refusal()
    twice = check.pick("Q").pick("S")
    assert twice.values[0] == ("Q", "S")
    assert twice.message == "cards 1 and 2 are both QS: a deck has each card once; change one"
    assert twice.confirm()[1] is None
    assert three_dice().pick("4").message == "", "dice may show one value twice"


# --- what the picker offers --------------------------------------------------------------------------------------

def test_the_picker_offers_a_dies_values_and_no_die_with_its_value_now_marked():
    check = three_dice()
    (row,) = check.choices()
    assert [part for part, _, _ in row] == ["1", "2", "3", "4", "5", "6", PICK_NONE]
    assert row[-1][1] == "no die" and [mark for _, _, mark in row] == ["", ON, "", "", "", "", ""]
    assert marks(check.set_value(0, NO_DIE))[PICK_NONE] == ON
    assert set(marks(check.next().next()).values()) == {""}, "an unread die has no value to mark"
    assert [part for part, _, _ in RollCheck("d10", ((0.0, 0.0, 9.0, 9.0),), (9,), (9,)).choices()[0]] == \
        [*"0123456789", PICK_NONE]
    assert RollCheck("dice", (), (), ()).choices() == ()


def test_the_card_picker_is_13_ranks_over_4_suits_and_marks_the_deck_still_to_show():
    proposed = (("A", "S"), ("Q", "S"), ("2", "D"), ("3", "H"))
    check = three_cards_and_a_refusal(proposed=proposed)  # 10H selected; QS is card 2's
    ranks, suits = check.choices()
    assert [part for part, _, _ in ranks] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert [part for part, _, _ in suits] == ["C", "D", "H", "S", PICK_NONE] and suits[-1][1] == "no card"
    now = marks(check)
    assert now["10"] == now["H"] == ON, "the card now: its rank and suit"
    assert {part for part, mark in now.items() if mark == NEW} == {"A", "2", "3", "D", "S"}, \
        "QS is still to show but card 2 has it: Q is no way to a card still to show"
    after_q = marks(check.pick("Q"))
    assert after_q["Q"] == ON and after_q["S"] == USED, "QS would be card 2's twin"
    assert not {after_q[suit] for suit in "CDH"} - {""}, "no queen is still to show"
    after_s = marks(check.pick("S"))
    assert after_s["S"] == ON and after_s["A"] == NEW and after_s["Q"] == USED
    assert marks(three_cards_and_a_refusal())["A"] == "", "no set to show: nothing marked new"


def test_the_tile_picker_is_the_halves_and_marks_the_set_still_to_show():
    check = two_tiles_and_a_refusal(proposed=((1, 1), (3, 4), (0, 0))).next()  # 2-5 selected; 0-0 is tile 1's
    (row,) = check.choices()
    assert [part for part, _, _ in row] == [*"0123456", PICK_NONE] and row[-1][1] == "no tile"
    now = marks(check)
    assert now["2"] == now["5"] == ON and {p for p, m in now.items() if m == NEW} == {"1", "3", "4"}
    after_3 = marks(check.pick("3"))
    assert after_3["3"] == ON and after_3["4"] == NEW and after_3["1"] == ""
    assert marks(check.pick("0"))["0"] == ON, "the half touched first, though 0-0 is tile 1's"
    assert marks(check.set_value(0, (0, 3)).pick("3"))["0"] == USED, "0-3 would be tile 1's twin"
