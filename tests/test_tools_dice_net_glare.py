"""tools/dice_net/data.glare: specular highlights drawn on face crops for the face
classifier (`train_face.py --glare`). Needs only numpy and OpenCV."""

import cv2
import numpy as np

from tools.dice_net.data import glare


def crop(value: int = 90) -> np.ndarray:
    return np.full((48, 48, 3), value, np.uint8)


def test_glare_only_brightens_and_stays_a_crop_of_the_same_shape():
    img = crop()
    img[20:28, 20:28] = 30  # a dark pip
    out = glare(img, np.random.default_rng(0), 0.87)
    assert out.shape == img.shape and out.dtype == np.uint8
    assert (out.astype(int) >= img.astype(int) - 1).all(), "light is added, never taken away"
    assert (out.astype(int) - img > 40).sum() > 10, "some pixels turn near white"


def test_the_highlights_lie_on_the_die_not_at_the_crops_edges():
    far = 0
    for seed in range(40):
        out = glare(crop(), np.random.default_rng(seed), 0.6)
        lit = np.argwhere(out[..., 0] > 110)
        assert len(lit), f"seed {seed}: nothing drawn"
        far += int((np.abs(lit - 23.5).max(1) > 23.5 * 0.95).sum())
    assert far == 0, "highlights reach the crop's border"


def test_highlights_are_thin_lines_not_pip_like_spots():
    for seed in range(20):
        out = glare(crop(0), np.random.default_rng(seed), 0.87)
        lit = (out[..., 0] > 40).astype(np.uint8)  # the whole stroke, faint ends too
        _, _, stats, _ = cv2.connectedComponentsWithStats(lit)
        for _x, _y, w, h, area in stats[1:]:
            # a pip fills most of a compact box; a streak or an arc is long or hollow
            assert max(w, h) >= 2 * min(w, h) or area < 0.7 * w * h or area < 6, (seed, w, h, area)


def test_the_same_rng_draws_the_same_highlights():
    a = glare(crop(), np.random.default_rng(5), 0.87)
    b = glare(crop(), np.random.default_rng(5), 0.87)
    assert np.array_equal(a, b)
