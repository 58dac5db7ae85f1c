"""tools/dice_net/sweep.py: recipes compared at equal wrong reads; data.recolour."""

import numpy as np

from tools.dice_net.data import recolour
from tools.dice_net.sweep import right_at_wrong


def test_reads_stop_where_the_wrong_ones_pass_the_limit():
    conf = np.array([0.99, 0.98, 0.97, 0.96, 0.5])
    status = np.array([1, 1, 2, 1, 1])  # the third most confident read is wrong
    assert right_at_wrong(conf, status, 5, 0.0) == (40.0, 0.98)
    assert right_at_wrong(conf, status, 5, 0.25) == (80.0, 0.5)  # 1 wrong of 5 read


def test_phantoms_and_dice_without_a_value_do_not_count_as_reads():
    conf = np.array([0.99, 0.95, 0.9])
    status = np.array([-1, 0, 1])
    assert right_at_wrong(conf, status, 1, 0.0) == (100.0, 0.9)


def test_a_threshold_reads_every_die_of_its_confidence():
    conf = np.array([0.99, 0.9, 0.9])
    status = np.array([1, 1, 2])  # a right and a wrong read share 0.9
    assert right_at_wrong(conf, status, 3, 0.0) == (100 / 3, 0.99)


def test_a_classifier_with_no_read_under_the_limit_reads_nothing():
    assert right_at_wrong(np.array([0.99]), np.array([2]), 1, 0.0) == (0.0, 1.0)


def test_recolouring_keeps_the_pattern_and_inverting_swaps_light_and_dark():
    img = np.zeros((8, 8, 3), np.uint8)
    img[2:4, 2:4] = (20, 40, 200)  # a red pip on black
    rng = np.random.default_rng(0)
    seen_inverted = False
    for _ in range(40):
        out = recolour(img, rng, invert=0.5)
        assert out.shape == img.shape and out.dtype == np.uint8
        pip, ground = out[2:4, 2:4].astype(int).sum(), out[5:, 5:].astype(int).sum()
        assert pip != ground  # the pip still differs from the face
        seen_inverted |= bool(out[6, 6].min() > 200)
    assert seen_inverted
