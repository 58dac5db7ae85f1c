"""A very small convolutional network in plain numpy: three 3x3 conv + ReLU + 2x2
max-pool stages and one linear layer, with the training step beside inference.

Why a hand-written CNN rather than a framework: it has to run on a Raspberry Pi
inside the 20 ms budget with nothing but numpy, and a net this size (about 5k
weights, ~0.3 M multiply-adds per patch) does; weight sharing is also what lets it
generalise from a couple of thousand labelled dice where a dense network over the
same pixels memorised them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

_SHIFTS = [(dy, dx) for dy in range(3) for dx in range(3)]
FEW_CHANNELS = 4  # up to this many input channels a layer runs as one im2col product (measured)


def pad(x: np.ndarray) -> np.ndarray:
    n, h, w, c = x.shape
    padded = np.zeros((n, h + 2, w + 2, c), x.dtype)
    padded[:, 1:-1, 1:-1] = x
    return padded


def convolve(padded: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """3x3 'same' convolution as nine shifted matrix products: far less memory
    traffic than building the 9x wider im2col matrix, which dominated run time.
    Except on a few input channels (the first layer's four): there nine products
    over four-long rows cost more than one over the 36-long rows of im2col."""
    n, hp, wp, c = padded.shape
    if c <= FEW_CHANNELS:
        windows = sliding_window_view(padded, (3, 3), axis=(1, 2)).transpose(0, 1, 2, 4, 5, 3)
        return (np.ascontiguousarray(windows).reshape(-1, 9 * c) @ kernel).reshape(n, hp - 2, wp - 2, -1)
    taps = kernel.reshape(9, c, -1)
    out = np.zeros((n, hp - 2, wp - 2, taps.shape[2]), np.result_type(padded, kernel))
    for k, (dy, dx) in enumerate(_SHIFTS):
        out += padded[:, dy:dy + hp - 2, dx:dx + wp - 2] @ taps[k]
    return out


def _pool(x: np.ndarray) -> np.ndarray:
    h, w = x.shape[1] - x.shape[1] % 2, x.shape[2] - x.shape[2] % 2
    return np.maximum(np.maximum(x[:, 0:h:2, 0:w:2], x[:, 1:h:2, 0:w:2]),
                      np.maximum(x[:, 0:h:2, 1:w:2], x[:, 1:h:2, 1:w:2]))


@dataclass
class TinyCNN:
    """Weights: conv kernels as (9*c_in, c_out) matrices, then a linear layer."""

    params: dict[str, np.ndarray] = field(default_factory=dict)

    @staticmethod
    def create(in_channels: int, widths: tuple[int, ...], side: int, classes: int, seed: int = 0) -> TinyCNN:
        rng = np.random.default_rng(seed)
        params: dict[str, np.ndarray] = {}
        c = in_channels
        for i, width in enumerate(widths):
            params[f"k{i}"] = rng.normal(0, np.sqrt(2 / (9 * c)), (9 * c, width)).astype(np.float32)
            params[f"b{i}"] = np.zeros(width, np.float32)
            c, side = width, side // 2
        params["w"] = rng.normal(0, np.sqrt(1 / (side * side * c)), (side * side * c, classes)).astype(np.float32)
        params["b"] = np.zeros(classes, np.float32)
        return TinyCNN(params)

    @property
    def depth(self) -> int:
        return sum(1 for k in self.params if k.startswith("k"))

    def _forward(self, x: np.ndarray, keep: bool) -> tuple[np.ndarray, list]:
        cache: list = []  # (padded, pre, pooled) of each layer, then the flattened features
        for i in range(self.depth):
            padded = pad(x)
            pre = convolve(padded, self.params[f"k{i}"]) + self.params[f"b{i}"]
            pooled = _pool(pre)  # pooling before the ReLU gives the same result on 4x fewer values
            if keep:
                cache.append((padded, pre, pooled))
            x = np.maximum(pooled, 0)
        flat = x.reshape(len(x), -1)
        if keep:
            cache.append(flat)
        return flat @ self.params["w"] + self.params["b"], cache

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """(n, classes) softmax for (n, h, w, c) float32 input."""
        logits, _ = self._forward(x.astype(np.float32, copy=False), keep=False)
        logits -= logits.max(axis=1, keepdims=True)
        odds = np.exp(logits)
        return odds / odds.sum(axis=1, keepdims=True)

    def gradients(self, x: np.ndarray, y: np.ndarray, weights: np.ndarray | None = None) -> tuple[float, dict]:
        """Mean cross-entropy loss and its gradient for a batch."""
        logits, cache = self._forward(x, keep=True)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        n = len(x)
        w = np.ones(n, np.float32) if weights is None else weights.astype(np.float32)
        loss = float(-(np.log(p[np.arange(n), y] + 1e-9) * w).sum() / n)
        g = p
        g[np.arange(n), y] -= 1
        g *= w[:, None] / n
        flat = cache.pop()
        grads = {"w": flat.T @ g, "b": g.sum(axis=0)}
        d = (g @ self.params["w"].T)
        for i in reversed(range(self.depth)):
            padded, pre, pooled = cache[i]
            d = d.reshape(pooled.shape) * (pooled > 0)
            # Max-pool backward: route the gradient to the maximum of each 2x2 cell.
            nb, h, wd, c = pre.shape
            up = np.repeat(np.repeat(d, 2, axis=1), 2, axis=2)
            upv = np.repeat(np.repeat(pooled, 2, axis=1), 2, axis=2)
            d_pre = np.zeros_like(pre)
            hh, ww = up.shape[1], up.shape[2]
            d_pre[:, :hh, :ww] = up * (pre[:, :hh, :ww] == upv)
            c_in = padded.shape[3]
            taps = self.params[f"k{i}"].reshape(9, c_in, c)
            grads[f"b{i}"] = d_pre.reshape(-1, c).sum(axis=0)
            d_padded = np.zeros_like(padded)
            k_grad = np.zeros_like(taps)
            flat_d = d_pre.reshape(-1, c)
            for k, (dy, dx) in enumerate(_SHIFTS):
                window = padded[:, dy:dy + h, dx:dx + wd]
                k_grad[k] = np.ascontiguousarray(window).reshape(-1, c_in).T @ flat_d
                d_padded[:, dy:dy + h, dx:dx + wd] += d_pre @ taps[k].T
            grads[f"k{i}"] = k_grad.reshape(9 * c_in, c)
            d = d_padded[:, 1:-1, 1:-1]
        return loss, grads

    def save(self, path: str | Path) -> None:
        # numpy's stub types the keyword allow_pickle as bool, which mypy matches against
        # the unpacked arrays; params holds only arrays named k0, b0, ..., w and b. (Passing
        # allow_pickle=True would save an array of that name under numpy 1.26.)
        np.savez_compressed(path, **self.params)  # type: ignore[arg-type]

    @staticmethod
    def load(path: str | Path) -> TinyCNN:
        with np.load(path) as data:
            return TinyCNN({k: data[k].astype(np.float32) for k in data.files})


def jitter(batch: np.ndarray, rng: np.random.Generator, gain: tuple[float, float] = (0.7, 1.3)) -> np.ndarray:
    """The batch shifted by up to two pixels (where a crop falls), each patch's channels
    scaled by a random gain (other dice, other light) and a little noise added: what
    every network here needs so as not to memorise its training patches."""
    dy, dx = (int(v) for v in rng.integers(-2, 3, 2))
    batch = np.roll(batch, (dy, dx), axis=(1, 2))
    scale = rng.uniform(*gain, (len(batch), 1, 1, batch.shape[3])).astype(np.float32)
    noise = rng.normal(0, 0.05, batch.shape).astype(np.float32)
    return np.ascontiguousarray(batch * scale + noise)


def train(net: TinyCNN, x: np.ndarray, y: np.ndarray, epochs: int, augment=None, batch: int = 64,
          lr: float = 3e-3, decay: float = 1e-4, seed: int = 0, log=None) -> TinyCNN:
    """Adam with a cosine learning-rate schedule; `augment(batch, rng)` may transform inputs."""
    rng = np.random.default_rng(seed)
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in net.params.items()}
    step = 0
    for epoch in range(epochs):
        rate = lr * 0.5 * (1 + np.cos(np.pi * epoch / epochs))
        order = rng.permutation(len(x))
        total = 0.0
        for start in range(0, len(x), batch):
            idx = order[start:start + batch]
            xb = x[idx] if augment is None else augment(x[idx], rng)
            loss, grads = net.gradients(xb, y[idx])
            total += loss * len(idx)
            step += 1
            for k, g in grads.items():
                g = g + decay * net.params[k] if k.startswith(("k", "w")) else g
                m, v = moments[k]
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                net.params[k] -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        if log:
            log(f"epoch {epoch + 1}/{epochs} loss {total / len(x):.4f}")
    return net
