"""A camera set to grey (or an infrared night mode): the d6 networks read such frames
with confident wrong values (docs/vision.md, "Weak colour"), so the whole view is
refused with the reason, and frames with any colour at all are read as before."""

import json
from pathlib import Path

import cv2
import numpy as np

from vision.dice import read_dice
from vision.dice.reader import GREY_SPREAD, is_grey

FIXTURES = Path(__file__).resolve().parents[1] / "calibration_images" / "dice"
LABELS = json.loads((FIXTURES / "labels.json").read_text())


def _fixture(n: int = 0) -> np.ndarray:
    return cv2.imread(str(FIXTURES / "images" / sorted(LABELS)[n]))


def _grey(frame: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def test_a_grey_frame_is_one_refusal_for_the_whole_view():
    frame = _fixture()
    assert read_dice(frame).dice  # in colour, dice are read
    read = read_dice(_grey(frame))
    assert read.dice == ()
    (refusal,) = read.unreadable
    assert "no colour" in refusal.reason and "set the camera to colour" in refusal.reason
    assert refusal.box == (0.0, 0.0, float(frame.shape[1]), float(frame.shape[0]))


def test_grey_survives_jpeg_and_is_told_at_any_size():
    for frame in (_fixture(1), cv2.resize(_fixture(2), (1280, 720))):
        grey = _grey(frame)
        ok, encoded = cv2.imencode(".jpg", grey, [cv2.IMWRITE_JPEG_QUALITY, 60])
        assert ok and is_grey(cv2.imdecode(encoded, cv2.IMREAD_COLOR))
        assert is_grey(grey)


def test_faint_colour_anywhere_is_colour():
    """A nearly grey scene from a colour camera (white dice on a grey cloth) must
    still be read: colour a few levels past the limit in one small corner counts."""
    grey = _grey(_fixture())
    assert is_grey(grey)
    tinted = grey.copy()
    tinted[:24, :24, 2] = np.clip(tinted[:24, :24, 2].astype(int) + GREY_SPREAD + 2, 0, 255)
    assert not is_grey(tinted)
    assert not is_grey(_fixture())


def test_every_dice_fixture_in_colour_is_read_not_refused_as_grey():
    for name in sorted(LABELS):
        frame = cv2.imread(str(FIXTURES / "images" / name))
        assert not is_grey(frame), name
