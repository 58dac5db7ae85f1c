"""`tabletop21 bench display`: milliseconds per frame for the heaviest screens.

Printed, not asserted: speed depends on the machine, so it is measured here and
reported, never made a unit test. Each screen is drawn repeatedly onto one surface
the way the live loop does (reading screens with a fresh camera frame each time)."""

from __future__ import annotations

import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from display.examples import all_views, example_frame  # noqa: E402
from display.render import draw_view  # noqa: E402

SIZES = ((800, 480), (1920, 1080))
SCREENS = ("play", "reading", "results")


def time_screen(view, size: tuple[int, int], frames: int) -> float:
    """Mean milliseconds per frame, after one warm-up frame fills the caches."""
    surface = pygame.Surface(size)
    frame = example_frame(view)
    draw_view(surface, view, frame, 0.0)
    start = time.perf_counter()
    for index in range(frames):
        draw_view(surface, view, frame, index / 30)
    return (time.perf_counter() - start) * 1000 / frames


def run(args=None) -> None:
    pygame.font.init()
    frames = int(getattr(args, "frames", 0) or 60)
    views = all_views()
    for width, height in SIZES:
        figures = []
        for key, view in views.items():
            if key.split("/")[1] in SCREENS:
                figures.append((time_screen(view, (width, height), frames), key))
        mean = sum(ms for ms, _ in figures) / len(figures)
        worst, worst_key = max(figures)
        print(f"display {width}x{height}: {mean:.2f} ms/frame mean, {worst:.2f} ms worst ({worst_key}), {len(figures)} screens x {frames} frames")


if __name__ == "__main__":
    run()
