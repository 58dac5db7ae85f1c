"""read_d10: the top-face number of every ten-sided die on the table.

A die is a blob that differs from the table (vision.d10.find). Its top kite sits in
the middle of its outline with the number printed along the kite, so a small square
cut from the middle and turned by the outline's long axis shows the number upright or
upside down (vision.d10.patch). A small network trained on rendered dice
(vision.d10.classifier) says which number it is, or that the blob is no d10 at all.
Only a confident answer is a read: a blob the network takes for a d10 but whose
number it is not sure of is reported unreadable, anything else is not reported.

A die whose colour is close to the table's shows up as a ragged part of itself, cut
and turned wrongly, and a shadow can turn an outline, so every blob that may be a d10
is looked at again: cut by the whole die's outline (find.whole_die), turned by its
number's own axis (patch.number_turn), and both again with shadows taken out. Each
look is a witness: a read needs one look sure of the number and no look leaning to
another, rather than stopping at the first look that reads: that reads a few more
dice, but lets two looks that agree on a wrong number outvote the others
(docs/tried/d10.md)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from table.reads import D10, TableRead, Unreadable
from vision.calibration import Calibration, box_corners, checked_frame, in_play
from vision.colour import grey_refusal
from vision.d10 import classifier
from vision.d10.find import (
    ONE_DIE_ELONGATION,
    TableDifference,
    blob_outlines,
    oversized,
    table_difference,
    touching_dice,
    whole_die,
)
from vision.d10.patch import face_patch, number_turn, outline_pose
from vision.frame_edge import EDGE_OVERHANG, outline_overhang
from vision.resized_read import read_in_frame, shrunk

IS_D10 = 0.9  # the networks' belief that a blob is a d10 at all, below which it is ignored
READ = 0.9  # the networks' belief in one number, below which the die is unreadable
# Glare arcs on glossy d6s can pass for a half-legible number, so a refusal, which
# makes the round stop for a re-roll, needs a blob the networks are sure is a d10.
SURE_D10 = 0.99
LOOK_AGAIN = 0.5  # a blob taken for a d10 at least this much by the first look gets a second
LEANS = 0.5  # a look giving another number this much vetoes a read
MAX_ELONGATION = ONE_DIE_ELONGATION  # longer blobs are looked for touching dice
WORKING_LENGTH = 64.0  # pixels: a die seen too close is looked at this long (renders learnt: 32-100)


@dataclass(frozen=True)
class Look:
    """One cut of a blob through the networks: their answer, and where the die is."""

    p: np.ndarray  # (CLASSES,) probabilities
    centre: tuple[float, float]
    box: tuple[float, float, float, float]


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


def judge_looks(looks: list[Look]) -> D10 | Unreadable | None:
    """A read, a refusal or nothing from every look at one blob: the surest look's read,
    unless looks lean to different numbers; without a read, a refusal only when every
    look is sure the blob is a d10 (a single look can be sure of a d10 with no clear
    number on glare on a d6, so one sure look is not enough to refuse), else nothing."""
    sure = min(1.0 - look.p[classifier.NOT_D10] for look in looks) >= SURE_D10
    leaning = {int(np.argmax(look.p[:10])): look for look in looks if look.p[:10].max() >= LEANS}
    if len(leaning) > 1:
        if not sure:
            return None
        looks_as = ", ".join(f"{value} at {look.p[value]:.2f}" for value, look in sorted(leaning.items()))
        first = looks[0]
        return Unreadable("d10", first.centre, f"looks disagree ({looks_as})", first.box)
    found = [judge(look.p, look.centre, look.box) for look in looks]
    reads = [f for f in found if isinstance(f, D10)]
    if reads:
        return max(reads, key=lambda d: d.confidence)
    return next((f for f in found if f is not None), None) if sure else None


@dataclass(frozen=True)
class _Blob:
    """Something that may be one die: its outline, the outline's pose (outline_pose), and
    the middles of the dice it touches when it is a piece cut from a cluster."""

    contour: np.ndarray
    pose: tuple
    neighbours: tuple[tuple[float, float], ...] = ()


def _one_die(contour: np.ndarray, neighbours: tuple[tuple[float, float], ...] = ()) -> _Blob | None:
    pose = outline_pose(contour)
    return _Blob(contour, pose, neighbours) if pose[3] <= MAX_ELONGATION else None


def _looks(frame_bgr: np.ndarray, blobs: list[_Blob]) -> list[Look]:
    """The networks' answers for blobs, each cut by its pose, all in one call."""
    if not blobs:
        return []
    patches = np.stack([face_patch(frame_bgr, *b.pose[:3]) for b in blobs])
    return [Look(p, b.pose[0], _box(b.contour)) for b, p in zip(blobs, classifier.probabilities(patches))]


def _blobs(frame_bgr: np.ndarray, difference: TableDifference, area: np.ndarray | None,
           die_px: float | None) -> tuple[list[_Blob], list[Look]]:
    """Everything that may be one die, with the first look at it: die-sized blobs, then
    the pieces of dice touching (clusters, blobs too long for one die, and die-sized
    blobs the first look says are no d10)."""
    lone, clusters = blob_outlines(difference, area, die_px)
    blobs = []
    for contour in lone:
        blob = _one_die(contour)
        if blob is None:
            clusters.append(contour)
        else:
            blobs.append(blob)
    looks = _looks(frame_bgr, blobs)
    clusters += [b.contour for b, look in zip(blobs, looks) if look.p[classifier.NOT_D10] > 1.0 - LOOK_AGAIN]
    pieces = [piece for cluster in clusters for contour, touching in touching_dice(cluster, die_px)
              if (piece := _one_die(contour, touching)) is not None]
    return blobs + pieces, looks + _looks(frame_bgr, pieces)


def _more_cuts(frame_bgr: np.ndarray, blob: _Blob, difference: TableDifference) -> Iterator[_Blob]:
    """Further cuts of a blob that may be a d10: by the whole die's outline, and turned
    by its number's own axis; the same with shadows cut out of the blob too."""
    seen: list[np.ndarray] = []
    for shadow_out_of_blob in (False, True):
        whole = whole_die(blob.contour, difference, shadow_out_of_blob, blob.neighbours)
        cut = _one_die(whole)
        if cut is None or any(np.array_equal(whole, s) for s in seen):
            continue
        seen.append(whole)
        yield cut
        turn = number_turn(face_patch(frame_bgr, *cut.pose[:3]))
        if turn is not None:
            centre, angle, length, ratio = cut.pose
            yield _Blob(whole, (centre, angle + turn, length, ratio))


def read_d10(frame_bgr: np.ndarray, calibration: Calibration | None = None) -> TableRead:
    """Ten-sided dice in a BGR frame (inside the play area when a Calibration is given;
    one made for frames of another size is a FrameMismatch, since its play area and
    die size would be read off the wrong pixels). Dice are looked for a little past
    the play area's edge (Calibration.mask(past_edge)), so that a die lying across it
    is seen whole and refused as the d6 reader refuses one; cut off at the edge, its
    part inside could be read, even as another number.

    A thing as compact as one die but too long for one (find.oversized) is looked at
    again in a copy of the frame shrunk to bring it to WORKING_LENGTH, the middle of
    the sizes the networks learnt: the reader's pixel sizes (the table window, the
    longest die) hold for dice up to about 130 pixels. What the copy finds there
    stands where the frame itself found nothing (dice touching in a square are read
    at the frame's own size)."""
    frame_bgr = checked_frame(frame_bgr, calibration, min_side=32)
    if (refusal := grey_refusal(frame_bgr, "d10", "d10 dice")) is not None:
        return refusal
    area = calibration.mask(frame_bgr.shape, past_edge=True) if calibration is not None else None
    die_px = calibration.die_px if calibration is not None else None
    difference = table_difference(frame_bgr)
    read = _read(frame_bgr, difference, area, die_px, calibration)
    close = [(outline, length) for outline, length in oversized(difference, area, die_px)
             if not any(_within(item.center, outline) for item in read.d10 + read.unreadable)]
    if not close:
        return read
    small, small_calibration = shrunk(frame_bgr, calibration, WORKING_LENGTH / float(np.median([n for _, n in close])))
    if min(small.shape[:2]) < 32:
        return read
    closer = read_in_frame(read_d10(small, small_calibration), small.shape, frame_bgr.shape)

    def seen_close(item) -> bool:
        return any(_within(item.center, outline) for outline, _ in close)

    return TableRead(d10=read.d10 + tuple(filter(seen_close, closer.d10)),
                     unreadable=read.unreadable + tuple(filter(seen_close, closer.unreadable)))


def _within(point: tuple[float, float], outline: np.ndarray) -> bool:
    return cv2.pointPolygonTest(outline.astype(np.float32), point, False) >= 0


def _read(frame_bgr: np.ndarray, difference: TableDifference, area: np.ndarray | None,
          die_px: float | None, calibration: Calibration | None) -> TableRead:
    """The dice read at the frame's own size."""
    blobs, firsts = _blobs(frame_bgr, difference, area, die_px)
    more = [list(_more_cuts(frame_bgr, blob, difference)) if 1.0 - first.p[classifier.NOT_D10] >= LOOK_AGAIN else []
            for blob, first in zip(blobs, firsts)]
    later = iter(_looks(frame_bgr, [cut for cuts in more for cut in cuts]))  # all in one network call
    looks = [[first] + [next(later) for _ in cuts] for first, cuts in zip(firsts, more)]
    dice: list[D10] = []
    unreadable: list[Unreadable] = []
    for blob, found in zip(blobs, map(judge_looks, looks)):
        if found is None:
            continue
        # Cut by the play area's or the frame's edge, part of the number can pass for
        # another (a 6 for a 9, an 8 for a 0: docs/vision-cards-d10.md): refused, as
        # the d6 reader refuses.
        assert found.box is not None  # judge_looks gives every refusal its look's box
        placed = in_play(calibration, found, box_corners(found.box), "d10", "die")
        if placed is None:
            continue
        if placed is found and outline_overhang(blob.contour, frame_bgr.shape) > EDGE_OVERHANG:
            placed = Unreadable("d10", found.center, "die lies across the edge of the view", found.box)
        found = placed
        if isinstance(found, D10):
            dice.append(found)
        elif isinstance(found, Unreadable):
            unreadable.append(found)
    return TableRead(d10=tuple(dice), unreadable=tuple(unreadable))
