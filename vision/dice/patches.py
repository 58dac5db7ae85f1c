"""A die-centred patch turned upright and turned into the small network's input,
whatever the die's colour or the polarity of its pips.

Upright: dice lie at any angle, but a square's edges and pip rows all share one
orientation modulo 90 degrees, which the doubled-doubled gradient angle recovers in
closed form (no search over angles)."""

from __future__ import annotations

import cv2
import numpy as np

PATCH = 24
PATCH_SPAN = 1.05  # the patch covers this many die sides: the top face, little of the walls


def square_angle(gray: np.ndarray) -> float:
    """Orientation (degrees, in [-45, 45)) of the dominant square structure."""
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    mag = cv2.magnitude(gx, gy) + 1e-6
    z = (gx + 1j * gy) / mag
    z4 = (z * z) ** 2
    total = np.sum(z4 * mag)
    return float(np.degrees(np.angle(total)) / 4.0)


def upright_patch(frame_bgr: np.ndarray, center: tuple[float, float], side: float) -> tuple[np.ndarray, float]:
    """PATCH x PATCH BGR patch around `center` rotated so the die is axis-aligned,
    and the die's angle in degrees."""
    span = side * PATCH_SPAN
    look = max(8, int(round(span * 1.45)))
    coarse = cv2.getRectSubPix(frame_bgr, (look, look), center)
    gray = cv2.cvtColor(cv2.resize(coarse, (40, 40), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    angle = square_angle(gray)
    scale = PATCH / span
    matrix = cv2.getRotationMatrix2D(center, angle, scale)
    matrix[:, 2] += (PATCH / 2.0 - center[0], PATCH / 2.0 - center[1])
    if scale < 0.8:  # shrinking a lot: smooth first so pips do not alias away
        sigma = 0.4 / scale
        origin = np.array([center[0] - (look - 1) / 2.0, center[1] - (look - 1) / 2.0])
        coarse = cv2.GaussianBlur(coarse, (0, 0), sigma)
        matrix[:, 2] += matrix[:, :2] @ origin
        patch = cv2.warpAffine(coarse, matrix, (PATCH, PATCH), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    else:
        patch = cv2.warpAffine(frame_bgr, matrix, (PATCH, PATCH), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    return patch, angle


def network_input(patches_bgr: np.ndarray) -> np.ndarray:
    """(n, PATCH, PATCH, 4) float32 for the network: L, a, b relative to the die's own
    face colour (the median over the patch middle), and the colour distance from it.
    Relative to the face, a pip is "different" whether the die is white, black or
    red and whether its pips are darker or lighter."""
    n = len(patches_bgr)
    lab = cv2.cvtColor(patches_bgr.reshape(-1, PATCH, 3), cv2.COLOR_BGR2LAB).astype(np.float32)
    lab = lab.reshape(n, PATCH, PATCH, 3)
    q = PATCH // 4
    face = np.median(lab[:, q:-q, q:-q].reshape(n, -1, 3), axis=1)
    rel = (lab - face[:, None, None, :]) / np.array([60.0, 25.0, 25.0], np.float32)
    dist = np.sqrt((rel ** 2).sum(axis=3, keepdims=True))
    return np.concatenate([np.clip(rel, -2, 2), np.clip(dist, 0, 3) - 0.5], axis=3).astype(np.float32)
