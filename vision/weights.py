"""The weight files shipped beside the readers (vision/dice, vision/d10, vision/cards),
loaded in one place. If a file is missing, cut short or does not hold the network
its reader needs, the reader stops with one IncompleteInstall that names the file.
Before, the dice reader hit an IndexError deep inside itself, the d10 reader quietly
found no dice, and the card reader raised a bare FileNotFoundError."""

from __future__ import annotations

import re
import zipfile
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from vision.dice.tinycnn import TinyCNN


class IncompleteInstall(RuntimeError):
    """A weight file shipped with the package is missing or cannot be read. Without it
    the reader cannot read at all: the install is incomplete, reinstall."""


def load_networks(first: str | Path, reader: str, shape: tuple[int, int, int], classes: int) -> tuple[TinyCNN, ...]:
    """The networks in `first` and the numbered files after it (first_2.npz...), each
    checked as load_network checks it. `first` must be there: the glob alone found
    none and said nothing. Only numbered files: die_face_hue.npz, beside
    die_face.npz, is another network for another input."""
    first = Path(first)
    if not first.is_file():
        raise _incomplete(first, reader, "is missing")
    numbered = sorted((int(match[1]), path) for path in first.parent.glob(first.stem + "_*.npz")
                      if (match := re.fullmatch(re.escape(first.stem) + r"_(\d+)", path.stem)))
    return tuple(load_network(path, reader, shape, classes) for path in [first, *(path for _, path in numbered)])


def load_network(path: str | Path, reader: str, shape: tuple[int, int, int], classes: int) -> TinyCNN:
    """The vision.dice.tinycnn network in `path`, once it holds every array a network
    has and answers `classes` probabilities for an input of `shape` (rows, columns,
    channels); else IncompleteInstall naming the file and `reader` ("dice", "d10"...)."""
    from vision.dice.tinycnn import TinyCNN  # here: vision.dice's own classifier imports this module

    path = Path(path)
    if not path.is_file():
        raise _incomplete(path, reader, "is missing")
    try:
        network = TinyCNN.load(path)
    except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile, zlib.error) as err:
        raise _incomplete(path, reader, f"cannot be read ({err})") from err
    problem = _mismatch(network, shape, classes)
    if problem:
        raise _incomplete(path, reader, problem)
    return network


def _mismatch(network: TinyCNN, shape: tuple[int, int, int], classes: int) -> str | None:
    """What keeps `network` from being one the reader can use, or None."""
    stages = 1 + max((int(name[1:]) for name in network.params if name[:1] in "kb" and name[1:].isdigit()),
                     default=0)  # a stage's bias left without its kernel still counts: k2 gone but b2 there
    needed = {f"{kind}{i}" for i in range(stages) for kind in "kb"} | {"w", "b"}
    missing = sorted(needed - set(network.params))
    if missing:
        return f"lacks the network's arrays {', '.join(missing)}"
    if not all(np.isfinite(values).all() for values in network.params.values()):
        return "holds values that are not numbers"
    try:
        answer = network.probabilities(np.zeros((1, *shape), np.float32))
    except (ValueError, KeyError) as err:
        return f"holds arrays of the wrong shapes for this reader ({err})"
    if answer.shape != (1, classes):
        return f"holds a network answering {answer.shape[-1]} classes, not {classes}"
    return None


def _incomplete(path: Path, reader: str, problem: str) -> IncompleteInstall:
    return IncompleteInstall(f"{path}: the {reader} reader's weight file {problem}: the tabletop21 install is "
                             "incomplete, reinstall it")
