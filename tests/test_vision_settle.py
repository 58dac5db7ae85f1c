"""The settle detector on the rendered frame sequences in calibration_images/settle:
empty table, a hand with the shaker, dice tumbling in with motion blur, coming to
rest, a hand held still over the dice, the hand sweeping them away."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.settle import STATES, SettleDetector, SettleState

SETTLE = Path(__file__).resolve().parents[1] / "calibration_images" / "settle"
LABELS = json.loads((SETTLE / "labels.json").read_text())
SEQUENCES = sorted({entry["sequence"] for entry in LABELS.values()})


def run_sequence(sequence: str) -> list[tuple[str, SettleState]]:
    detector = SettleDetector()
    names = sorted((n for n in LABELS if LABELS[n]["sequence"] == sequence), key=lambda n: LABELS[n]["frame"])
    return [(LABELS[n]["state"], detector.update(cv2.imread(str(SETTLE / "images" / n)))) for n in names]


@pytest.mark.parametrize("sequence", SEQUENCES)
def test_every_frame_gets_its_labelled_state(sequence):
    results = run_sequence(sequence)
    assert len(results) >= 12
    assert [got.state for _, got in results] == [want for want, _ in results]


@pytest.mark.parametrize("sequence", SEQUENCES)
def test_never_settled_while_anything_moves(sequence):
    results = run_sequence(sequence)
    for want, got in results:
        if got.state == "settled":
            assert want == "settled"
            assert got.still_frames >= 3


def test_sequences_cover_every_state():
    assert {e["state"] for e in LABELS.values()} == set(STATES)


def test_a_still_hand_is_still_a_hand():
    rng = np.random.default_rng(0)
    table = np.full((240, 240, 3), 200, np.uint8)
    detector = SettleDetector(empty_table=table)
    covered = table.copy()
    covered[100:240, 60:180] = (90, 120, 170)  # an arm in from the bottom edge, held still
    states = [detector.update(np.clip(covered + rng.normal(0, 2, covered.shape), 0, 255).astype(np.uint8)).state
              for _ in range(6)]
    assert states == ["hand"] * 6


def test_noise_alone_is_an_empty_table():
    rng = np.random.default_rng(1)
    detector = SettleDetector()
    frames = [np.clip(180 + rng.normal(0, 3, (240, 320, 3)), 0, 255).astype(np.uint8) for _ in range(5)]
    assert [detector.update(f).state for f in frames] == ["empty"] * 5


def test_a_die_at_rest_settles_after_three_still_frames():
    table = np.full((240, 240, 3), 200, np.uint8)
    detector = SettleDetector(empty_table=table)
    with_die = table.copy()
    cv2.rectangle(with_die, (100, 100), (115, 115), (30, 30, 200), -1)
    moved = table.copy()
    cv2.rectangle(moved, (60, 80), (75, 95), (30, 30, 200), -1)
    states = [detector.update(f).state for f in [moved, with_die, with_die, with_die, with_die]]
    assert states == ["rolling", "rolling", "rolling", "rolling", "settled"]


def test_a_non_image_is_refused_and_changes_nothing():
    from vision.image_io import NotAnImage

    table = np.full((120, 120, 3), 200, np.uint8)
    detector = SettleDetector(empty_table=table)
    assert detector.update(table).state == "empty"
    with pytest.raises(NotAnImage):
        detector.update(np.zeros((120, 120), np.float32))
    assert detector.update(table).still_frames == 2


def test_only_the_play_area_counts():
    from vision.calibration import Calibration

    table = np.full((200, 200, 3), 200, np.uint8)
    left = Calibration(frame_size=(200, 200), area=((0, 0), (99, 0), (99, 199), (0, 199)))
    detector = SettleDetector(calibration=left, empty_table=table)
    outside = table.copy()
    cv2.rectangle(outside, (150, 90), (165, 105), (30, 30, 200), -1)  # a die right of the area
    assert [detector.update(outside).state for _ in range(4)] == ["empty"] * 4


def _with_die(table: np.ndarray) -> np.ndarray:
    frame = table.copy()
    h, w = frame.shape[:2]
    cv2.rectangle(frame, (w // 2, h // 2), (w // 2 + w // 16, h // 2 + w // 16), (30, 30, 200), -1)
    return frame


def test_a_calibrated_detector_refuses_a_frame_of_another_size_and_changes_nothing():
    from vision.calibration import Calibration, FrameMismatch

    table = np.full((200, 200, 3), 200, np.uint8)
    frames = [table, _with_die(table), _with_die(table), _with_die(table), _with_die(table)]
    calibration = Calibration((200, 200), ((0, 0), (199, 0), (199, 199), (0, 199)))
    undisturbed, detector = SettleDetector(calibration), SettleDetector(calibration)
    states = []
    for n, frame in enumerate(frames):
        if n == 3:
            with pytest.raises(FrameMismatch):
                detector.update(np.full((120, 320, 3), 90, np.uint8))
        states.append(detector.update(frame))
    assert states == [undisturbed.update(frame) for frame in frames]
    assert states[-1].state == "settled"


def test_an_empty_table_that_is_not_a_frame_is_refused_at_once():
    from vision.calibration import Calibration, FrameMismatch
    from vision.image_io import NotAnImage

    for bad in (np.zeros((120, 160), np.uint8), np.zeros((120, 160, 3)), np.zeros((8, 8, 3), np.uint8)):
        with pytest.raises(NotAnImage):
            SettleDetector(empty_table=bad)
    with pytest.raises(FrameMismatch):
        SettleDetector(Calibration((200, 200), ((0, 0), (199, 0), (199, 199))), np.zeros((120, 160, 3), np.uint8))


def test_a_frame_of_another_shape_starts_an_uncalibrated_detector_afresh():
    """A camera reopened at another resolution: the old view's thumbnails cannot be
    compared with the new one's, so the detector starts again from this frame instead
    of failing on every frame from then on."""
    small, wide = np.full((480, 640, 3), 200, np.uint8), np.full((720, 1280, 3), 200, np.uint8)
    detector = SettleDetector()
    assert [detector.update(f).state for f in (small, _with_die(small))] == ["empty", "rolling"]
    assert detector.update(wide).state == "empty"  # the new view's first frame is its empty table
    assert [detector.update(_with_die(wide)).state for _ in range(4)] == ["rolling", "rolling", "rolling", "settled"]
    assert detector.update(np.full((1440, 2560, 3), 200, np.uint8)).still_frames == 0  # same shape: carries on


def test_an_empty_table_of_another_shape_than_the_frames_is_not_compared_with_them():
    detector = SettleDetector(empty_table=_with_die(np.full((720, 1280, 3), 90, np.uint8)))
    table = np.full((480, 640, 3), 200, np.uint8)
    assert [detector.update(table).state for _ in range(2)] == ["empty", "empty"]


def test_a_detector_started_under_a_hand_relearns_the_empty_table_and_settles_again():
    """Started while a hand was over the table, the detector took the hand for the
    table, saw the bare table as a big object and never reported "settled" again."""
    rng = np.random.default_rng(2)
    table = np.full((240, 240, 3), 200, np.uint8)
    arm = table.copy()
    arm[100:240, 60:180] = (90, 120, 170)

    def noisy(frame):
        return np.clip(frame + rng.normal(0, 2, frame.shape), 0, 255).astype(np.uint8)

    detector = SettleDetector(relearn_frames=10)
    detector.update(noisy(arm))  # the first frame: taken as the empty table
    bare = [detector.update(noisy(table)).state for _ in range(12)]
    assert bare[0] == "hand" and bare[-1] == "empty"
    with_die = table.copy()
    cv2.rectangle(with_die, (100, 100), (115, 115), (30, 30, 200), -1)
    assert [detector.update(noisy(with_die)).state for _ in range(4)][-1] == "settled"
