"""Plain-words checks of everything the appliance needs, each with how to fix it,
so a person at the table can get going without reading a stack trace."""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from table.errors import TableError
from tabletop21 import bankfile
from tabletop21.settings import LIVE_CAMERAS, ApplianceConfig


@dataclass(frozen=True)
class Finding:
    part: str
    ok: bool
    says: str
    fix: str = ""
    frame_size: tuple[int, int] | None = None  # (width, height) of the frame the camera check got


def check_camera(config: ApplianceConfig, open_source: Callable) -> Finding:
    try:
        source = open_source(config)
        try:
            frame = source.read()
        finally:
            source.close()  # a camera left open is busy for the `run` that follows
    except Exception as err:  # noqa: BLE001 - whatever the camera says, the person needs it in words
        said = str(err)
        if "picamera2" in said and ("not installed" in said or "libcamera" in said or "did not import" in said):
            fix = "install the camera library as said above; the cable is not the cause"
        elif config.camera.source not in ("picamera", "webcam"):
            fix = "point [camera] source at a recorded session folder, or at picamera or webcam"
        else:
            fix = ("check the ribbon or USB cable, that no other program uses the camera, "
                   "and [camera] source in the settings file")
        return Finding("camera", False, f"no picture from the {config.camera.source} camera: {said}", fix)
    height, width = frame.image.shape[:2]
    return Finding("camera", True, f"{config.camera.source} camera gives {width}x{height} frames",
                   frame_size=(width, height))


def check_gpio(config: ApplianceConfig) -> Finding:
    if not config.gpio.enabled:
        return Finding("gpio", True, "GPIO is off in the settings: keys and touch stand in for the buttons")
    try:
        with warnings.catch_warnings():  # gpiozero's fallback warnings: the finding says it in words
            warnings.simplefilter("ignore")
            from gpiozero import LED, Device

            LED(config.gpio.leds.get("ready", 5)).close()
            factory = type(Device.pin_factory).__name__
    except Exception as err:  # noqa: BLE001
        return Finding("gpio", False, f"the GPIO pins cannot be used: {err}",
                       "on a Raspberry Pi add your user to the 'gpio' group; elsewhere set [gpio] enabled = false")
    return Finding("gpio", True, f"GPIO pins answer (through {factory})")


def check_display(config: ApplianceConfig) -> Finding:
    try:
        import pygame

        pygame.display.init()
        driver = pygame.display.get_driver()
        pygame.display.quit()
    except Exception as err:  # noqa: BLE001
        return Finding("display", False, f"no display: {err}",
                       "on the Pi run from the console with SDL_VIDEODRIVER=kmsdrm, or start it from the desktop")
    if driver in ("dummy", "offscreen"):
        return Finding("display", False, f"only a {driver} display is available: nothing will be seen",
                       "connect a screen, or use `tabletop21 demo --headless` to render screenshots")
    return Finding("display", True, f"display works ({driver})")


def check_calibration(config: ApplianceConfig, frame_size: tuple[int, int] | None = None) -> Finding:
    """Checked against the frames the camera gave (`frame_size`, from `check_camera`):
    a webcam may not give the size the settings ask for, and a recorded session's
    frames are the size they were recorded at, whatever [camera] says."""
    path = config.table.calibration
    if not path:
        return Finding("calibration", True, "no calibration set: the whole frame is read as the play area",
                       "for a busy table run `tabletop21 calibrate FRAME.jpg -o calibration.json`")
    from table.serial import CorruptRecord
    from vision.calibration import Calibration, FrameMismatch

    try:
        calibration = Calibration.load(Path(path).expanduser())
        if frame_size is None and config.camera.source in LIVE_CAMERAS:
            frame_size = (config.camera.width, config.camera.height)
        if frame_size is not None:
            calibration.check_frame((frame_size[1], frame_size[0]))
    except FrameMismatch as err:
        return Finding("calibration", False, f"{path} does not fit the camera's frames: {err}",
                       "calibrate again from a frame of this camera")
    except CorruptRecord as err:  # it names the file
        return Finding("calibration", False, f"the calibration cannot be used: {err}",
                       "make a new one with `tabletop21 calibrate FRAME.jpg -o " + path + "`")
    if frame_size is None:
        return Finding("calibration", True, f"calibration {path} loaded; the recording gave no frame to "
                                            "check its size against")
    return Finding("calibration", True, f"calibration {path} loaded; it fits {frame_size[0]}x{frame_size[1]} frames")


def check_taught(config: ApplianceConfig) -> Finding:
    """Which taught reader `run` would read the dice with, and what it was taught on."""
    path = config.table.taught
    if not path:
        return Finding("taught reader", True, "none: the shipped readers read every piece",
                       "teach the table your own dice with `tabletop21 teach dice DIR -o FILE`")
    from tabletop21.taught import load_taught, pieces_taught

    try:
        taught = load_taught(Path(path).expanduser())
    except TableError as err:
        return Finding("taught reader", False, str(err),
                       "teach again, or empty [table] taught in the settings for the shipped reader")
    on = taught.taught_on
    return Finding("taught reader", True, f"{path} reads the {taught.kind}: taught on {on.get('photos')} photos "
                   f"({pieces_taught(taught)}) of {on.get('folder', 'a folder')}, for models {taught.model}")


def check_learned(config: ApplianceConfig) -> Finding:
    """Which kinds `run` reads with a learned reader in place of the shipped one, and
    whether those readers' networks load."""
    kinds = config.table.learned
    if not kinds:
        return Finding("learned readers", True, "none but the card reader's (the shipped card reader is learned)",
                       'to read dominoes with the learned domino reader: [table] learned = ["dominoes"]')
    import numpy as np

    from vision.read import OTHER_READERS

    blank = np.zeros((64, 64, 3), np.uint8)
    for kind in kinds:
        try:
            OTHER_READERS[f"{kind}-net"](blank, None)
        except Exception as err:  # noqa: BLE001 - a broken install says anything; doctor reports it
            return Finding("learned readers", False, f"the learned {kind} reader does not load: {err}",
                           "reinstall tabletop21, or take the kind out of [table] learned")
    return Finding("learned readers", True, f"{', '.join(kinds)} read by the learned reader")


def check_store(config: ApplianceConfig) -> Finding:
    """The bankroll file checked as `run` checks it at every open (SQLite's integrity
    check, the books balanced, the seal), without writing to it or beside it: what
    `run` would restore, refuse or start afresh is said here first."""
    from tabletop21.recording import earlier_sessions

    return check_bankroll_file(Path(config.table.store).expanduser(),
                               earlier_sessions(Path(config.table.sessions).expanduser()))


def check_bankroll_file(path: Path, existed: str = "") -> Finding:
    def problem(says: str, fix: str) -> Finding:
        return Finding("bankrolls", False, says, fix)

    nearest = next((p for p in (path.parent, *path.parent.parents) if os.path.lexists(p)), None)
    if nearest is not None and not nearest.is_dir():
        return problem(f"{path.parent}: cannot keep the bankroll file here ({nearest} is not a folder)",
                       "point [table] store at a file in a folder")
    if path.is_dir():
        return problem(f"{path} is a folder, not a bankroll file", "point [table] store at a file in a folder")
    start_over = ("restore it from a backup of your own, or start a new table with fresh bankrolls by "
                  "`tabletop21 run --new-table`, which keeps this file aside")
    read_only = bankfile.read_only(path) if path.parent.is_dir() else ""
    gone = bankfile.is_missing(path)
    checked = None if gone else bankfile.check_file(path)
    found = bankfile.good_copy(path) if checked is None or checked.problem else None
    restores = "" if found is None else (
        f"`tabletop21 run` restores it from {bankfile.copy_words(*found)} (bankrolls "
        f"{bankfile.bankrolls_words(found[1].bankrolls)})")
    if gone and found:
        return problem(f"{path} is {gone}; {restores}", "start the table, or put the file back from a backup of "
                                                        "your own first if it has later rounds")
    if gone and existed:
        return problem(f"{path} is {gone}, but {existed} show a table played here",
                       "put the bankroll file back from a backup of your own, or start a new table with fresh "
                       "bankrolls by `tabletop21 run --new-table`")
    if gone and read_only:
        return problem(bankfile.read_only_words(path, read_only), "")
    if checked is None:
        return Finding("bankrolls", True, f"no bankroll file yet at {path}: the first run opens a new table")
    if checked.problem and found:
        return problem(f"{path} is damaged ({checked.problem}); {restores} and keeps the damaged file aside",
                       "start the table; rounds after that copy are lost")
    if checked.problem:
        return problem(f"{path} is not a readable bankroll file ({checked.problem}), and no good copy of it is "
                       "beside it", "keep the file: " + start_over)
    sound = (f"the bankrolls in {path} check out ({bankfile.bankrolls_words(checked.bankrolls)}; "
             f"{checked.rounds} round{'s' if checked.rounds != 1 else ''})")
    if read_only:
        return problem(f"{sound}, but " + bankfile.read_only_words(path, read_only), "")
    holder = bankfile.held_by(path)
    says = sound + (f"; the table running now (process {holder}) has it open" if holder else "")
    if checked.old:
        return Finding("bankrolls", True, says + "; written by an earlier tabletop21, it is sealed at the next run")
    if not bankfile.copy_path(path, bankfile.COPIES[0]).exists():
        return Finding("bankrolls", True, says, "no copy is beside it yet: the next run makes one")
    return Finding("bankrolls", True, says)
