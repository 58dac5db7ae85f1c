"""Naming the number on a d10's top face. The face can point anywhere, so the digit is
matched at the turns that stand its long axis upright; 6 and 9 are the same shape
turned round, so for them the underline or dot printed under the digit decides, and
without one the read is refused."""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.glyphs import label_scores

NEAR_AXIS = (-22.5, -15.0, -7.5, 0.0, 7.5, 15.0, 22.5)
# Which digits a glyph with 0, 1 or 2 enclosed holes can be (a 4 may be open or closed).
BY_HOLES = {0: ("1", "2", "3", "4", "5", "7"), 1: ("0", "4", "6", "8", "9"), 2: ("8",)}


def _turned(mask: np.ndarray, angle: float) -> np.ndarray:
    h, w = mask.shape
    side = int(np.hypot(h, w)) + 2
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[:, 2] += (side - w) / 2, (side - h) / 2
    return cv2.warpAffine(mask * 255, m, (side, side), flags=cv2.INTER_LINEAR)


def holes(mask: np.ndarray) -> int:
    """Enclosed background regions in a glyph (0 has one, 8 two)."""
    padded = np.pad(mask, 1)
    n, _ = cv2.connectedComponents((padded == 0).astype(np.uint8), connectivity=4)
    return n - 2  # minus the label 0 and the outside


def upright_turns(glyph: np.ndarray) -> list[float]:
    """Turns that may stand the digit upright: digits are taller than wide, so near its long
    axis, either way up (a little either side, since 4 and 7 lean)."""
    ys, xs = np.nonzero(glyph)
    cov = np.cov(np.stack([xs, ys]).astype(np.float64))
    vals, vecs = np.linalg.eigh(cov)
    vx, vy = vecs[:, 1]  # long axis
    base = float(np.degrees(np.arctan2(-vx, vy)))  # turn bringing the long axis to vertical
    if vals[1] < 1.3 * vals[0]:  # round-ish (0, 8 in some fonts): no axis to trust
        return [float(a) for a in range(0, 360, 15)]
    return [(base + flip + d) % 360 for flip in (0.0, 180.0) for d in NEAR_AXIS]


def match_digit(glyph: np.ndarray) -> tuple[str | None, float, float, float]:
    """(label, score, margin, angle) of the best digit its holes allow, over the turns that
    may stand it upright; 6 and 9 count as one shape when the margin is taken, since
    turning tells them apart only with the marker."""
    allowed = BY_HOLES.get(holes(glyph))
    if allowed is None:
        return None, 0.0, 0.0, 0.0
    best: dict[str, tuple[float, float]] = {}
    for angle in upright_turns(glyph):
        for label, score in label_scores(_turned(glyph, angle), allowed).items():
            if score > best.get(label, (-2.0, 0.0))[0]:
                best[label] = (score, angle)
    top = max(best, key=lambda k: best[k][0])
    twin = {"6": "9", "9": "6"}.get(top)
    rival = max((s for k, (s, _) in best.items() if k not in (top, twin)), default=0.0)
    return top, best[top][0], best[top][0] - rival, best[top][1]


def marker_side(digit: np.ndarray, others: list[np.ndarray], angle: float) -> int:
    """+1 if an underline or dot sits where it belongs for the digit as it reads at `angle`
    (under it, or low on its right), -1 if it sits there for the digit turned round (so
    the digit is really the other of 6/9), 0 if there is none or more than one."""
    a = np.radians(angle)
    down = np.array([-np.sin(a), np.cos(a)])  # the digit's "down" in mask pixels
    right = np.array([np.cos(a), np.sin(a)])
    ys, xs = np.nonzero(digit)
    points = np.stack([xs, ys], axis=1).astype(np.float64)
    centre = points.mean(axis=0)
    height = float(np.ptp(points @ down)) + 1
    sides: list[int] = []
    for other in _joined(others, len(ys)):
        oy, ox = np.nonzero(other)
        if not 0.03 * len(ys) <= len(oy) <= 0.4 * len(ys):
            continue
        mark = np.stack([ox, oy], axis=1).astype(np.float64)
        tall, wide = float(np.ptp(mark @ down)) + 1, float(np.ptp(mark @ right)) + 1
        offset = mark.mean(axis=0) - centre
        solid = len(oy) >= 0.5 * np.pi * (max(tall, wide) / 2) ** 2  # a printed dot is filled
        for sign in (1, -1):
            along, side = sign * float(offset @ down), sign * float(offset @ right)
            underline = wide >= 2 * tall and 0.5 * height < along < 1.0 * height and abs(side) < 0.4 * height
            dot = max(tall, wide) < 1.8 * min(tall, wide) and len(oy) <= 0.2 * len(ys) and solid \
                and 0.15 * height < along < 0.75 * height and 0.4 * height < side < 1.1 * height
            if underline or dot:
                sides.append(sign)
    return sides[0] if len(sides) == 1 else 0  # a 6 or 9 carries one mark, not several


def _joined(marks: list[np.ndarray], digit_area: int) -> list[np.ndarray]:
    """Small marks with pieces a pixel or two apart joined into one: blur breaks a thin
    underline into dots, and each piece alone would pass for the dot of a 6 or 9."""
    small = [m for m in marks if m.sum() <= 0.4 * digit_area]
    if not small:
        return []
    union = np.bitwise_or.reduce(small)
    n, labels = cv2.connectedComponents(cv2.dilate(union, np.ones((5, 5), np.uint8)), connectivity=8)
    return [((labels == i) & (union > 0)).astype(np.uint8) for i in range(1, n)]
