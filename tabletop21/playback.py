"""Showing a replayed session: on a live window at the recorded pace (or a step at a
time), or rendered to PNG files without any display for screenshots and tests."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import numpy as np

from tabletop21.settings import SCREEN
from tabletop21.folders import folder_to_keep
from table.errors import TableError
from table.serial import dumps
from table.view import TableView

Show = Callable[[TableView, "np.ndarray | None", float], None]


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
    last = {"view": None}

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
    """A window that follows the recording's own clock, or waits for a key per step."""
    from display import QUIT, Display

    display = Display(size, fullscreen=fullscreen)
    clock = {"recorded": None, "wall": time.monotonic()}

    def show(view: TableView, frame: np.ndarray | None, t: float) -> None:
        if stepping:
            display.show(view, frame)
            while not (pressed := display.poll()):
                time.sleep(0.02)
            if QUIT in pressed:
                raise KeyboardInterrupt
            return
        if clock["recorded"] is not None and speed > 0:
            due = clock["wall"] + (t - clock["recorded"]) / speed
            while time.monotonic() < due:
                display.show(view, frame)
                if QUIT in display.poll():
                    raise KeyboardInterrupt
                time.sleep(0.02)
        clock["recorded"], clock["wall"] = t, time.monotonic()
        display.show(view, frame)

    return show, display.close
