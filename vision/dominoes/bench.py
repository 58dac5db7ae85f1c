"""Timing the domino reader on one core, the way the Pi will run it.

Prints milliseconds per 640x640 image over the committed fixtures (and the real dice
photos when present, which measures what the reader costs on frames without tiles).
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2

from vision.dominoes import read_dominoes
from vision.image_io import load_bgr

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "calibration_images" / "dominoes" / "images"
DICE_PHOTOS = REPO.parent / "shared" / "data" / "dice-d6-photos" / "images"


def run(args=None) -> None:
    cv2.setNumThreads(1)
    repeat = getattr(args, "repeat", 3) if args is not None else 3
    # Scattered scenes (6-10 tiles) are the heavy case; lone tiles and gap scenes are
    # cheaper and would flatter the average.
    for label, folder, pattern in (("domino fixtures, scattered scenes", FIXTURES, "scatter_*.jpg"),
                                   ("domino fixtures, all", FIXTURES, "*.jpg"),
                                   ("real dice photos", DICE_PHOTOS, "*.jpg")):
        frames = [cv2.resize(load_bgr(p), (640, 640)) for p in sorted(folder.glob(pattern))]
        if not frames:
            print(f"{label}: none found in {folder}")
            continue
        read_dominoes(frames[0], None)  # warm-up: first-call allocations are not the cost
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(repeat):
            for frame in frames:
                read_dominoes(frame, None)
        runs = repeat * len(frames)
        wall_ms = 1000 * (time.perf_counter() - wall) / runs
        cpu_ms = 1000 * (time.process_time() - cpu) / runs
        # CPU time is the figure for one core; wall time also counts waiting for a
        # core on a shared machine.
        print(f"{label}: {cpu_ms:.1f} ms CPU ({wall_ms:.1f} ms wall) per 640x640 image "
              f"({len(frames)} images x {repeat}, 1 thread)")


if __name__ == "__main__":
    run()
