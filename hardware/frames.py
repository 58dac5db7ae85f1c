"""The frame-source interface every camera (and a recording) implements.

A source hands out Frame records; a lost camera raises CameraLost rather than
returning stale or black frames, so the round driver can pause and say so."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Protocol

import numpy as np

from vision.image_io import NotAnImage, checked_bgr


class CameraLost(RuntimeError):
    """The camera stopped delivering frames (unplugged, driver crash, end of file)."""


@dataclass(frozen=True)
class Frame:
    image: np.ndarray = field(compare=False, repr=False)  # BGR, uint8, HxWx3
    index: int
    time: float  # seconds, monotonic on live cameras, recorded time on replays


class FrameSource(Protocol):
    def read(self) -> Frame: ...

    def close(self) -> None: ...


def check_frame(image: object, where: str) -> np.ndarray:
    """Cameras occasionally hand back None or a half buffer; refuse it at the door with
    the readers' own frame check, as a lost camera rather than a bad picture."""
    try:
        return checked_bgr(image, min_side=1)
    except NotAnImage as err:
        raise CameraLost(f"{where}: the camera returned no usable image ({err})") from None


class ReconnectingSource:
    """Wraps a source factory so a dropped camera is reopened, with a growing pause,
    while the round in progress simply waits for the next good frame."""

    def __init__(self, open_source: Callable[[], FrameSource], *, max_pause: float = 5.0,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self._open = open_source
        self._source: FrameSource | None = None
        self._pause = 0.25
        self._max_pause = max_pause
        self._sleep = sleep
        self.lost_since: float | None = None

    def read(self) -> Frame:
        """One frame, or CameraLost after one failed reconnect attempt (the caller shows
        the camera-lost screen and calls again)."""
        try:
            if self._source is None:
                self._source = self._open()
            frame = self._source.read()
        except CameraLost:
            self._drop()
            raise
        except OSError as err:
            self._drop()
            raise CameraLost(str(err)) from err
        self.lost_since, self._pause = None, 0.25
        return frame

    def _drop(self) -> None:
        if self._source is not None:
            try:
                self._source.close()
            except Exception:  # noqa: BLE001 - a dead camera may fail to close; it is gone either way
                pass
        self._source = None
        if self.lost_since is None:
            self.lost_since = time.monotonic()
        self._sleep(self._pause)
        self._pause = min(self._pause * 2, self._max_pause)

    def close(self) -> None:
        if self._source is not None:
            self._source.close()
            self._source = None
