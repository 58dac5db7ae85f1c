"""Opening the devices the settings name: the frame source and the GPIO controls. The
one place that knows the camera kinds, the pins and the driver's button words."""

from __future__ import annotations

import warnings
from pathlib import Path

from hardware.controls import GpioControls
from hardware.frames import FrameSource
from table.driver import BUTTONS
from tabletop21.settings import ApplianceConfig, GpioConfig


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
