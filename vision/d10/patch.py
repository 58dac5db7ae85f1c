"""A die's top face cut out as a small square the network can read, turned so that its
number stands upright or upside down.

A d10 resting on a face is seen from above wider across its top kite than along it,
and its number is printed along the kite, so the die outline's long axis fixes the
number's direction up to a half turn. The network is trained on both half turns, so
the reader needs no search over angles."""

from __future__ import annotations

import cv2
import numpy as np

from vision.dice.patches import relative_to_face

PATCH = 32
SPAN = 0.62  # the patch covers this share of the die's length: the top kite, little else
FACE_UNITS = (50.0, 25.0, 25.0)  # Lab differences that make ink about as visible in lightness as in colour
MIN_GLYPH_PIXELS = 8  # a smaller ink blob in a patch is noise or a scratch, no digit
GLYPH_ELONGATION = 1.3  # a digit whose ink is less elongated than this gives no direction
MIN_TURN = 8.0  # degrees: the networks learnt turns up to 15 off, so less needs no new look
MAX_TURN = 45.0  # a digit's ink leaning further is a slanting stroke (a 7's), not its height


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
    matrix: np.ndarray = cv2.getRotationMatrix2D(centre, angle, scale)
    matrix[:, 2] += (PATCH / 2.0 - centre[0], PATCH / 2.0 - centre[1])
    if scale >= 0.8:
        return cv2.warpAffine(frame_bgr, matrix, (PATCH, PATCH), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # Shrinking: smooth first so thin strokes do not alias away; only round the patch,
    # far enough out that the smoothing there is as over the whole frame.
    sigma = 0.4 / scale
    reach = int(span * 0.75 + 3 * sigma) + 2
    h, w = frame_bgr.shape[:2]
    x0, y0 = max(int(centre[0]) - reach, 0), max(int(centre[1]) - reach, 0)
    x1, y1 = min(int(centre[0]) + reach + 1, w), min(int(centre[1]) + reach + 1, h)
    source = cv2.GaussianBlur(frame_bgr[y0:y1, x0:x1], (0, 0), sigma)
    matrix[:, 2] += matrix[:, :2] @ np.array([x0, y0], np.float64)
    return cv2.warpAffine(source, matrix, (PATCH, PATCH), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def network_input(patches_bgr: np.ndarray) -> np.ndarray:
    """(n, PATCH, PATCH, 2) float32: each pixel's colour distance from the face (the
    median of the patch middle) and its lightness difference, signed so that ink is
    positive. Light numbers on a dark die and dark numbers on a light one then look
    the same to the network, whatever the colours."""
    rel = relative_to_face(patches_bgr, FACE_UNITS)
    dist = np.sqrt((rel ** 2).sum(axis=3))
    inky = dist > 1.0
    lighter = (rel[..., 0] * inky).sum(axis=(1, 2)) >= 0
    light = rel[..., 0] * np.where(lighter, 1.0, -1.0)[:, None, None]
    return np.stack([np.clip(dist, 0, 3) - 0.5, np.clip(light, -2, 2)], axis=3).astype(np.float32)


def number_turn(patch_bgr: np.ndarray) -> float | None:
    """Degrees to add to a face patch's angle so that the number in its middle stands
    upright (or upside down); None when that is no clearer than the outline's guess.

    The outline's axis is off when the outline is (a shadow, a neighbouring face seen
    as part of the top), but a digit is taller than it is wide, so its own ink, taken
    where it differs from the face in the middle of the patch, shows the way it stands."""
    rel = relative_to_face(patch_bgr[None], FACE_UNITS)[0]
    dist = np.sqrt((rel ** 2).sum(axis=2))
    q = PATCH // 4
    middle = np.zeros(dist.shape, bool)
    middle[q:-q, q:-q] = True
    # Ink is lighter or darker than the face; which, the middle says (the patch's rim
    # may be shaded faces, shadow or table).
    sign = 1.0 if (rel[..., 0] * ((dist > 1.0) & middle)).sum() >= 0 else -1.0
    ink = ((dist > 1.0) & (rel[..., 0] * sign > 0)).astype(np.uint8)
    count, parts, stats, centres = cv2.connectedComponentsWithStats(ink)
    glyphs = [k for k in range(1, count) if stats[k, cv2.CC_STAT_AREA] >= MIN_GLYPH_PIXELS]
    if not glyphs:
        return None
    nearest = min(glyphs, key=lambda k: np.hypot(*(centres[k] - (PATCH - 1) / 2)))
    if np.hypot(*(centres[nearest] - (PATCH - 1) / 2)) > q:
        return None
    m = cv2.moments((parts == nearest).astype(np.uint8), True)
    vals, vecs = np.linalg.eigh(np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]]))
    if vals[1] < GLYPH_ELONGATION ** 2 * vals[0]:
        return None  # a round glyph, or a 6 or 9 with its mark: no clear axis
    turn = (float(np.degrees(np.arctan2(vecs[1, 1], vecs[0, 1]))) % 180) - 90  # from upright, in [-90, 90)
    return turn if MIN_TURN < abs(turn) <= MAX_TURN else None
