"""A die's top face cut out as a small square the network can read, turned so that its
number stands upright or upside down.

A d10 resting on a face is seen from above wider across its top kite than along it,
and its number is printed along the kite, so the die outline's long axis fixes the
number's direction up to a half turn. The network is trained on both half turns, so
the reader needs no search over angles."""

from __future__ import annotations

import cv2
import numpy as np

PATCH = 32
SPAN = 0.62  # the patch covers this share of the die's length: the top kite, little else


def outline_pose(contour: np.ndarray) -> tuple[tuple[float, float], float, float, float]:
    """(centre, long-axis angle in degrees, length along it, long/short spread ratio) of
    a die outline, from the moments of its filled area."""
    m = cv2.moments(contour.astype(np.float32))
    if m["m00"] <= 0:
        x, y, w, h = cv2.boundingRect(contour.astype(np.int32))
        return (x + w / 2, y + h / 2), 0.0, float(max(w, h, 1)), 1.0
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    cov = np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]]) / m["m00"]
    vals, vecs = np.linalg.eigh(cov)
    vx, vy = vecs[:, 1]
    angle = float(np.degrees(np.arctan2(vy, vx)))
    along = contour.reshape(-1, 2) @ np.array([vx, vy])
    ratio = float(np.sqrt(vals[1] / max(vals[0], 1e-9)))
    return (float(cx), float(cy)), angle, float(np.ptp(along)) + 1.0, ratio


def face_patch(frame_bgr: np.ndarray, centre: tuple[float, float], angle: float, length: float) -> np.ndarray:
    """PATCH x PATCH BGR square around `centre` turned by `angle` (the die's long axis
    comes out horizontal), covering SPAN of the die's `length`."""
    span = max(SPAN * length, 4.0)
    scale = PATCH / span
    source = frame_bgr
    if scale < 0.8:  # shrinking: smooth first so thin strokes do not alias away
        source = cv2.GaussianBlur(frame_bgr, (0, 0), 0.4 / scale)
    matrix = cv2.getRotationMatrix2D(centre, angle, scale)
    matrix[:, 2] += (PATCH / 2.0 - centre[0], PATCH / 2.0 - centre[1])
    return cv2.warpAffine(source, matrix, (PATCH, PATCH), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def network_input(patches_bgr: np.ndarray) -> np.ndarray:
    """(n, PATCH, PATCH, 2) float32: each pixel's colour distance from the face (the
    median of the patch middle) and its lightness difference, signed so that ink is
    positive. Light numbers on a dark die and dark numbers on a light one then look
    the same to the network, whatever the colours."""
    n = len(patches_bgr)
    lab = cv2.cvtColor(patches_bgr.reshape(-1, PATCH, 3), cv2.COLOR_BGR2LAB).astype(np.float32)
    lab = lab.reshape(n, PATCH, PATCH, 3)
    q = PATCH // 4
    face = np.median(lab[:, q:-q, q:-q].reshape(n, -1, 3), axis=1)
    rel = (lab - face[:, None, None, :]) / np.array([50.0, 25.0, 25.0], np.float32)
    dist = np.sqrt((rel ** 2).sum(axis=3))
    inky = dist > 1.0
    lighter = (rel[..., 0] * inky).sum(axis=(1, 2)) >= 0
    light = rel[..., 0] * np.where(lighter, 1.0, -1.0)[:, None, None]
    return np.stack([np.clip(dist, 0, 3) - 0.5, np.clip(light, -2, 2)], axis=3).astype(np.float32)
