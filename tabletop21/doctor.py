"""Plain-words checks of everything the appliance needs, each with how to fix it,
so a person at the table can get going without reading a stack trace."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from tabletop21.settings import LIVE_CAMERAS, ApplianceConfig
from tabletop21.store import BankrollStore, StoreError


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
        return Finding("camera", False, f"no picture from the {config.camera.source} camera: {err}",
                       "check the ribbon or USB cable, that no other program uses the camera, "
                       "and [camera] source in the settings file")
    height, width = frame.image.shape[:2]
    return Finding("camera", True, f"{config.camera.source} camera gives {width}x{height} frames",
                   frame_size=(width, height))


def check_gpio(config: ApplianceConfig) -> Finding:
    if not config.gpio.enabled:
        return Finding("gpio", True, "GPIO is off in the settings: keys and touch stand in for the buttons")
    try:
        from gpiozero import Device, LED

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


def check_store(config: ApplianceConfig) -> Finding:
    """Opens the file as `run` will, bankrolls read and checked, not just connected to."""
    path = Path(config.table.store).expanduser()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        BankrollStore(path).close()
        if not os.access(path, os.W_OK):
            raise PermissionError(f"{path} is read-only")
    except StoreError as err:
        return Finding("bankrolls", False, str(err), "restore a copy of the file, or point [table] store elsewhere")
    except (OSError, sqlite3.Error) as err:
        return Finding("bankrolls", False, f"the bankroll file cannot be written: {err}",
                       "point [table] store at a writable place")
    return Finding("bankrolls", True, f"bankrolls are kept in {path}")
