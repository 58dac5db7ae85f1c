"""When two readers claim one object, one answer stands (vision.read.resolve_overlaps)."""

import math

from table.reads import D10, Card, Die, Domino, FaceDown, TableRead, Unreadable
from vision.read import resolve_overlaps


def die(value, x, y, confidence=0.99):
    return Die(value, (x, y), (x - 10, y - 10, x + 10, y + 10), confidence)


def test_dice_seen_on_a_tile_or_a_card_belong_to_it():
    read = TableRead(
        dice=(die(3, 50, 50), die(5, 300, 300)),
        dominoes=(Domino((3, 4), (60, 60), (20, 30, 100, 90), 0.0, 0.95),),
        cards=(Card("5", "H", (300, 300), (260, 240, 340, 360), 0.0, 0.9),),
        unreadable=(Unreadable("die", (70, 60), "pips unclear"), Unreadable("die", (500, 500), "cocked")),
    )
    resolved = resolve_overlaps(read)
    assert resolved.dice == ()
    assert [u.reason for u in resolved.unreadable] == ["cocked"]
    assert resolved.dominoes == read.dominoes and resolved.cards == read.cards


def test_d10s_seen_on_a_tile_or_a_card_belong_to_it():
    read = TableRead(
        d10=(D10(7, (50, 50), (40, 40, 60, 60), 0.95), D10(2, (500, 500), (490, 490, 510, 510), 0.95)),
        dominoes=(Domino((3, 4), (60, 60), (20, 30, 100, 90), 0.0, 0.95),),
        cards=(Card("5", "H", (300, 300), (260, 240, 340, 360), 0.0, 0.9),),
        unreadable=(Unreadable("d10", (300, 310), "number unclear"),),
    )
    resolved = resolve_overlaps(read)
    assert [t.value for t in resolved.d10] == [2] and resolved.unreadable == ()


def test_a_tile_refused_on_a_read_card_is_part_of_the_card():
    card = Card("K", None, (300, 300), (260, 240, 340, 360), 0.0, 0.9)
    on_card = Unreadable("domino", (300, 290), "pips but no divider", (280, 260, 320, 320))
    lone = Unreadable("domino", (100, 100), "pips but no divider", (80, 70, 120, 130))
    resolved = resolve_overlaps(TableRead(cards=(card,), unreadable=(on_card, lone)))
    assert resolved.cards == (card,) and resolved.unreadable == (lone,)


def test_dice_seen_on_a_tile_that_could_not_be_read_belong_to_it():
    tile = Unreadable("domino", (60, 60), "pips but no divider", (20, 30, 100, 90))
    read = TableRead(dice=(die(3, 50, 50), die(5, 300, 300)), unreadable=(tile,))
    resolved = resolve_overlaps(read)
    assert [d.value for d in resolved.dice] == [5]
    assert resolved.unreadable == (tile,)


def test_a_die_read_as_both_kinds_is_a_d10():
    ten = D10(7, (101, 99), (90, 90, 110, 110), 0.92)
    resolved = resolve_overlaps(TableRead(dice=(die(4, 100, 100, 0.99),), d10=(ten,)))
    assert resolved.dice == () and resolved.d10 == (ten,)


def test_a_d6_read_sharing_most_of_a_d10s_box_is_that_d10():
    # Neither centre inside the other's box, but the boxes share most of the smaller one.
    ten = D10(0, (130, 130), (100, 100, 160, 160), 1.0)
    off_centre = Die(1, (108, 108), (96, 96, 120, 120), 0.98)  # centre inside: the obvious case
    beside = Die(5, (98, 140), (84, 126, 112, 154), 0.95)  # centre just outside; 12 of its 28 columns shared
    touching = Die(3, (175, 130), (161, 120, 189, 140), 0.99)  # shares nothing
    resolved = resolve_overlaps(TableRead(dice=(off_centre, beside, touching), d10=(ten,)))
    assert resolved.dice == (touching,) and resolved.d10 == (ten,)


def test_a_read_stands_over_the_other_readers_refusal_on_the_same_spot():
    ten = D10(7, (200, 200), (185, 185, 215, 215), 0.95)
    read = TableRead(dice=(die(4, 100, 100),), d10=(ten,),
                     unreadable=(Unreadable("d10", (102, 98), "number unclear"),
                                 Unreadable("die", (201, 203), "top face unclear"),
                                 Unreadable("die", (400, 400), "cocked")))
    resolved = resolve_overlaps(read)
    assert resolved.dice == read.dice and resolved.d10 == (ten,)
    assert [u.reason for u in resolved.unreadable] == ["cocked"]


def test_separate_objects_are_left_alone():
    read = TableRead(dice=(die(2, 10, 10),), d10=(D10(0, (400, 400), (390, 390, 410, 410), 0.9),))
    assert resolve_overlaps(read) == read


def test_a_dice_alike_tile_stands_only_where_the_dice_reader_did_not_run():
    doubt = "pips 3 and 4 but no divider line: one tile or two dice side by side?"
    doubted = Domino((3, 4), (60, 60), (20, 30, 100, 90), 0.0, 0.6, doubt)
    sure = Domino((1, 2), (300, 60), (260, 30, 340, 90), 0.0, 0.9)
    read = TableRead(dice=(die(3, 40, 60), die(4, 80, 60)), dominoes=(doubted, sure))
    assert resolve_overlaps(read, ["dominoes"]) == TableRead(dominoes=(doubted, sure))
    mixed = resolve_overlaps(read, ["dice", "dominoes"])
    assert mixed.dominoes == (sure,) and mixed.dice == ()
    assert mixed.unreadable == (Unreadable("domino", (60, 60), doubt, (20, 30, 100, 90)),)
    assert resolve_overlaps(read) == mixed  # every reader, unless told otherwise


def turned(width, length, centre, angle):
    """The box of a width x length rectangle about `centre`, its long axis turned
    `angle` degrees clockwise from the vertical."""
    a = math.radians(angle)
    half_w = (length * abs(math.sin(a)) + width * abs(math.cos(a))) / 2
    half_h = (length * abs(math.cos(a)) + width * abs(math.sin(a))) / 2
    return (centre[0] - half_w, centre[1] - half_h, centre[0] + half_w, centre[1] + half_h)


def test_a_die_in_a_tilted_cards_box_but_off_the_card_stands():
    """The box of a card turned 30 degrees takes in bare table at its corners: a die
    there was dropped as part of the card. A die on the card near its end still is."""
    box = turned(63, 88, (300, 300), 30)  # about (235, 234, 365, 366)
    card = Card("6", "S", (300, 300), box, 30.0, 0.9)
    beside = die(5, box[0] + 12, box[1] + 12)
    on_the_end = die(2, 300 + 38 * math.sin(math.radians(30)), 300 - 38 * math.cos(math.radians(30)))
    resolved = resolve_overlaps(TableRead(dice=(beside, on_the_end), cards=(card,)))
    assert resolved.dice == (beside,)


def test_a_die_in_a_tilted_tiles_box_but_off_the_tile_stands():
    tile = Domino((2, 5), (200, 200), turned(40, 80, (200, 200), 90 - 35), 35.0, 0.95)  # 35 degrees from the x axis
    x0, y0, x1, y1 = tile.box
    beside = die(4, x1 - 8, y0 + 8)  # the corner above the tile's right end
    on_the_end = die(5, 200 + 30 * math.cos(math.radians(35)), 200 + 30 * math.sin(math.radians(35)))
    refused_beside = Unreadable("die", (x0 + 8, y1 - 8), "cocked", (x0, y1 - 16, x0 + 16, y1))
    resolved = resolve_overlaps(TableRead(dice=(beside, on_the_end), dominoes=(tile,), unreadable=(refused_beside,)))
    assert resolved.dice == (beside,) and resolved.unreadable == (refused_beside,)


def test_a_refusal_at_the_end_of_a_tilted_bridge_card_is_the_cards():
    """The dice reader refuses a card's corner index as a cocked die. Taking every
    card for a poker card cut the ends off a tilted bridge card, index and all."""
    box = turned(57, 88, (200, 300), 125)
    card = Card("3", "H", (200, 300), box, 125.0, 0.8)
    end = (200 - 43 * math.sin(math.radians(125)), 300 + 43 * math.cos(math.radians(125)))
    index = Unreadable("die", end, "die does not lie flat (cocked or stacked)", (end[0] - 16, end[1] - 16,
                                                                                  end[0] + 16, end[1] + 16))
    assert resolve_overlaps(TableRead(cards=(card,), unreadable=(index,))).unreadable == ()


def test_dice_read_on_a_tilted_face_down_cards_back_near_its_corners_are_the_cards():
    """A face-down card carries no angle, so the rectangle it lies in is not known:
    its whole box is its own, or the dice read on its back pattern (nine on one
    fixture) would stand."""
    box = turned(63, 88, (300, 300), 55)
    back = FaceDown("card", (300, 300), box)
    corner = die(5, 300 + 40 * math.sin(math.radians(55)), 300 - 40 * math.cos(math.radians(55)))
    assert resolve_overlaps(TableRead(dice=(corner,), face_down=(back,))).dice == ()


def test_a_whole_view_refusal_is_not_swallowed_by_the_card_in_the_middle():
    """The dice reader's "too grainy" refusal is centred on the frame, and was dropped
    whenever a card lay there (13 of 22 grainy card frames). A die-sized refusal on the
    card is still the card's."""
    card = Card("Q", None, (320, 320), (288, 276, 352, 364), 0.0, 0.9)
    grainy = Unreadable("die", (320.0, 320.0), "the picture is too grainy to read dice", (0.0, 0.0, 640.0, 640.0))
    pips = Unreadable("die", (330, 300), "top face unclear", (318, 288, 342, 312))
    resolved = resolve_overlaps(TableRead(cards=(card,), unreadable=(grainy, pips)))
    assert resolved.unreadable == (grainy,)
