"""Other numbered dice a d10 reader must not read: rough sprites of a d8, d12 and d20 seen
from above (a triangle or pentagon face up with its number, the faces round it
foreshortened and shaded, in the outline such a die shows). No real photo in
../shared holds these dice, and a bag of dice on a real table does; these sprites
are negatives ("not a d10") for the face classifier and unlabelled pieces on the
detector's composites. Never shipped."""

from __future__ import annotations

import math

import cv2
import numpy as np

from tools.train.d10 import TRAINING_STYLE

SHAPES = {"d8": (3, 6, 8), "d12": (5, 10, 12), "d20": (3, 6, 20)}  # top face sides, outline sides, highest number
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX)


def _ngon(n: int, r: float, c: float, turn: float) -> np.ndarray:
    return np.array([[c + r * math.cos(turn + 2 * math.pi * k / n), c + r * math.sin(turn + 2 * math.pi * k / n)]
                     for k in range(n)], np.float32)


def _number(img, text: str, center, height: float, ink, angle: float, font: int) -> None:
    scale = height / 22.0
    thick = max(1, round(scale * 2))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    layer = np.zeros(img.shape[:2], np.uint8)
    cv2.putText(layer, text, (int(center[0] - tw / 2), int(center[1] + th / 2)), font, scale, 255, thick, cv2.LINE_AA)
    m = cv2.getRotationMatrix2D((float(center[0]), float(center[1])), angle, 1.0)
    layer = cv2.warpAffine(layer, m, (img.shape[1], img.shape[0]))
    a = (layer.astype(np.float32) / 255)[..., None]
    img[:] = (img * (1 - a) + np.array(ink, np.float32) * a).astype(np.uint8)


def other_die(rng: np.random.Generator, side: float, kind: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(sprite, alpha) of a d8, d12 or d20 about `side` px across."""
    kind = kind or str(rng.choice(list(SHAPES)))
    top_n, out_n, high = SHAPES[kind]
    body, ink = TRAINING_STYLE.colour(rng)
    size = int(side * 1.2) + 8
    c = size / 2
    r_out = side / 2
    r_top = r_out * (0.55 if top_n == 3 else 0.6)
    turn = rng.uniform(0, 2 * math.pi)
    outline = _ngon(out_n, r_out, c, turn)
    top = _ngon(top_n, r_top, c, turn + (math.pi / out_n if top_n == 3 else 0))
    sprite = np.zeros((size, size, 3), np.uint8)
    alpha = np.zeros((size, size), np.uint8)
    cv2.fillConvexPoly(alpha, np.round(outline * 4).astype(np.int32), 255, cv2.LINE_AA, shift=2)
    base = np.array(body, np.float32)
    sprite[:] = np.clip(base * 0.75, 0, 255).astype(np.uint8)
    # the faces round the top one: a sector of the outline each, lit by its direction
    light = rng.uniform(0, 2 * math.pi)
    for k in range(out_n):
        a0, a1 = outline[k], outline[(k + 1) % out_n]
        mid = (a0 + a1) / 2 - c
        ang = math.atan2(mid[1], mid[0])
        shade = 0.55 + 0.35 * (1 + math.cos(ang - light)) / 2
        near = top[int(np.argmin(np.linalg.norm(top - (a0 + a1) / 2, axis=1)))]
        poly = np.array([a0, a1, near], np.float32)
        cv2.fillConvexPoly(sprite, np.round(poly * 4).astype(np.int32), tuple(float(v) * shade for v in base),
                           cv2.LINE_AA, shift=2)
    cv2.fillConvexPoly(sprite, np.round(top * 4).astype(np.int32), tuple(float(v) for v in base), cv2.LINE_AA, shift=2)
    cv2.polylines(sprite, [np.round(top).astype(np.int32)], True, tuple(float(v) * 0.6 for v in base), 1, cv2.LINE_AA)
    font = FONTS[int(rng.integers(len(FONTS)))]
    value = int(rng.integers(1, high + 1))
    _number(sprite, str(value), (c, c), r_top * rng.uniform(0.55, 0.8), ink, float(rng.uniform(0, 360)), font)
    if TRAINING_STYLE.finish is not None:
        TRAINING_STYLE.finish(sprite, alpha, rng)
    ys, xs = np.nonzero(alpha)
    return sprite[ys.min():ys.max() + 1, xs.min():xs.max() + 1].copy(), alpha[ys.min():ys.max() + 1, xs.min():xs.max() + 1].copy()
