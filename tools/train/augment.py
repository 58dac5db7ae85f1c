"""The augmentation every trainer here shares, in plain numpy (no PyTorch), so the
trainers' example-making parts import without the `train` extra."""

from __future__ import annotations

import numpy as np


def jitter(batch: np.ndarray, rng: np.random.Generator, gain: tuple[float, float] = (0.7, 1.3)) -> np.ndarray:
    """The batch shifted by up to two pixels (where a crop falls), each patch's channels
    scaled by a random gain (other dice, other light) and a little noise added: what
    every network here needs so as not to memorise its training patches."""
    dy, dx = (int(v) for v in rng.integers(-2, 3, 2))
    batch = np.roll(batch, (dy, dx), axis=(1, 2))
    scale = rng.uniform(*gain, (len(batch), 1, 1, batch.shape[3])).astype(np.float32)
    noise = rng.normal(0, 0.05, batch.shape).astype(np.float32)
    return np.ascontiguousarray(batch * scale + noise)
