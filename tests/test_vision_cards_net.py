"""The learned card reader (vision.cards.net): how indices become cards, what it
refuses, the cut the classifier sees, and what the shipped networks read."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from table.reads import TableRead
from vision.cards import net
from vision.image_io import NotAnImage
from vision.read import OTHER_READERS, READERS

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
FIXTURES = Path(__file__).resolve().parents[1] / "calibration_images" / "cards"
CFG = {"detector": {"sure_index": 0.5}, "face": {"threshold": 0.9, "not_index_threshold": 0.5},
       "geometry": {"centre_down": 2.3, "centre_right": 1.6, "long": 6.0, "short": 4.3}}


def _index(x, y, rank="7", suit="H", down=(0.0, 1.0), height=20.0, sure=0.99, score=0.9, no_index=0.0):
    ranks = np.full(14, (1 - sure - no_index) / 13)
    ranks[0] = no_index
    ranks[1 + net.RANKS.index(rank)] = sure
    suits = np.full(4, (1 - sure) / 3)
    suits[net.SUITS.index(suit)] = sure
    return {"centre": (x, y), "down": down, "height": height, "score": score, "ranks": ranks, "suits": suits}


def test_the_default_card_reader_is_the_learned_one_and_the_hand_built_stays_by_name():
    assert OTHER_READERS["cards-net"] is READERS["cards"]
    frame = cv2.imread(str(sorted((FIXTURES / "images").glob("*.jpg"))[0]))
    from vision.cards import read_cards as hand_built

    assert OTHER_READERS["cards-hand"](frame, None) == hand_built(frame)


def test_one_sure_index_is_one_card_whose_middle_lies_down_and_right_of_it():
    (card,), refusals = net.decide([_index(100, 100)], CFG, (640, 480))
    assert (card.rank, card.suit) == ("7", "H") and not refusals
    # upright card: the middle is 2.3 index heights down and 1.6 to the right
    assert card.center == pytest.approx((100 + 1.6 * 20, 100 + 2.3 * 20))
    assert card.angle == pytest.approx(0.0)
    x0, y0, x1, y1 = card.box
    assert x1 - x0 == pytest.approx(4.3 * 20) and y1 - y0 == pytest.approx(6.0 * 20)


def test_a_card_turned_a_quarter_has_its_long_side_across():
    (card,), _ = net.decide([_index(300, 200, down=(1.0, 0.0))], CFG, (640, 480))
    assert card.angle == pytest.approx(90.0)
    x0, y0, x1, y1 = card.box
    assert x1 - x0 == pytest.approx(6.0 * 20)


def test_the_two_corners_of_one_card_are_read_once_with_the_middle_between_them():
    a = _index(100, 100)
    b = _index(164, 192, down=(0.0, -1.0), sure=0.98)
    (card,), refusals = net.decide([a, b], CFG, (640, 480))
    assert card.center == pytest.approx((132, 146)) and not refusals


def test_two_cards_of_one_rank_and_suit_far_apart_are_both_read():
    cards, _ = net.decide([_index(50, 50), _index(500, 300)], CFG, (640, 480))
    assert len(cards) == 2


def test_two_corners_of_one_card_that_read_differently_refuse_it():
    a = _index(100, 100, rank="7")
    b = _index(164, 192, rank="9", down=(0.0, -1.0))
    cards, refusals = net.decide([a, b], CFG, (640, 480))
    assert not cards
    assert len(refusals) == 2 and all("two corners read differently" in r.reason for r in refusals)


def test_an_unsure_index_is_refused_with_its_reason_unless_its_card_is_read_from_another_corner():
    unsure = _index(400, 300, sure=0.6)
    cards, refusals = net.decide([unsure], CFG, (640, 480))
    assert not cards and len(refusals) == 1 and "for sure" in refusals[0].reason
    read = _index(100, 100)
    hidden = _index(160, 190, down=(0.0, -1.0), sure=0.6)
    cards, refusals = net.decide([read, hidden], CFG, (640, 480))
    assert len(cards) == 1 and not refusals


def test_what_the_classifier_takes_for_no_index_and_weak_finds_are_not_reported():
    gone = _index(100, 100, sure=0.3, no_index=0.6)
    weak = _index(300, 100, sure=0.6, score=0.35)
    assert net.decide([gone, weak], CFG, (640, 480)) == ([], [])


def test_the_crop_turns_an_index_upright():
    frame = np.full((200, 200, 3), 255, np.uint8)
    cv2.rectangle(frame, (95, 60), (105, 70), (0, 0, 0), -1)  # a mark "above" the centre
    upright = net.index_crop(frame, (100, 100), (0.0, 1.0), 40.0, 40, 2.0)
    turned = net.index_crop(frame, (100, 100), (0.0, -1.0), 40.0, 40, 2.0)
    sideways = net.index_crop(frame, (100, 100), (1.0, 0.0), 40.0, 40, 2.0)
    dark = [np.argwhere(c[..., 0] < 128).mean(0) for c in (upright, turned, sideways)]
    assert dark[0][0] < 15  # the mark stays at the top
    assert dark[1][0] > 25  # facing the other way it ends at the bottom
    assert dark[2][1] < 15 or dark[2][1] > 25  # turned a quarter it ends at a side
    assert 15 <= dark[2][0] <= 25


@pytest.mark.parametrize("bad", [None, "frame.png", np.zeros((10, 10, 3), np.uint8), np.zeros((64, 64), np.float32)])
def test_bad_frames_are_a_plain_error(bad):
    with pytest.raises((NotAnImage, TypeError, ValueError)):
        net.read_cards_net(bad)


def test_the_shipped_config_names_its_networks_and_geometry():
    cfg = json.loads(net.CONFIG.read_text())
    for part in ("detector", "face"):
        assert (net.CONFIG.parent / cfg[part]["file"]).is_file()
    assert set(cfg["geometry"]) == {"centre_down", "centre_right", "long", "short"}
    assert 0.5 <= cfg["face"]["threshold"] < 1


def test_a_bare_table_has_no_card():
    frame = np.full((480, 640, 3), (40, 110, 30), np.uint8)
    read = net.read_cards_net(frame)
    assert isinstance(read, TableRead) and not read.cards


def test_two_alike_cards_dealt_side_by_side_are_two_but_four_corner_indices_are_one():
    # the geometry puts the top corners' indices 3.2 index heights apart
    dealt = [_index(100, 100), _index(130, 110)]  # a second 7H dealt a little right and down
    assert len(net.decide(dealt, CFG, (640, 480))[0]) == 2
    four = [_index(100, 100), _index(164, 100)]
    (card,), _ = net.decide(four, CFG, (640, 480))
    assert card.center == pytest.approx((132, 146))  # placed from the top-left one


def test_the_card_fixtures_are_read_with_no_card_wrong():
    # rendered in two condensed faces the networks never saw (tools.card_net.faces.HELD_OUT)
    from tabletop21.evaluate import evaluate, summary

    cards = summary(evaluate(FIXTURES, net.read_cards_net))["kinds"]["cards"]
    assert cards["labelled"] == 109
    assert cards["value_right"] >= 90
    assert cards["found"] == cards["value_right"]  # every card it reads, it reads right
    assert cards["phantoms"] == 0


@pytest.mark.skipif(not (SHARED / "dice-d6-photos").is_dir(), reason="../shared/data/dice-d6-photos is not here")
def test_real_dice_photos_hold_no_card():
    paths = sorted((SHARED / "dice-d6-photos" / "images").glob("*.jpg"))[::5]
    assert paths
    for path in paths:
        assert not net.read_cards_net(cv2.imread(str(path))).cards, path.name
