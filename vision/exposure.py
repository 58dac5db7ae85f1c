"""Frames lit too dimly for the dice reader's contrast, brought up towards the light
it learnt: a camera whose exposure is at its limit in a dim room gives faces and pips
a fraction of their usual contrast, and the networks' inputs scale with it."""

from __future__ import annotations

import cv2
import numpy as np

# A frame whose brightest 1% is under DIM grey levels is read GAIN times brighter.
# DIM lies well under the photos' brightest 1%, so they are read as they are, and
# darkened photos read far better brightened. The gain is modest because a dark cloth
# under dark dice is dim by its colour, not its light, and brightening changes what
# the networks see there: on the dark rendered fixtures, a gain this high can already
# turn a refused die into a wrong value, and more (or levelling to a fixed grey) costs
# more (docs/vision.md, "Dim frames").
DIM = 115.0
GAIN = 1.45
SAMPLE = 4  # every 4th pixel each way: the measure costs under 0.2 ms a 640x640 frame


def brightest(frame_bgr: np.ndarray) -> float:
    """The grey level of the frame's brightest 1 percent."""
    return level_at(cv2.cvtColor(sparse(frame_bgr, SAMPLE), cv2.COLOR_BGR2GRAY), 0.99)


def sparse(frame_bgr: np.ndarray, step: int) -> np.ndarray:
    """Every `step`-th pixel of every `step`-th row, for measures of the light that
    need no more: nearest-neighbour shrinking takes them at half the cost of a strided
    numpy copy."""
    h, w = frame_bgr.shape[:2]
    return cv2.resize(frame_bgr, (max(1, w // step), max(1, h // step)), interpolation=cv2.INTER_NEAREST)


def level_at(image: np.ndarray, share: float, mask: np.ndarray | None = None, levels: int = 256) -> float:
    """The level below which `share` of a one-channel image's pixels (those `mask`
    marks, if given) lie, from its histogram over 0 to `levels` (cheaper than sorting
    the pixels). vision.noise takes its median so; vision.cards.white_stock takes a
    share of the sum of three 8-bit channels (levels 768, a 16-bit image)."""
    counts = np.cumsum(cv2.calcHist([image], [0], mask, [levels], [0, levels]).ravel())
    return float(np.searchsorted(counts, share * counts[-1]))


def levelled(frame_bgr: np.ndarray) -> np.ndarray:
    """The frame itself when lit well enough, else a brightened copy."""
    return frame_bgr if brightest(frame_bgr) >= DIM else cv2.convertScaleAbs(frame_bgr, alpha=GAIN)
