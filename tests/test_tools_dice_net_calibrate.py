"""tools/dice_net/calibrate.py: the temperature that makes the classifier's confidences honest."""

import numpy as np

from tools.dice_net.calibrate import fit_temperature


def _photo(probs, value):
    return ([{"score": 0.9, "center": (10.0, 10.0), "probs": np.array(probs)}],
            [{"value": value, "box": [0.0, 0.0, 20.0, 20.0]}])


def test_an_overconfident_classifier_gets_a_temperature_above_one():
    sure = [0.0, 0.99] + [0.002] * 5
    # read as a 1 with 99% every time, but right only 4 times in 5
    photos = [_photo(sure, 1 if i % 5 else 2) for i in range(50)]
    assert fit_temperature(photos, 0.5) > 1.5


def test_an_honest_classifier_keeps_a_temperature_near_one():
    honest = [0.0, 0.8] + [0.04] * 5
    photos = [_photo(honest, 1 if i % 5 else 2 + i % 5) for i in range(50)]
    assert 0.7 < fit_temperature(photos, 0.5) < 1.4
