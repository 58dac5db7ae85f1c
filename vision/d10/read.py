"""read_d10: the top-face number of every ten-sided die on the table.

A die is a blob that differs from the table; its top face is the kite in the middle of
its outline, so the number read is the ink glyph nearest the blob's centre. A blob only
counts as a d10 when that glyph is clearly a digit with the right number of holes and
is not one of a group of round pips (a d6 face); otherwise it is not reported at all,
or reported unreadable when it is a digit whose value is not certain."""

from __future__ import annotations

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.image_io import checked_bgr
from vision.d10 import glyph
from vision.d10.find import die_blobs
from vision.types import D10, TableRead, Unreadable

WORK_PX = 96
BROKEN_GAP = 3  # pixels (at WORK_PX) within which another mark makes a digit suspect
READ_MARGIN = 0.06  # a digit this little ahead of every other is reported unreadable
MIN_ELONGATION, MAX_AXIS_GAP = 1.05, 30.0  # see along_kite
INK_CONTRAST = 40  # Lab distance between a die's body and its printed numbers
# Below these scores the central mark is not taken for a digit at all. A lone bar ("1")
# is what glossy highlights and merged d6 pips most often resemble, so it must match better.
DIGIT_LIKE = {"1": 0.9}
DIGIT_LIKE_ANY = 0.8


def _ink_layers(crop: np.ndarray, inside: np.ndarray) -> list[list[np.ndarray]]:
    """Ink marks on the die, lighter-than-body and darker-than-body as two candidate
    layers. Ink differs from the body in colour as well as lightness (red pips on a blue
    die are about as light as the die). The body colour is taken from the middle of the
    die, the top face, because the side faces are shaded darker."""
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = inside.shape
    middle = np.zeros_like(inside)
    cv2.circle(middle, (w // 2, h // 2), max(2, min(w, h) // 4), 1, -1)
    centre = lab[(middle & inside) > 0]
    if centre.size == 0:
        return []
    body = np.median(centre, axis=0)
    differs = (np.linalg.norm(lab - body, axis=2) > INK_CONTRAST) & (inside > 0)
    layers = []
    for ink in (differs & (lab[..., 0] > body[0]), differs & (lab[..., 0] <= body[0])):
        n, labels = cv2.connectedComponents(ink.astype(np.uint8), connectivity=8)
        layers.append([p for p in ((labels == i).astype(np.uint8) for i in range(1, n)) if p.sum() >= 6])
    return layers


def _box(contour: np.ndarray) -> tuple[float, float, float, float]:
    x, y, w, h = cv2.boundingRect(contour)
    return (float(x), float(y), float(x + w), float(y + h))


def _pip_like(part: np.ndarray) -> bool:
    """A filled roundish dot, as on a d6, not a digit stroke: it fills most of its
    enclosing circle and has no hole. (Perimeter-based roundness is too coarse for the
    few-pixel pips of a frame.)"""
    points = cv2.findNonZero(part)
    (_, _), radius = cv2.minEnclosingCircle(points)
    return float(part.sum()) / (np.pi * max(radius, 0.5) ** 2) > 0.55 and glyph.holes(part) == 0


def _extent(part: np.ndarray) -> int:
    ys, xs = np.nonzero(part)
    return int(max(np.ptp(ys), np.ptp(xs))) + 1


def _central_digit(parts: list[np.ndarray], size: float) -> tuple[np.ndarray, list[np.ndarray]] | None:
    """The mark nearest the middle of the die if it may be a digit (not a d6 pip), and the rest."""
    marks = parts  # every mark, small ones (an underline, a dot) included
    parts = [p for p in parts if 0.12 * size <= _extent(p) <= 0.5 * size]
    if not parts:
        return None
    middle = np.array([s / 2 for s in parts[0].shape[::-1]])

    def distance(p: np.ndarray) -> float:
        ys, xs = np.nonzero(p)
        return float(np.hypot(*(np.array([xs.mean(), ys.mean()]) - middle)))

    digit = min(parts, key=distance)
    others = [p for p in marks if p is not digit]
    if distance(digit) > 0.25 * size or _pip_like(digit):
        return None
    if any(0.5 < p.sum() / digit.sum() < 2 and _pip_like(p) for p in others):
        return None  # round marks beside it: the pips of a d6
    if any(_mirrored(digit, p, middle, size) for p in others):
        return None  # a like mark opposite it across the middle: a d6 face's pip rows
    return digit, others


def _axis_degrees(points_xy: np.ndarray) -> tuple[float, float]:
    """(direction of the long axis in degrees modulo 180, long/short spread ratio)."""
    cov = np.cov(points_xy.T.astype(np.float64))
    vals, vecs = np.linalg.eigh(cov)
    vx, vy = vecs[:, 1]
    return float(np.degrees(np.arctan2(vy, vx)) % 180), float(np.sqrt(vals[1] / max(vals[0], 1e-9)))


def along_kite(inside: np.ndarray, upright_turn: float) -> bool:
    """A d10 resting on a face is seen from above wider across its top kite than along it
    (the side faces splay out), and its number is printed along the kite; a d6 is square.
    So the die must be elongated and the digit, as it reads upright, stand across that."""
    die_angle, die_ratio = _axis_degrees(np.argwhere(inside)[:, ::-1])
    a = np.radians(upright_turn)
    digit_angle = float(np.degrees(np.arctan2(np.cos(a), -np.sin(a))) % 180)
    apart = abs((die_angle - digit_angle + 90) % 180 - 90)
    return die_ratio >= MIN_ELONGATION and apart >= 90 - MAX_AXIS_GAP


def shows_pips(layers: list[list[np.ndarray]], size: float) -> bool:
    """Two or more like-sized round dots in either polarity: the face of a d6 (glossy dice
    also throw thin highlights, which is why the digit's own layer is not enough)."""
    for layer in layers:
        dots = sorted(p.sum() for p in layer if _extent(p) >= 0.08 * size and _pip_like(p))
        if any(b <= 2.0 * a for a, b in zip(dots, dots[1:])):
            return True
    return False


def _mirrored(digit: np.ndarray, other: np.ndarray, middle: np.ndarray, size: float) -> bool:
    """Whether `other` is about the digit's size and sits opposite it across the die's middle,
    as the two rows of a d6's six (or two merged pips) do; a d10 has one number in the middle."""
    if not 0.6 < other.sum() / digit.sum() < 1.6:
        return False
    a = np.argwhere(digit)[:, ::-1].mean(axis=0)
    b = np.argwhere(other)[:, ::-1].mean(axis=0)
    return float(np.hypot(*(a - b))) > 0.15 * size and float(np.hypot(*((a + b) / 2 - middle))) < 0.12 * size


def _broken(digit: np.ndarray, others: list[np.ndarray]) -> bool:
    """Whether a sizeable mark lies within a couple of pixels of the digit: blur can break a
    3 into a 7 and a scrap, or a 4 into a 1 and the rest. Numbers on neighbouring faces
    are further off, across the edge between the faces."""
    near = cv2.dilate(digit, np.ones((2 * BROKEN_GAP + 1,) * 2, np.uint8))
    return any(p.sum() >= 0.15 * digit.sum() and (p & near).any() for p in others)


def read_one(frame_bgr: np.ndarray, contour: np.ndarray) -> D10 | Unreadable | None:
    x, y, w, h = cv2.boundingRect(contour)
    # Every die is looked at WORK_PX across: a real die's digits are only ~10 pixels tall,
    # and strokes that thin keep their shape better when enlarged before thresholding.
    zoom = WORK_PX / max(w, h)
    crop = cv2.resize(frame_bgr[y : y + h, x : x + w], None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
    inside = np.zeros(crop.shape[:2], np.uint8)
    cv2.drawContours(inside, [np.round((contour - [x, y]) * zoom).astype(np.int32)], -1, 1, -1)
    inside = cv2.erode(inside, np.ones((3, 3), np.uint8))
    if inside.sum() < 50:
        return None
    size = float(max(crop.shape[:2]))
    layers = _ink_layers(crop, inside)
    if shows_pips(layers, size):
        return None
    best = None
    edge = cv2.dilate(1 - inside, np.ones((5, 5), np.uint8))
    for layer in layers:
        found = _central_digit(layer, size)
        if found is None or (found[0] & edge).any():
            continue  # nothing, or a digit running off the die's outline: maybe cut short
        label, score, margin, angle = glyph.match_digit(found[0])
        if label is not None and not along_kite(inside, angle):
            continue
        if label is not None and (best is None or score > best[1]):
            best = (label, score, margin, angle, found)
    if best is None or best[1] < DIGIT_LIKE.get(best[0], DIGIT_LIKE_ANY):
        return None
    label, score, margin, angle, (digit, others) = best
    centre = (float(x + w / 2), float(y + h / 2))
    box = _box(contour)
    if label not in ("6", "9") and _broken(digit, others):  # a 6 or 9 has its mark close by
        return Unreadable("d10", centre, f"reads {label} but a piece of ink almost touches it", box)
    side = glyph.marker_side(digit, others, angle)
    if label in ("6", "9"):
        if side == 0:
            return Unreadable("d10", centre, "6 or 9: no underline or dot seen", box)
        # Only 6 and 9 carry a mark, so with it the shape needs no margin over 0, 4 or 8.
        return D10(int(label if side > 0 else {"6": "9", "9": "6"}[label]), centre, box, round(min(1.0, score), 3))
    if side != 0:  # only 6 and 9 are marked, so the glyph itself is in doubt
        return Unreadable("d10", centre, f"reads {label} but is marked like a 6 or 9", box)
    if margin < READ_MARGIN:
        return Unreadable("d10", centre, f"number unclear (best {label} {score:.2f}, margin {margin:.2f})", box)
    return D10(int(label), centre, box, round(min(1.0, score), 3))


def read_d10(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
    """Ten-sided dice in a BGR frame (inside the play area when a Calibration is given)."""
    frame_bgr = checked_bgr(frame_bgr, min_side=32)
    area = calibration.mask(frame_bgr.shape) if calibration is not None else None
    die_px = calibration.die_px if calibration is not None else None
    dice: list[D10] = []
    unreadable: list[Unreadable] = []
    for contour in die_blobs(frame_bgr, area, die_px):
        found = read_one(frame_bgr, contour)
        if isinstance(found, D10):
            dice.append(found)
        elif isinstance(found, Unreadable):
            unreadable.append(found)
    return TableRead(d10=tuple(dice), unreadable=tuple(unreadable))
