"""The value picker of the check screen: on a touchscreen the selected piece's value is
given in one touch (a die's value, "no die") or two (a card's rank and suit, a tile's
two halves, either first), from targets under the picture, instead of stepping through
every value with SHAKE.

The pick itself (RollCheck.pick, RollCheck.choices) is pure and tested alone; the screen
is drawn headless and touched through display.Display as a finger would; teaching at
the table and the results-screen correction take the touches as they take the others.
The buttons' path (SHAKE, NEXT, hold NEXT) is the one the other teach tests check, and
is checked here to be untouched by a pick left half done."""

import numpy as np
import pygame
import pytest

from table.reads import Card, TableRead, Unreadable
from tabletop21.corrections import DECK, DOUBLE_SIX, keep_example
from tabletop21.rollcheck import NEW, NO_DIE, ON, PICK_NONE, USED, RollCheck
from tabletop21.teaching import (
    Corrections,
    TableTeaching,
    check_screen,
    picker_targets,
    touch_check,
)
from tests.test_teach_at_table import StillSettle, at_results, three_dice
from tests.test_teach_cards_at_table import Camera, cards_reader, take, three_cards_and_a_refusal
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


# --- the screen, headless, touched as a finger would -----------------------------------------------------------

def centre(rect):
    x, y, w, h = rect
    return x + w // 2, y + h // 2


def test_the_check_screen_draws_the_picker_and_touches_on_it_are_said_as_its_words():
    from display import Display
    from display.teach import draw_check

    check = three_cards_and_a_refusal(proposed=DECK)
    screen = check_screen(check, title="CHECK", message="m", side="s", targets=(("keep", "KEEP"),),
                          frame_size=(400, 300))
    assert [len(row) for row in screen.picker] == [13, 5]
    assert screen.picker[1][2].word == "pick:H" and screen.picker[1][2].suit == "H"
    assert screen.picker[0][11].word == "pick:Q" and screen.picker[0][11].suit is None
    assert screen.picker[1][4].word == "pick:none" and screen.picker[1][4].label == "no card"
    frame = np.full((300, 400, 3), 90, np.uint8)
    for size in ((800, 480), (480, 320), (1920, 1080)):
        layout, texts = draw_check(pygame.Surface(size), screen, frame)
        targets = dict(layout.targets)
        assert {f"pick:{part}" for part in ("A", "10", "K", "C", "S", "none")} <= set(targets)
        assert not any(t.cut for t in texts) and {"A", "10", "K", "no card"} <= {t.text for t in texts}
        picture = pygame.Rect(layout.picture.shown)
        assert all(not picture.colliderect(targets[f"pick:{part}"]) for part in ("A", "K", "S")), \
            "the picker lies off the picture"
    display = Display((800, 480))
    try:
        display.show_check(screen, frame)
        targets = dict(display._check.targets)
        for word in ("pick:Q", "pick:H", "keep"):
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=centre(targets[word]), button=1,
                                                 touch=False))
        touched = display.touched()
    finally:
        display.close()
    assert touched == ["pick:Q", "pick:H", "keep"]
    for word in touched[:2]:
        check = touch_check(check, word)
    assert check.values[0] == ("Q", "H") and check.labels()[0] == "QH"
    assert touch_check(check, "pick:none").values[0] == NO_DIE
    assert touch_check(check, "pick:") is None, "no part named: no touch on the picker"


def test_the_picker_shows_the_marks_of_the_check_in_its_targets():
    check = three_cards_and_a_refusal(proposed=(("A", "S"),))
    screen_marks = {target.word: target.mark for row in picker_targets(check.pick("Q")) for target in row}
    assert screen_marks["pick:Q"] == ON and screen_marks["pick:S"] == USED and screen_marks["pick:A"] == NEW
    no_pieces = check_screen(RollCheck("dice", (), (), ()), title="T", message="m", side="s", targets=(),
                             frame_size=None)
    assert no_pieces.picker == (), "no piece selected: no picker"


# --- teaching at the table and the results screen take the picks --------------------------------------------------

def test_at_the_table_a_card_is_set_by_touching_its_rank_then_its_suit_and_kept(tmp_path):
    from tabletop21.corrections import value_text
    from tabletop21.evaluate import load_labels

    folder, settle = tmp_path / "teach-cards", StillSettle()
    keep_example(folder, "earlier.jpg", lambda path: path.write_bytes(b"jpeg"),
                 tuple((float(n), 0.0, n + 1.0, 1.0) for n in range(50)), DECK[:50], "cards")
    teacher = TableTeaching("cards", Camera(), settle, cards_reader((("Q", "S"), ("10", "H"))), folder=folder,
                            teach=lambda: "taught", rolls=5)
    take(teacher, settle)
    assert [value_text(v) for v in teacher.check.proposed] == ["QS", "KS"]
    screen = teacher.screen()
    assert {t.word: t.mark for row in screen.picker for t in row}["pick:K"] == NEW, "KS is still to show"
    assert "then its rank and suit below" in screen.side
    teacher.tick(touched=["pick:K"])
    assert teacher.check.values[0] == ("Q", "S") and teacher.screen().message == "K: now touch the card's suit"
    teacher.tick(touched=["pick:S"])
    assert teacher.check.values == (("K", "S"), ("10", "H")) and teacher.screen().labels == ("KS", "10H")
    teacher.tick(touched=["die:1", "pick:H", "pick:J"])  # the second card: suit first
    assert teacher.check.values == (("K", "S"), ("J", "H"))
    teacher.tick(touched=["keep"])
    assert teacher.kept == 1
    (entry,) = [e for name, e in load_labels(folder).items() if name != "earlier.jpg"]
    assert [(c["rank"], c["suit"]) for c in entry["cards"]] == [("K", "S"), ("J", "H")]


def test_a_tile_added_by_touch_is_given_its_value_by_its_two_halves():
    check = RollCheck.of_read("dominoes", TableRead(), proposed=DOUBLE_SIX).add((50.0, 50.0))
    for word in ("pick:6", "pick:2"):
        check = touch_check(check, word)
    assert check.values == ((2, 6),) and check.confirm()[1] == ((2, 6),)


def test_on_the_results_screen_a_touch_on_a_value_sets_the_selected_die_and_the_buttons_still_step(tmp_path):
    from tabletop21.evaluate import load_labels

    appliance, _, _ = at_results(tmp_path)
    appliance.tick(touched=["screen"])
    screen = appliance.correction_screen()
    assert [t.word for t in screen.picker[0]] == ["pick:1", "pick:2", "pick:3", "pick:4", "pick:5", "pick:6",
                                                  "pick:none"]
    appliance.tick(touched=["die:1", "pick:2"])
    assert appliance.correction.check.values == (6, 2, 4)
    appliance.tick(touched=["die:2", "pick:none"])
    assert appliance.correction.check.values == (6, 2, NO_DIE)
    appliance.tick(presses=["shake"])  # SHAKE from "no die": the first face again, as ever
    assert appliance.correction.check.values == (6, 2, 1)
    appliance.tick(touched=["keep"])
    (entry,) = load_labels(tmp_path / "teach-dice").values()
    assert [d["value"] for d in entry["dice"]] == [6, 2, 1]


@pytest.mark.parametrize("kept_before, first", [(0, ("A", "C")), (50, ("Q", "S"))])
def test_the_results_screen_offers_the_deck_cards_not_in_the_teaching_folder_first(tmp_path, kept_before, first):
    folder = tmp_path / "teach-cards"
    if kept_before:
        keep_example(folder, "earlier.jpg", lambda path: path.write_bytes(b"jpeg"),
                     tuple((float(n), 0.0, n + 1.0, 1.0) for n in range(kept_before)), DECK[:kept_before], "cards")
    appliance, _, _ = at_results(tmp_path)
    appliance.corrections = Corrections({"dice": tmp_path / "teach-dice", "cards": folder})
    appliance.table.read = TableRead(cards=(Card("Q", "H", (12.0, 16.0), (2.0, 2.0, 22.0, 30.0), 0.0, 0.9),),
                                     unreadable=(Unreadable("card", (40.0, 16.0), "glare", (30.0, 2.0, 50.0, 30.0)),))
    appliance.tick(touched=["screen"])
    check = appliance.correction.check
    assert check.kind == "cards" and check.proposed == DECK[kept_before:] and check.values == (("Q", "H"), None)
    new = {t.word for row in appliance.correction_screen().picker for t in row if t.mark == NEW}
    assert ("pick:A" in new) == (kept_before == 0) and "pick:K" in new, "KS is not in the folder either way"
    appliance.tick(presses=["next", "shake"])
    assert appliance.correction.check.values == (("Q", "H"), first), \
        "SHAKE gives the unread card the deck's first card the folder lacks"
    assert Corrections({"dice": tmp_path}).to_show("dice") == ()
