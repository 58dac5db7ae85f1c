"""The view-model: every example screen survives a recording round trip, and an
impossible piece or screen is refused where it is made."""

from __future__ import annotations

import pytest

from display.examples import all_views
from table.errors import BadValue
from table.reads import D10, Card, Die, Domino, FaceDown, TableRead, Unreadable
from table.serial import CorruptRecord, dumps, loads
from table.view import CameraView, ErrorInfo, Hand, Item, Overlay, TableView, overlays_from_read

VIEWS = all_views()


def test_there_is_an_example_of_every_screen_for_every_game():
    games = {key.split("/")[0] for key in VIEWS}
    screens = {key.split("/")[1] for key in VIEWS}
    assert games == {"dicey21", "dice-blackjack", "blackjack-dice", "domino21", "changing-bank"}
    assert screens == {"attract", "bets", "play", "reading", "results", "paytable", "stats", "error"}
    assert len(VIEWS) == 40


@pytest.mark.parametrize("key", sorted(VIEWS))
def test_every_example_view_round_trips_through_a_recording(key):
    view = VIEWS[key]
    again = loads(dumps(view), TableView)
    assert again == view
    assert type(again.seats) is tuple and hash(again) == hash(view)


def test_item_kinds_carry_their_own_values():
    assert Item.die(6).value == 6
    assert Item.d10(0).value == 0
    assert Item.tile(6, 0).halves == (6, 0)
    assert (Item.card("Q", "S").rank, Item.card("Q", "S").suit) == ("Q", "S")
    assert Item.card("10").suit is None
    assert not Item.back("card").face_up


@pytest.mark.parametrize(
    "make",
    [
        lambda: Item.die(7),
        lambda: Item.die(0),
        lambda: Item.d10(10),
        lambda: Item.tile(7, 1),
        lambda: Item.tile(-1, 1),
        lambda: Item("tile", halves=(1,)),
        lambda: Item.card("1", "Z"),
        lambda: Item.card("Q", "X"),
        lambda: Item("card"),
        lambda: Item("coin", value=1),
        lambda: Item.die(True),
    ],
)
def test_impossible_items_are_refused(make):
    with pytest.raises(BadValue):
        make()


def test_a_screen_kind_must_exist_and_an_error_screen_must_say_what_to_do():
    with pytest.raises(BadValue, match="screen"):
        TableView("dicey21", "Dicey 21", "lobby")
    with pytest.raises(BadValue, match="what to do"):
        TableView("dicey21", "Dicey 21", "error")
    with pytest.raises(BadValue, match="Stats"):
        TableView("dicey21", "Dicey 21", "stats")
    assert TableView("dicey21", "Dicey 21", "error", error=ErrorInfo("Camera lost", "Check the cable")).error.title == "Camera lost"


def test_a_corrupt_recording_is_refused_not_half_read():
    text = dumps(VIEWS["dicey21/play"])
    with pytest.raises(CorruptRecord, match="lobby"):
        loads(text.replace('"screen":"play"', '"screen":"lobby"'), TableView)
    with pytest.raises(CorruptRecord, match="d6"):
        loads(text.replace('"kind":"card","value":null,"halves":null,"rank":"A"', '"kind":"die","value":7,"halves":null,"rank":"A"'), TableView)
    with pytest.raises(CorruptRecord):
        loads(text[:-10], TableView)


def test_a_vision_read_becomes_numbered_overlays_with_reasons():
    read = TableRead(
        dice=(Die(5, (10, 10), (0, 0, 20, 20), 0.99),),
        d10=(D10(0, (50, 10), (40, 0, 60, 20), 0.9),),
        dominoes=(Domino((6, 2), (90, 20), (80, 0, 100, 40), 0.0, 0.9),),
        cards=(Card("Q", "H", (130, 20), (120, 0, 140, 40), 0.0, 0.9), Card("7", None, (170, 20), (160, 0, 180, 40), 0.0, 0.9)),
        face_down=(FaceDown("card", (210, 20), (200, 0, 220, 40)),),
        unreadable=(Unreadable("die", (300, 300), "leaning on another die"),),
    )
    overlays = overlays_from_read(read)
    assert [o.label for o in overlays] == ["die 5", "d10 0", "tile 6|2", "card QH", "card 7", "card face down", "die ?"]
    assert [o.unreadable for o in overlays] == [False] * 6 + [True]
    assert overlays[-1].reason == "leaning on another die"
    assert overlays[-1].box == (280, 280, 320, 320)  # boxless unreadables still get marked
    camera = CameraView("f1", (640, 480), overlays)
    assert loads(dumps(camera), CameraView) == camera


def test_hands_default_to_empty_and_overlays_to_readable():
    assert Hand().items == ()
    assert not Overlay((0, 0, 1, 1), "die 1").unreadable
