"""Naming a glyph (card rank, suit, d10 digit) by correlation with templates rendered
from several fonts. A small nearest-template matcher was chosen over a trained model:
it needs no training run, shows its evidence (score and margin to the runner-up) so a
reader can refuse a doubtful glyph, and new fonts are added by rebuilding the atlas.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

SIZE = 24  # templates and glyphs are compared as SIZE x SIZE images
ATLAS_PNG = Path(__file__).with_name("glyph_atlas.png")
ATLAS_JSON = Path(__file__).with_name("glyph_atlas.json")


def square_glyph(mask: np.ndarray) -> np.ndarray | None:
    """Ink cropped tight, centred in a square (so a narrow '1' stays narrow), SIZE x SIZE uint8."""
    ys, xs = np.nonzero(mask)
    if ys.size < 4:
        return None
    crop = (mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1] > 0).astype(np.uint8) * 255
    h, w = crop.shape
    side = max(h, w) + 2
    canvas = np.zeros((side, side), np.uint8)
    y0, x0 = (side - h) // 2, (side - w) // 2
    canvas[y0 : y0 + h, x0 : x0 + w] = crop
    return cv2.resize(canvas, (SIZE, SIZE), interpolation=cv2.INTER_AREA)


def _unit(square: np.ndarray) -> np.ndarray:
    v = cv2.GaussianBlur(square.astype(np.float32), (3, 3), 0.8).ravel()
    v -= v.mean()
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


@lru_cache(maxsize=1)
def _atlas() -> tuple[np.ndarray, np.ndarray]:
    labels = np.array(json.loads(ATLAS_JSON.read_text()))
    sheet = cv2.imread(str(ATLAS_PNG), cv2.IMREAD_GRAYSCALE)
    if sheet is None:
        raise FileNotFoundError(f"{ATLAS_PNG} is missing: run python -m vision.cards.glyph_atlas")
    squares = sheet.reshape(-1, SIZE, SIZE)[: len(labels)]
    return labels, np.stack([_unit(s) for s in squares])


def label_scores(mask: np.ndarray, allowed: tuple[str, ...]) -> dict[str, float]:
    """Best normalised correlation (1 = identical) of this ink mask with each allowed label."""
    square = square_glyph(mask)
    if square is None:
        return {}
    labels, vectors = _atlas()
    scores = vectors @ _unit(square)
    best: dict[str, float] = {}
    for label in allowed:
        picked = scores[labels == label]
        if picked.size:
            best[label] = float(picked.max())
    return best


def best_match(mask: np.ndarray, allowed: tuple[str, ...]) -> tuple[str | None, float, float]:
    """(label, score, margin): margin is how far the best label is ahead of the runner-up,
    which is what makes a read certain."""
    ranked = sorted(label_scores(mask, allowed).items(), key=lambda kv: -kv[1])
    if not ranked:
        return None, 0.0, 0.0
    runner_up = ranked[1][1] if len(ranked) > 1 else -1.0
    return ranked[0][0], ranked[0][1], ranked[0][1] - runner_up
