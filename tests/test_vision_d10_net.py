"""The learned d10 reader (vision/d10/net.py): its ONNX models load and are small, its
decision reads only a sure number and refuses only a sure d10, it keeps to the play
area, refuses what is not an image, and on real photos (when ../shared is there) reads
d10s and takes no d6 for one."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from table.reads import D10, TableRead, Unreadable
from vision import dice_net
from vision.calibration import Calibration
from vision.d10 import net
from vision.d10.net import decide, read_d10_net
from vision.image_io import NotAnImage

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
FIXTURES = Path(__file__).resolve().parents[1] / "calibration_images" / "d10"


def _probs(best: int, p_best: float, p_not: float = 0.0) -> np.ndarray:
    """11 probabilities: `p_not` on "not a d10", `p_best` on class best, the rest spread."""
    p = np.full(11, (1.0 - p_best - p_not) / 9)
    p[0], p[best] = p_not, p_best
    return p


def _cand(probs, center=(50.0, 50.0)):
    x, y = center
    return {"center": center, "box": (x - 10, y - 10, x + 10, y + 10), "score": 0.9, "probs": probs}


def test_models_are_shipped_small_with_their_settings():
    cfg = json.loads(net.CONFIG.read_text())
    for part in ("detector", "face"):
        f = dice_net.MODELS / cfg[part]["file"]
        assert f.is_file() and f.stat().st_size < 2_000_000
    assert cfg["face"]["classes"] == ["not a d10", *range(10)]
    for value in (cfg["detector"]["threshold"], cfg["face"]["threshold"], cfg["face"]["not_die_threshold"],
                  cfg["face"]["sure_d10"]):
        assert 0 < value < 1


def test_only_a_sure_number_is_read_and_its_class_is_the_value_plus_one():
    dice, refused = decide([_cand(_probs(1, 0.99)), _cand(_probs(10, 0.995), (90.0, 20.0))], 0.98, 0.5, 0.9)
    assert [d.value for d in dice] == [0, 9] and refused == []
    assert all(isinstance(d, D10) for d in dice)


def test_a_sure_d10_with_an_unsure_number_is_refused_with_both_numbers_named():
    dice, refused = decide([_cand(_probs(7, 0.6))], 0.98, 0.5, 0.9)
    assert dice == [] and len(refused) == 1
    assert isinstance(refused[0], Unreadable) and refused[0].kind == "d10" and "6: 0.60" in refused[0].reason


def test_what_may_be_no_d10_is_not_reported():
    assert decide([_cand(_probs(4, 0.3, p_not=0.6))], 0.98, 0.5, 0.9) == ([], [])
    assert decide([_cand(_probs(4, 0.5, p_not=0.3))], 0.98, 0.5, 0.9) == ([], [])  # unsure it is a d10


@pytest.mark.parametrize("size", [(480, 640), (640, 640), (200, 300), (1080, 1920)])
def test_a_frame_of_any_size_is_read_in_its_own_pixels(size):
    frame = np.full((*size, 3), (40, 110, 30), np.uint8)
    cv2.circle(frame, (size[1] // 2, size[0] // 2), min(size) // 8, (230, 230, 230), -1)
    read = read_d10_net(frame)
    assert isinstance(read, TableRead) and read.dice == () and read.cards == ()
    for d in read.d10:
        assert 0 <= d.center[0] < size[1] and 0 <= d.center[1] < size[0]


def test_bare_felt_holds_no_d10():
    assert read_d10_net(np.full((480, 640, 3), (40, 110, 30), np.uint8)) == TableRead()


@pytest.mark.parametrize("bad", [None, "frame.jpg", np.zeros((10, 10, 3), np.uint8), np.zeros((64, 64), np.float32)])
def test_something_that_is_not_a_frame_is_refused(bad):
    with pytest.raises((NotAnImage, TypeError, ValueError)):
        read_d10_net(bad)


def _fixture(name):
    labels = json.loads((FIXTURES / "labels.json").read_text())
    return cv2.imread(str(FIXTURES / "images" / name)), labels[name]["d10"]


def test_outside_the_play_area_nothing_is_read():
    frame, _ = _fixture("d10_00.jpg")
    h, w = frame.shape[:2]
    corner = Calibration(frame_size=(w, h), area=((0, 0), (40, 0), (40, 40), (0, 40)))
    assert read_d10_net(frame, corner).d10 == ()


needs_shared = pytest.mark.skipif(not (SHARED / "d10-photos").is_dir(),
                                  reason="../shared/data/d10-photos is not beside the repository")


@needs_shared
def test_real_d10_photos_are_read_and_never_read_wrong_at_the_shipped_thresholds():
    """A regression guard on every 8th photo. The shipped model was trained on all of
    them, and at the thresholds chosen on dice held out of training it reads 13 of these
    69 and refuses or drops the rest: a d10 it has not seen it does not read without
    teaching (docs/vision-cards-d10.md)."""
    labels = json.loads((SHARED / "d10-photos" / "labels.json").read_text())
    names = sorted(labels)[::8]
    right = wrong = 0
    for name in names:
        (truth,) = labels[name]["d10"]
        read = read_d10_net(cv2.imread(str(SHARED / "d10-photos" / "images" / name)))
        right += sum(d.value == truth["value"] for d in read.d10)
        wrong += sum(d.value != truth["value"] for d in read.d10)
    assert wrong == 0 and right >= 10


@pytest.mark.skipif(not (SHARED / "dice-d6-photos").is_dir(), reason="../shared/data/dice-d6-photos is not beside the repository")
def test_d6_dice_on_their_tray_are_not_read_as_d10():
    labels = json.loads((SHARED / "dice-d6-photos" / "labels.json").read_text())
    reads = 0
    for name in sorted(labels)[::10]:
        reads += len(read_d10_net(cv2.imread(str(SHARED / "dice-d6-photos" / "images" / name))).d10)
    assert reads == 0
