"""Calibrations that make no sense are refused when made or loaded, with the file
named, never left for the readers to crash on or to read nothing from."""

import json
import math

import pytest

from table import serial
from table.reads import D10, Card, Unreadable
from vision.calibration import PAST_EDGE, BadCalibration, Calibration, box_corners, boxes_in_play, in_play
from vision.resized_read import calibration_for

SQUARE = ((0.0, 0.0), (639.0, 0.0), (639.0, 639.0), (0.0, 639.0))


@pytest.mark.parametrize("frame_size, area, die_px, words", [
    ((640, 640), (), None, "at least 3 corners"),
    ((640, 640), ((0.0, 0.0), (639.0, 0.0)), None, "at least 3 corners"),
    ((640, 640), ((0.0, 0.0), (float("nan"), 0.0), (639.0, 639.0)), None, "finite"),
    ((640, 640), ((0.0, 0.0), (1e12, 0.0), (639.0, 639.0)), None, "far outside"),
    ((640, 640), ((700.0, 700.0), (900.0, 700.0), (900.0, 900.0)), None, "outside the 640x640 frame"),
    ((640, 640), ((10.0, 10.0), (20.0, 20.0), (30.0, 30.0)), None, "enclose no area"),
    ((640, 640), SQUARE, float("nan"), "between 4.0 and 320.0 pixels"),
    ((640, 640), SQUARE, -5.0, "between 4.0 and 320.0 pixels"),
    ((640, 640), SQUARE, 0.5, "between 4.0 and 320.0 pixels"),
    ((640, 640), SQUARE, 1e9, "between 4.0 and 320.0 pixels"),
    ((640, 640), SQUARE, True, "between"),
    ((0, -4), SQUARE, 30.0, "frame_size"),
    ((640.5, 640), SQUARE, 30.0, "frame_size"),
])
def test_a_calibration_that_makes_no_sense_is_refused_when_made(frame_size, area, die_px, words):
    with pytest.raises(BadCalibration, match=words):
        Calibration(frame_size, area, die_px)


def test_a_sensible_calibration_is_made_and_round_trips(tmp_path):
    calibration = Calibration((640, 480), ((0.0, 0.0), (640.0, 0.0), (640.0, 480.0), (0.0, 480.0)), 30.0)
    calibration.save(tmp_path / "cal.json")
    assert Calibration.load(tmp_path / "cal.json") == calibration
    assert Calibration((640, 480), calibration.area).die_px is None


def test_readers_look_past_the_play_area_by_a_band_round_it_and_ask_whether_it_holds_a_thing():
    """The d10 and domino readers find things in the area and in a band round it, so
    that what lies across the edge is seen whole, and refused because the area does not
    hold all its corners."""
    calibration = Calibration((640, 480), ((100.0, 100.0), (400.0, 100.0), (400.0, 300.0), (100.0, 300.0)))
    area, seen = calibration.mask((480, 640, 3)), calibration.mask((480, 640, 3), past_edge=True)
    reach = PAST_EDGE * math.sqrt(640 * 480)  # about 69 pixels
    assert area[200, 250] == seen[200, 250] == 255 and (seen >= area).all()
    assert area[200, 98] == 0 and seen[200, round(100 - reach + 2)] == 255 and seen[200, round(100 - reach - 2)] == 0
    assert seen[round(300 + reach - 2), 250] == 255 and seen[round(300 + reach + 2), 250] == 0
    # Round the corners by a disc, not a square: the band is as wide there as along a side.
    near, far = round(100 - 0.65 * reach), round(100 - 0.75 * reach)  # 0.92 and 1.06 reaches from the corner
    assert seen[near, near] == 255 and seen[far, far] == 0
    assert calibration.holds((100.0, 100.0), (400.0, 300.0), (250.0, 200.0))
    assert not calibration.holds((250.0, 200.0), (401.0, 200.0))
    assert calibration.holds(*box_corners((100.0, 100.0, 400.0, 300.0)))
    assert not calibration.holds(*box_corners((99.0, 150.0, 200.0, 250.0)))


def test_a_band_of_a_given_reach_is_as_wide_as_asked():
    """Cards are longer than dice and tiles: the card reader asks for a wider band."""
    calibration = Calibration((640, 480), ((200.0, 150.0), (450.0, 150.0), (450.0, 330.0), (200.0, 330.0)))
    seen = calibration.mask((480, 640, 3), past_edge=True, reach=150)
    assert seen[250, 200 - 148] == 255 and seen[250, 200 - 152] == 0
    assert seen[250, 450 + 148] == 255 and seen[250, 450 + 152] == 0
    assert (calibration.mask((480, 640), reach=150) == calibration.mask((480, 640))).all()  # no band asked for


def test_a_thing_is_in_play_whole_refused_across_the_edge_or_not_reported():
    """One rule for every reader: what the area holds is reported as read, what it holds
    the middle of only is refused with the reason, what has its middle outside is not
    reported; without a calibration everything is reported as read."""
    # A play area turned 45 degrees, and cards turned 45 degrees in it.
    calibration = Calibration((640, 480), ((250.0, 50.0), (450.0, 250.0), (250.0, 450.0), (50.0, 250.0)))

    def card(y: float) -> tuple[Card, list[tuple[float, float]]]:
        box = (210.0, y - 40, 290.0, y + 40)
        return Card("7", "S", (250.0, y), box, 45.0, 0.9), [(250.0, y - 40), (290.0, y), (250.0, y + 40), (210.0, y)]

    (inside, inside_corners), (near, near_corners) = card(250.0), card(100.0)
    (across, across_corners), (outside, outside_corners) = card(80.0), card(20.0)
    assert in_play(calibration, inside, inside_corners, "card", "card") is inside
    # Its own corners decide, not its box's, which stand past the edge here.
    assert not calibration.holds(*box_corners(near.box)) and in_play(calibration, near, near_corners, "card", "card") is near
    assert in_play(calibration, across, across_corners, "card", "card") == Unreadable(
        "card", (250.0, 80.0), "card lies across the edge of the play area", across.box)
    assert in_play(calibration, outside, outside_corners, "card", "card") is None
    assert in_play(None, outside, outside_corners, "card", "card") is outside


def test_reads_and_refusals_judged_by_their_boxes_come_back_in_play_and_in_order():
    """The learned readers' rule: a read the area holds stays, one across its edge becomes
    a refusal, one whose middle is outside goes, and so does such a refusal; each list
    sorted top to bottom, then left to right."""
    calibration = Calibration((640, 480), ((100.0, 100.0), (500.0, 100.0), (500.0, 400.0), (100.0, 400.0)))

    def die(x: float, y: float) -> D10:
        return D10(3, (x, y), (x - 20, y - 20, x + 20, y + 20), 0.99)

    low, high, across, outside = die(300, 300), die(200, 150), die(110, 250), die(50, 50)
    unsure, unsure_outside = (Unreadable("d10", (400.0, 200.0), "not sure", (380.0, 180.0, 420.0, 220.0)),
                              Unreadable("d10", (600.0, 50.0), "not sure", (580.0, 30.0, 620.0, 70.0)))
    kept, refused = boxes_in_play(calibration, [low, across, high, outside], [unsure_outside, unsure], "d10", "die")
    assert kept == [high, low]
    assert refused == [unsure, Unreadable("d10", (110, 250), "die lies across the edge of the play area", across.box)]
    assert boxes_in_play(None, [low, outside], [unsure_outside], "d10", "die") == ([outside, low], [unsure_outside])


@pytest.mark.parametrize("factor", [0.1, 0.37, 0.5, 1.5, 2.0])
def test_a_calibration_at_the_smallest_die_stays_one_when_the_readers_resize_it(factor):
    """The readers resize a frame and its calibration together; the bounds are
    fractions of the mean side so a calibration that loads is never refused there."""
    shape = (720, 1280, 3)
    smallest = Calibration((1280, 720), ((0.0, 0.0), (1279.0, 0.0), (1279.0, 719.0)), 6.0)
    small_shape = (round(720 * factor), round(1280 * factor), 3)
    assert calibration_for(smallest, small_shape, shape).die_px > 0


@pytest.mark.parametrize("text, words", [
    ('{"@type":"calibration","frame_size":[640,640],"area":[],"die_px":null}',
     "at least 3 corners"),
    ('{"@type":"calibration","frame_size":[640,640],'
     '"area":[[0,0],[639,0],[639,639],[0,639]],"die_px":NaN}', "a die face is between"),
    ('{"@type":"calibration","frame_size":[0,-4],'
     '"area":[[0,0],[639,0],[639,639],[0,639]],"die_px":30}', "frame_size"),
    ("garbage", "not JSON"),
    ("[1, 2]", "not Calibration"),
])
def test_a_bad_calibration_file_is_a_corrupt_record_naming_the_file(tmp_path, text, words):
    path = tmp_path / "cal.json"
    path.write_text(text)
    with pytest.raises(serial.CorruptRecord, match=f"^{path}: .*{words}"):
        Calibration.load(path)


@pytest.mark.parametrize("make, words", [
    (lambda path: path.write_bytes(b"\xff\xfe\x00binary"), "not a calibration file \\(not text\\)"),
    (lambda path: path.mkdir(), "cannot read the calibration \\(Is a directory\\)"),
    (lambda path: None, "cannot read the calibration \\(No such file"),
])
def test_a_file_that_cannot_be_read_as_text_is_a_corrupt_record_naming_it(tmp_path, make, words):
    path = tmp_path / "cal.json"
    make(path)
    with pytest.raises(serial.CorruptRecord, match=f"^{path}: {words}"):
        Calibration.load(path)


def test_a_recording_holding_a_bad_calibration_does_not_decode():
    """Recordings keep the calibration in use; decoding one builds the dataclass, so a
    damaged one fails in words there, not as a crash in a replay's reads."""
    data = serial.to_data(Calibration((640, 640), SQUARE, 30.0))
    data["die_px"] = 1e9
    with pytest.raises(serial.CorruptRecord, match="a die face is between"):
        serial.loads(json.dumps(data), Calibration)
