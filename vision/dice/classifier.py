"""The learned part of the dice reader. Every network answers the same eight classes
for an upright patch: no die is centred there (class 0), the face value 1-6, or a
die that does not lie flat and must not be read (class 7, learnt from rendered
cocked and stacked dice).

Two kinds, because finding and reading cost differently. The finders
(die_cnn*.npz, 16x16 input) look at every candidate, about seven per die, so they
are small and see little detail: enough to tell a die's centre from table, wall or
the point between two dice. The face network (die_face*.npz, 24x24 input, four
times wider) looks only at the dice found. All are vision.dice.tinycnn networks
made by `python -m vision.dice.train`; weights sit beside this file."""

from __future__ import annotations

import zipfile
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.dice.patches import PATCH, network_input
from vision.dice.tinycnn import TinyCNN

MODEL_PATH = Path(__file__).with_name("die_cnn.npz")  # the first finder network; die_cnn_2.npz... follow
FACE_MODEL_PATH = Path(__file__).with_name("die_face.npz")  # the face network
NOT_A_DIE = 0  # class index; classes 1..6 are the face values
ODD_DIE = 7  # a die that cannot be read as lying flat: cocked, stacked
CLASSES = 8
INPUT_CHANNELS = 4
WIDTHS = (16, 32, 48)  # finder networks: run on every candidate, so kept small
FACE_WIDTHS = (32, 64, 96)  # face network: run on the found dice only


def new_network(widths: tuple[int, ...] = WIDTHS, seed: int = 0, side: int = PATCH) -> TinyCNN:
    return TinyCNN.create(INPUT_CHANNELS, widths, side, CLASSES, seed=seed)


class IncompleteInstall(RuntimeError):
    """A weight file shipped with the package is missing or cannot be read. Without it
    the dice reader cannot read at all: loading no networks ended in an IndexError deep
    in the reader that named no file."""


def _shipped(first: Path) -> tuple[TinyCNN, ...]:
    """The networks in `first` and the numbered files after it (first_2.npz...).
    `first` must be there: the glob alone found none and said nothing."""
    if not first.is_file():
        raise _incomplete(first, "is missing")
    return tuple(map(_load_shipped, sorted(first.parent.glob(first.stem + "*.npz"))))


def _load_shipped(path: Path) -> TinyCNN:
    try:
        return TinyCNN.load(path)
    except (OSError, EOFError, ValueError, zipfile.BadZipFile) as err:
        raise _incomplete(path, f"cannot be read ({err})") from err


def _incomplete(path: Path, problem: str) -> IncompleteInstall:
    return IncompleteInstall(f"{path}: the dice reader's weight file {problem}: the tabletop21 install is "
                             "incomplete, reinstall it")


@lru_cache(maxsize=1)
def shipped_networks() -> tuple[TinyCNN, ...]:
    """The finder networks: where the dice are."""
    return _shipped(MODEL_PATH)


@lru_cache(maxsize=1)
def shipped_face_networks() -> tuple[TinyCNN, ...]:
    """The face networks: which face is up on a found die."""
    return _shipped(FACE_MODEL_PATH)


def face_probabilities(patches_bgr: np.ndarray, networks: tuple[TinyCNN, ...] | None = None) -> np.ndarray:
    """(n, CLASSES) probabilities for (n, PATCH, PATCH, 3) upright BGR patches, the
    mean over `networks` (all shipped ones by default)."""
    if len(patches_bgr) == 0:
        return np.zeros((0, CLASSES), np.float32)
    x = network_input(patches_bgr)
    return np.mean([net.probabilities(x) for net in networks or shipped_networks()], axis=0)
