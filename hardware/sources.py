"""Choosing the frame source named in the settings: the one place that knows all three."""

from __future__ import annotations

from pathlib import Path

from hardware.config import ApplianceConfig
from hardware.frames import FrameSource


def open_source(config: ApplianceConfig) -> FrameSource:
    camera = config.camera
    size = (camera.width, camera.height)
    if camera.source == "picamera":
        from hardware.picamera import PiCameraSource

        return PiCameraSource(size)
    if camera.source == "webcam":
        from hardware.webcam import WebcamSource

        return WebcamSource(camera.device, size)
    from hardware.recording import RecordedSource, SessionReader

    return RecordedSource(SessionReader(Path(camera.source).expanduser()))
