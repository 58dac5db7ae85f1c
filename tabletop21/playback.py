"""Showing a replayed session: on a live window at the recorded pace (or a step at a
time), or rendered to PNG files without any display for screenshots and tests."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from table.errors import TableError
from table.serial import dumps
from table.view import TableView
from tabletop21.folders import folder_to_keep
from tabletop21.settings import SCREEN

Show = Callable[[TableView, "np.ndarray | None", float], None]
# Seconds a screen stays up at speed 1 before the next one replaces it, whatever the
# recording's own clock says: a recorded round runs at machine speed (a whole Dicey 21
# round inside 20 ms), and a person needs time to read what was rolled and paid.
HOLDS = {"results": 5.0, "reading": 2.0, "play": 2.0, "bets": 2.5, "attract": 2.0, "error": 3.0, "stats": 4.0,
         "paytable": 4.0}
HOLD = 1.5  # any other screen


def hold_before_next(shown: TableView | None, upcoming: TableView, recorded_gap: float, speed: float) -> float:
    """Wall seconds to wait before `upcoming` replaces the screen `shown`: the recorded
    gap, but a changed screen at least its HOLDS time, both scaled by `speed` (0: no
    wait at all). The same screen again (a new camera frame) waits the recorded gap."""
    if speed <= 0:
        return 0.0
    gap = max(recorded_gap, 0.0)
    if shown is not None and upcoming != shown:
        gap = max(gap, HOLDS.get(shown.screen, HOLD))
    return gap / speed


class Quit(Exception):
    """The person closed the window or pressed Esc: a normal end (exit 0), as in `run`."""


def parse_size(text: str) -> tuple[int, int]:
    """A TableError, so `--size abc` ends the command with one line, not a traceback."""
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise TableError(f"--size {text!r}: write it as WIDTHxHEIGHT, e.g. 800x480") from None
    if not SCREEN.fit(width, height):
        raise TableError(f"--size {text!r}: {SCREEN}, please")
    return width, height


def screenshot_folder(folder: str | Path) -> Path:
    """Made before the first screen is drawn."""
    return folder_to_keep(folder, "screenshots", "name a folder")


def screenshots(folder: str | Path, size: tuple[int, int]) -> tuple[Show, list[Path]]:
    """Saves one PNG per distinct screen; returns the callback and the list it fills."""
    from display import save_png

    out = screenshot_folder(folder)
    written: list[Path] = []
    last: dict[str, str | None] = {"view": None}

    def show(view: TableView, frame: np.ndarray | None, t: float) -> None:
        key = dumps(view)
        if key == last["view"]:
            return
        last["view"] = key
        path = out / f"{len(written) + 1:03d}-{view.game_id}-{view.screen}.png"
        save_png(view, size, path, frame=frame, t=1.0)
        written.append(path)

    return show, written


def live(size: tuple[int, int], *, fullscreen: bool, speed: float, stepping: bool) -> tuple[Show, Callable[[], None]]:
    """A window paced for a person (`hold_before_next`), or waiting for a key per step."""
    from display import QUIT, Display

    display = Display(size, fullscreen=fullscreen)
    clock: dict[str, float | None] = {"recorded": None, "wall": time.monotonic()}
    last: dict[str, Any] = {"view": None, "frame": None}

    def show(view: TableView, frame: np.ndarray | None, t: float) -> None:
        if stepping:
            display.show(view, frame)
            while not (pressed := display.poll()):
                time.sleep(0.02)
            if QUIT in pressed:
                raise Quit
            return
        recorded, wall = clock["recorded"], clock["wall"]
        if recorded is not None and wall is not None:
            due = wall + hold_before_next(last["view"], view, t - recorded, speed)
            while time.monotonic() < due:
                display.show(last["view"], last["frame"])  # the screen being read stays up, and live
                if QUIT in display.poll():
                    raise Quit
                time.sleep(0.02)
        clock["recorded"], clock["wall"], last["view"], last["frame"] = t, time.monotonic(), view, frame
        display.show(view, frame)

    return show, display.close
