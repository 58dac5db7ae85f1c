"""The table as another camera would show it: a frame resized, and a reader's answer
about it brought back to the frame's (the labels') own pixels. Shared by the scale
tests of every reader."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from table.reads import TableRead
from vision.resized_read import read_in_frame


def resized_view(frame: np.ndarray, scale: float) -> np.ndarray:
    """Cubic when enlarging (a closer camera's smooth edges), area when shrinking."""
    return cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA)


def read_resized(reader: Callable[[np.ndarray], TableRead], frame: np.ndarray, scale: float) -> TableRead:
    seen = resized_view(frame, scale)
    return read_in_frame(reader(seen), seen.shape, frame.shape)
