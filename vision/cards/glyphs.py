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
    binary = (mask > 0).astype(np.uint8)
    x, y, w, h = cv2.boundingRect(binary)  # far quicker than np.nonzero on a whole card
    crop = binary[y : y + h, x : x + w] * 255
    if cv2.countNonZero(crop) < 4:
        return None
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
def _atlas() -> tuple[dict[str, np.ndarray], np.ndarray]:
    """(template rows of each label, template vectors), loaded once."""
    labels = json.loads(ATLAS_JSON.read_text())
    sheet = cv2.imread(str(ATLAS_PNG), cv2.IMREAD_GRAYSCALE)
    if sheet is None:
        raise FileNotFoundError(f"{ATLAS_PNG} is missing: run python -m tools.train.glyph_atlas")
    squares = sheet.reshape(-1, SIZE, SIZE)[: len(labels)]
    rows = {label: np.flatnonzero(np.array(labels) == label) for label in set(labels)}
    return rows, np.stack([_unit(s) for s in squares])


@lru_cache(maxsize=32)
def _templates(allowed: tuple[str, ...]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(labels found in the atlas, first column of each, template matrix with a column per
    template), kept per set of labels: copying the rows out anew takes longer than the match."""
    rows, vectors = _atlas()
    wanted = [label for label in allowed if label in rows]
    starts = np.cumsum([0] + [len(rows[label]) for label in wanted[:-1]])
    return wanted, starts, np.ascontiguousarray(vectors[np.concatenate([rows[label] for label in wanted])].T)


def label_scores(mask: np.ndarray, allowed: tuple[str, ...]) -> dict[str, float]:
    """Best normalised correlation (1 = identical) of this ink mask with each allowed label."""
    return label_scores_many([mask], allowed)[0]


def label_scores_many(masks: list[np.ndarray], allowed: tuple[str, ...]) -> list[dict[str, float]]:
    """label_scores of several masks in one matrix product (the pips of a ten, say): the
    per-call overhead, not the arithmetic, is what costs on glyphs this small."""
    squares = [(i, square) for i, mask in enumerate(masks) if (square := square_glyph(mask)) is not None]
    found = [i for i, _ in squares]
    results: list[dict[str, float]] = [{} for _ in masks]
    if not found:
        return results
    wanted, starts, templates = _templates(tuple(allowed))
    best = np.maximum.reduceat(np.stack([_unit(square) for _, square in squares]) @ templates, starts, axis=1)
    for row, i in enumerate(found):
        results[i] = {label: float(best[row, j]) for j, label in enumerate(wanted)}
    return results


def best_match(mask: np.ndarray, allowed: tuple[str, ...]) -> tuple[str | None, float, float]:
    """(label, score, margin): margin is how far the best label is ahead of the runner-up,
    which is what makes a read certain."""
    return best_of(label_scores(mask, allowed))


def best_of(scores: dict[str, float]) -> tuple[str | None, float, float]:
    """best_match from scores already made by label_scores."""
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    if not ranked:
        return None, 0.0, 0.0
    runner_up = ranked[1][1] if len(ranked) > 1 else -1.0
    return ranked[0][0], ranked[0][1], ranked[0][1] - runner_up
