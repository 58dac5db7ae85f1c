"""Where the play area is and how big a die looks, found once per table set-up.

Readers take an optional Calibration: without one they read the whole frame, with
one they read only inside the play area and know the die size, which lets them
refuse objects that are far too big or small to be dice."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from numbers import Integral, Real
from pathlib import Path
from typing import Protocol, TypeVar

import cv2
import numpy as np

from table import serial
from table.reads import Box, Point, TableRead, Unreadable, UnreadableKind
from vision.image_io import NotAnImage, checked_bgr

# A die face is between these fractions of the frame's mean side, sqrt(width * height):
# 4 to 320 pixels in the 640x640 frames the readers were tuned on. Fractions, not
# pixels, because the readers resize a frame and its calibration together
# (vision.resized_read), and the mean side shrinks no less than the die does.
SMALLEST_DIE = 1 / 160
LARGEST_DIE = 1 / 2
# How far past the play area's edge a reader that finds things by their outline looks,
# as a share of the frame's mean side (80 pixels at 640x640: more than half the longest
# d10 the reader takes, and half the length of tiles up to 80 pixels wide). Cut off at
# the edge itself, a d10 or a tile shows only its part inside, which can be read as
# another number or tile; seen whole, it is known to lie across the edge.
PAST_EDGE = 1 / 8


class BadCalibration(ValueError):
    """A calibration that makes no sense: with no play area, a corner at NaN or a die
    as big as the frame the readers would crash, or read nothing without a word of why.
    Refused when one is made or decoded, so a bad file fails when it is loaded."""


class FrameMismatch(NotAnImage):
    """A frame of another size than the calibration was made for: its play area and
    die size would be read off the wrong pixels, and most dice would be missed with no
    word of why. A bad frame for this
    calibration, so it is handled wherever a bad frame is."""


@dataclass(frozen=True)
class Calibration:
    frame_size: tuple[int, int]  # (width, height) of the frames it was made from
    area: tuple[tuple[float, float], ...]  # play-area polygon, pixels, clockwise
    die_px: float | None = None  # typical side of a d6 top face in pixels

    def __post_init__(self) -> None:
        _check_frame_size(self.frame_size)
        _check_area(self.area, self.frame_size)
        _check_die(self.die_px, self.frame_size)

    def check_frame(self, shape: tuple[int, ...]) -> None:
        """Raise FrameMismatch unless a frame of this shape is one the calibration fits."""
        height, width = shape[:2]
        if (width, height) != tuple(self.frame_size):
            raise FrameMismatch(f"the calibration was made on {self.frame_size[0]}x{self.frame_size[1]} frames, "
                                f"this one is {width}x{height}: calibrate again for this camera setting")

    def mask(self, shape: tuple[int, ...], past_edge: bool = False, reach: float | None = None) -> np.ndarray:
        """uint8 mask (255 inside the play area) for an image of the given shape; with
        `past_edge`, of the area and a band round it, `reach` pixels wide (by default
        PAST_EDGE of the mean side), so that what lies across the edge is seen whole,
        for `holds` to tell. Things longer than dice and tiles (cards) need more reach."""
        mask = np.zeros(shape[:2], np.uint8)
        corners = [np.round(np.array(self.area)).astype(np.int32)]
        cv2.fillPoly(mask, corners, 255)
        if past_edge:  # a thick line has round ends: the area grown by a disc
            reach = round(PAST_EDGE * math.sqrt(shape[0] * shape[1]) if reach is None else reach)
            cv2.polylines(mask, corners, True, 255, thickness=2 * reach + 1)
        return mask

    def contains(self, point: tuple[float, float]) -> bool:
        contour = np.array(self.area, np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0

    def holds(self, *points: tuple[float, float]) -> bool:
        """Whether all the points (a thing's corners) lie in the play area. The readers
        report a thing whose centre is inside but a corner is not as lying across the
        edge: only what is inside counts, and a reading of the part inside may be
        wrong (half a tile's pips read as another tile)."""
        return all(self.contains(point) for point in points)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(serial.to_data(self), indent=1))

    @staticmethod
    def load(path: str | Path) -> Calibration:
        """The calibration saved in a file; whatever is wrong with the file is a
        CorruptRecord naming it, for the commands to print as one line."""
        try:
            loaded = serial.loads(Path(path).read_text(), Calibration)
        except OSError as err:
            raise serial.CorruptRecord(f"{path}: cannot read the calibration ({err.strerror or err})") from err
        except UnicodeDecodeError as err:
            raise serial.CorruptRecord(f"{path}: not a calibration file (not text)") from err
        except serial.CorruptRecord as err:
            raise serial.CorruptRecord(f"{path}: {err}") from err
        if not isinstance(loaded, Calibration):
            raise serial.CorruptRecord(f"{path}: not a calibration file")
        return loaded


serial.register("calibration", Calibration)


class Placed(Protocol):
    """A read or refusal with a centre and (but for some refusals) a box."""

    @property
    def center(self) -> Point: ...

    @property
    def box(self) -> Box | None: ...


Read = TypeVar("Read", bound=Placed)


def box_corners(box: tuple[float, float, float, float]) -> tuple[Point, Point, Point, Point]:
    x0, y0, x1, y1 = box
    return (x0, y0), (x1, y0), (x0, y1), (x1, y1)


def in_play(calibration: Calibration | None, found: Read, corners: Sequence[Point] | np.ndarray,
            kind: UnreadableKind, thing: str) -> Read | Unreadable | None:
    """What a reader reports of `found` (a read with a centre and a box) whose own
    corners are `corners`, by the d6 reader's rule: only what lies in the play area is
    in play, and a reading of the part inside may be wrong (half a tile read as another
    tile), so a thing the area holds only the middle of is an Unreadable "<thing> lies
    across the edge of the play area", and one whose middle is outside is not reported
    (None). The corners are the thing's own, not its box's, where it may lie at any
    angle: a turned card's box stands well off it."""
    if calibration is None:
        return found
    if not calibration.contains(found.center):
        return None
    if calibration.holds(*map(tuple, corners)):
        return found
    return Unreadable(kind, found.center, f"{thing} lies across the edge of the play area", found.box)


def boxes_in_play(calibration: Calibration | None, reads: Sequence[Read], refusals: Sequence[Unreadable],
                  kind: UnreadableKind, thing: str) -> tuple[list[Read], list[Unreadable]]:
    """in_play for reads and refusals judged by their boxes' corners: what is reported,
    (reads, refusals) each sorted top to bottom, then left to right. A read across the
    edge becomes a refusal; a refusal whose middle is outside goes."""
    kept: list[Read] = []
    refused: list[Unreadable] = []
    for found in reads:
        assert found.box is not None
        placed = in_play(calibration, found, box_corners(found.box), kind, thing)
        if isinstance(placed, Unreadable):
            refused.append(placed)
        elif placed is not None:
            kept.append(placed)
    for refusal in refusals:
        assert refusal.box is not None
        if in_play(calibration, refusal, box_corners(refusal.box), kind, thing) is not None:
            refused.append(refusal)
    kept.sort(key=lambda r: (r.center[1], r.center[0]))
    refused.sort(key=lambda u: (u.center[1], u.center[0]))
    return kept, refused


def in_play_area(read: TableRead, calibration: Calibration | None) -> TableRead:
    """A d6 or d10 read of the whole frame kept to the play area (vision.calibration.
    boxes_in_play: a die across its edge becomes a refusal); refusals of the whole view
    (no box) and of other kinds stay."""
    if calibration is None:
        return read
    boxed = [u for u in read.unreadable if u.box is not None]
    dice, die_refusals = boxes_in_play(calibration, read.dice, [u for u in boxed if u.kind == "die"], "die", "the die")
    d10, d10_refusals = boxes_in_play(calibration, read.d10, [u for u in boxed if u.kind == "d10"], "d10", "die")
    others = [u for u in read.unreadable if u.box is None or u.kind not in ("die", "d10")]
    return replace(read, dice=tuple(dice), d10=tuple(d10),
                   unreadable=tuple(others + die_refusals + d10_refusals))


def checked_frame(frame: object, calibration: Calibration | None, min_side: int = 16) -> np.ndarray:
    """The check every reader makes first (vision.image_io.checked_bgr), and, for a
    calibrated read, that the frame is of the size the calibration was made for."""
    frame = checked_bgr(frame, min_side)
    if calibration is not None:
        calibration.check_frame(frame.shape)
    return frame


def _check_frame_size(frame_size: object) -> None:
    if not (isinstance(frame_size, tuple) and len(frame_size) == 2 and all(
            isinstance(side, Integral) and not isinstance(side, bool) and int(side) > 0 for side in frame_size)):
        raise BadCalibration(f"frame_size is (width, height) in whole pixels, not {frame_size!r}")


def _check_area(area: object, frame_size: tuple[int, int]) -> None:
    try:
        corners = np.array(area, np.float64)
    except (TypeError, ValueError):
        corners = np.zeros((0, 0))
    if corners.ndim != 2 or corners.shape[1] != 2 or len(corners) < 3 or not np.isfinite(corners).all():
        raise BadCalibration(f"the play area needs at least 3 corners, each two finite numbers (x, y), "
                             f"not {area!r:.80}")
    size = np.array(frame_size, np.float64)
    # Corners a frame away are no slip of the hand, and would overflow the drawing of the mask.
    if (corners < -size).any() or (corners > 2 * size).any():
        raise BadCalibration(f"a corner of the play area is far outside the {frame_size[0]}x{frame_size[1]} frame")
    if (corners.max(axis=0) < 0).any() or (corners.min(axis=0) > size - 1).any():
        raise BadCalibration(f"the play area lies outside the {frame_size[0]}x{frame_size[1]} frame")
    x, y = corners[:, 0], corners[:, 1]
    if np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y) == 0:
        raise BadCalibration("the play area's corners enclose no area (they lie on one line)")


def die_bounds(frame_size: tuple[int, int]) -> tuple[float, float]:
    """The smallest and largest die face (pixels) a calibration of this frame size takes."""
    mean_side = math.sqrt(frame_size[0] * frame_size[1])
    # The slack covers float rounding when a calibration is resized with its frame.
    return SMALLEST_DIE * mean_side * (1 - 1e-9), LARGEST_DIE * mean_side


def _check_die(die_px: object, frame_size: tuple[int, int]) -> None:
    if die_px is None:
        return
    low, high = die_bounds(frame_size)
    # typeshed's numbers.Real has no __ge__, the reflection of float's "<=", though every
    # Real there is (int, float, Fraction, numpy's) compares with a float either way round.
    if isinstance(die_px, bool) or not isinstance(die_px, Real) or not low <= die_px <= high:  # type: ignore[operator]
        raise BadCalibration(f"a die face is between {low:.1f} and {high:.1f} pixels in a "
                             f"{frame_size[0]}x{frame_size[1]} frame, not {die_px!r}")
