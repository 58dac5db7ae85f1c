"""Automatic play-area finding on rendered tables: a tray's floor (plus a die-wide
margin) with dice on it, and a plain table that is all play area."""

import cv2
import numpy as np
import pytest

from tools.render.scene import SceneDie, draw_die, finish, table
from vision.image_io import NotAnImage
from vision.play_area import calibrate, play_area_polygon


def _iou(poly: np.ndarray, rect: tuple, size: int) -> float:
    a = np.zeros((size, size), np.uint8)
    cv2.fillPoly(a, [np.round(poly).astype(np.int32)], 1)
    b = np.zeros_like(a)
    x0, y0, x1, y1 = (int(v) for v in rect)
    b[y0:y1 + 1, x0:x1 + 1] = 1
    return float((a & b).sum()) / float((a | b).sum())


def test_tray_floor_is_found_despite_dice_on_it():
    rng = np.random.default_rng(5)
    img, area = table(rng, 480, tray=True)
    for i, (x, y) in enumerate([(150, 150), (300, 200), (200, 330)]):
        draw_die(img, SceneDie(i + 1, x, y, 26, 20.0 * i, (40, 40, 200), (240, 240, 240)), rng)
    frame = finish(img, rng)
    poly = play_area_polygon(frame)
    assert _iou(poly, area, 480) > 0.75
    # The rim is outside: its middle must not be in the area.
    rim = (area[0] / 3, 240)
    assert cv2.pointPolygonTest(poly.reshape(-1, 1, 2), rim, False) < 0


def test_plain_table_is_nearly_all_play_area():
    rng = np.random.default_rng(6)
    img, area = table(rng, 320, tray=False)
    poly = play_area_polygon(finish(img, rng))
    assert _iou(poly, area, 320) > 0.85


def test_calibrate_measures_the_dice_or_keeps_the_given_size():
    rng = np.random.default_rng(7)
    img, _ = table(rng, 640, tray=True)
    frame = finish(img, rng)
    given = calibrate(frame, die_px=31.0)
    assert given.die_px == 31.0 and given.frame_size == (640, 640)
    polygon = np.array(given.area)
    # Clockwise in image coordinates: positive shoelace sum.
    assert np.sum(polygon[:, 0] * np.roll(polygon[:, 1], -1) - np.roll(polygon[:, 0], -1) * polygon[:, 1]) > 0
    assert calibrate(frame).die_px is None  # no dice in the picture: size unknown, not invented


def test_a_strip_too_thin_for_a_frame_is_refused_in_words():
    with pytest.raises(NotAnImage):
        calibrate(np.zeros((3, 2000, 3), np.uint8))


def _tray_with_dice(grain: float) -> np.ndarray:
    rng = np.random.default_rng(7)
    img, _ = table(rng, 640, tray=True)
    for i, (x, y) in enumerate([(250, 250), (350, 300), (300, 400)]):
        draw_die(img, SceneDie(i + 1, x, y, 40, 20.0 * i, (40, 40, 200), (240, 240, 240)), rng)
    frame = finish(img, rng)
    return np.clip(frame + np.random.default_rng(0).normal(0, grain, frame.shape), 0, 255).astype(np.uint8)


def test_a_view_the_dice_reader_refuses_gives_no_die_size_and_says_why():
    """The reader's refusal of a grainy view is one Unreadable the size of the frame:
    it is no die, and measuring it made the die as big as the view."""
    from vision.play_area import calibrate_and_say

    assert 30 < calibrate(_tray_with_dice(0)).die_px < 45
    calibration, why = calibrate_and_say(_tray_with_dice(25))
    assert calibration.die_px is None
    assert why.startswith("the dice reader refused the view: the picture is too grainy")
    assert calibrate_and_say(_tray_with_dice(0), die_px=31.0) == (calibrate(_tray_with_dice(0), 31.0), "")


@pytest.mark.parametrize("shape", [(16, 3000, 3), (3000, 40, 3), (60, 1600, 3)])
def test_a_long_narrow_strip_is_refused_in_words_not_crashed_on(shape):
    """Past the checks every reader makes: 16 pixels high, but one row at the size the
    search runs at (a crash), or a few rows (a polygon with no inside)."""
    with pytest.raises(NotAnImage, match="times as long as it is wide"):
        calibrate(np.full(shape, 120, np.uint8))
    assert len(calibrate(np.full((100, 1600, 3), 120, np.uint8)).area) >= 3


@pytest.mark.parametrize("name", ["IMG_20191208_111228.jpg", "IMG_20191208_111246.jpg", "IMG_20191208_111411.jpg",
                                  "IMG_20191208_111548.jpg", "IMG_20191208_111530.jpg"])
def test_dice_crowding_a_tray_wall_are_inside_the_area_calibrated_with_them(dice_photos, name):
    """The search sees only dice where they line a wall; the floor goes on under them.
    Calibrated on themselves these photos of a tray cut 4 to 14 labelled dice each, and
    the reader refused them as lying across the edge of the play area."""
    import json

    from vision.dice import read_dice
    from vision.image_io import load_bgr

    frame = load_bgr(dice_photos / "images" / name)
    calibration = calibrate(frame)
    for die in json.loads((dice_photos / "labels.json").read_text())[name]["dice"]:
        x0, y0, x1, y1 = die["box"]
        assert all(calibration.contains(p) for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))), die
    assert not [u for u in read_dice(frame, calibration).unreadable if "edge of the play area" in u.reason]
    if name == "IMG_20191208_111530.jpg":  # a die thrown out of the tray, on the table below it, stays out
        assert not calibration.contains((117.7, 576.7))
