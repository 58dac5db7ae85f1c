"""Any camera OpenCV can open: USB webcams on a laptop or a Pi, or a video file.

Some capture backends raise cv2.error rather than answer False when the device goes
(or cannot be opened at all); either way it is a lost camera, said with its name, for
ReconnectingSource to reopen."""

from __future__ import annotations

import time

import cv2

from hardware.frames import CameraLost, Frame, check_frame


class WebcamSource:
    def __init__(self, device: int | str = 0, size: tuple[int, int] | None = (1280, 720)) -> None:
        try:
            self._capture = cv2.VideoCapture(device)
            opened = self._capture.isOpened()
        except cv2.error as err:
            raise CameraLost(f"cannot open camera {device!r}: {err}") from err
        if not opened:
            self._capture.release()
            raise CameraLost(f"cannot open camera {device!r}: is it plugged in and free?")
        if size:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._device = device
        self._index = 0

    def read(self) -> Frame:
        try:
            ok, image = self._capture.read()
        except cv2.error as err:
            raise CameraLost(f"camera {self._device!r} failed: {err}") from err
        if not ok:
            raise CameraLost(f"camera {self._device!r} stopped sending frames")
        self._index += 1
        return Frame(check_frame(image, f"camera {self._device!r}"), self._index, time.monotonic())

    def close(self) -> None:
        try:
            self._capture.release()
        except cv2.error as err:
            raise CameraLost(f"camera {self._device!r} did not close: {err}") from err
