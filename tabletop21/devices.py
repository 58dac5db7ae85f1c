"""Opening the devices the settings name: the frame source, the GPIO controls, the
display, and the calibration the camera's frames are read with. The one place that
knows the camera kinds, the pins and the driver's button words; `run` and teaching at
the table (tabletop21.teaching) open them all here."""

from __future__ import annotations

import warnings
from pathlib import Path

from hardware.controls import GpioControls
from hardware.frames import FrameSource
from table.driver import BUTTONS
from table.errors import TableError
from tabletop21.settings import LIVE_CAMERAS, ApplianceConfig, GpioConfig


def open_source(config: ApplianceConfig) -> FrameSource:
    camera = config.camera
    size = (camera.width, camera.height)
    if camera.source == "picamera":
        from hardware.picamera import PiCameraSource

        return PiCameraSource(size)
    if camera.source == "webcam":
        from hardware.webcam import WebcamSource

        return WebcamSource(camera.device, size)
    from tabletop21.recording import RecordedSource, SessionReader

    return RecordedSource(SessionReader(Path(camera.source).expanduser()))


def open_controls(gpio: GpioConfig, pin_factory: object = None) -> GpioControls:
    """The buttons and LEDs on the configured pins, pressed as the driver's words
    (shake, next, and a hold of next as confirm)."""
    shake, next_, confirm = BUTTONS
    with warnings.catch_warnings():  # gpiozero's pin-factory fallback warnings: a failure is said in words
        warnings.simplefilter("ignore")
        return GpioControls(shake=gpio.shake, next=gpio.next, leds=gpio.leds, names=(shake, next_, confirm),
                            bounce_time=gpio.bounce_time, hold_time=gpio.hold_time, pin_factory=pin_factory)


def open_display(config, fullscreen: bool):
    """The table's screen at the settings' size, or one line saying why it did not start."""
    import pygame

    from display import Display

    try:
        return Display((config.display.width, config.display.height),
                       fullscreen=fullscreen or config.display.fullscreen)
    except pygame.error as err:
        pygame.display.quit()
        raise TableError(f"the display did not start ({err}): run `tabletop21 doctor` to see why; on the Pi "
                         "start it from the console with SDL_VIDEODRIVER=kmsdrm, or from the desktop") from None


def settings_calibration(config):
    """The calibration the settings name, or the reason in one line: a table started
    on a bad one failed at its first read, and on one made for another camera size it
    refused every frame."""
    from table.serial import CorruptRecord
    from vision.calibration import Calibration

    if not config.table.calibration:
        return None
    try:
        calibration = Calibration.load(Path(config.table.calibration).expanduser())
    except CorruptRecord as err:
        raise TableError(f"{err}: fix [table] calibration in the settings, or make a new one with "
                         "`tabletop21 calibrate`") from None
    if config.camera.source in LIVE_CAMERAS:
        _check_camera_size(calibration, config)
    return calibration


def _check_camera_size(calibration, config) -> None:
    from vision.calibration import FrameMismatch

    width, height = config.camera.width, config.camera.height
    try:
        calibration.check_frame((height, width))
    except FrameMismatch as err:
        raise TableError(f"{config.table.calibration} does not fit the camera's {width}x{height} frames "
                         f"([camera] width and height): {err}") from None
