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
    if not path.is_file():
        raise NotAnImage(f"{path}: no such file")
    raw = np.fromfile(path, dtype=np.uint8)
    image = cv2.imdecode(raw, cv2.IMREAD_COLOR) if raw.size else None
    if image is None:
        raise NotAnImage(f"{path}: not an image OpenCV can decode")
    return image
