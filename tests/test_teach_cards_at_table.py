"""Teaching the table your cards at the table (`tabletop21 teach cards` without a folder)
and correcting a read of cards: the owner lays the deck out face up a few rows at a time,
the table reads each picture, and the owner confirms or corrects each card with the
buttons, touch or the keyboard (QS, 10h; x: no card). The cards of the deck not shown
yet are offered first, a picture cannot give two cards the same rank and suit, and the
pictures kept (labels.json cards as rank, suit and box) teach the learned card reader.

The check is pure and tested alone; the teacher runs on a fake camera and reader; the
end-to-end run uses the devices `run` opens (a recorded session of the card fixtures as
the camera, MockFactory pins as the buttons, SDL's dummy display)."""

import json
from pathlib import Path

import numpy as np
import pygame
import pytest
from gpiozero.pins.mock import MockFactory

from hardware.frames import Frame
from table.driver import SettledRead
from table.errors import TableError
from table.reads import Card, Die, TableRead, Unreadable
from tabletop21.cli import main
from tabletop21.corrections import DECK, FACES, TEACH_FOLDERS, keep_example, parse_values, settled_rolls, value_text
from tabletop21.evaluate import load_labels
from tabletop21.recording import Manifest, SessionReader, SessionWriter
from tabletop21.rollcheck import NO_DIE, RollCheck
from tabletop21.settings import load_config
from tabletop21.taught import examples_from_folder, load_taught
from tabletop21.teaching import (
    TAUGHT_FILES,
    Correction,
    Corrections,
    TableTeaching,
    check_screen,
    check_words,
    read_kind,
    shown_in,
    teaching_at_table,
)
from tests.test_teach_at_table import Owner, StillSettle, photo_session, table_settings

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "calibration_images" / "cards"


def card(rank, suit, x, y, w=40.0, h=56.0):
    return Card(rank, suit, (x + w / 2, y + h / 2), (x, y, x + w, y + h), 0.0, 0.9)


def three_cards_and_a_refusal(proposed=()) -> RollCheck:
    """A 10 of hearts and a queen of spades in a row, a 7 read without its suit and a
    refused card below them; a die's refusal, which is no card."""
    read = TableRead(cards=(card("Q", "S", 100, 10), card("10", "H", 10, 10), card("7", None, 200, 100)),
                     unreadable=(Unreadable("card", (60.0, 120.0), "glare", (40.0, 90.0, 80.0, 146.0)),
                                 Unreadable("die", (300.0, 300.0), "too blurred")))
    return RollCheck.of_read("cards", read, frame_size=(400, 300), proposed=proposed)


class Camera:
    """Frames of 300 x 400 whose first pixel carries their index."""

    def __init__(self):
        self.index = 0

    def read(self):
        self.index += 1
        image = np.full((300, 400, 3), 90, np.uint8)
        image[0, 0] = self.index % 256
        return Frame(image, self.index, self.index / 30)

    def close(self):
        pass


def cards_reader(cards):
    def read(image):
        return TableRead(cards=tuple(card(rank, suit, 5.0 + 50 * i, 10.0) for i, (rank, suit) in enumerate(cards)))
    return read


def take(teacher: TableTeaching, settle: StillSettle) -> None:
    """NEXT, and frames until the still picture is read."""
    settle.roll()
    teacher.tick(presses=["next"])
    for _ in range(6):
        teacher.tick()


# --- the check --------------------------------------------------------------------------------------------------

def test_the_deck_is_52_cards_ace_to_king_of_clubs_diamonds_hearts_then_spades_each_once():
    assert len(DECK) == len(set(DECK)) == 52 and FACES["cards"] == DECK
    assert DECK[:3] == (("A", "C"), ("2", "C"), ("3", "C")) and DECK[12] == ("K", "C") and DECK[13] == ("A", "D")
    assert DECK[-1] == ("K", "S") and value_text(("10", "H")) == "10H" and value_text((3, 5)) == "3-5"
    assert TEACH_FOLDERS["cards"] == Path("~/tabletop21/teach-cards")
    assert TAUGHT_FILES["cards"] == Path("~/tabletop21/taught-cards.json")


def test_a_read_of_cards_is_checked_in_order_as_rank_and_suit_with_the_unsure_and_refused_asked_for():
    check = three_cards_and_a_refusal()
    assert check.boxes == ((10.0, 10.0, 50.0, 66.0), (100.0, 10.0, 140.0, 66.0), (40.0, 90.0, 80.0, 146.0),
                           (200.0, 100.0, 240.0, 156.0)), "top to bottom, left to right; the die's refusal left out"
    assert check.values == (("10", "H"), ("Q", "S"), None, None) and check.labels() == ("10H", "QS", "?", "?")
    assert check.one == "card" and "Card 1 of 4: 10H" in check_words(check) and "keeps the picture" in \
        check_words(check)
    assert "card 3, 4 were not read" in check.confirm()[0].message
    assert check.set_value(1, NO_DIE).labels()[1] == "no card"


def test_shake_offers_the_cards_not_shown_yet_first_then_every_other_card_then_no_card():
    check = three_cards_and_a_refusal(proposed=(("A", "S"), ("Q", "S"), ("2", "D")))
    unread = check.next().next()
    assert [unread.cycle().values[2], unread.cycle().cycle().values[2]] == [("A", "S"), ("2", "D")], \
        "QS is proposed but already given to card 2 of this picture"
    order = unread.order()
    assert order[:3] == (("A", "S"), ("2", "D"), ("A", "C")) and order[-1] == NO_DIE
    assert len(order) == 52 + 1 - 2 and set(order[:-1]) == set(DECK) - {("10", "H"), ("Q", "S")}
    last = unread.set_value(2, ("K", "S")).cycle()
    assert last.values[2] == NO_DIE and last.cycle().values[2] == ("A", "S"), "after no card, the first proposal"


def test_two_cards_given_the_same_card_are_not_kept_and_the_second_is_selected():
    check = three_cards_and_a_refusal().set_value(2, ("Q", "S")).set_value(3, ("7", "C"))
    held, kept = check.confirm()
    assert kept is None and held.selected == 2
    assert held.message == "cards 2 and 3 are both QS: a deck has each card once; change one"
    done, kept = check.set_value(2, ("Q", "H")).confirm()
    assert kept == (("10", "H"), ("Q", "S"), ("Q", "H"), ("7", "C")) and done.message == ""


@pytest.mark.parametrize("typed, values", [
    ("qs 10h x 7c", (("Q", "S"), ("10", "H"), NO_DIE, ("7", "C"))),
    ("QS, 10H, AC, 7D", (("Q", "S"), ("10", "H"), ("A", "C"), ("7", "D"))),
    ("th", (("10", "H"), ("Q", "S"), None, None)),  # one card: the selected one (T is a ten)
    ("x", (NO_DIE, ("Q", "S"), None, None)),
])
def test_cards_are_typed_as_rank_and_suit_in_any_case(typed, values):
    check = three_cards_and_a_refusal().typed(typed)
    assert check.values == values and check.message == ""
    if len(typed.split()) == 1:
        assert check.selected == 1, "one value: the selected card, then the next"


@pytest.mark.parametrize("bad, words", [
    ("11H", "'11H' is no card: a card is a rank (A, 2-10, J, Q, K) and a suit (C, D, H, S), typed QS or 10H"),
    ("1S", "'1S' is no card"), ("Q", "'Q' is no card"), ("10X", "'10X' is no card"), ("5-3", "'5-3' is no card"),
    ("qs 10h", "type 4 values (a card as QS or 10H, or x where no card is), one for each card in the order shown"),
])
def test_a_card_no_deck_holds_is_refused_in_one_line_and_changes_nothing(bad, words):
    check = three_cards_and_a_refusal()
    typed = check.typed(bad)
    assert words in typed.message and "\n" not in typed.message
    assert typed.values == check.values and typed.selected == check.selected
    with pytest.raises(TableError, match=r"\('11', 'H'\) is no card"):
        check.set_value(0, ("11", "H"))
    with pytest.raises(TableError, match="is no card"):
        parse_values("1S", 1, "cards")
    with pytest.raises(TableError, match="is no card"):
        RollCheck("cards", ((0.0, 0.0, 9.0, 9.0),), (("Q", "X"),), (None,))


def test_an_added_card_is_a_square_as_long_as_the_other_cards_else_four_dice():
    check = three_cards_and_a_refusal().add((320.0, 200.0))
    assert check.boxes[check.selected] == (292.0, 172.0, 348.0, 228.0) and check.values[check.selected] is None
    assert "Card 5 added" in check.message
    alone = RollCheck("cards", (), (), (), frame_size=(400, 300), die_side=10.0).add((100.0, 100.0))
    assert alone.boxes == ((80.0, 80.0, 120.0, 120.0),)


# --- kept for teaching --------------------------------------------------------------------------------------------

def test_kept_cards_are_written_as_rank_suit_and_box_and_read_back_by_teaching(tmp_path):
    import cv2

    folder = tmp_path / "teach-cards"
    ok, data = cv2.imencode(".jpg", np.full((300, 400, 3), 200, np.uint8))
    assert ok
    keep_example(folder, "a.jpg", lambda path: path.write_bytes(data.tobytes()),
                 ((1.0, 2.0, 41.0, 58.0), (50.0, 2.0, 90.0, 58.0), (100.0, 2.0, 140.0, 58.0)),
                 (("10", "D"), None, ("Q", "S")), "cards")
    assert load_labels(folder)["a.jpg"] == {"cards": [{"rank": "10", "suit": "D", "box": [1.0, 2.0, 41.0, 58.0]},
                                                      {"rank": "Q", "suit": "S", "box": [100.0, 2.0, 140.0, 58.0]}]}
    assert shown_in(folder, "cards") == {("10", "D"), ("Q", "S")} and shown_in(folder, "dominoes") == frozenset()
    (example,) = examples_from_folder("cards", folder)
    assert example.dice == ((("10", "D"), (1.0, 2.0, 41.0, 58.0)), (("Q", "S"), (100.0, 2.0, 140.0, 58.0)))
    with pytest.raises(TableError, match=r"\('11', 'H'\) is no card: .*; nothing was kept"):
        keep_example(folder, "b.jpg", lambda path: path.write_bytes(b""), ((0.0, 0.0, 9.0, 9.0),), (("11", "H"),),
                     "cards")
    assert sorted(load_labels(folder)) == ["a.jpg"] and not (folder / "images" / "b.jpg").exists()


# --- at the table, on a fake camera and reader --------------------------------------------------------------------

def test_at_the_table_each_picture_offers_the_cards_still_to_show_and_the_screen_counts_the_deck(tmp_path):
    folder, settle = tmp_path / "teach-cards", StillSettle()
    reads = iter([(("A", "C"), ("Q", "S")), (("Q", "S"), ("10", "H"), ("K", "D"))])
    teacher = TableTeaching("cards", Camera(), settle, lambda image: cards_reader(next(reads))(image),
                            folder=folder, teach=lambda: "taught", rolls=5)
    screen = teacher.screen()
    assert screen.title == "TEACH THE TABLE YOUR CARDS - PICTURE 1 OF 5"
    assert screen.message == "Lay out cards of your deck face up in rows, corners in view, then press NEXT"
    assert "Lay out your whole deck" in screen.side and "0 of 52 cards shown; still to show: AC 2C 3C" in screen.side
    take(teacher, settle)
    assert teacher.phase == "check" and teacher.check.proposed == DECK
    screen = teacher.screen()
    assert screen.next == "next card" and ("keep", "KEEP PICTURE") in screen.targets
    assert "Or type QS, 10h (x: no card)." in screen.side
    teacher.tick(touched=["keep"])
    assert teacher.message == "Picture 1 kept (2 cards; 2 of 52 cards shown; still to show: 2C 3C 4C 5C 6C 7C 8C " \
                              "9C ...)"
    take(teacher, settle)
    proposed = teacher.check.proposed
    assert ("A", "C") not in proposed and ("Q", "S") not in proposed and len(proposed) == 50
    assert proposed[:2] == (("2", "C"), ("3", "C"))
    assert teacher.check.values == (("Q", "S"), ("10", "H"), ("K", "D"))
    teacher.tick(presses=["shake"])  # QS is shown already: the shown cards come last, then no card
    assert teacher.check.values[0] == NO_DIE
    teacher.tick(presses=["shake"])  # then the first card not shown yet
    assert teacher.check.values[0] == ("2", "C")
    teacher.tick(presses=["next", "next", "shake"])  # the KD: the next card not shown yet
    assert teacher.check.values[2] == ("A", "H") and teacher.check.selected == 2
    teacher.tick(typed=["qs 10h x"])
    screen = teacher.screen()
    assert teacher.check.values == (("Q", "S"), ("10", "H"), NO_DIE) and screen.labels == ("QS", "10H", "no card")
    assert screen.changed == (False, False, True)
    teacher.tick(touched=["keep"])
    assert teacher.kept == 2 and teacher.shown == {("A", "C"), ("Q", "S"), ("10", "H")}
    assert "Picture 2 kept (2 cards; 3 of 52 cards shown" in teacher.message
    labels = load_labels(folder)
    assert sorted(sorted((c["rank"], c["suit"]) for c in entry["cards"]) for entry in labels.values()) == \
        [[("10", "H"), ("Q", "S")], [("A", "C"), ("Q", "S")]]
    assert all(set(c) == {"rank", "suit", "box"} for entry in labels.values() for c in entry["cards"])
    examples = examples_from_folder("cards", folder)
    assert sorted(sorted(value for value, _ in ex.dice) for ex in examples) == \
        [[("10", "H"), ("Q", "S")], [("A", "C"), ("Q", "S")]]
    assert all(ex.frame.shape == (300, 400, 3) for ex in examples)
    again = TableTeaching("cards", Camera(), settle, cards_reader(()), folder=folder, teach=lambda: "taught")
    assert again.shown == teacher.shown, "a later sitting counts the cards kept in the folder before"
    assert "3 of 52 cards shown" in again.screen().side


def test_a_picture_giving_two_cards_the_same_card_or_a_card_no_deck_holds_is_not_kept(tmp_path):
    folder, settle = tmp_path / "teach-cards", StillSettle()
    teacher = TableTeaching("cards", Camera(), settle, cards_reader((("Q", "S"), ("Q", "H"))), folder=folder,
                            teach=lambda: "taught")
    take(teacher, settle)
    teacher.tick(typed=["11H"])
    assert teacher.screen().message.startswith("'11H' is no card: a card is a rank")
    assert teacher.check.values == (("Q", "S"), ("Q", "H"))
    teacher.tick(typed=["1S qs"])
    assert teacher.screen().message.startswith("'1S' is no card") and teacher.check.values == (("Q", "S"), ("Q", "H"))
    teacher.tick(typed=["qs qs"])
    teacher.tick(touched=["keep"])
    assert teacher.phase == "check" and teacher.kept == 0 and not folder.exists()
    assert teacher.screen().message == "cards 1 and 2 are both QS: a deck has each card once; change one"
    assert teacher.check.selected == 1
    teacher.tick(typed=["qd"])
    teacher.tick(presses=["confirm"])
    assert teacher.phase == "roll" and teacher.kept == 1 and teacher.shown == {("Q", "S"), ("Q", "D")}


def test_the_whole_deck_shown_is_said_and_a_picture_with_no_card_asks_to_lay_them_out_again(tmp_path):
    folder = tmp_path / "teach-cards"
    keep_example(folder, "all.jpg", lambda path: path.write_bytes(b"jpeg"),
                 tuple((float(n), 0.0, n + 1.0, 1.0) for n in range(52)), DECK, "cards")
    settle = StillSettle()
    teacher = TableTeaching("cards", Camera(), settle, cards_reader(()), folder=folder, teach=lambda: "taught")
    assert "The whole deck of 52 shown" in teacher.screen().side and teacher.to_show() == ()
    take(teacher, settle)
    assert teacher.phase == "roll" and "No card found in the picture: lay them out again" in teacher.message
    assert "face up" in teacher.message
    teacher.tick(touched=["take"])
    assert teacher.phase == "waiting"


def test_the_check_screen_of_cards_says_cards_and_draws_them_whole():
    from display.teach import draw_check

    check = three_cards_and_a_refusal().set_value(0, ("K", "H")).set_value(1, NO_DIE)
    screen = Corrections({}).screen(Correction(check, np.full((300, 400, 3), 90, np.uint8), 4))
    assert screen.title == "ROUND 4 - CORRECT THE CARDS" and screen.labels == ("KH", "no card", "?", "?")
    assert screen.next == "next card" and "SHAKE: the selected card's next value" in screen.side
    assert "Or type QS, 10h (x: no card)." in screen.side
    for size in ((800, 480), (480, 320)):
        _, texts = draw_check(pygame.Surface(size), screen, np.full((300, 400, 3), 90, np.uint8))
        assert {"KH*", "no card*", "?"} <= {t.text for t in texts} and not any(t.cut for t in texts)
    plain = check_screen(check, title="T", message="m", side="s", targets=(), frame_size=(400, 300))
    assert plain.unread == (False, False, True, True) and plain.absent == (False, True, False, False)


# --- a read of cards corrected ------------------------------------------------------------------------------------

def test_a_read_of_cards_is_corrected_as_cards(tmp_path):
    read = TableRead(cards=(card("Q", "S", 100, 10),), unreadable=(Unreadable("card", (30.0, 30.0), "glare"),))
    assert read_kind(read) == "cards" and read_kind(TableRead(cards=(card("7", None, 0, 0),))) == "cards"
    assert read_kind(TableRead(cards=(card("Q", "S", 100, 10),), dice=(Die(4, (5.0, 5.0), (0.0, 0.0, 10.0, 10.0),
                                                                           0.9),))) == "dice"
    check = RollCheck.of_read("cards", read, frame_size=(400, 300)).typed("ah jd")
    corrections = Corrections({"dice": tmp_path / "teach-dice"}, die_side=10.0)
    assert corrections.folders["cards"] == TEACH_FOLDERS["cards"].expanduser(), "a kind not named keeps its folder"
    corrections = Corrections({"cards": tmp_path / "teach-cards"})
    folder, name = corrections.keep(Correction(check, np.full((300, 400, 3), 120, np.uint8), 3), check.confirm()[1])
    assert folder == tmp_path / "teach-cards" and name.startswith("round3-")
    (example,) = examples_from_folder("cards", folder)
    assert [value for value, _ in example.dice] == [("A", "H"), ("J", "D")]


def card_session(folder: Path) -> None:
    """A recorded session of two settled reads of cards (one card unread)."""
    reads = [TableRead(cards=(card("Q", "S", 100, 10), card("10", "H", 10, 10)),
                       unreadable=(Unreadable("card", (220.0, 38.0), "glare", (200.0, 10.0, 240.0, 66.0)),)),
             TableRead(cards=(card("4", "D", 10, 10),))]
    with SessionWriter(folder, Manifest("changing-bank", ("Ann",))) as writer:
        for number, read in enumerate(reads, 1):
            writer.save_frame(Frame(np.full((300, 400, 3), 100 + number, np.uint8), number, number / 10))
            writer.log("input", SettledRead(read))


def test_replay_correct_goes_through_reads_of_cards_in_cards_words_and_keeps_them_for_teach_cards(
        tmp_path, monkeypatch, capsys):
    session = tmp_path / "night"
    card_session(session)
    rolls = list(settled_rolls(SessionReader(session)))
    assert [roll.kind for roll in rolls] == ["cards", "cards"]
    assert rolls[0].read == (("10", "H"), ("Q", "S"), None)
    answers = iter(["", "11H qs x", "qs qs 2c", "10h QS 2c", ""])
    prompts: list[str] = []

    def ask(prompt=""):
        prompts.append(prompt)
        return next(answers)

    monkeypatch.setattr("builtins.input", ask)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert main(["replay", str(session), "--correct"]) == 0
    out = capsys.readouterr().out
    folder = tmp_path / "home" / "tabletop21" / "teach-cards"
    assert "picture 1 (" in out and "read 10H QS ?, cards at" in out and "read 4D, cards at" in out
    assert "a card was not read (?): type every card's value to keep this picture" in out
    assert "'11H' is no card: a card is a rank" in out
    assert "two cards are given QS: a deck has each card once" in out
    assert "the values of the cards in that order (a card as QS or 10H) (x: no card)" in prompts[0]
    assert f"2 pictures kept in {folder}: teach with `tabletop21 teach cards {folder} -o FILE`" in out
    kept = load_labels(folder)
    assert sorted(sorted((c["rank"], c["suit"]) for c in entry["cards"]) for entry in kept.values()) == \
        [[("10", "H"), ("2", "C"), ("Q", "S")], [("4", "D")]]
    assert len(examples_from_folder("cards", folder)) == 2


# --- at the table, end to end -------------------------------------------------------------------------------------

def _iou(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    inter = w * h if w > 0 and h > 0 else 0.0
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def test_teaching_cards_at_the_table_keeps_each_picture_and_names_the_taught_file(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    labels = json.loads((FIXTURES / "labels.json").read_text())
    names = [name for name, entry in sorted(labels.items())  # pictures of one deck: each card once
             if len({(c["rank"], c["suit"]) for c in entry["cards"]}) == len(entry["cards"]) >= 6][:3]
    images = photo_session(tmp_path / "camera", FIXTURES, names)
    settings = table_settings(tmp_path, str(tmp_path / "camera"), rolls=3)
    factory = MockFactory()
    said: list[str] = []
    try:
        with teaching_at_table("cards", str(settings), pin_factory=factory, say=said.append) as opened:
            owner = Owner(opened, factory, load_config(settings).gpio)
            teacher = owner.teacher
            owner.tick()
            assert "Lay out cards of your deck" in teacher.screen().message
            assert teacher.folder == home / "tabletop21" / "teach-cards"
            given = []
            for picture in range(len(names)):
                owner.press(owner.next)
                owner.until(lambda: teacher.phase == "check")
                assert teacher.check.boxes, "the shipped reader finds the fixtures' cards"
                if picture == 0:
                    assert teacher.check.proposed == DECK
                shown = teacher.picture.astype(int)
                which = min(range(len(images)), key=lambda n: abs(shown - images[n].astype(int)).mean())
                truth = list(labels[names[which]]["cards"])
                wanted = []
                for box in teacher.check.boxes:  # each labelled card to the box it fits best, once
                    best = max(truth, key=lambda t: _iou(box, t["box"]), default=None)
                    if best is not None and _iou(box, best["box"]) >= 0.5:
                        truth.remove(best)
                        wanted.append(f"{best['rank']}{best['suit'].lower()}")
                    else:
                        wanted.append("x")
                owner.tick(typed=[" ".join(wanted)])
                assert teacher.screen().message.startswith("Card 1 of"), teacher.screen().message
                kept = teacher.kept
                owner.hold(owner.next)
                assert teacher.kept == kept + 1, teacher.screen().message
                given.append(sorted((w[:-1].upper(), w[-1].upper()) for w in wanted if w != "x"))
            owner.until(lambda: teacher.phase == "done", limit=5)
            owner.press(owner.next)
            assert teacher.finished
    finally:
        factory.reset()
    out = home / "tabletop21" / "taught-cards.json"
    taught = load_taught(out)
    assert taught.kind == "cards" and taught.taught_on["photos"] == len(names)
    assert load_config(settings).table.taught == str(out)
    kept = load_labels(home / "tabletop21" / "teach-cards")
    assert sorted(sorted((c["rank"], c["suit"]) for c in entry["cards"]) for entry in kept.values()) == sorted(given)
    assert f"cards) in {home / 'tabletop21' / 'teach-cards'}, written to {out}" in teacher.done
