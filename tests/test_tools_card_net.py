"""The learned card reader's made-up data (tools/card_net): indices are found where a
face prints them, composites mark each index with its card, and what covers an index
takes it out of view."""

import numpy as np
import pytest

from tools.card_net import compose, faces
from tools.d10_net.compose import SmallTable
from tools.render import cards as render_cards
from tools.render import fonts


def _face(rank="7", suit="H", scale=1.0, seed=0):
    rng = np.random.default_rng(seed)
    font = fonts.available([fonts.ttf("DejaVuSans-Bold"), *fonts.HERSHEY])[0]
    img, alpha = render_cards.card_face(rank, suit, font, "poker", scale, rng)
    return img, alpha


@pytest.mark.parametrize("rank,scale", [("7", 1.0), ("10", 1.0), ("K", 1.25), ("A", 1.0)])
def test_the_index_is_found_where_the_renderer_prints_it(rank, scale):
    img, alpha = _face(rank, "S", scale)
    found = faces.find_index(img, alpha)
    assert found is not None
    centre, height = found
    h, w = alpha.shape
    _, _, outline = render_cards.index_layout(w, h, scale)[0]
    assert np.allclose(centre, outline.mean(0), atol=0.02 * h)
    assert height == pytest.approx(float(np.ptp(outline[:, 1])), rel=0.2)


def test_a_face_gets_its_index_in_the_opposite_corner_too_facing_up():
    img, alpha = _face()
    face = faces.with_indices(faces.Face(img, alpha, "7", "H", "test"))
    (c0, d0, h0), (c1, d1, h1) = face.indices[:2]
    h, w = alpha.shape
    assert np.allclose(c0 + c1, [w, h]) and np.allclose(d0, -d1) and h0 == h1


def test_a_blank_card_has_no_index():
    alpha = np.full((350, 250), 255, np.uint8)
    assert faces.find_index(np.full((350, 250, 3), 240, np.uint8), alpha) is None


def _designs():
    face = faces.with_indices(faces.Face(*_face("9", "D"), "9", "D", "test"))
    return {"test": [face]}


def _tables():
    rng = np.random.default_rng(0)
    return [SmallTable(np.clip(rng.normal(80, 8, (480, 640, 3)), 0, 255).astype(np.uint8), np.zeros((0, 4), np.float32))]


def test_composites_mark_every_index_with_its_card_and_its_direction():
    rng = np.random.default_rng(2)
    seen = 0
    for _ in range(25):
        cards: list = []
        img, indices = compose.scene(rng, 320, _tables(), _designs(), cards=cards)
        assert img.shape == (320, 320, 3) and img.dtype == np.uint8
        for ix in indices:
            assert (ix.rank, ix.suit) == ("9", "D")
            assert cards[ix.card]["rank"] == "9"
            assert np.hypot(*ix.down) == pytest.approx(1.0, abs=1e-3)
            assert 0.0 <= ix.visible <= 1.0
            if ix.shown:
                seen += 1
                # the index lies on its own card's outline
                quad = cards[ix.card]["quad"]
                assert compose.cv2.pointPolygonTest(quad.reshape(-1, 1, 2), tuple(map(float, ix.centre)), True) > -3
    assert seen > 10


def test_a_card_laid_on_another_hides_the_index_it_covers():
    rng = np.random.default_rng(5)
    hidden = shown = 0
    for _ in range(40):
        cards: list = []
        _, indices = compose.scene(rng, 320, _tables(), _designs(), cards=cards)
        for ix in indices:
            later = len(cards) - 1 - ix.card  # cards laid after this one
            hidden += not ix.shown and later > 0
            shown += ix.shown
    assert hidden > 0 and shown > 0
