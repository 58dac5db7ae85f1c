"""read_d10: the top-face number of every ten-sided die on the table.

A die is a blob that differs from the table (vision.d10.find). Its top kite sits in
the middle of its outline with the number printed along the kite, so a small square
cut from the middle and turned by the outline's long axis shows the number upright or
upside down (vision.d10.patch). A small network trained on rendered dice
(vision.d10.classifier) says which number it is, or that the blob is no d10 at all.
Only a confident answer is a read: a blob the network takes for a d10 but whose
number it is not sure of is reported unreadable, anything else is not reported."""

from __future__ import annotations

import numpy as np

from vision.calibration import Calibration
from vision.d10 import classifier
from vision.d10.find import die_blobs
from vision.d10.patch import face_patch, outline_pose
from vision.image_io import checked_bgr
from vision.types import D10, TableRead, Unreadable

IS_D10 = 0.9  # the networks' belief that a blob is a d10 at all, below which it is ignored
READ = 0.9  # the networks' belief in one number, below which the die is unreadable
# Glare arcs on glossy d6s can pass for a half-legible number, so a refusal, which
# makes the round stop for a re-roll, needs a blob the networks are sure is a d10.
SURE_D10 = 0.99
# A lone d10 seen from above is at most about 1.8 times as long as it is wide; a longer
# blob is dice touching, or a die and something else, whose middle is no top face.
MAX_ELONGATION = 2.0


def _box(contour: np.ndarray) -> tuple[float, float, float, float]:
    points = contour.reshape(-1, 2)
    x0, y0 = points.min(axis=0)
    x1, y1 = points.max(axis=0)
    return float(x0), float(y0), float(x1), float(y1)


def judge(p: np.ndarray, centre: tuple[float, float], box: tuple[float, float, float, float]) -> D10 | Unreadable | None:
    """A read, a refusal or nothing from one blob's class probabilities."""
    d10 = 1.0 - p[classifier.NOT_D10]
    if d10 < IS_D10:
        return None
    value = int(np.argmax(p[:10]))
    if p[value] >= READ:
        return D10(value, centre, box, round(float(p[value]), 3))
    if d10 < SURE_D10:
        return None
    if p[classifier.UNMARKED] > p[value]:
        return Unreadable("d10", centre, "6 or 9: no underline or dot seen", box)
    return Unreadable("d10", centre, f"number unclear (best {value} at {p[value]:.2f})", box)


def read_d10(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
    """Ten-sided dice in a BGR frame (inside the play area when a Calibration is given)."""
    frame_bgr = checked_bgr(frame_bgr, min_side=32)
    area = calibration.mask(frame_bgr.shape) if calibration is not None else None
    die_px = calibration.die_px if calibration is not None else None
    blobs, poses = [], []
    for contour in die_blobs(frame_bgr, area, die_px):
        pose = outline_pose(contour)
        if pose[3] <= MAX_ELONGATION:
            blobs.append(contour)
            poses.append(pose)
    if not blobs:
        return TableRead()
    patches = np.stack([face_patch(frame_bgr, centre, angle, length) for centre, angle, length, _ in poses])
    dice: list[D10] = []
    unreadable: list[Unreadable] = []
    for contour, (centre, _, _, _), p in zip(blobs, poses, classifier.probabilities(patches)):
        found = judge(p, centre, _box(contour))
        if isinstance(found, D10):
            dice.append(found)
        elif isinstance(found, Unreadable):
            unreadable.append(found)
    return TableRead(d10=tuple(dice), unreadable=tuple(unreadable))
