"""The learned rank judge of the card reader: what it is shown, what it answers, how its
training examples are labelled, and that one card's two indices are reported once."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from table.reads import Card
from tools.render import cards as render
from tools.train.rank_net import STRETCH, class_label, stretched
from vision.cards import fan, index, rank_net
from vision.cards.rank_net import CLASSES, NOT_A_RANK, RANKS, SIDE, rank_crop, rank_probabilities
from vision.image_io import load_bgr
from vision.read import OTHER_READERS, read_table
from vision.weights import IncompleteInstall

CARD_FIXTURE = Path(__file__).resolve().parents[1] / "calibration_images" / "cards" / "images" / "cards_00.jpg"


def test_a_crop_is_the_glyph_centred_ink_bright_whatever_the_light():
    upright = np.full((60, 60, 3), 120, np.uint8)  # dim stock
    upright[20:34, 25:33] = 40  # a dark glyph, taller than wide
    mask = np.zeros((60, 60), np.uint8)
    mask[20:34, 25:33] = 1
    crop = rank_crop(upright, mask)
    assert crop.shape == (SIDE, SIDE) and crop.dtype == np.float32
    assert crop[SIDE // 2, SIDE // 2] > 0.9  # ink in the middle
    assert crop[SIDE // 2, 1] < 0.1 and crop[1, SIDE // 2] < 0.1  # stock round it
    ys, xs = np.nonzero(crop > 0.5)
    assert np.ptp(ys) > np.ptp(xs)  # stays taller than wide


def test_no_glyph_no_crop():
    assert rank_crop(np.full((40, 40, 3), 200, np.uint8), np.zeros((40, 40), np.uint8)) is None


def _index_crop(rank: str, suit: str, font_index: int, glyph_px: float) -> np.ndarray | None:
    """The crop the lone-card reader makes of a card rendered so its rank glyph is about
    `glyph_px` tall after warping, blurred as a camera would."""
    fonts_here = render.fonts.available(render.FIXTURE_FONTS)
    sprite, _ = render.card_face(rank, suit, fonts_here[font_index % len(fonts_here)], "poker", 1.0,
                                 np.random.default_rng(1))
    scale = glyph_px / (0.07 * render.CARD_H)
    small = cv2.resize(sprite, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    card = cv2.GaussianBlur(cv2.resize(small, (index.W, index.H)), (0, 0), 1.0)
    return index.read_corner(card, index.index_ink(card)).crop


@pytest.mark.parametrize("font_index", [0, 2, 5])
def test_the_shipped_network_reads_index_glyphs_of_every_rank(font_index):
    crops = [_index_crop(rank, "HS"[i % 2], font_index, 14) for i, rank in enumerate(RANKS)]
    assert all(c is not None for c in crops)
    probs = rank_probabilities(crops)
    assert probs.shape == (len(RANKS), CLASSES)
    assert np.allclose(probs.sum(axis=1), 1, atol=1e-4)
    right = [RANKS[int(np.argmax(p))] == rank for p, rank in zip(probs, RANKS)]
    assert sum(right) >= 12, [RANKS[int(np.argmax(p))] for p in probs]


def test_a_missing_weight_file_is_an_incomplete_install(tmp_path, weights_moved):
    # It used to be a bare FileNotFoundError.
    weights_moved(rank_net, MODEL_PATH=tmp_path / "rank_net.onnx")
    missing = re.escape(str(tmp_path / "rank_net.onnx")) + ": the card reader's .* missing: .* reinstall"
    with pytest.raises(IncompleteInstall, match=missing):
        read_table(load_bgr(CARD_FIXTURE), readers={"cards": OTHER_READERS["cards-hand"]})


def test_a_blank_crop_is_no_rank_the_network_is_sure_of():
    probs = rank_probabilities([np.zeros((SIDE, SIDE), np.float32)])[0]
    assert probs[:NOT_A_RANK].max() < 0.9


def _truth(visible: float) -> list[dict]:
    return [{"rank": "7", "suit": "S", "corners": [
        {"centre": np.float32([100, 100]), "down": np.float32([0, 1]), "glyph": 14.0, "visible": visible}]}]


def test_training_labels_come_from_where_the_index_is_printed():
    at_index = np.float32([100, 100 + 0.6 * 14])
    assert class_label(at_index, np.float32([0, 1]), _truth(1.0)) == RANKS.index("7")
    assert class_label(at_index, np.float32([0, 1]), _truth(0.3)) == NOT_A_RANK  # mostly under another card
    assert class_label(at_index, np.float32([0, 1]), _truth(0.85)) is None  # partly hidden: left out
    assert class_label(at_index, np.float32([1, 0]), _truth(1.0)) is None  # right place, askew: left out
    assert class_label(np.float32([300, 300]), np.float32([0, 1]), _truth(1.0)) == NOT_A_RANK


def _card(rank: str, centre: tuple[float, float], angle: float) -> Card:
    x, y = centre
    return Card(rank, None, centre, (x - 90, y - 120, x + 90, y + 120), angle, 0.9)


def test_the_two_indices_of_one_card_are_one_card():
    merged = fan.merge_both_ends([_card("10", (234, 256), 160.0), _card("10", (210, 242), 352.0)])
    assert len(merged) == 1 and merged[0].rank == "10"
    assert abs(merged[0].center[0] - 222) < 1 and abs(merged[0].center[1] - 249) < 1


def test_two_cards_of_one_rank_apart_or_alike_are_two_cards():
    assert len(fan.merge_both_ends([_card("4", (100, 100), 10), _card("4", (400, 100), 190)])) == 2
    assert len(fan.merge_both_ends([_card("4", (100, 100), 10), _card("4", (110, 100), 25)])) == 2


def test_the_top_cards_ends_pair_up_before_a_neighbour_of_its_rank():
    top_a, top_b = _card("J", (320, 350), 40.0), _card("J", (318, 352), 218.0)
    neighbour = _card("J", (300, 330), 200.0)  # faces nearly opposite top_a too, a little further off
    merged = fan.merge_both_ends([neighbour, top_a, top_b])
    assert len(merged) == 2
    assert any(abs(c.center[0] - 319) < 1 and abs(c.center[1] - 351) < 1 for c in merged)
    assert neighbour in merged


def test_the_top_cards_ends_pair_up_by_their_named_suit_before_a_neighbour_without_one():
    # A tidy spread of 5, 4, 4, 4 (render seed 1499): the 4 of diamonds on top shows both
    # ends, and the 4 next to it, its suit not named, faces the near end a little more
    # squarely than the far end does (reads as the reader made them).
    near_end = Card("4", "D", (402.9, 442.0), (272.8, 296.6, 533.0, 587.4), 206.4, 0.97)
    neighbour = Card("4", None, (372.0, 462.3), (238.8, 314.7, 505.3, 609.9), 27.9, 0.97)
    far_end = Card("4", "D", (414.6, 482.1), (284.7, 336.9, 544.5, 627.4), 26.4, 0.96)
    merged = fan.merge_both_ends([near_end, neighbour, far_end])
    assert len(merged) == 2 and neighbour in merged
    assert any(c.suit == "D" and abs(c.center[0] - 408.7) < 1 and abs(c.center[1] - 462.1) < 1 for c in merged)


def test_training_crops_are_stretched_across_about_their_middle_within_the_bounds():
    bar = np.zeros((200, SIDE, SIDE, 1), np.float32)
    bar[:, 4:20, 10:14] = 1.0  # a stroke four wide, centred
    out = stretched(bar, np.random.default_rng(0))
    widths = out[:, 12, :, 0].sum(axis=1) / 4.0
    assert STRETCH[0] - 0.02 <= widths.min() < 0.8 and 1.3 < widths.max() <= STRETCH[1] + 0.02
    columns = np.arange(SIDE)
    middles = (out[:, 12, :, 0] * columns).sum(axis=1) / out[:, 12, :, 0].sum(axis=1)
    assert np.allclose(middles, 11.5, atol=0.3)
    assert np.array_equal(out[:, :4], bar[:, :4])  # only across: rows above the stroke stay blank


def test_a_crop_leaves_out_a_card_edge_running_beside_the_glyph():
    # In a fan the edge of the card above runs beside an index: a straight line next to a
    # "6" made it a "10" for the network. Only ink near the glyph is shown.
    upright = np.full((60, 60, 3), 220, np.uint8)
    upright[20:34, 27:35] = 30  # the glyph
    upright[5:55, 22:24] = 30  # an edge two pixels off it, longer than the glyph
    mask = np.zeros((60, 60), np.uint8)
    mask[20:34, 27:35] = 1
    crop = rank_crop(upright, mask)
    assert crop[:, :4].max() < 0.1  # where the edge falls (columns 0-2), nothing
    assert crop[SIDE // 2, SIDE // 2] > 0.9


def _index(rank: str, centre: tuple[float, float], down: tuple[float, float], glyph: float = 12.0,
           suit: str | None = None) -> fan._Index:
    return fan._Index(rank, suit, 0.9, np.array(centre, float), np.array(down, float), glyph)


def test_one_cards_two_indices_give_its_size_whatever_the_glyph_height():
    # A card 200 long and 130 wide, upright: its indices sit a tenth in from two corners.
    near, far = _index("3", (13, 20), (0, 1)), _index("3", (117, 180), (0, -1))
    spans = fan.spanned_by_twins([near, far])
    assert set(spans) == {0, 1}
    assert spans[0] == pytest.approx((200, 130)) and spans[1] == pytest.approx((200, 130))
    centre, _, _, _ = fan.card_geometry(near, spans[0])
    assert centre == pytest.approx((65, 100))


def test_indices_not_at_a_cards_far_corner_give_no_size():
    near = _index("3", (13, 20), (0, 1))
    assert fan.spanned_by_twins([near, _index("3", (13, 180), (0, -1))]) == {}  # straight down: no card is so narrow
    assert fan.spanned_by_twins([near, _index("3", (117, 180), (0, 1))]) == {}  # facing the same way
    assert fan.spanned_by_twins([near, _index("5", (117, 180), (0, -1))]) == {}  # another rank
    assert fan.spanned_by_twins([_index("3", (13, 20), (0, 1), suit="C"),
                                  _index("3", (117, 180), (0, -1), suit="S")]) == {}  # another suit
    assert fan.spanned_by_twins([near, _index("3", (23, 36), (0, -1))]) == {}  # too near to be a card apart
