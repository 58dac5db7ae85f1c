"""Table surfaces drawn from noise for the d6 detector's composites (tools/dice_net/surfaces.py):
every kind is a textured picture of the asked size, the same rng draws the same one, and a
composite laid on one boxes only the dice pasted on it."""

import numpy as np
import pytest

from tools.d10_net.compose import SmallTable
from tools.dice_net import compose
from tools.dice_net.surfaces import KINDS, surface


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_is_a_lit_textured_surface_of_the_size_asked(kind):
    rng = np.random.default_rng(4)
    img = surface(rng, 128, kind)
    assert img.shape == (128, 128, 3) and img.dtype == np.uint8
    grey = img.astype(np.float32).mean(axis=2)
    assert grey.std() > 1.0, "not a flat fill: some texture or uneven light"
    assert 0 < grey.mean() < 255
    assert np.array_equal(surface(np.random.default_rng(4), 128, kind), img), "the same rng draws the same surface"


def test_the_kinds_differ_and_colours_vary():
    rng = np.random.default_rng(0)
    means = [surface(rng, 64).reshape(-1, 3).mean(axis=0) for _ in range(20)]
    assert np.ptp(np.array(means), axis=0).max() > 60, "surfaces of many colours"


def test_a_composite_on_a_drawn_surface_boxes_only_its_pasted_dice():
    sprite = np.full((40, 40, 3), 230, np.uint8)
    sprite[17:23, 17:23] = 10
    table = SmallTable(np.full((320, 320, 3), 90, np.uint8), np.array([[100, 100, 140, 140]], np.float32))
    rng = np.random.default_rng(2)
    own = 0
    for _ in range(20):
        canvas, boxes = compose.composite(rng, 256, [table], [(sprite, np.full((40, 40), 255, np.uint8))],
                                          surfaces=1.0)
        assert canvas.shape == (256, 256, 3)
        own += any(abs(b[0] - 100) < 1 and abs(b[1] - 100) < 1 for b in boxes)
        assert (canvas == 90).all(axis=2).mean() < 0.2, "the table photo is not used"
    assert own == 0
