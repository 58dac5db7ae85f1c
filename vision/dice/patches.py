"""A die-centred patch turned upright and turned into the small network's input,
whatever the die's colour or the polarity of its pips.

Upright: dice lie at any angle, but a square's edges and pip rows all share one
orientation modulo 90 degrees, which the quadrupled gradient angle recovers in
closed form (no search over angles)."""

from __future__ import annotations

import cv2
import numpy as np

PATCH = 24  # the face network's input side
FIND_PATCH = 16  # the finder networks' input side: telling a die centre from table or wall needs no pip detail
PATCH_SPAN = 1.05  # the patch covers this many die sides: the top face, little of the walls
# Lab chroma of a face under which it is taken as grey (not turned by hue_turned), and
# from which it is turned all the way (the photos' dice: a tenth under 5, half under 22).
NEUTRAL_CHROMA, HUED_CHROMA = 4.0, 12.0


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
        mag2 = gx * gx + gy * gy
        mag3 = mag2 * np.sqrt(mag2) + 1e-6  # |g|^3; a float power costs three times as much
        # (gx + i gy)^4 / |g|^3: unit fourth-power direction times the strength.
        self._re = cv2.integral((re2 * re2 - im2 * im2) / mag3, sdepth=cv2.CV_64F)
        self._im = cv2.integral((2 * re2 * im2) / mag3, sdepth=cv2.CV_64F)
        self._h, self._w = half.shape

    def at(self, x, y, size):
        """Angles at window centres (x, y) of side `size`: scalars, or arrays of them
        (a frame's candidates at once: one call instead of a hundred)."""
        half = np.asarray(size, np.float64) / 4.0
        x, y = np.asarray(x, np.float64) / 2.0, np.asarray(y, np.float64) / 2.0
        x0, x1 = (np.clip(v, 0, self._w).astype(np.intp) for v in (x - half, x + half + 1))
        y0, y1 = (np.clip(v, 0, self._h).astype(np.intp) for v in (y - half, y + half + 1))
        re = self._re[y1, x1] - self._re[y0, x1] - self._re[y1, x0] + self._re[y0, x0]
        im = self._im[y1, x1] - self._im[y0, x1] - self._im[y1, x0] + self._im[y0, x0]
        return np.degrees(np.arctan2(im, re)) / 4.0


def upright_patch(frame_bgr: np.ndarray, angles: SquareAngles, center: tuple[float, float],
                  side: float, turn: float = 0.0, size: int = PATCH) -> tuple[np.ndarray, float]:
    """size x size BGR patch around `center` rotated so the die is axis-aligned,
    and the die's angle in degrees; `turn` (degrees) is added to the measured angle,
    for training on the angle errors the reader will make."""
    span = side * PATCH_SPAN
    angle = float(angles.at(center[0], center[1], span * 1.45)) + turn
    return _cut(frame_bgr, center, span, angle, size), angle


def upright_patches(frame_bgr: np.ndarray, angles: SquareAngles, centers: np.ndarray,
                    sides: np.ndarray, size: int = PATCH) -> tuple[np.ndarray, np.ndarray]:
    """upright_patch for (n, 2) centres and (n,) sides at once: (n, size, size, 3)
    patches and (n,) angles."""
    spans = np.asarray(sides, np.float64) * PATCH_SPAN
    found = angles.at(centers[:, 0], centers[:, 1], spans * 1.45)
    patches = [_cut(frame_bgr, (float(x), float(y)), float(s), float(a), size)
               for (x, y), s, a in zip(centers, spans, found)]
    return np.array(patches, np.uint8).reshape(-1, size, size, 3), found.astype(np.float32)


def _cut(frame_bgr: np.ndarray, center: tuple[float, float], span: float, angle: float, size: int) -> np.ndarray:
    scale = size / span
    matrix: np.ndarray = cv2.getRotationMatrix2D(center, angle, scale)
    matrix[:, 2] += (size / 2.0 - center[0], size / 2.0 - center[1])
    if scale < 0.8:  # shrinking a lot: smooth first so pips do not alias away
        look = int(round(span * 1.5)) + 4
        origin = np.array([center[0] - (look - 1) / 2.0, center[1] - (look - 1) / 2.0])
        source = cv2.GaussianBlur(cv2.getRectSubPix(frame_bgr, (look, look), center), (0, 0), 0.4 / scale)
        matrix[:, 2] += matrix[:, :2] @ origin
    else:
        source = frame_bgr
    return cv2.warpAffine(source, matrix, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def relative_to_face(patches_bgr: np.ndarray, units: tuple[float, float, float],
                     hue_turned: bool = False) -> np.ndarray:
    """(n, size, size, 3) float32 Lab differences of every pixel from its patch's face
    colour (the median over the patch middle), divided by `units` (L, a, b): relative
    to the face, a mark is "different" whatever the colours of the object and its ink.
    The d10 reader uses it too.

    `hue_turned` turns each patch's colour differences round the Lab hue circle by the
    angle that brings its face's hue to red's, so a blue die with white pips gives the
    red one's input: a network that learnt a die's colours this way reads dice of a
    colour it has not seen (a face nearly grey has no hue to go by, and is turned
    less, not at all under NEUTRAL_CHROMA)."""
    n, size = len(patches_bgr), patches_bgr.shape[1]
    if n == 0:  # no patches (no dice found): OpenCV refuses an empty image
        return np.zeros((0, size, size, 3), np.float32)
    lab = cv2.cvtColor(patches_bgr.reshape(-1, size, 3), cv2.COLOR_BGR2LAB).astype(np.float32)
    lab = lab.reshape(n, size, size, 3)
    q = size // 4
    face = np.median(lab[:, q:-q, q:-q].reshape(n, -1, 3), axis=1)
    rel = (lab - face[:, None, None, :]) / np.array(units, np.float32)
    if hue_turned:
        a, b = face[:, 1] - 128.0, face[:, 2] - 128.0
        share = np.clip((np.hypot(a, b) - NEUTRAL_CHROMA) / (HUED_CHROMA - NEUTRAL_CHROMA), 0.0, 1.0)
        turn = -np.arctan2(b, a) * share
        cos, sin = np.cos(turn)[:, None, None], np.sin(turn)[:, None, None]
        rel_a, rel_b = rel[..., 1], rel[..., 2]  # a and b share one unit, so turning keeps lengths
        rel[..., 1], rel[..., 2] = cos * rel_a - sin * rel_b, sin * rel_a + cos * rel_b  # both made before either is stored
    return rel


def network_input(patches_bgr: np.ndarray, hue_turned: bool = False) -> np.ndarray:
    """(n, size, size, 4) float32 for the network: L, a, b relative to the die's own
    face colour, and the colour distance from it. Relative to the face, a pip is
    "different" whether the die is white, black or red and whether its pips are darker
    or lighter. `hue_turned`: see relative_to_face (the second opinion's input)."""
    rel = relative_to_face(patches_bgr, (60.0, 25.0, 25.0), hue_turned)
    dist = np.sqrt((rel ** 2).sum(axis=3, keepdims=True))
    return np.concatenate([np.clip(rel, -2, 2), np.clip(dist, 0, 3) - 0.5], axis=3).astype(np.float32)
