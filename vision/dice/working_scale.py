"""Reading dice at the size the networks learnt them: a frame whose dice are much
bigger than in the training photos is shrunk first, and the read is mapped back to
the frame's own pixels.

Why: everything before the networks counts in pixels (the foreground's closings,
the table estimate, the smallest blob), and the networks saw dice 20-37 pixels on a
side. The 200 photos enlarged twice (dice 40-75 pixels, as a camera mounted low
gives) and read as they are: 1426 of 1487 dice right, 25 phantoms, 47 ms a frame;
shrunk first: 1462 right, 12 phantoms, 34 ms (1474 and 5 at their own size)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.types import Box, Point, TableRead

LARGEST = 42.0  # typical die side (pixels) still read as it is: the photos' 20-37 and a margin
TARGET = 30.0  # ...and the side a frame of bigger dice is shrunk to
LOOK = 640  # a bigger frame's die size is measured on a copy this many pixels long


def working_factor(side: float) -> float:
    """How much to shrink a frame whose typical die side is `side` pixels (1: not at
    all). Smaller dice are not enlarged: on the photos shrunk to 0.6 that read
    fewer dice than reading them as they were."""
    return 1.0 if side <= LARGEST else TARGET / side


def look_factor(shape: tuple[int, ...]) -> float:
    """How much to shrink a frame to measure its dice. The foreground's pixel
    constants (closings, smallest blob) were set on 640-pixel photos: on the photos
    enlarged twice, white dice broke into pips and measured a third of their size."""
    return min(1.0, LOOK / max(shape[:2]))


def resized(frame_bgr: np.ndarray, factor: float) -> np.ndarray:
    """The frame shrunk by about `factor` (its own shape tells exactly how much).
    Halving with bilinear sampling averages each 2x2 block, as INTER_AREA would; the
    last step, by a factor between a half and one, is bilinear too. INTER_AREA at any other factor costs
    8-10 ms on a 1280-pixel frame here, and both read the enlarged photos alike."""
    h, w = frame_bgr.shape[:2]
    size = (max(1, round(w * factor)), max(1, round(h * factor)))
    while frame_bgr.shape[1] >= 2 * size[0] and frame_bgr.shape[0] >= 2 * size[1]:
        half = (round(frame_bgr.shape[1] / 2), round(frame_bgr.shape[0] / 2))
        frame_bgr = cv2.resize(frame_bgr, half, interpolation=cv2.INTER_LINEAR)
    return cv2.resize(frame_bgr, size, interpolation=cv2.INTER_LINEAR)


def _factors(small_shape: tuple[int, ...], shape: tuple[int, ...]) -> tuple[float, float]:
    return small_shape[1] / shape[1], small_shape[0] / shape[0]


def _point(p: Point, fx: float, fy: float) -> Point:
    """A pixel position under resizing by (fx, fy), pixel centres kept as OpenCV does."""
    return (round((p[0] + 0.5) * fx - 0.5, 1), round((p[1] + 0.5) * fy - 0.5, 1))


def _box(b: Box, fx: float, fy: float) -> Box:
    return (*_point(b[:2], fx, fy), *_point(b[2:], fx, fy))


def calibration_for(calibration: Calibration, small_shape: tuple[int, ...], shape: tuple[int, ...]) -> Calibration:
    """The calibration of `shape` frames, for the same frames resized to `small_shape`."""
    fx, fy = _factors(small_shape, shape)
    return Calibration(frame_size=(small_shape[1], small_shape[0]),
                       area=tuple(_point(p, fx, fy) for p in calibration.area),
                       die_px=calibration.die_px * (fx + fy) / 2 if calibration.die_px else None)


def read_in_frame(read: TableRead, small_shape: tuple[int, ...], shape: tuple[int, ...]) -> TableRead:
    """A dice read of the resized frame, in the pixels of the `shape` frame."""
    fx, fy = _factors(shape, small_shape)
    return replace(read,
                   dice=tuple(replace(d, center=_point(d.center, fx, fy), box=_box(d.box, fx, fy)) for d in read.dice),
                   unreadable=tuple(replace(u, center=_point(u.center, fx, fy),
                                            box=_box(u.box, fx, fy) if u.box else None) for u in read.unreadable))
