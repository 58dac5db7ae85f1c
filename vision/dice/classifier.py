"""The learned part of the dice reader. Every network answers the same eight classes
for an upright patch: no die is centred there (class 0), the face value 1-6, or a
die that does not lie flat and must not be read (class 7, learnt from rendered
cocked and stacked dice).

Two kinds, because finding and reading cost differently. The finders
(die_cnn*.onnx, 16x16 input) look at every candidate, about seven per die, so they
are small and see little detail: enough to tell a die's centre from table, wall or
the point between two dice. The face network (die_face*.onnx, 24x24 input, four
times wider) looks only at the dice found; a second face network, taught every die's
colours turned to one hue (die_face_hue.onnx, patches.relative_to_face), is asked
about the faces the first leaves unclear. All are small ONNX networks beside this
file, run by vision.weights on one onnxruntime thread and made by `python -m
tools.train.dice` (PyTorch)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from vision import weights
from vision.dice.patches import FIND_PATCH, PATCH, network_input
from vision.weights import Network

MODEL_PATH = Path(__file__).with_name("die_cnn.onnx")  # the first finder network; die_cnn_2.onnx... follow
FACE_MODEL_PATH = Path(__file__).with_name("die_face.onnx")  # the face network
HUE_MODEL_PATH = Path(__file__).with_name("die_face_hue.onnx")  # the second opinion on unclear faces
NOT_A_DIE = 0  # class index; classes 1..6 are the face values
ODD_DIE = 7  # a die that cannot be read as lying flat: cocked, stacked
CLASSES = 8
INPUT_CHANNELS = 4
WIDTHS = (16, 32, 48)  # finder networks: run on every candidate, so kept small
FACE_WIDTHS = (32, 64, 96)  # face network: run on the found dice only

# The one error of every reader for a shipped weight file missing or unreadable, also
# named here so that code importing it from the dice reader's module keeps working.
IncompleteInstall = weights.IncompleteInstall


@lru_cache(maxsize=1)
def shipped_networks() -> tuple[Network, ...]:
    """The finder networks: where the dice are."""
    return weights.load_networks(MODEL_PATH, "dice", (FIND_PATCH, FIND_PATCH, INPUT_CHANNELS), CLASSES)


@lru_cache(maxsize=1)
def shipped_face_networks() -> tuple[Network, ...]:
    """The face networks: which face is up on a found die."""
    return weights.load_networks(FACE_MODEL_PATH, "dice", (PATCH, PATCH, INPUT_CHANNELS), CLASSES)


@lru_cache(maxsize=1)
def shipped_hue_networks() -> tuple[Network, ...]:
    """The second opinion: which face is up, seen with the die's hue turned to red's."""
    return weights.load_networks(HUE_MODEL_PATH, "dice", (PATCH, PATCH, INPUT_CHANNELS), CLASSES)


def face_probabilities(patches_bgr: np.ndarray, networks: tuple[Network, ...] | None = None,
                       hue_turned: bool = False) -> np.ndarray:
    """(n, CLASSES) probabilities for (n, PATCH, PATCH, 3) upright BGR patches, the
    mean over `networks` (all shipped ones by default); `hue_turned` for networks
    taught so (shipped_hue_networks)."""
    return input_probabilities(network_input(patches_bgr, hue_turned), networks)


def input_probabilities(x: np.ndarray, networks: tuple[Network, ...] | None = None) -> np.ndarray:
    """face_probabilities for patches already made network input: a reader asking
    several networks, or one network about several views of a patch, converts its
    colours once (the conversion cost a twelfth of a read)."""
    if len(x) == 0:
        return np.zeros((0, CLASSES), np.float32)
    return np.mean([net.probabilities(x) for net in networks or shipped_networks()], axis=0)
