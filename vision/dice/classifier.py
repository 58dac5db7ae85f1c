"""The small learned part of the dice reader: which face is up on an upright patch,
that no die is centred there at all (class 0), or that the die there does not lie
flat and must not be read (class 7, learnt from rendered cocked and stacked dice).

The networks are vision.dice.tinycnn, weights in die_cnn*.npz beside this file
(about 90 kB each), made by `python -m vision.dice.train` with different seeds.
Averaging two networks' answers was measured to turn about a sixth of the held-out
refusals into right reads (screening candidates with one network and judging the
kept dice with both gained nothing: the two must agree on where the dice are)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.dice.patches import PATCH, network_input
from vision.dice.tinycnn import TinyCNN

MODEL_PATH = Path(__file__).with_name("die_cnn.npz")  # the first network; die_cnn_2.npz... follow
NOT_A_DIE = 0  # class index; classes 1..6 are the face values
ODD_DIE = 7  # a die that cannot be read as lying flat: cocked, stacked
CLASSES = 8
INPUT_CHANNELS = 4
WIDTHS = (16, 32, 48)


def new_network(widths: tuple[int, ...] = WIDTHS, seed: int = 0) -> TinyCNN:
    return TinyCNN.create(INPUT_CHANNELS, widths, PATCH, CLASSES, seed=seed)


@lru_cache(maxsize=1)
def shipped_networks() -> tuple[TinyCNN, ...]:
    return tuple(TinyCNN.load(p) for p in sorted(MODEL_PATH.parent.glob(MODEL_PATH.stem + "*.npz")))


def face_probabilities(patches_bgr: np.ndarray, networks: tuple[TinyCNN, ...] | None = None) -> np.ndarray:
    """(n, CLASSES) probabilities for (n, PATCH, PATCH, 3) upright BGR patches, the
    mean over `networks` (all shipped ones by default)."""
    if len(patches_bgr) == 0:
        return np.zeros((0, CLASSES), np.float32)
    x = network_input(patches_bgr)
    return np.mean([net.probabilities(x) for net in networks or shipped_networks()], axis=0)
