"""A camera set to grey (or an infrared night mode): the d6 networks read such frames
with confident wrong values, and the other readers miss many of their objects
(docs/vision.md, "Weak colour"), so every such reader refuses the whole view with the
reason (the table's d6 reader then reads with the learned one, tests/test_dice_seen.py),
and frames with any colour at all are read as before."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.cards import read_cards
from vision.colour import GREY_SPREAD, is_grey
from vision.d10 import read_d10
from vision.dice import read_dice
from vision.dominoes import read_dominoes
from vision.read import read_table

IMAGES = Path(__file__).resolve().parents[1] / "calibration_images"
# Each reader, the kind of its refusals, the field of its reads and its fixture set.
READERS = [(read_dice, "die", "dice", "dice"), (read_d10, "d10", "d10", "d10"),
           (read_dominoes, "domino", "dominoes", "dominoes"), (read_cards, "card", "cards", "cards")]


def _fixture(n: int = 0, kind: str = "dice") -> np.ndarray:
    return cv2.imread(str(IMAGES / kind / "images" / sorted(json.loads((IMAGES / kind / "labels.json").read_text()))[n]))


def _grey(frame: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


@pytest.mark.parametrize("reader, kind, field, fixtures", READERS, ids=[r[2] for r in READERS])
def test_a_grey_frame_is_one_refusal_for_the_whole_view(reader, kind, field, fixtures):
    frame = _fixture(0, fixtures)
    assert getattr(reader(frame), field)  # in colour, its objects are read
    read = reader(_grey(frame))
    assert read == type(read)(unreadable=read.unreadable)
    (refusal,) = read.unreadable
    assert refusal.kind == kind
    assert "no colour" in refusal.reason and "set the camera to colour" in refusal.reason
    assert refusal.box == (0.0, 0.0, float(frame.shape[1]), float(frame.shape[0]))


def test_reading_everything_on_a_grey_frame_gives_each_reader_s_refusal():
    """Whole-view refusals are no objects, so none is dropped as part of another's. The
    table's d6 reader reads a grey frame with the learned reader instead (vision.dice_seen,
    trained on grey webcam photos): no die lies on this card table, and none is read (it
    may refuse a card's pip it is not sure is no die: a re-roll, never a value)."""
    frame = _grey(_fixture(0, "cards"))
    read = read_table(frame)
    whole = [u for u in read.unreadable if u.kind != "die"]
    assert sorted(u.kind for u in whole) == sorted(kind for _, kind, _, _ in READERS if kind != "die")
    assert all("set the camera to colour" in u.reason for u in whole)
    assert all(u.box is not None and (u.box[2] - u.box[0]) < frame.shape[1] / 2 for u in read.unreadable
               if u.kind == "die"), "the d6 reader refuses no whole view of a grey frame"
    assert (read.dice, read.d10, read.dominoes, read.cards, read.face_down) == ((), (), (), (), ())


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


def test_no_fixture_in_colour_is_taken_for_grey():
    frames = sorted(IMAGES.glob("*/images/*.*")) + sorted(IMAGES.glob("sessions/*/frames/*.*"))
    assert len(frames) > 150
    for path in frames:
        assert not is_grey(cv2.imread(str(path))), path.name
