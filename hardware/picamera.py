"""Raspberry Pi camera modules through picamera2, which exists only on the Pi: it is
imported when a PiCameraSource is made, never when this module is imported.

picamera2 runs the camera in a thread of its own and hands whatever failed there to
the caller (its Job sets the exception on a Future), so a capture or a stop can raise
any exception, not only its documented RuntimeError; each is a lost camera, said with
its number, for ReconnectingSource to reopen."""

from __future__ import annotations

import time
from importlib import import_module

from hardware.frames import CameraLost, Frame, check_frame


class PiCameraSource:
    def __init__(self, size: tuple[int, int] = (1280, 720), camera_num: int = 0) -> None:
        try:
            picamera2 = import_module("picamera2")
        except ImportError as err:
            raise CameraLost(_not_importable(err)) from err
        try:
            self._camera = picamera2.Picamera2(camera_num)
            try:
                # "RGB888" is stored B, G, R per pixel: exactly OpenCV's order, no conversion.
                config = self._camera.create_video_configuration(main={"size": tuple(size), "format": "RGB888"})
                self._camera.configure(config)
                self._camera.start()
            except BaseException:
                self._camera.close()  # picamera2 holds an opened camera for the process until close()
                raise
        except (RuntimeError, IndexError, OSError) as err:
            raise CameraLost(f"Pi camera {camera_num} did not start: {err}") from err
        self._num = camera_num
        self._index = 0

    def read(self) -> Frame:
        try:
            image = self._camera.capture_array("main")
        except Exception as err:  # noqa: BLE001 - whatever picamera2's camera thread raised
            raise CameraLost(f"Pi camera {self._num} stopped: {_why(err)}") from err
        self._index += 1
        return Frame(check_frame(image, f"Pi camera {self._num}"), self._index, time.monotonic())

    def close(self) -> None:
        try:
            try:
                self._camera.stop()
            finally:
                self._camera.close()
        except Exception as err:  # noqa: BLE001 - as in read
            raise CameraLost(f"Pi camera {self._num} did not close: {_why(err)}") from err


def _not_importable(err: ImportError) -> str:
    """In a venv the usual cause is not picamera2 but libcamera's Python bindings, which
    pip cannot install: they come only with Raspberry Pi OS's python3-libcamera, which
    a venv sees only when made with --system-site-packages."""
    advice = ("on Raspberry Pi OS run `sudo apt install python3-picamera2` (it brings python3-libcamera) "
              "and make the venv with `python3 -m venv --system-site-packages`")
    missing = err.name or ""
    if missing == "picamera2":
        return f"picamera2 is not installed: {advice}"
    if missing.split(".")[0] == "libcamera":
        return (f"picamera2 cannot load libcamera's Python bindings (no module {missing!r}); pip cannot install "
                f"them: {advice}")
    return f"picamera2 did not import ({err}): {advice}"


def _why(err: Exception) -> str:
    return str(err) or type(err).__name__  # a cancelled capture's CancelledError says nothing
