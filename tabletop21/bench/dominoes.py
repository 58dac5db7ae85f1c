"""Timing the domino readers on one core, the way the Pi will run it.

Prints milliseconds per 640x640 image over the committed fixtures (and the real dice
photos when present, which measures what a reader costs on frames without tiles), for
the default reader (the hand-built and learned readers merged, vision.dominoes.both)
and for each of the two alone.
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np

from vision.image_io import load_bgr
from vision.read import OTHER_READERS, READERS

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "calibration_images" / "dominoes" / "images"
DICE_PHOTOS = REPO.parent / "shared" / "data" / "dice-d6-photos" / "images"


def run(args=None) -> None:
    cv2.setNumThreads(1)
    repeat = getattr(args, "repeat", 3) if args is not None else 3
    readers = (("default (merged)", READERS["dominoes"]), ("hand-built alone", OTHER_READERS["dominoes-hand"]),
               ("learned alone", OTHER_READERS["dominoes-net"]))
    # Scattered scenes (6-10 tiles) are the heavy case; lone tiles and gap scenes are
    # cheaper and would flatter the average.
    for label, folder, pattern in (("domino fixtures, scattered scenes", FIXTURES, "scatter_*.jpg"),
                                   ("domino fixtures, all", FIXTURES, "*.jpg"),
                                   ("real dice photos", DICE_PHOTOS, "*.jpg")):
        frames = [cv2.resize(load_bgr(p), (640, 640)) for p in sorted(folder.glob(pattern))]
        if not frames:
            print(f"{label}: none found in {folder}")
            continue
        for name, read in readers:
            read(frames[0], None)  # warm-up: first-call allocations (and model loads) are not the cost
            wall = time.perf_counter()
            cpu = np.zeros((repeat, len(frames)))
            for r in range(repeat):
                for i, frame in enumerate(frames):
                    start = time.process_time()
                    read(frame, None)
                    cpu[r, i] = time.process_time() - start
            wall_ms = 1000 * (time.perf_counter() - wall) / cpu.size
            # CPU time is the figure for one core; wall time also counts waiting for a
            # core on a shared machine. Other work on the machine still slows single runs
            # (caches, clock): each image's least CPU time over the repeats is the reader's
            # own cost, as timeit takes the best of its runs.
            print(f"{label}, {name}: {1000 * cpu.mean():.1f} ms CPU ({wall_ms:.1f} ms wall) per 640x640 image, "
                  f"{1000 * cpu.min(axis=0).mean():.1f} ms taking each image's best of {repeat} "
                  f"({len(frames)} images x {repeat}, 1 thread)")


if __name__ == "__main__":
    run()
