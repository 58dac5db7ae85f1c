"""The dice trainer's augmentation: what the networks learn from must still be the
die its label names, only seen in other light."""

import numpy as np

from tools.train.dice import augment_patches, defocus, erase, glare
from vision.dice.patches import PATCH, network_input


def _dice(n: int) -> np.ndarray:
    return np.random.default_rng(0).integers(40, 200, (n, PATCH, PATCH, 3), dtype=np.uint8)


def test_glare_only_brightens_and_leaves_the_input_alone():
    patches = _dice(50)
    before = patches.copy()
    lit = glare(patches, np.random.default_rng(1), share=1.0)
    assert np.array_equal(patches, before)
    assert lit.dtype == np.uint8 and lit.shape == patches.shape
    assert (lit.astype(int) >= patches.astype(int) - 1).all()  # rounding only, never darker
    assert all((lit[n] > patches[n] + 30).any() for n in range(len(patches)))


def test_glare_touches_about_its_share_of_patches_and_only_part_of_each():
    patches = _dice(1000)
    lit = glare(patches, np.random.default_rng(2), share=0.3)
    changed = (np.abs(lit.astype(int) - patches).max(axis=3) > 30)
    touched = changed.any(axis=(1, 2))
    assert 0.25 < touched.mean() < 0.35
    # A highlight covers part of a face, never the whole of it.
    assert changed[touched].mean(axis=(1, 2)).max() < 0.5


def test_augment_turns_bgr_patches_into_network_input():
    out = augment_patches(_dice(8), np.random.default_rng(3), glare_share=0.5)
    assert out.shape == (8, PATCH, PATCH, 4) and out.dtype == np.float32


def test_without_glare_augment_takes_network_input_converted_once():
    x = network_input(_dice(8))
    out = augment_patches(x, np.random.default_rng(3))
    assert out.shape == x.shape and out.dtype == np.float32
    # Gain and noise always change a batch.
    assert not np.array_equal(out, x)


def test_erase_covers_a_small_rectangle_of_about_its_share_of_patches():
    patches = _dice(1000)
    before = patches.copy()
    out = erase(patches, np.random.default_rng(4), share=0.3)
    assert np.array_equal(patches, before)
    changed = (out != patches).any(axis=3)
    touched = changed.any(axis=(1, 2))
    assert 0.25 < touched.mean() < 0.35
    for mask in changed[touched]:
        rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
        # One rectangle, an eighth to a quarter of the side each way: most of the face stays.
        assert PATCH // 8 - 1 <= len(rows) <= PATCH // 4 and PATCH // 8 - 1 <= len(cols) <= PATCH // 4
        assert rows[-1] - rows[0] < PATCH // 4 and cols[-1] - cols[0] < PATCH // 4


def test_defocus_softens_the_patches_it_touches_and_no_others():
    patches = _dice(200)
    before = patches.copy()
    out = defocus(patches, np.random.default_rng(5), share=0.5)
    assert np.array_equal(patches, before) and out.dtype == np.uint8

    def roughness(p):
        return np.abs(np.diff(p.astype(int), axis=2)).mean(axis=(1, 2, 3))

    touched = (out != patches).any(axis=(1, 2, 3))
    assert 0.35 < touched.mean() < 0.65
    assert (roughness(out[touched]) < 0.8 * roughness(patches[touched])).all()
    # Blur keeps the face's brightness; it only spreads it.
    assert np.abs(out[touched].mean(axis=(1, 2, 3)) - patches[touched].mean(axis=(1, 2, 3))).max() < 5


def test_augment_with_erase_or_defocus_turns_bgr_patches_into_network_input():
    for shares in ({"erase_share": 0.5}, {"defocus_share": 0.5}):
        out = augment_patches(_dice(8), np.random.default_rng(6), **shares)
        assert out.shape == (8, PATCH, PATCH, 4) and out.dtype == np.float32
