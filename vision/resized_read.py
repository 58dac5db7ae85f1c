"""Reading a frame at another size and answering in the frame's own pixels.

Why: the readers count in pixels (closings, the table window, the smallest and
largest blob) and their networks learnt objects of a certain size, so a frame whose
objects are much bigger (or, for cards, much smaller) than that is read resized. The
play area and die size of a calibration are resized with the frame, and every read
comes back to the frame's pixels."""

from __future__ import annotations

from dataclasses import fields, replace

import cv2
import numpy as np

from table.reads import Box, Point, TableRead
from vision.calibration import Calibration

LOOK = 640  # a bigger frame's objects are measured on a copy this many pixels long


def look_factor(shape: tuple[int, ...]) -> float:
    """How much to shrink a frame to measure its objects. The readers' pixel constants
    were set on 640-pixel frames: in a much bigger frame, white dice break into pips
    and are measured far smaller than they are."""
    return min(1.0, LOOK / max(shape[:2]))


def resized(frame_bgr: np.ndarray, factor: float) -> np.ndarray:
    """The frame resized by about `factor` (its own shape tells exactly how much).
    Shrinking halves with bilinear sampling, which averages each 2x2 block as
    INTER_AREA would; the last step, by a factor between a half and one, and any
    enlarging (vision.cards.working_size) are bilinear too: INTER_AREA at any
    other factor costs several milliseconds more on a big frame and reads no better."""
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


def shrunk(frame_bgr: np.ndarray, calibration: Calibration | None,
           factor: float) -> tuple[np.ndarray, Calibration | None]:
    """The frame resized by `factor` (itself at 1; below 1 for the dice readers, either
    way for cards) and its calibration for that size."""
    if factor == 1.0:
        return frame_bgr, calibration
    small = resized(frame_bgr, factor)
    return small, calibration_for(calibration, small.shape, frame_bgr.shape) if calibration else None


def read_in_frame(read: TableRead, small_shape: tuple[int, ...], shape: tuple[int, ...]) -> TableRead:
    """A read of the resized frame, in the pixels of the `shape` frame: every object
    of every kind (angles do not change: both axes scale alike but for rounding)."""
    fx, fy = _factors(shape, small_shape)

    def back(item):
        return replace(item, center=_point(item.center, fx, fy), box=_box(item.box, fx, fy) if item.box else None)

    return replace(read, **{f.name: tuple(map(back, getattr(read, f.name)))
                            for f in fields(read) if f.name != "notes"})
