"""The one check every frame consumer makes first: a camera or a file can hand over
something that is not a picture, and that must fail loudly with NotAnImage rather
than deep inside OpenCV or as an empty table."""

from __future__ import annotations

import numpy as np

from vision.image_io import NotAnImage

MIN_SIDE = 16


def check_frame(frame_bgr: np.ndarray) -> None:
    """Refuse anything that is not an 8-bit 3-channel picture of at least 16x16 pixels."""
    if not isinstance(frame_bgr, np.ndarray) or frame_bgr.dtype != np.uint8 or frame_bgr.ndim != 3 \
            or frame_bgr.shape[2] != 3 or min(frame_bgr.shape[:2]) < MIN_SIDE:
        shape = getattr(frame_bgr, "shape", None)
        dtype = getattr(frame_bgr, "dtype", type(frame_bgr).__name__)
        raise NotAnImage(f"expected an 8-bit BGR frame of at least {MIN_SIDE}x{MIN_SIDE} pixels, "
                         f"got {shape} {dtype}")
