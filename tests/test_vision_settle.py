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
