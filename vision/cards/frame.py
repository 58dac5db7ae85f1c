"""The one check both readers make before looking at a frame: a reader handed something
that is not a BGR image must say so, not return an empty table."""

from __future__ import annotations

import numpy as np

from vision.image_io import NotAnImage


def checked_bgr(frame: object) -> np.ndarray:
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 \
            or frame.dtype != np.uint8 or min(frame.shape[:2]) < 32:
        raise NotAnImage(f"expected an HxWx3 uint8 BGR frame of at least 32x32, got "
                         f"{type(frame).__name__} {getattr(frame, 'shape', None)}")
    return frame
