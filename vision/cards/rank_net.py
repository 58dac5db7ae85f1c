"""A tiny learned judge of index ranks, beside the glyph templates.

Index glyphs are often only 10-15 pixels tall in a frame. Cut to black and white at
that size, a blurred "2" over its suit closes into an "8" and 5, 6 and 8 differ by a
pixel or two, so the templates (vision.cards.glyphs) leave many indices between two
ranks. The network sees the grey-level glyph instead, where those strokes are still
apart. It answers one of the 13 ranks or NOT_A_RANK (a pip, a piece of a picture, a
rank cut short by the card lying on it). The network, rank_net.onnx beside this file
(run by vision.weights on one onnxruntime thread), is made with PyTorch by
`python -m tools.train.rank_net` from renders (never the fixture seed nor the seeds
used to measure the reader).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from table.rules.cards import RANKS
from vision import weights
from vision.cards.colour import low_high, percentiles
from vision.weights import Network

SIDE = 24  # the network's input is SIDE x SIDE
NOT_A_RANK = len(RANKS)  # the last class
CLASSES = len(RANKS) + 1
WIDTHS = (12, 24, 32)
MODEL_PATH = Path(__file__).with_name("rank_net.onnx")
CROP_PER_GLYPH = 1.3  # the crop's side, in lengths of the glyph's longer side
GLYPH_REACH = 0.15  # ink farther than this (in lengths of the glyph's longer side) from the glyph is left out


def rank_crop(upright_bgr: np.ndarray, rank_mask: np.ndarray) -> np.ndarray | None:
    """SIDE x SIDE float32 view of the rank glyph marked in `rank_mask` (same size as the
    upright image): centred on the glyph, scaled by its longer side (so a "10" stays wide
    and a "1" narrow), ink 1 and stock 0 whatever the light, red or black alike (the
    darkest channel is dark for both inks).

    Only ink within GLYPH_REACH of the glyph is shown. Real decks print their indices
    close to the card's edge, and in a fan the edge of the card above runs right beside
    them: seen whole, that straight line made a "6" or an "8" into a "10" for the network
    at up to 0.98 (a "1" beside the glyph), and the reader dropped the index."""
    glyph = (rank_mask > 0).astype(np.uint8)
    x, y, w, h = cv2.boundingRect(glyph)
    if w == 0 or h < 4:
        return None
    side = CROP_PER_GLYPH * max(w, h)
    scale = SIDE / side
    m = np.array([[scale, 0, SIDE / 2 - scale * (x + w / 2)], [0, scale, SIDE / 2 - scale * (y + h / 2)]], np.float32)
    low, _ = low_high(upright_bgr)
    crop = cv2.warpAffine(low, m, (SIDE, SIDE), flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    white, dark = percentiles(crop, 90, 3)
    ink = np.clip((white - crop) / max(float(white - dark), 20.0), 0.0, 1.0)
    reach = max(1, round(GLYPH_REACH * max(w, h)))
    near = cv2.dilate(glyph, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1,) * 2))
    shown = cv2.warpAffine(near.astype(np.float32), m, (SIDE, SIDE), flags=cv2.INTER_LINEAR, borderValue=0)
    return (ink * np.clip(shown, 0.0, 1.0)).astype(np.float32)


@lru_cache(maxsize=1)
def shipped_network() -> Network:
    """The shipped network; IncompleteInstall naming the file when it is missing or
    unreadable, rather than a bare FileNotFoundError that names no remedy."""
    return weights.load_network(MODEL_PATH, "card", (SIDE, SIDE, 1), CLASSES)


def rank_probabilities(crops: list[np.ndarray], network: Network | None = None) -> np.ndarray:
    """(n, CLASSES) probabilities for n crops from rank_crop."""
    if not crops:
        return np.zeros((0, CLASSES), np.float32)
    return (network or shipped_network()).probabilities(np.stack(crops)[..., None])
