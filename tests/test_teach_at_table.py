"""Teaching the table your dice at the table (`tabletop21 teach dice` without a folder)
and correcting a round from its results screen.

The roll check itself (tabletop21.rollcheck) is pure and tested alone; the at-table run
goes through the devices `run` opens (a recorded session of photos as the camera,
gpiozero's MockFactory pins as the buttons, SDL's dummy display), presses the buttons
as an owner would, and ends with a taught file named in a temporary settings file; a
round's read corrected from its results screen is kept as a teaching example; bad input
is one line and changes nothing."""

import json
import time
from pathlib import Path

import cv2
import numpy as np
import pygame
import pytest
from gpiozero.pins.mock import MockFactory

from display.examples import all_views
from hardware.frames import CameraLost, Frame
from table.driver import Driver
from table.errors import TableError
from table.ledger import Ledger
from table.reads import D10, Card, Die, Domino, FaceDown, TableRead, Unreadable
from table.rules import HOUSE
from tabletop21.appliance import Appliance, Table
from tabletop21.cli import build_parser, main
from tabletop21.corrections import keep_example
from tabletop21.devices import open_controls
from tabletop21.evaluate import load_labels
from tabletop21.recording import Manifest, SessionReader, SessionWriter
from tabletop21.rollcheck import NO_DIE, RollCheck
from tabletop21.settings import ConfigError, GpioConfig, load_config, set_taught
from tabletop21.taught import examples_from_folder, load_taught
from tabletop21.teaching import (
    Correction,
    Corrections,
    TableTeaching,
    check_screen,
    read_kind,
    teaching_at_table,
    touch_check,
)
from tests.test_appliance import ScriptedCamera, ScriptedSettle, dice_reader
from vision.image_io import load_bgr

REPO = Path(__file__).resolve().parents[1]
RENDERED = REPO / "calibration_images" / "dice"


def die(value, x, y, side=20.0):
    return Die(value, (x + side / 2, y + side / 2), (x, y, x + side, y + side), 0.9)


# --- the roll check ---------------------------------------------------------------------------------------------

def three_dice() -> RollCheck:
    """A 4 and a 2 in a row, and an unreadable die (no box given) below them."""
    read = TableRead(dice=(die(4, 100, 10), die(2, 10, 10)),
                     unreadable=(Unreadable("die", (60.0, 80.0), "too blurred"),
                                 Unreadable("domino", (300.0, 300.0), "half hidden", (280.0, 290.0, 320.0, 310.0))))
    return RollCheck.of_read("dice", read)


def test_a_read_is_checked_top_to_bottom_left_to_right_with_the_unread_marked():
    check = three_dice()
    assert check.boxes == ((10.0, 10.0, 30.0, 30.0), (100.0, 10.0, 120.0, 30.0), (50.0, 70.0, 70.0, 90.0))
    assert check.values == (2, 4, None) and check.read == (2, 4, None)
    assert check.labels() == ("2", "4", "?") and check.selected == 0 and check.changed == (False, False, False)


def test_shake_cycles_the_selected_die_through_its_faces_then_no_die():
    check = three_dice().next()  # the 4
    seen = []
    for _ in range(4):
        check = check.cycle()
        seen.append(check.values[1])
    assert seen == [5, 6, NO_DIE, 1] and check.changed == (False, True, False)
    unread = check.next().cycle()
    assert unread.values[2] == 1 and unread.selected == 2, "an unread die starts at the first face"
    d10 = RollCheck("d10", ((0.0, 0.0, 9.0, 9.0),), (9,), (9,))
    assert [d10.cycle().values[0], d10.cycle().cycle().values[0]] == [NO_DIE, 0]


def test_next_steps_through_the_dice_and_wraps_round_to_the_first():
    check = three_dice()
    assert [check.selected, check.next().selected, check.next().next().selected,
            check.next().next().next().selected] == [0, 1, 2, 0]
    empty = RollCheck("dice", (), (), ())
    assert empty.next().message == "no die was found in this picture" and empty.cycle().values == ()


def test_a_tap_selects_a_die_and_a_second_tap_changes_it():
    check = three_dice().tap(1)
    assert check.selected == 1 and check.values == (2, 4, None)
    assert check.tap(1).values == (2, 5, None)
    assert "not one of the 3 dice" in check.tap(7).message and check.tap(7).values == check.values


def test_confirm_waits_for_every_die_then_keeps_no_die_as_none():
    check = three_dice()
    waiting, kept = check.confirm()
    assert kept is None and waiting.selected == 2 and "die 3 was not read" in waiting.message
    given = waiting.cycle().cycle()  # the unread one is a 2
    given = given.set_value(0, NO_DIE)
    done, kept = given.confirm()
    assert kept == (None, 4, 2) and done.message == ""
    nothing, kept = done.set_value(1, NO_DIE).set_value(2, NO_DIE).confirm()
    assert kept is None and "no die to keep" in nothing.message


def test_typed_values_set_the_selected_die_or_every_die():
    check = three_dice()
    one = check.typed("6")
    assert one.values == (6, 4, None) and one.selected == 1, "one value: the selected die, then the next"
    every = check.typed("1 x 3")
    assert every.values == (1, NO_DIE, 3)


@pytest.mark.parametrize("kind, bad", [("dice", 7), ("dice", 0), ("d10", 10), ("dice", True)])
def test_a_value_no_die_shows_is_refused_in_one_line_and_changes_nothing(kind, bad):
    faces = {"dice": 1, "d10": 0}
    check = RollCheck(kind, ((0.0, 0.0, 9.0, 9.0),), (faces[kind],), (faces[kind],))
    with pytest.raises(TableError) as refused:
        check.set_value(0, bad)
    assert "is no die's value" in str(refused.value) and "\n" not in str(refused.value)
    typed = check.typed(str(bad))
    assert typed.values == check.values and "no die's value" in typed.message
    with pytest.raises(TableError, match="no die's value"):
        RollCheck(kind, ((0.0, 0.0, 9.0, 9.0),), (bad,), (faces[kind],))


def test_dice_d10_domino_and_card_rounds_are_corrected_and_a_read_of_none_is_not():
    assert read_kind(TableRead(dice=(die(3, 0, 0),))) == "dice"
    assert read_kind(TableRead(unreadable=(Unreadable("d10", (5.0, 5.0), "glare"),))) == "d10"
    tile = Domino((3, 5), (50.0, 50.0), (20.0, 35.0, 80.0, 65.0), 0.0, 0.9)
    assert read_kind(TableRead(dominoes=(tile,))) == "dominoes"
    assert read_kind(TableRead(unreadable=(Unreadable("domino", (5.0, 5.0), "half hidden"),))) == "dominoes"
    assert read_kind(TableRead(unreadable=(Unreadable("card", (5.0, 5.0), "glare"),))) == "cards"
    card = Card("Q", "S", (50.0, 50.0), (30.0, 20.0, 70.0, 80.0), 0.0, 0.9)
    assert read_kind(TableRead(cards=(card,))) == "cards"
    assert read_kind(TableRead(cards=(card,), dice=(die(3, 0, 0),))) == "dice", "dice first, as ever"
    assert read_kind(TableRead(face_down=(FaceDown("card", (5.0, 5.0), (0.0, 0.0, 10.0, 10.0)),))) is None
    assert read_kind(TableRead()) is None


# --- a die the table did not find, added ----------------------------------------------------------------------------

def test_a_die_added_on_an_empty_spot_is_a_square_the_size_of_the_others_at_unread_and_selected():
    check = replace_frame(three_dice(), (200, 120)).add((150.0, 100.0))
    assert check.boxes[3] == (140.0, 90.0, 160.0, 110.0), "the median side of the others (all 20 px), centred"
    assert check.values[3] is None and check.labels()[3] == "?" and check.added == (False, False, False, True)
    assert check.selected == 3 and "Die 4 added" in check.message
    early = replace_frame(three_dice(), (200, 120)).add((50.0, 12.0))  # above the others: put in its place
    assert early.boxes[0] == (40.0, 2.0, 60.0, 22.0) and early.selected == 0 and early.added[0]
    given = check.cycle().cycle()
    assert given.values[3] == 2 and given.changed[3], "SHAKE gives it a value as for a found die"
    assert check.tap(3).values[3] == 1, "a second touch changes it"


def test_a_point_mostly_on_a_die_already_there_touches_that_die_and_an_edge_point_stays_in_the_picture():
    check = replace_frame(three_dice(), (200, 120))
    on = check.add((22.0, 22.0))  # on the 2 (10-30): it is selected, so the touch changes it
    assert len(on.boxes) == 3 and on.values[0] == 3
    edge = check.add((198.0, 119.0))
    assert edge.boxes[3] == (180.0, 100.0, 200.0, 120.0), "moved inside the picture, still square"
    off = check.add((250.0, 50.0))
    assert off.boxes == check.boxes and "not in the picture" in off.message


def test_an_added_die_with_no_other_die_to_size_it_takes_the_calibrations_die_else_a_twelfth_of_the_frame():
    empty = RollCheck("dice", (), (), (), frame_size=(640, 480))
    assert empty.add((100.0, 100.0)).boxes == ((80.0, 80.0, 120.0, 120.0),), "480 / 12 = 40 px"
    calibrated = RollCheck("dice", (), (), (), frame_size=(640, 480), die_side=30.0)
    assert calibrated.add((100.0, 100.0)).boxes == ((85.0, 85.0, 115.0, 115.0),)
    absent = RollCheck("dice", ((0.0, 0.0, 90.0, 90.0),), (NO_DIE,), (3,), frame_size=(640, 480), die_side=30.0)
    assert absent.add((300.0, 300.0)).boxes[1] == (285.0, 285.0, 315.0, 315.0), "a die said to be none sizes nothing"


def test_an_added_die_set_to_no_die_is_dropped_and_one_with_a_value_is_kept_with_its_box():
    check = replace_frame(three_dice(), (200, 120)).set_value(2, 5)
    dropped, kept = check.add((150.0, 100.0)).set_value(3, NO_DIE).confirm()
    assert kept == (2, 4, 5) and dropped.boxes == check.boxes and dropped.added == (False, False, False)
    found_none, kept = check.set_value(0, NO_DIE).confirm()
    assert kept == (None, 4, 5) and len(found_none.boxes) == 3, "a found die said to be none stays, as before"
    valued, kept = check.add((150.0, 100.0)).set_value(3, 6).confirm()
    assert kept == (2, 4, 5, 6) and valued.boxes[3] == (140.0, 90.0, 160.0, 110.0)


def test_add_x_y_typed_adds_a_die_and_anything_else_after_add_is_the_message():
    check = replace_frame(three_dice(), (200, 120))
    typed = check.typed("add 150 100")
    assert typed.boxes[3] == (140.0, 90.0, 160.0, 110.0) and typed.selected == 3
    assert typed.typed("4").values[3] == 4
    assert "type add X Y" in check.typed("add here").message and check.typed("add 1").boxes == check.boxes


def replace_frame(check: RollCheck, size) -> RollCheck:
    from dataclasses import replace

    return replace(check, frame_size=size)


# --- the screen ---------------------------------------------------------------------------------------------------

def test_the_check_screen_shows_each_value_on_the_picture_and_taps_touch_dice_and_targets():
    from display import Display
    from display.teach import draw_check
    from tabletop21.teaching import check_screen

    check = three_dice().set_value(1, NO_DIE)
    screen = check_screen(check, title="CHECK", message="m", side="s", targets=(("keep", "KEEP ROLL"),),
                          frame_size=(200, 120))
    frame = np.full((120, 200, 3), 90, np.uint8)
    layout, texts = draw_check(pygame.Surface((800, 480)), screen, frame)
    drawn = [t.text for t in texts]
    assert {"2", "no die*", "?", "KEEP ROLL"} <= set(drawn) and not any(t.cut for t in texts)
    display = Display((800, 480))
    try:
        display.show_check(screen, frame)
        (x, y, w, h), keep = layout.dice[2], dict(layout.targets)["keep"]
        for point in ((x + w // 2, y + h // 2), (keep[0] + 5, keep[1] + 5), (2, 100)):
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=point, button=1, touch=False))
        assert display.touched() == ["die:2", "keep"]  # the third tap touched nothing
        display.show(all_views()["dice-blackjack/results"])
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(400, 200), button=1, touch=False))
        assert display.touched() == ["screen"], "elsewhere a tap off the buttons is a tap on the screen"
    finally:
        display.close()


@pytest.mark.parametrize("frame_size", [(1000, 1000), (1600, 400), (64, 48)])
def test_the_screen_to_frame_mapping_is_the_transform_the_picture_is_drawn_with(frame_size):
    from display.teach import draw_check, fit_picture, picture_rect

    width, height = frame_size
    side = min(width, height) / 10
    boxes = ((width * 0.4, height * 0.4, width * 0.4 + side, height * 0.4 + side),
             (width * 0.55, height * 0.5, width * 0.55 + side, height * 0.5 + side))
    check = RollCheck("dice", boxes, (3, 5), (3, 5), frame_size=frame_size)
    screen = check_screen(check, title="CHECK", message="m", side="s", targets=(), frame_size=frame_size)
    layout, _ = draw_check(pygame.Surface((800, 480)), screen, np.full((height, width, 3), 90, np.uint8))
    fit = layout.picture
    assert len(screen.picker) == 1, "a die's values in one row under the picture"
    assert fit is not None and fit == fit_picture(picture_rect((800, 480), 1), frame_size, boxes), "a pure function"
    for box, (x, y, w, h) in zip(boxes, layout.dice):  # each die's drawn outline maps back onto its box
        centre = fit.to_frame((x + w / 2, y + h / 2))
        assert centre is not None
        assert abs(centre[0] - (box[0] + box[2]) / 2) <= 1.5 / fit.scale
        assert abs(centre[1] - (box[1] + box[3]) / 2) <= 1.5 / fit.scale
    rx, ry, rw, rh = fit.region
    for point in ((rx + 0.1 * rw, ry + 0.2 * rh), (rx + 0.9 * rw, ry + 0.7 * rh)):
        back = fit.to_frame(fit.to_screen(point))
        assert back is not None and back == pytest.approx(point)
    sx, sy, sw, sh = fit.shown
    assert fit.to_frame((sx - 1, sy + sh / 2)) is None and fit.to_frame((sx + sw / 2, sy + sh)) is None


def test_a_touch_on_the_picture_off_every_die_adds_one_there_and_a_touch_on_a_die_still_selects_it():
    from display import Display

    check = replace_frame(three_dice(), (200, 120))
    frame = np.full((120, 200, 3), 90, np.uint8)
    display = Display((800, 480))
    try:
        display.show_check(check_screen(check, title="CHECK", message="m", side="s", targets=(),
                                        frame_size=(200, 120)), frame)
        fit = display._check.picture
        spot = fit.to_screen((150.0, 100.0))
        x, y, w, h = display._check.dice[1]
        for point in (spot, (x + w // 2, y + h // 2)):
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(round(point[0]), round(point[1])),
                                                 button=1, touch=False))
        added, on_die = display.touched()
    finally:
        display.close()
    assert added.startswith("frame:") and on_die == "die:1"
    now = touch_check(check, added)
    assert now is not None and len(now.boxes) == 4 and now.selected == 3 and now.values[3] is None
    box = now.boxes[3]
    assert box[2] - box[0] == box[3] - box[1] == 20.0
    assert abs((box[0] + box[2]) / 2 - 150) <= 1 / fit.scale and abs((box[1] + box[3]) / 2 - 100) <= 1 / fit.scale
    selected = touch_check(now, on_die)
    assert selected is not None and selected.selected == 1 and selected.values == now.values
    assert touch_check(selected, on_die).values[1] == 5, "a second touch on a found die changes it"
    assert touch_check(now, "keep") is None and touch_check(now, "frame:x,y") is None
    buttons = check_screen(now, title="CHECK", message="", side="s", targets=(), frame_size=(200, 120))
    assert buttons.labels[3] == "?" and buttons.unread[3] and buttons.addable


# --- teaching at the table, end to end ----------------------------------------------------------------------------

HOLD_FRAMES = 15  # camera frames each photo stays in view (the settle detector needs a few still ones)


def photo_session(folder: Path, photos: Path, names: list[str]) -> list[np.ndarray]:
    """A recorded session whose frames are the photos, each held a while: the camera."""
    images = [load_bgr(photos / "images" / name) for name in names]
    with SessionWriter(folder, Manifest("dice-blackjack", ("Ann",))) as writer:
        index = 0
        for image in images:
            for _ in range(HOLD_FRAMES):
                index += 1
                writer.save_frame(Frame(image, index, index / 30))
    return images


def table_settings(tmp_path: Path, camera: str, rolls: int, table: str = "") -> Path:
    path = tmp_path / "table.toml"
    path.write_text(f'# the table in the den\n[table]\ngame = "dice-blackjack"\nseats = ["Ann", "Ben"]\n{table}\n'
                    f'[camera]\nsource = "{camera}"\n\n[gpio]\nenabled = true\nbounce_time = 0.0\nhold_time = 0.3\n'
                    f'\n[teach]\nrolls = {rolls}\n')
    return path


class Owner:
    """Presses the table's buttons on the mock pins and watches the screen."""

    def __init__(self, opened, factory, gpio):
        self.teacher, self.display = opened.teacher, opened.display
        self.shake, self.next = factory.pin(gpio.shake), factory.pin(gpio.next)
        self.lamps = {name: factory.pin(pin) for name, pin in gpio.leds.items()}

    def tick(self, **given):
        self.teacher.tick(**given)
        self.display.show_check(self.teacher.screen(), self.teacher.picture)

    def press(self, pin):
        pin.drive_low()
        pin.drive_high()
        self.tick()

    def hold(self, pin):
        pin.drive_low()
        time.sleep(0.4)  # past [gpio] hold_time
        pin.drive_high()
        self.tick()

    def until(self, done, limit=200):
        for _ in range(limit):
            if done():
                return
            self.tick()
        raise AssertionError(f"still at {self.teacher.phase}: {self.teacher.screen().message}")

    def roll(self, images, labels, names):
        """NEXT, wait for the picture, then give every die its labelled value, hold NEXT."""
        self.press(self.next)
        assert self.lamps["reading"].state or self.teacher.phase == "check", "the READING lamp while it waits"
        self.until(lambda: self.teacher.phase == "check")
        shown = self.teacher.picture.astype(int)
        which = int(np.argmin([np.abs(shown - image.astype(int)).mean() for image in images]))
        truth = labels[names[which]]["dice"]
        wanted = []
        for number, box in enumerate(self.teacher.check.boxes):
            x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            value = next((d["value"] for d in truth if d["box"][0] <= x <= d["box"][2] and d["box"][1] <= y <= d["box"][3]),
                         NO_DIE)
            for _ in range(8):
                if self.teacher.check.values[number] == value:
                    break
                self.press(self.shake)
            assert self.teacher.check.values[number] == value
            wanted.append(value)
            self.press(self.next)
        kept = self.teacher.kept
        self.hold(self.next)
        assert self.teacher.kept == kept + 1
        return [v for v in wanted if v != NO_DIE]


def teach_at_the_table(tmp_path, monkeypatch, photos: Path, count: int, rolls: int, hold_after: int | None = None):
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    labels = json.loads((photos / "labels.json").read_text())
    names = sorted(labels)[:count]
    images = photo_session(tmp_path / "camera", photos, names)
    settings = table_settings(tmp_path, str(tmp_path / "camera"), rolls)
    factory = MockFactory()
    said = []
    try:
        with teaching_at_table("dice", str(settings), pin_factory=factory, say=said.append) as opened:
            owner = Owner(opened, factory, load_config(settings).gpio)
            owner.tick()
            assert owner.teacher.screen().next == "take picture" and owner.lamps["ready"].state
            owner.hold(owner.next)  # teach now, with nothing kept yet
            assert owner.teacher.phase == "roll" and "Nothing to teach from yet" in owner.teacher.screen().message
            given = []
            for _ in range(hold_after or rolls):
                given.append(owner.roll(images, labels, names))
            if hold_after:
                assert owner.teacher.phase == "roll"
                owner.hold(owner.next)  # enough for now: teach
            owner.until(lambda: owner.teacher.phase == "done", limit=5)
            assert owner.lamps["win"].state and not owner.lamps["ready"].state
            owner.press(owner.next)
            assert owner.teacher.finished
            return opened, settings, given, said
    finally:
        factory.reset()


def check_taught(opened, settings: Path, given, home: Path) -> None:
    out = home / "tabletop21" / "taught-dice.json"
    assert opened.out == out and opened.settings == settings
    taught = load_taught(out)
    assert taught.kind == "dice" and taught.taught_on["photos"] == len(given)
    config = load_config(settings)
    assert config.table.taught == str(out), "the settings name the taught file for `run`"
    assert config.table.game == "dice-blackjack" and config.teach.rolls and settings.read_text().startswith(
        "# the table in the den\n"), "the rest of the settings file is as it was"
    folder = home / "tabletop21" / "teach-dice"
    labels = load_labels(folder)
    assert sorted(len(entry["dice"]) for entry in labels.values()) == sorted(len(values) for values in given)
    assert sorted(sorted(d["value"] for d in entry["dice"]) for entry in labels.values()) == \
        sorted(sorted(values) for values in given), "each roll is kept with the values the owner gave"
    assert all(cv2.imread(str(folder / "images" / name)) is not None for name in labels)
    assert f"written to {out}" in opened.teacher.done and str(settings) in opened.teacher.done


def test_teaching_at_the_table_keeps_each_roll_and_names_the_taught_file_in_the_settings(tmp_path, monkeypatch):
    opened, settings, given, said = teach_at_the_table(tmp_path, monkeypatch, RENDERED, count=4, rolls=3)
    assert said[0] == f"settings: {settings} (--config)"
    check_taught(opened, settings, given, tmp_path / "home")


def test_teaching_at_the_table_on_real_photos_taught_when_the_owner_holds(tmp_path, monkeypatch, dice_photos):
    opened, settings, given, _ = teach_at_the_table(tmp_path, monkeypatch, dice_photos, count=4, rolls=15,
                                                    hold_after=3)
    assert opened.teacher.kept == 3
    check_taught(opened, settings, given, tmp_path / "home")


def test_a_value_typed_at_the_table_that_no_die_shows_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    labels = json.loads((RENDERED / "labels.json").read_text())
    photo_session(tmp_path / "camera", RENDERED, sorted(labels)[:2])
    settings = table_settings(tmp_path, str(tmp_path / "camera"), 3)
    before = settings.read_bytes()
    factory = MockFactory()
    try:
        with teaching_at_table("dice", str(settings), pin_factory=factory, say=lambda line: None) as opened:
            owner = Owner(opened, factory, load_config(settings).gpio)
            owner.press(owner.next)
            owner.until(lambda: owner.teacher.phase == "check")
            values = owner.teacher.check.values
            owner.tick(typed=["7"])
            assert "'7' is no die's value: a die shows 1 to 6" in owner.teacher.screen().message
            assert owner.teacher.check.values == values and owner.teacher.kept == 0
            owner.tick(typed=["skip"])
            assert owner.teacher.phase == "roll" and "not kept" in owner.teacher.screen().message
    finally:
        factory.reset()
    assert settings.read_bytes() == before and not (tmp_path / "home" / "tabletop21").exists()


# --- bad input at the start: one line, nothing changed ------------------------------------------------------------

def refused(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    return err


def test_no_camera_is_one_line_and_changes_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    settings = table_settings(tmp_path, "webcam", 15)
    before = settings.read_bytes()

    def no_camera(config):
        raise CameraLost("cannot open camera 0: is it plugged in and free?")

    build_parser()  # every command loaded first: one that takes open_source by name as it loads keeps the real one
    monkeypatch.setattr("tabletop21.devices.open_source", no_camera)
    err = refused(capsys, ["teach", "dice", "--config", str(settings)])
    assert "the camera did not open (cannot open camera 0: is it plugged in and free?)" in err
    assert "nothing was kept or taught" in err
    assert settings.read_bytes() == before and not (tmp_path / "home").exists()


def test_a_recorded_session_named_as_the_camera_that_is_not_there_is_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    settings = table_settings(tmp_path, str(tmp_path / "no-such-session"), 15)
    before = settings.read_bytes()
    assert "not a recorded session" in refused(capsys, ["teach", "d10", "--config", str(settings)])
    assert settings.read_bytes() == before and not (tmp_path / "home").exists()


@pytest.mark.parametrize("table, teach, words", [
    ("", "0", "[teach] rolls = 0: the rolls to keep before teaching, 1 to 200"),
    ('taught = "NOTES"', "15", "is there and is not a taught-reader file: teaching writes no file over it"),
])
def test_bad_settings_for_teaching_are_one_line_and_change_nothing(tmp_path, monkeypatch, capsys, table, teach, words):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    notes = tmp_path / "notes.json"
    notes.write_text('{"not": "a taught file"}')
    settings = table_settings(tmp_path, str(REPO / "calibration_images" / "sessions" / "dice-blackjack"), 15,
                              table.replace("NOTES", str(notes)))
    settings.write_text(settings.read_text().replace("rolls = 15", f"rolls = {teach}"))
    before = settings.read_bytes()
    assert words in refused(capsys, ["teach", "dice", "--config", str(settings)])
    assert settings.read_bytes() == before and notes.read_text() == '{"not": "a taught file"}'
    assert not (tmp_path / "home").exists()


def test_a_teaching_folder_that_is_no_teaching_folder_is_refused_before_anything_opens(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "labels.json").write_text("oops")
    settings = table_settings(tmp_path, str(REPO / "calibration_images" / "sessions" / "dice-blackjack"), 15)
    err = refused(capsys, ["teach", "dice", "--config", str(settings), "--into", str(folder)])
    assert f"{folder / 'labels.json'}: not a labels.json" in err and "--into" in err
    assert (folder / "labels.json").read_text() == "oops" and not (folder / "images").exists()


def test_a_die_kept_with_a_value_it_cannot_show_keeps_nothing(tmp_path):
    folder = tmp_path / "teach-dice"
    with pytest.raises(TableError, match="7 is no die's value: a die shows 1 to 6; nothing was kept"):
        keep_example(folder, "x.jpg", lambda path: path.write_bytes(b"jpeg"), ((0.0, 0.0, 9.0, 9.0),), (7,))
    assert not folder.exists()


# --- the settings file --------------------------------------------------------------------------------------------

def test_setting_the_taught_file_edits_only_that_line(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text('# mine\n[table]\ngame = "dicey21"  # the house game\ntaught = "old.json"\n\n[camera]\n'
                    'source = "webcam"\n')
    assert set_taught(path, tmp_path / "new.json") == path
    assert path.read_text() == (f'# mine\n[table]\ngame = "dicey21"  # the house game\ntaught = "{tmp_path}/new.json"'
                                '\n\n[camera]\nsource = "webcam"\n')
    bare = tmp_path / "bare.toml"
    bare.write_text('[camera]\nsource = "webcam"\n')
    set_taught(bare, "/home/pi/taught-dice.json")
    assert load_config(bare).table.taught == "/home/pi/taught-dice.json" and load_config(bare).camera.source == "webcam"
    dotted = tmp_path / "dotted.toml"
    dotted.write_text('table.game = "dicey21"\n')
    with pytest.raises(ConfigError, match="set it by hand"):
        set_taught(dotted, "/home/pi/taught-dice.json")
    assert dotted.read_text() == 'table.game = "dicey21"\n'


# --- correcting a round from its results screen -------------------------------------------------------------------

BANKROLLS = {"ann": 100, "bob": 100, HOUSE: 0}


@pytest.fixture
def buttons():
    factory = MockFactory()
    gpio = GpioConfig(enabled=True, bounce_time=None, hold_time=0.05)
    controls = open_controls(gpio, pin_factory=factory)
    yield controls, factory.pin(gpio.shake), factory.pin(gpio.next)
    controls.close()
    factory.reset()


def at_results(tmp_path, controls=None, corrections=True):
    """A Dicey 21 round played to its results, its dice read (6, 5, 4), recorded."""
    camera = ScriptedCamera()
    recorder = SessionWriter(tmp_path / "session", Manifest("dicey21", ("ann", "bob")))
    appliance = Appliance(Table(Driver("dicey21", ("ann", "bob"), bet=10), Ledger.open(BANKROLLS, (HOUSE,))), camera,
                          ScriptedSettle(camera), dice_reader((6, 5, 4)), recorder=recorder, controls=controls,
                          corrections=Corrections({"dice": tmp_path / "teach-dice"}) if corrections else None)
    appliance.tick(presses=["shake"])
    appliance.tick(typed=["10h"])
    appliance.tick(typed=["9s"])
    while appliance.table.driver.phase == "decide":
        appliance.tick(presses=["confirm"])
    appliance.tick(presses=["shake"])
    camera.script = ["rolling"] * 3 + ["hand"]
    for _ in range(6):
        view, _ = appliance.tick()
    assert view.screen == "results"
    return appliance, view, recorder


def test_holding_next_on_the_results_screen_corrects_the_dice_and_keeps_them_for_teaching(tmp_path, buttons):
    controls, shake, next_ = buttons
    appliance, view, recorder = at_results(tmp_path, controls)
    assert "Read wrong? Hold NEXT" in view.prompt.message
    settled = appliance.table.ledger.as_dict()
    next_.drive_low()
    time.sleep(0.1)
    next_.drive_high()
    appliance.tick()
    assert appliance.correction is not None and appliance.table.driver.phase == "results"
    screen = appliance.correction_screen()
    assert screen.labels == ("6", "5", "4") and screen.selected == 0 and screen.title == "ROUND 1 - CORRECT THE DICE"
    next_.drive_low()
    next_.drive_high()
    for _ in range(5):  # 5, 6, no die, 1, 2, 3
        shake.drive_low()
        shake.drive_high()
    appliance.tick()
    assert appliance.correction.check.values == (6, 3, 4)
    next_.drive_low()
    time.sleep(0.1)
    next_.drive_high()
    view, _ = appliance.tick()
    assert appliance.correction is None and view.screen == "results"
    folder = tmp_path / "teach-dice"
    labels = load_labels(folder)
    (name, entry), = labels.items()
    assert [d["value"] for d in entry["dice"]] == [6, 3, 4]
    assert entry["dice"][1]["box"] == [20.0, 15.0, 30.0, 25.0]
    assert cv2.imread(str(folder / "images" / name)).shape == (48, 64, 3)
    assert f"Kept for teaching in {folder}" in view.prompt.message and "Hold NEXT" not in view.prompt.message
    assert appliance.table.ledger.as_dict() == settled, "the round stays as it was settled"
    next_.drive_low()
    next_.drive_high()
    appliance.tick()
    assert appliance.table.driver.phase == "bets", "NEXT then goes on to the next round as ever"
    recorder.close()
    notes = [e.data for e in SessionReader(tmp_path / "session").of_kind("note")]
    assert any(f"kept for teaching as {folder / 'images' / name}" in note for note in notes)


def test_a_touch_on_the_results_screen_opens_the_correction_and_cancel_keeps_nothing(tmp_path):
    appliance, _, _ = at_results(tmp_path)
    appliance.tick(touched=["screen"])
    assert appliance.correction is not None
    appliance.tick(touched=["die:2"])
    appliance.tick(touched=["die:2"])
    assert appliance.correction.check.values == (6, 5, 5) and appliance.correction.check.selected == 2
    appliance.tick(touched=["skip"])
    assert appliance.correction is None and not (tmp_path / "teach-dice").exists()
    appliance.tick(touched=["screen"])
    appliance.tick(typed=["x 2 2"])
    appliance.tick(touched=["keep"])
    (entry,) = load_labels(tmp_path / "teach-dice").values()
    assert [d["value"] for d in entry["dice"]] == [2, 2]


def test_without_corrections_a_hold_on_the_results_screen_goes_on_as_before(tmp_path):
    appliance, view, _ = at_results(tmp_path, corrections=False)
    assert "Read wrong" not in view.prompt.message
    appliance.tick(presses=["confirm"])
    assert appliance.correction is None and appliance.table.driver.phase == "bets"


def test_a_corrected_d10_read_is_kept_under_its_kind_and_taught_from(tmp_path):
    read = TableRead(d10=(D10(7, (20.0, 20.0), (10.0, 10.0, 30.0, 30.0), 0.9),
                          D10(0, (60.0, 20.0), (50.0, 10.0, 70.0, 30.0), 0.9)))
    check = RollCheck.of_read("d10", read).next().cycle().cycle().cycle()  # the 0 was a 3
    corrections = Corrections({"d10": tmp_path / "teach-d10"})
    folder, name = corrections.keep(Correction(check, np.full((48, 96, 3), 120, np.uint8), 2), check.confirm()[1])
    assert folder == tmp_path / "teach-d10" and name.startswith("round2-")
    (example,) = examples_from_folder("d10", folder)
    assert [value for value, _ in example.dice] == [7, 3] and example.frame.shape == (48, 96, 3)


class StillSettle:
    """Moving at the first frame after `roll`, then still: as vision.settle says it."""

    def __init__(self):
        self.still = 0

    def roll(self):
        self.still = 0

    def update(self, image):
        self.still += 1
        return type("Report", (), {"state": "settled", "still_frames": self.still - 1})()


def test_a_die_added_at_the_table_is_kept_in_labels_json_with_its_box_and_one_said_no_die_is_not(tmp_path):
    from tests.test_appliance import ScriptedCamera

    folder, settle = tmp_path / "teach-dice", StillSettle()
    teacher = TableTeaching("dice", ScriptedCamera(), settle, dice_reader((6, 5)), folder=folder,
                            teach=lambda: "taught", rolls=5)
    for second in (False, True):
        settle.roll()
        teacher.tick(presses=["next"])
        for _ in range(6):
            teacher.tick()
        assert teacher.phase == "check" and teacher.check.boxes == ((5.0, 15.0, 15.0, 25.0), (20.0, 15.0, 30.0, 25.0))
        teacher.tick(touched=["frame:40.0,36.0"])  # a missed die below the two: 10 px like them
        assert teacher.check.boxes[2] == (35.0, 31.0, 45.0, 41.0) and teacher.check.selected == 2
        assert "Die 3 added" in teacher.screen().message and teacher.screen().labels[2] == "?"
        teacher.tick(touched=["die:2"])  # touched again: its value, 1
        teacher.tick(presses=["shake", "shake"])  # then 3
        assert "Die 3 of 3 (added by you): 3" in teacher.screen().message
        if second:  # one more, said to be no die after all
            teacher.tick(touched=["frame:55.0,38.0"])
            teacher.tick(presses=["shake"] * 7)
            assert teacher.check.values[3] == NO_DIE and len(teacher.check.boxes) == 4
        teacher.tick(touched=["keep"])
        assert teacher.phase == "roll" and teacher.kept == (2 if second else 1)
    labels = load_labels(folder)
    assert len(labels) == 2
    for entry in labels.values():
        assert entry["dice"] == [{"value": 6, "box": [5.0, 15.0, 15.0, 25.0]},
                                 {"value": 5, "box": [20.0, 15.0, 30.0, 25.0]},
                                 {"value": 3, "box": [35.0, 31.0, 45.0, 41.0]}]


def test_a_die_can_be_added_when_correcting_from_the_results_screen(tmp_path):
    appliance, _, _ = at_results(tmp_path)
    appliance.tick(touched=["screen"])
    screen = appliance.correction_screen()
    assert screen.addable and "touch a die with no box to add it" in screen.side
    assert "On a touchscreen" in screen.side, "the buttons are not promised what only a touch does"
    appliance.tick(touched=["frame:50.0,40.0"])
    check = appliance.correction.check
    assert check.boxes[-1] == (45.0, 35.0, 55.0, 45.0) and check.selected == 3 and check.values[3] is None
    appliance.tick(presses=["shake", "shake"])
    appliance.tick(typed=["add 5 44"])  # typed, at the picture's bottom edge: kept inside it
    assert appliance.correction.check.boxes[4] == (0.0, 38.0, 10.0, 48.0)
    appliance.tick(typed=["x"])  # no die after all
    appliance.tick(touched=["keep"])
    assert appliance.correction is None
    (entry,) = load_labels(tmp_path / "teach-dice").values()
    assert entry["dice"][-1] == {"value": 2, "box": [45.0, 35.0, 55.0, 45.0]} and len(entry["dice"]) == 4
