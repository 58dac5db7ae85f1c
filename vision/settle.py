"""Knowing when to read: from a stream of frames, are the dice still rolling, is a
hand or the shaker over the table, or has everything come to rest?

Cheap by design (it runs on every camera frame on a Pi): each frame is shrunk to a
thumbnail, compared with the previous thumbnail (motion) and with the empty table
(what is there). A large object is a hand or the shaker, however still it is held;
small moving ones are dice rolling; the table is settled only after a few frames in
a row without motion, so one frame where a tumbling die happens to look still does
not trigger a read."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibration import Calibration, checked_frame

THUMB = 96  # thumbnail width, pixels
MOTION_LEVEL = 18  # grey-level change that counts as a pixel moving
PRESENCE_LEVEL = 28  # Lab difference from the empty table that counts as an object
MIN_OBJECT_PIXELS = 3
STATES = ("rolling", "hand", "settled", "empty")


@dataclass(frozen=True)
class SettleState:
    state: str  # one of STATES
    motion: float  # fraction of the play area that changed since the previous frame
    coverage: float  # fraction of the play area covered by objects
    largest: float  # fraction of the play area covered by the largest single object
    still_frames: int  # consecutive frames without motion, this one included


class SettleDetector:
    """Feed frames one at a time with `update(frame)`; each call returns a SettleState.

    The empty table is taken from `empty_table` when given, otherwise from the first
    frame fed (start the detector before the dice are thrown), and it follows slow
    light changes while the table stays empty. A first frame with a hand or a cup over
    the table would leave that hand in the "empty" table for good, and the table would
    never be seen to settle: so a large object that stays perfectly still for
    `relearn_frames` frames (hands tremble; three seconds at 30 fps) is taken to be the
    table itself, and that frame becomes the empty table.

    With a calibration every frame (and `empty_table`) must be of its frame size, or
    FrameMismatch is raised and nothing changes: its play area would lie elsewhere.
    Without one, a frame of another shape (a camera reopened at another resolution)
    starts the detector afresh, as its first frame, rather than failing on every frame
    from then on: what it learnt of the old view, and an `empty_table` that does not
    fit, is dropped. A frame of the same shape at another resolution is no change."""

    def __init__(self, calibration: Calibration | None = None, empty_table: np.ndarray | None = None,
                 still_needed: int = 3, motion_fraction: float = 0.002, hand_fraction: float = 0.035,
                 relearn_frames: int = 90):
        self.calibration = calibration
        self.still_needed = still_needed
        self.motion_fraction = motion_fraction
        self.hand_fraction = hand_fraction
        self.relearn_frames = relearn_frames
        self._area: np.ndarray | None = None
        self._edge: np.ndarray | None = None
        self._empty: np.ndarray | None = None if empty_table is None else self._thumbs(empty_table)[0]
        self._previous: np.ndarray | None = None
        self._still = 0

    def _thumbs(self, frame_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Lab and grey thumbnails of a frame; NotAnImage (FrameMismatch for the wrong
        size when calibrated) before anything is changed."""
        checked_frame(frame_bgr, self.calibration)
        h, w = frame_bgr.shape[:2]
        size = (THUMB, max(1, round(THUMB * h / w)))
        small = cv2.GaussianBlur(cv2.resize(frame_bgr, size, interpolation=cv2.INTER_AREA), (3, 3), 0)
        return cv2.cvtColor(small, cv2.COLOR_BGR2LAB), cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)

    def _start(self, shape: tuple[int, ...], lab: np.ndarray) -> None:
        """Take this frame as the first: the play area drawn for its thumbnail, no
        previous frame, and it is the empty table unless one of its shape was given."""
        h, w = shape[:2]
        full = self.calibration.mask(shape) if self.calibration is not None else np.full((h, w), 255, np.uint8)
        area = cv2.resize(full, lab.shape[1::-1], interpolation=cv2.INTER_NEAREST)
        inner = cv2.erode(area, np.ones((3, 3), np.uint8), borderType=cv2.BORDER_CONSTANT, borderValue=0)
        self._area, self._edge = area > 0, (area > 0) & (inner == 0)
        if self._empty is None or self._empty.shape != lab.shape:
            self._empty = lab
        self._previous = None
        self._still = 0

    def update(self, frame_bgr: np.ndarray) -> SettleState:
        """The state after this frame; a frame that is not a picture raises
        NotAnImage and leaves the detector as it was."""
        lab, grey = self._thumbs(frame_bgr)
        if self._area is None or self._area.shape != grey.shape:
            self._start(frame_bgr.shape, lab)
        area, empty = self._area, self._empty
        assert area is not None and empty is not None  # both set by _start
        n = max(int(area.sum()), 1)
        moved = 0.0
        if self._previous is not None:
            moved = float(((cv2.absdiff(grey, self._previous) > MOTION_LEVEL) & area).sum()) / n
        self._previous = grey
        present = (cv2.absdiff(lab, empty).max(axis=2) > PRESENCE_LEVEL) & area
        count, labels, stats, _ = cv2.connectedComponentsWithStats(present.astype(np.uint8))
        sizes = stats[1:, cv2.CC_STAT_AREA]
        real = sizes >= MIN_OBJECT_PIXELS  # single pixels are sensor noise, not dice
        coverage = float(sizes[real].sum()) / n
        largest = float(sizes[real].max()) / n if real.any() else 0.0
        # An arm reaches in across the edge of the play area; a die never does that
        # while being big.
        at_edge = np.unique(labels[self._edge]) if count > 1 else np.zeros(0, np.int32)
        reaching = max((sizes[i - 1] for i in at_edge if i), default=0) / n
        self._still = self._still + 1 if moved < self.motion_fraction else 0
        if largest > self.hand_fraction and self._still >= self.relearn_frames:
            self._empty = lab  # still for seconds: not a hand, but the table as it is now
            return self._relearnt(moved)
        if largest > self.hand_fraction or reaching > self.hand_fraction / 4:
            state = "hand"
        elif coverage == 0 and self._still:
            state = "empty"
        elif self._still < self.still_needed:
            state = "rolling"
        else:
            state = "settled"
        if state == "empty":
            # Follow slow light drift only while nothing is on the table.
            self._empty = cv2.addWeighted(empty, 0.9, lab, 0.1, 0)
        return SettleState(state, round(moved, 5), round(coverage, 5), round(largest, 5), self._still)

    def _relearnt(self, moved: float) -> SettleState:
        """The state of a frame just taken as the empty table."""
        return SettleState("empty", round(moved, 5), 0.0, 0.0, self._still)
