"""The small networks shipped beside the readers (vision/dice, vision/d10, vision/cards),
loaded in one place. Each is an ONNX file run by onnxruntime on one CPU thread; a file
is opened once (one session per file, kept for the life of the process). If a file is
missing, cut short or does not hold the network its reader needs, the reader stops
with one IncompleteInstall that names the file. Before, the dice reader hit an
IndexError deep inside itself, the d10 reader quietly found no dice, and the card
reader raised a bare FileNotFoundError.

The networks are made, and retrained, by tools/train (PyTorch, written straight to
ONNX): three 3x3 convolution + 2x2 max-pool + ReLU stages and one linear layer, NHWC
float32 input (n, rows, columns, channels), the classes' logits out."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import numpy as np


class IncompleteInstall(RuntimeError):
    """A weight file shipped with the package is missing or cannot be read. Without it
    the reader cannot read at all: the install is incomplete, reinstall."""


BATCH = 64  # rows a network runs at once: bounds a read's working memory, costs no time


class Network:
    """One network file as the readers use it: `probabilities(x)` for (n, rows,
    columns, channels) input."""

    def __init__(self, path: Path, session: Any):
        self.path = path
        self._session = session
        put = session.get_inputs()[0]
        self._input = put.name
        self.input_shape: tuple = tuple(put.shape[1:])  # (rows, columns, channels); a name where not fixed
        self.classes = session.get_outputs()[0].shape[-1]

    def logits(self, x: np.ndarray) -> np.ndarray:
        """(n, classes) logits, run BATCH rows at a time: a frame of grain or a card
        table gives the finders thousands of candidates, and one run over all of them
        held every layer's output for all at once (about 150 MB for 4000)."""
        x = np.ascontiguousarray(x, dtype=np.float32)
        if len(x) <= BATCH:
            return self._session.run(None, {self._input: x})[0]
        return np.concatenate([self._session.run(None, {self._input: x[i:i + BATCH]})[0]
                               for i in range(0, len(x), BATCH)])

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """(n, classes) softmax for (n, rows, columns, channels) float32 input."""
        if len(x) == 0:
            return np.zeros((0, int(self.classes)), np.float32)
        logits = self.logits(x)
        logits -= logits.max(axis=1, keepdims=True)
        odds = np.exp(logits)
        return odds / odds.sum(axis=1, keepdims=True)

    @staticmethod
    def load(path: str | Path) -> Network:
        """The network in `path`, its session made on the first load of that file (and
        made again only if the file changes). OSError for a missing file, ValueError for
        one onnxruntime cannot open."""
        path = Path(path)
        stat = path.stat()
        key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
        with _lock:
            network = _networks.get(key)
            if network is None:
                network = _networks[key] = Network(path, _session(path))
        return network


_lock = threading.Lock()
_networks: dict[tuple[str, int, int], Network] = {}


def one_thread_session(path: str | Path) -> Any:
    """An onnxruntime session for the ONNX file at `path`, run on one CPU thread,
    sequentially, warnings not printed: how every network at the table runs.

    onnxruntime's memory arena is off: each session's arena kept the largest batch it
    ever ran, and with every reader loaded the arenas alone took about 100 MB (242 MB
    peak against 141 MB without; the reads take as long, `tabletop21 bench cards`)."""
    import onnxruntime as ort  # here: importing a reader's module should not start onnxruntime

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.log_severity_level = 3
    opts.enable_cpu_mem_arena = False
    opts.enable_mem_pattern = False
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def _session(path: Path) -> Any:
    try:
        return one_thread_session(path)
    except Exception as err:  # onnxruntime's own errors (InvalidProtobuf, Fail...) share no base but Exception
        raise ValueError(str(err).strip().splitlines()[-1] if str(err).strip() else type(err).__name__) from err


def load_networks(first: str | Path, reader: str, shape: tuple[int, int, int], classes: int) -> tuple[Network, ...]:
    """The networks in `first` and the numbered files after it (first_2.onnx...), each
    checked as load_network checks it. `first` must be there: the glob alone found
    none and said nothing. Only numbered files: die_face_hue.onnx, beside
    die_face.onnx, is another network for another input."""
    first = Path(first)
    if not first.is_file():
        raise _incomplete(first, reader, "is missing")
    numbered = sorted((int(match[1]), path) for path in first.parent.glob(first.stem + "_*" + first.suffix)
                      if (match := re.fullmatch(re.escape(first.stem) + r"_(\d+)", path.stem)))
    return tuple(load_network(path, reader, shape, classes) for path in [first, *(path for _, path in numbered)])


def load_network(path: str | Path, reader: str, shape: tuple[int, int, int], classes: int) -> Network:
    """The network in `path`, once it takes input of `shape` (rows, columns, channels)
    and answers `classes` finite probabilities; else IncompleteInstall naming the file
    and `reader` ("dice", "d10"...)."""
    path = Path(path)
    if not path.is_file():
        raise _incomplete(path, reader, "is missing")
    try:
        network = Network.load(path)
    except (OSError, ValueError) as err:
        raise _incomplete(path, reader, f"cannot be read ({err})") from err
    problem = _mismatch(network, shape, classes)
    if problem:
        raise _incomplete(path, reader, problem)
    return network


def _mismatch(network: Network, shape: tuple[int, int, int], classes: int) -> str | None:
    """What keeps `network` from being one the reader can use, or None."""
    if network.input_shape != shape:
        return f"holds a network taking input of shape {network.input_shape}, not {shape}"
    try:
        answer = network.probabilities(np.zeros((1, *shape), np.float32))
    except Exception as err:  # onnxruntime's errors at run time, as at load
        return f"holds a network that fails on this reader's input ({err})"
    if answer.shape != (1, classes):
        return f"holds a network answering {answer.shape[-1]} classes, not {classes}"
    if not np.isfinite(answer).all():
        return "holds values that are not numbers"
    return None


def _incomplete(path: Path, reader: str, problem: str) -> IncompleteInstall:
    return IncompleteInstall(f"{path}: the {reader} reader's weight file {problem}: the tabletop21 install is "
                             "incomplete, reinstall it")
