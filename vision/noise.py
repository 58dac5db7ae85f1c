"""How grainy a frame is, and a grain filter that keeps pips sharp.

Why: a camera in a dim room turns its gain up, and grain is what the readers never
saw in the photos (JPEG files, which smooth it away). The dice reader's foreground
test takes fine contrast for die edges, so grain becomes die-shaped blobs everywhere,
and most dice are lost among phantoms. An edge-preserving filter scaled to the
measured grain gives them back (figures: docs/vision.md, "Grainy frames")."""

from __future__ import annotations

import cv2
import numpy as np

from vision.exposure import level_at
from vision.resized_read import LOOK

# Immerkaer's kernel: the difference of two Laplacians, blind to brightness slopes
# and nearly so to edges, so what it answers on is grain. Its weights' squares add
# up to 36: noise of sigma s answers with sigma 6 s.
_GRAIN = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)
_MAD_TO_SIGMA = 1 / (0.6745 * 6)


def grain(frame_bgr: np.ndarray) -> float:
    """The grey-level noise sigma. The median answer, not the mean: pips, edges and
    a textured cloth answer strongly but on fewer than half the pixels. A JPEG photo
    measures 0 (its compression flattens most of the frame). A frame over LOOK pixels
    long is measured on every n-th pixel, at a 640-pixel frame's cost: grain is
    pixel by pixel, so it stays what it was where the picture itself gets sharper."""
    step = max(1, int(max(frame_bgr.shape[:2]) // LOOK))
    grey = cv2.cvtColor(np.ascontiguousarray(frame_bgr[::step, ::step]), cv2.COLOR_BGR2GRAY)
    answer = cv2.convertScaleAbs(cv2.filter2D(grey, cv2.CV_16S, _GRAIN, borderType=cv2.BORDER_REFLECT))
    if cv2.countNonZero(answer) <= answer.size / 2:
        return 0.0  # the median answer is 0, told by a count at a fortieth of a histogram's cost
    return level_at(answer, 0.5) * _MAD_TO_SIGMA


def smoothed(frame_bgr: np.ndarray, sigma: float) -> np.ndarray:
    """Grain of `sigma` grey levels smoothed away: a bilateral filter averages only
    neighbours within a few sigmas of a pixel's colour, so a pip's edge (a step of
    a hundred levels or more) stays where it is."""
    return cv2.bilateralFilter(frame_bgr, 5, 3.7 * sigma + 1.0, 3.0)
