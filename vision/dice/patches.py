"""A die-centred patch turned upright and turned into the small network's input,
whatever the die's colour or the polarity of its pips.

Upright: dice lie at any angle, but a square's edges and pip rows all share one
orientation modulo 90 degrees, which the quadrupled gradient angle recovers in
closed form (no search over angles)."""

from __future__ import annotations

import cv2
import numpy as np

PATCH = 24
PATCH_SPAN = 1.05  # the patch covers this many die sides: the top face, little of the walls


class SquareAngles:
    """Orientation (degrees, in [-45, 45)) of the dominant square structure in any
    window of a frame, in constant time per window.

    Each gradient votes with its angle times four (so the four sides of a square
    agree) weighted by its strength; summed over the window, the vote's angle over
    four is the die's angle. Votes are summed once into integral images, at half
    resolution, so a hundred candidates cost no more than one."""

    def __init__(self, frame_bgr: np.ndarray):
        grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
        half = cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA)
        gx = cv2.Sobel(half, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(half, cv2.CV_32F, 0, 1, ksize=3)
        re2, im2 = gx * gx - gy * gy, 2 * gx * gy  # (gx + i gy)^2
        mag3 = (gx * gx + gy * gy) ** 1.5 + 1e-6
        # (gx + i gy)^4 / |g|^3: unit fourth-power direction times the strength.
        self._re = cv2.integral((re2 * re2 - im2 * im2) / mag3, sdepth=cv2.CV_64F)
        self._im = cv2.integral((2 * re2 * im2) / mag3, sdepth=cv2.CV_64F)
        self._h, self._w = half.shape

    def at(self, x: float, y: float, size: float) -> float:
        half = size / 4.0
        x0, x1 = int(np.clip(x / 2 - half, 0, self._w)), int(np.clip(x / 2 + half + 1, 0, self._w))
        y0, y1 = int(np.clip(y / 2 - half, 0, self._h)), int(np.clip(y / 2 + half + 1, 0, self._h))
        re = self._re[y1, x1] - self._re[y0, x1] - self._re[y1, x0] + self._re[y0, x0]
        im = self._im[y1, x1] - self._im[y0, x1] - self._im[y1, x0] + self._im[y0, x0]
        return float(np.degrees(np.arctan2(im, re)) / 4.0)


def upright_patch(frame_bgr: np.ndarray, angles: SquareAngles, center: tuple[float, float],
                  side: float, turn: float = 0.0) -> tuple[np.ndarray, float]:
    """PATCH x PATCH BGR patch around `center` rotated so the die is axis-aligned,
    and the die's angle in degrees; `turn` (degrees) is added to the measured angle,
    for training on the angle errors the reader will make."""
    span = side * PATCH_SPAN
    angle = angles.at(center[0], center[1], span * 1.45) + turn
    scale = PATCH / span
    matrix = cv2.getRotationMatrix2D(center, angle, scale)
    matrix[:, 2] += (PATCH / 2.0 - center[0], PATCH / 2.0 - center[1])
    if scale < 0.8:  # shrinking a lot: smooth first so pips do not alias away
        look = int(round(span * 1.5)) + 4
        origin = np.array([center[0] - (look - 1) / 2.0, center[1] - (look - 1) / 2.0])
        source = cv2.GaussianBlur(cv2.getRectSubPix(frame_bgr, (look, look), center), (0, 0), 0.4 / scale)
        matrix[:, 2] += matrix[:, :2] @ origin
    else:
        source = frame_bgr
    patch = cv2.warpAffine(source, matrix, (PATCH, PATCH), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
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
