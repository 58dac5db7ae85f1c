"""Small parts of the card reader: telling pale table from a hand, parting a rank from
the suit symbol that blur has joined to it, the shaded cards low in a hand, an
index printed right at the corner, and a hairline that is no index."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tools.render import fonts
from vision.cards import fan, index
from vision.cards.find import Region, frame_edge_share


def _region(x0: int, y0: int, x1: int, y1: int) -> Region:
    contour = np.array([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]], np.int32)
    return Region(contour, cv2.minAreaRect(contour), 1.0, 130)


def test_a_region_running_along_a_frame_side_is_measured_by_how_far():
    shape = (320, 320)
    assert frame_edge_share(_region(100, 0, 319, 319), shape) == 1.0  # a whole side: table
    assert frame_edge_share(_region(100, 100, 200, 250), shape) == 0.0  # clear of the edges
    assert abs(frame_edge_share(_region(0, 100, 60, 179), shape) - 0.25) < 0.01  # a card cut off


def _column_patch(gap: bool) -> np.ndarray:
    ink = np.zeros((fan.PATCH, fan.PATCH), np.uint8)
    middle = fan.PATCH // 2
    ink[middle - 20 : middle + 18, middle - 4 : middle + 4] = 1  # rank and suit as one bar
    if gap:
        ink[middle - 1 : middle + 1] = 0
    return ink


def test_a_rank_run_into_its_suit_is_cut_apart_across_the_middle():
    ink = _column_patch(gap=False)
    assert fan.part_rank_from_suit(ink)
    n, _ = cv2.connectedComponents(ink)
    assert n - 1 == 2


def test_a_rank_apart_from_its_suit_is_left_as_it_is():
    ink = _column_patch(gap=True)
    before = ink.copy()
    assert not fan.part_rank_from_suit(ink)
    assert (ink == before).all()


def _shaded_hand() -> tuple[np.ndarray, Region]:
    """A bright top card (the hand as found, at level 130), a shaded lower card showing
    beyond it past the dark line of the top card's edge, and pale table further off."""
    frame = np.full((400, 400, 3), 60, np.uint8)  # dark table
    frame[100:220, 100:300] = 220  # the top card
    frame[220:222, 100:300] = 40  # its edge's shadow line
    frame[222:250, 100:300] = 125  # the lower card: one level darker than the hand's cut
    frame[330:390, 100:300] = 125  # as pale, but far beyond reach: table, not this hand
    return frame, _region(100, 100, 299, 219)


def test_a_hands_stock_takes_in_its_shaded_lower_card_across_the_edge_line():
    frame, hand = _shaded_hand()
    stock = fan.hand_stock(frame, hand, [])
    assert stock[160, 200] and stock[235, 200]  # top card and the shaded card below it
    assert not stock[360, 200]  # pale table beyond reach
    assert not stock[300, 200]  # dark table between


def test_a_hands_stock_leaves_shade_nearer_another_card_to_it():
    frame, hand = _shaded_hand()
    frame[252:320, 100:300] = 220  # another card just below the shaded strip
    alone = fan.hand_stock(frame, hand, [])
    shared = fan.hand_stock(frame, hand, [_region(100, 252, 299, 319).contour])
    assert alone[243, 200] and alone[265, 200]  # with nothing else known, the hand takes both
    assert shared[230, 200]  # nearer the hand
    assert not shared[243, 200] and not shared[265, 200]  # nearer the other card, and on it


def _index_ink(*boxes: tuple[int, int, int, int]) -> np.ndarray:
    ink = np.zeros((120, 120), np.uint8)
    for x0, y0, x1, y1 in boxes:
        ink[y0 : y1 + 1, x0 : x1 + 1] = 1
    return ink


def test_a_ten_proposes_its_suit_under_the_middle_of_both_glyphs():
    # "1" and "0" side by side, 15 px tall, the suit symbol (11 px) centred under both:
    # the "0" alone would point 17 degrees askew at it.
    glyphs = fan.glyph_blobs(_index_ink((44, 30, 50, 44), (54, 30, 64, 44), (48, 49, 58, 59)), (4, 30))[0]
    proposals = fan.glyph_pairs(glyphs)
    assert any(np.hypot(*(centre - (53, 45.5))) < 1 and abs(down[0]) < 0.02 for centre, down, _ in proposals)


def test_two_pips_of_one_size_propose_no_index():
    glyphs = fan.glyph_blobs(_index_ink((50, 30, 62, 44), (50, 50, 62, 64)), (4, 30))[0]
    assert len(glyphs) == 2
    assert fan.glyph_pairs(glyphs) == []


def _upright_card_with_index(at: int, sliver: bool) -> np.ndarray:
    """An upright card (index.W x index.H) with a 7 of spades index whose rank starts `at`
    pixels from the top-left, and, if `sliver`, dark table along the cut-out's top rim."""
    card = np.full((index.H, index.W, 3), 238, np.uint8)
    rank = fonts.glyph_mask("7", fonts.HERSHEY[2], 38)
    suit = fonts.suit_mask("S", 18)
    card[at : at + rank.shape[0], at : at + rank.shape[1]][rank > 128] = 30
    top = at + rank.shape[0] + 6
    card[top : top + suit.shape[0], at + 2 : at + 2 + suit.shape[1]][suit > 128] = 30
    if sliver:
        card[:index.EDGE + 7, : round(0.25 * index.W)] = 40
    return card


def test_a_rank_printed_right_at_the_corner_is_read():
    """Some decks print the index close to the edge, so the cut-out card starts right at
    its rank: a tall mark at the corner is a glyph, not table past the rounded corner."""
    card = _upright_card_with_index(index.EDGE, sliver=False)
    read = index.read_corner(card, index.index_ink(card))
    assert read.ranks, read.reason
    assert max(read.ranks, key=read.ranks.get) == "7"


def test_a_sliver_of_table_along_the_corners_rim_is_not_taken_for_the_rank():
    card = _upright_card_with_index(20, sliver=True)
    read = index.read_corner(card, index.index_ink(card))
    assert read.ranks, read.reason
    assert max(read.ranks, key=read.ranks.get) == "7"


def test_a_hairline_in_the_corner_is_no_rank_and_says_so():
    """A one-pixel line, cut in two as a rank over its suit, leaves too little ink to
    match a glyph: the corner has no rank, and says why (an empty reason stopped the
    whole read with a ValueError when the card was refused)."""
    card = np.full((index.H, index.W, 3), 238, np.uint8)
    card[20:28, 12] = 30
    read = index.read_corner(card, index.index_ink(card))
    assert read.ranks == {}
    assert read.reason == "no rank over suit in the corner"


def _four_of_spades(stock: tuple[int, int, int], ink: tuple[int, int, int]) -> np.ndarray:
    """An upright card (index.W x index.H) with four big spade pips in its middle."""
    card = np.full((index.H, index.W, 3), stock, np.uint8)
    pip = fonts.suit_mask("S", 44) > 128
    for cx, cy in ((70, 80), (130, 80), (70, 200), (130, 200)):
        y0, x0 = cy - pip.shape[0] // 2, cx - pip.shape[1] // 2
        card[y0 : y0 + pip.shape[0], x0 : x0 + pip.shape[1]][pip] = ink
    return card


def test_black_pips_under_a_blue_lamp_are_no_court_picture():
    """Dark ink of a faint blue is highly saturated for its brightness, but its channels
    differ little: it is black ink in tinted light, not a picture's blue. Taken for a
    picture, it let the index of a 4 be read as a J."""
    card = _four_of_spades((232, 214, 200), (72, 52, 38))
    ink = index.ink_mask(card)
    assert not index.has_picture(card, ink)
    assert index.middle_allows(card, ink, index.find_pips(card, ink)) == {"4"}


def test_a_picture_in_blue_and_yellow_is_a_court_card():
    card = _four_of_spades((235, 235, 235), (40, 40, 40))
    card[100:180, 60:140] = (190, 90, 30)  # a blue robe
    card[60:100, 80:120] = (40, 200, 230)  # a yellow crown
    assert index.has_picture(card, index.ink_mask(card))


def _four_colour_four(ink: tuple[int, int, int]) -> np.ndarray:
    """A four of diamonds as four-colour decks print it: index and pips in one colour
    that is neither red nor black."""
    card = np.full((index.H, index.W, 3), 236, np.uint8)
    pip = fonts.suit_mask("D", 44) > 128
    for cx, cy in ((70, 80), (130, 80), (70, 200), (130, 200)):
        y0, x0 = cy - pip.shape[0] // 2, cx - pip.shape[1] // 2
        card[y0 : y0 + pip.shape[0], x0 : x0 + pip.shape[1]][pip] = ink
    rank = fonts.glyph_mask("4", fonts.HERSHEY[2], 24) > 128
    suit = fonts.suit_mask("D", 16) > 128
    card[12 : 12 + rank.shape[0], 12 : 12 + rank.shape[1]][rank] = ink
    top = 12 + rank.shape[0] + 4
    card[top : top + suit.shape[0], 12 : 12 + suit.shape[1]][suit] = ink
    return card


@pytest.mark.parametrize("ink", [(190, 80, 20), (40, 150, 30)], ids=["blue", "green"])
def test_pips_in_a_four_colour_decks_suit_colour_are_no_court_picture(ink):
    """Blue or green pips differ between channels as a picture's robe does, but they
    are printed in the index's own colour: taken for a picture, they let a four-colour
    deck's 8s and 9s be read as queens."""
    card = _four_colour_four(ink)
    card_ink = index.ink_mask(card)
    assert not index.has_picture(card, card_ink)
    assert index.middle_allows(card, card_ink, index.find_pips(card, card_ink)) == {"4"}


def test_a_four_colour_decks_court_picture_is_still_a_picture():
    card = _four_colour_four((190, 80, 20))
    card[100:180, 60:140] = (40, 200, 230)  # a yellow robe
    card[60:100, 80:120] = (40, 40, 200)  # a red crown
    assert index.has_picture(card, index.ink_mask(card))


def _court_corner(frame_gap: int) -> np.ndarray:
    """An upright court card's corner: a K of hearts index and, `frame_gap` pixels right of
    the suit symbol, the thin frame round the picture, running on down the card."""
    card = np.full((index.H, index.W, 3), 238, np.uint8)
    red = (40, 40, 200)
    rank = fonts.glyph_mask("K", fonts.HERSHEY[2], 24) > 128
    suit = fonts.suit_mask("H", 16) > 128
    card[12 : 12 + rank.shape[0], 12 : 12 + rank.shape[1]][rank] = red
    top = 12 + rank.shape[0] + 4
    card[top : top + suit.shape[0], 12 : 12 + suit.shape[1]][suit] = red
    line = 12 + suit.shape[1] + frame_gap
    card[30 : index.H - 30, line : line + 2] = (60, 60, 60)
    card[30:32, line : index.W - 30] = (60, 60, 60)
    return card


def test_a_court_frame_touching_the_suit_is_not_part_of_the_index():
    """Many decks draw the picture's frame right beside the index; where the suit symbol
    touches it, the corner used to show no suit under the rank."""
    card = _court_corner(frame_gap=-1)
    read = index.read_corner(card, index.index_ink(card))
    assert read.ranks, read.reason
    assert max(read.ranks, key=read.ranks.get) == "K"
    assert read.suit == "H"


def test_a_long_stroke_within_the_corner_alone_is_kept():
    """Only lines that run on down the card are taken out: a stroke as long, ending inside
    the corner, is left for the index reader (here it stays the corner's top-most mark)."""
    card = np.full((index.H, index.W, 3), 238, np.uint8)
    card[10 : 10 + round(index.FRAME_LINE * index.H) + 4, 20:23] = 30
    ink = index.index_ink(card)
    kept = index.corner_without_frame_lines(ink)
    assert kept.sum() == ink[: kept.shape[0], : kept.shape[1]].sum() > 0
    card[10 : round(0.5 * index.H), 20:23] = 30
    assert index.corner_without_frame_lines(index.index_ink(card)).sum() == 0
