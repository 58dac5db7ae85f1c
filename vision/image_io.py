"""Loading images from disk with a clear error: a file that is not an image must
fail loudly for that file alone, never crash a batch or be read as an empty table."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


class NotAnImage(ValueError):
    """The file is missing, empty or does not decode as an image."""


def load_bgr(path: str | Path) -> np.ndarray:
    path = Path(path)
    if path.is_dir():
        raise NotAnImage(f"{path}: a directory, not an image file")
    if not path.is_file():
        raise NotAnImage(f"{path}: no such file")
    try:
        raw = np.fromfile(path, dtype=np.uint8)
    except OSError as err:  # no permission, a special file: this file fails, not the batch
        raise NotAnImage(f"{path}: cannot be read ({err.strerror or err})") from err
    image = cv2.imdecode(raw, cv2.IMREAD_COLOR) if raw.size else None
    if image is None:
        raise NotAnImage(f"{path}: not an image OpenCV can decode")
    return image


def checked_bgr(frame: object, min_side: int = 16) -> np.ndarray:
    """The check every reader makes first: something that is not a BGR frame must be
    refused loudly, never read as an empty table."""
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 \
            or frame.dtype != np.uint8 or min(frame.shape[:2]) < min_side:
        raise NotAnImage(f"expected an HxWx3 uint8 BGR frame of at least {min_side}x{min_side}, got "
                         f"{type(frame).__name__} {getattr(frame, 'shape', None)}")
    return frame
