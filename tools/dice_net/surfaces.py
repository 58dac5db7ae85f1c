"""Table surfaces drawn from noise, for the d6 detector's composites: wood grain, marble
and stone veins, felt, carpet, terrazzo chips, woven cloth and plain plastic, each in
random colours, lit unevenly. The real tables of the photo sources are few (a grey
tray, the webcam's desks, the d10 photos' wood, cloth and paper); a detector that sees
dice on many more surfaces has less of any one table to learn as "no die here"
(`train_det.py --surfaces P`: that share of the composites is laid on one of these).

Never shipped: only the training scripts draw them."""

from __future__ import annotations

import math

import cv2
import numpy as np

KINDS = ("wood", "marble", "felt", "carpet", "terrazzo", "cloth", "plain")


def _noise(rng: np.random.Generator, size: int, scale: float) -> np.ndarray:
    """Smooth noise in [0, 1]: random values on a coarse grid, enlarged and blurred."""
    cells = max(2, int(size / max(scale, 1.0)))
    small = rng.random((cells, cells)).astype(np.float32)
    big = cv2.resize(small, (size, size), interpolation=cv2.INTER_CUBIC)
    big = cv2.GaussianBlur(big, (0, 0), max(scale / 3, 0.5))
    lo, hi = float(big.min()), float(big.max())
    return (big - lo) / max(hi - lo, 1e-6)


def _turbulence(rng: np.random.Generator, size: int, scale: float, octaves: int = 4) -> np.ndarray:
    out = np.zeros((size, size), np.float32)
    for k in range(octaves):
        out += _noise(rng, size, scale / 2 ** k) / 2 ** k
    return out / (2 - 2 ** (1 - octaves))


def _colour(rng: np.random.Generator) -> np.ndarray:
    """A BGR colour: any hue, mostly muted, light or dark."""
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(0, 256) * rng.uniform(0.2, 1.0),
                      rng.integers(30, 246)]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def _mix(t: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[None, None, :] * (1 - t[..., None]) + b[None, None, :] * t[..., None]


def _rotated_coords(rng: np.random.Generator, size: int) -> tuple[np.ndarray, np.ndarray]:
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    ang = rng.uniform(0, math.pi)
    return xx * math.cos(ang) + yy * math.sin(ang), -xx * math.sin(ang) + yy * math.cos(ang)


def surface(rng: np.random.Generator, size: int, kind: str | None = None) -> np.ndarray:
    """A size x size uint8 BGR picture of a table surface of `kind` (any of KINDS when
    None), as the run-time letterbox would show it."""
    kind = kind or KINDS[int(rng.integers(len(KINDS)))]
    a, b = _colour(rng), _colour(rng)
    if kind == "wood":
        u, v = _rotated_coords(rng, size)
        warp = _turbulence(rng, size, size / 3) * rng.uniform(4, 14)
        period = rng.uniform(4, 18)
        t = 0.5 + 0.5 * np.sin((v + warp * period) / period * 2 * math.pi)
        t = t ** rng.uniform(0.5, 3) * 0.7 + 0.3 * _noise(rng, size, rng.uniform(1, 3))
        b = a * rng.uniform(0.45, 0.8)  # grain a darker shade of the wood
        img = _mix(t, a, b)
    elif kind == "marble":
        u, _ = _rotated_coords(rng, size)
        turb = _turbulence(rng, size, size / rng.uniform(1.5, 4))
        t = np.abs(np.sin(u / rng.uniform(20, 80) + turb * rng.uniform(4, 10))) ** rng.uniform(0.2, 0.6)
        img = _mix(t, b, a)
    elif kind in ("felt", "carpet"):
        fine = _noise(rng, size, 1.0 if kind == "felt" else rng.uniform(1.0, 2.0))
        t = 0.5 + (fine - 0.5) * (0.15 if kind == "felt" else 0.6) + (_noise(rng, size, size / 4) - 0.5) * 0.2
        img = _mix(np.clip(t, 0, 1), a, a * rng.uniform(0.5, 0.9) if kind == "felt" else b)
    elif kind == "terrazzo":
        img = np.broadcast_to(a, (size, size, 3)).astype(np.float32).copy()
        img += (_noise(rng, size, 1.5)[..., None] - 0.5) * 20
        for _ in range(int(rng.integers(30, 200))):
            c = _colour(rng)
            centre = (int(rng.integers(size)), int(rng.integers(size)))
            axes = (int(rng.integers(1, 6)), int(rng.integers(1, 6)))
            cv2.ellipse(img, centre, axes, float(rng.uniform(0, 180)), 0, 360, c.tolist(), -1)
    elif kind == "cloth":
        u, v = _rotated_coords(rng, size)
        p1, p2 = rng.uniform(3, 30), rng.uniform(3, 30)
        t = (0.5 + 0.25 * np.sign(np.sin(u / p1 * 2 * math.pi)) + 0.25 * np.sign(np.sin(v / p2 * 2 * math.pi)))
        t = t * rng.uniform(0.3, 1.0) + _noise(rng, size, 1.0) * 0.15
        img = _mix(np.clip(t, 0, 1), a, b)
    else:  # plain plastic or paint: one colour, a little texture
        img = np.broadcast_to(a, (size, size, 3)).astype(np.float32) + (_noise(rng, size, 2.0)[..., None] - 0.5) * 8
    # uneven light: a broad gradient and a soft spot
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
    light = 1 + rng.uniform(-0.3, 0.3) * (xx - 0.5) + rng.uniform(-0.3, 0.3) * (yy - 0.5)
    cx, cy, r = rng.uniform(-0.2, 1.2), rng.uniform(-0.2, 1.2), rng.uniform(0.3, 1.2)
    light += rng.uniform(0, 0.35) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (r * r))
    return np.clip(img * light[..., None], 0, 255).astype(np.uint8)
