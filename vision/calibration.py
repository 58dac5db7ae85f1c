"""Where the play area is and how big a die looks, found once per table set-up.

Readers take an optional Calibration: without one they read the whole frame, with
one they read only inside the play area and know the die size, which lets them
refuse objects that are far too big or small to be dice."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from table import serial
from vision.image_io import NotAnImage


class FrameMismatch(NotAnImage):
    """A frame of another size than the calibration was made for: its play area and
    die size would be read off the wrong pixels (a 640x640 calibration on a 1280x720
    frame read a third of the dice, with no word of why). A bad frame for this
    calibration, so it is handled wherever a bad frame is."""


@dataclass(frozen=True)
class Calibration:
    frame_size: tuple[int, int]  # (width, height) of the frames it was made from
    area: tuple[tuple[float, float], ...]  # play-area polygon, pixels, clockwise
    die_px: float | None = None  # typical side of a d6 top face in pixels

    def check_frame(self, shape: tuple[int, ...]) -> None:
        """Raise FrameMismatch unless a frame of this shape is one the calibration fits."""
        height, width = shape[:2]
        if (width, height) != tuple(self.frame_size):
            raise FrameMismatch(f"the calibration was made on {self.frame_size[0]}x{self.frame_size[1]} frames, "
                                f"this one is {width}x{height}: calibrate again for this camera setting")

    def mask(self, shape: tuple[int, ...]) -> np.ndarray:
        """uint8 mask (255 inside the play area) for an image of the given shape."""
        mask = np.zeros(shape[:2], np.uint8)
        cv2.fillPoly(mask, [np.round(np.array(self.area)).astype(np.int32)], 255)
        return mask

    def contains(self, point: tuple[float, float]) -> bool:
        contour = np.array(self.area, np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(serial.to_data(self), indent=1))

    @staticmethod
    def load(path: str | Path) -> "Calibration":
        loaded = serial.loads(Path(path).read_text(), Calibration)
        if not isinstance(loaded, Calibration):
            raise serial.CorruptRecord(f"{path}: not a calibration file")
        return loaded
