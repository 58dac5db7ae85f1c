"""The frame-source interface every camera (and a recording) implements.

A source hands out Frame records; a lost camera raises CameraLost rather than
returning stale or black frames, so the round driver can pause and say so."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np


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
    """Cameras occasionally hand back None or a half buffer; refuse it at the door, as a
    lost camera rather than a bad picture (the readers check a frame the same way)."""
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 \
            or image.dtype != np.uint8 or min(image.shape[:2]) < 1:
        raise CameraLost(f"{where}: the camera returned no usable image (expected an HxWx3 uint8 BGR frame, got "
                         f"{type(image).__name__} {getattr(image, 'shape', None)})")
    return image


class ReconnectingSource:
    """Wraps a source factory so a dropped camera is reopened, with a growing pause
    between attempts, while the round in progress simply waits for the next good frame.
    The pause is kept by the clock, never slept: the display and its Esc key stay live
    while the camera is away. `first`, a source already opened, is read before any is
    opened: `run` opens the camera at its start, before the bankroll store is touched,
    and a camera is not opened twice."""

    def __init__(self, open_source: Callable[[], FrameSource], *, first: FrameSource | None = None,
                 max_pause: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._open = open_source
        self._source = first
        self._pause = 0.25
        self._max_pause = max_pause
        self._clock = clock
        self._retry_at = 0.0
        self._why = ""  # the loss, said again while the next attempt waits
        self.lost_since: float | None = None

    def read(self) -> Frame:
        """One frame, or CameraLost: after a failed attempt, and at once, without trying,
        until the pause after it is over (the caller shows the camera-lost screen and
        calls again)."""
        if self._source is None and self._clock() < self._retry_at:
            raise CameraLost(self._why)
        try:
            if self._source is None:
                self._source = self._open()
            frame = self._source.read()
        except CameraLost as err:
            self._drop(str(err))
            raise
        except OSError as err:
            self._drop(str(err))
            raise CameraLost(str(err)) from err
        self.lost_since, self._pause = None, 0.25
        return frame

    def _drop(self, why: str) -> None:
        if self._source is not None:
            try:
                self._source.close()
            except Exception:  # noqa: BLE001 - a dead camera may fail to close; it is gone either way
                pass
        self._source = None
        now = self._clock()
        if self.lost_since is None:
            self.lost_since = now
        self._why, self._retry_at = why, now + self._pause
        self._pause = min(self._pause * 2, self._max_pause)

    def close(self) -> None:
        source, self._source = self._source, None
        if source is not None:
            with suppress(CameraLost):  # a camera failing as it is put away is gone either way
                source.close()
