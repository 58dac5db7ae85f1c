"""The learned part of the d10 reader: which number a die's top face shows, that the
blob is not a d10 at all (a d6, a card corner, a shadow), or that it is a 6 or 9 whose
underline or dot cannot be seen, so the two cannot be told apart.

The networks are small ONNX files beside this file (run by vision.weights on one
onnxruntime thread), trained with PyTorch on rendered d10s (`python -m
tools.train.d10`; the committed fixtures' seed is never used) and on blobs that are
not d10s. A patch and its half turn show the same number (vision.d10.patch), so the
answer is the mean over both and over the shipped networks: a read has to hold
either way up and for every network, and networks trained from different starting
weights disagree most on what none of them has seen."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from vision import weights
from vision.d10.patch import PATCH, network_input
from vision.weights import Network

MODEL_PATH = Path(__file__).with_name("d10_cnn.onnx")  # the first network; d10_cnn_2.onnx... follow
NOT_D10 = 10  # classes 0..9 are the numbers
UNMARKED = 11  # a 6 or 9 with no underline or dot: a d10, but which number is unknowable
CLASSES = 12
INPUT_CHANNELS = 2
WIDTHS = (16, 32, 48)


@lru_cache(maxsize=1)
def shipped_networks() -> tuple[Network, ...]:
    """The shipped networks; IncompleteInstall naming the file when one is missing or
    unreadable (without it, a missing d10_cnn.onnx would leave the reader quietly finding nothing)."""
    return weights.load_networks(MODEL_PATH, "d10", (PATCH, PATCH, INPUT_CHANNELS), CLASSES)


def probabilities(patches_bgr: np.ndarray, networks: tuple[Network, ...] | None = None) -> np.ndarray:
    """(n, CLASSES) for (n, PATCH, PATCH, 3) BGR face patches: the mean over `networks`
    (all shipped ones by default) and over each patch and its half turn."""
    if len(patches_bgr) == 0:
        return np.zeros((0, CLASSES), np.float32)
    x = network_input(patches_bgr)
    both = np.ascontiguousarray(np.concatenate([x, x[:, ::-1, ::-1]]))
    p = np.mean([net.probabilities(both) for net in networks or shipped_networks()], axis=0)
    return (p[: len(x)] + p[len(x):]) / 2
