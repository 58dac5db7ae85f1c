"""vision.dice.components labels only the box round a mask's pixels: it must give the
components the whole frame gives, in the same order (the reads depend on the order
when two candidates tie)."""

import cv2
import numpy as np
import pytest

from vision.dice.components import components


def _whole_frame(mask):
    return cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_GRANA)


@pytest.mark.parametrize("seed", range(40))
def test_the_box_gives_the_components_of_the_whole_frame_in_the_same_order(seed):
    rng = np.random.default_rng(seed)
    h, w = (int(v) for v in rng.integers(30, 160, 2))
    mask = np.zeros((h, w), np.uint8)
    # Blobs away from the top left corner, at odd and even offsets, some touching the far edges.
    y0, x0 = (int(v) for v in rng.integers(1, 20, 2))
    noise = rng.random((h - y0, w - x0)) < rng.uniform(0.05, 0.6)
    mask[y0:, x0:] = noise * 255
    count, labels, stats, centroids = _whole_frame(mask)
    found = components(mask)
    assert found.count == count
    assert (found.stats[1:] == stats[1:]).all()
    assert np.allclose(found.centroids[1:], centroids[1:], rtol=0, atol=1e-9)
    x0, y0 = found.origin
    assert (labels[y0:y0 + found.labels.shape[0], x0:x0 + found.labels.shape[1]] == found.labels).all()
    for i in range(1, count):
        x, y, bw, bh = stats[i, :4]
        assert (found.blob(i) == (labels[y:y + bh, x:x + bw] == i)).all()


def test_an_empty_mask_has_only_the_background():
    found = components(np.zeros((40, 50), np.uint8))
    assert found.count == 1


def test_a_box_at_odd_coordinates_is_widened_to_even_ones():
    mask = np.zeros((40, 50), np.uint8)
    mask[7:12, 13:20] = 255
    found = components(mask)
    assert found.origin == (12, 6)
    assert found.count == 2
    assert tuple(found.stats[1]) == (13, 7, 7, 5, 35)
    assert found.blob(1).all() and found.blob(1).shape == (5, 7)
