"""`tabletop21 bench dice`: milliseconds per 640x640 frame for the dice reader and the
settle detector, single-threaded (a Pi 4 core is roughly five times slower than one
core of the development machine), and the peak memory of the process."""

from __future__ import annotations

import resource
import time
from pathlib import Path

import cv2
import numpy as np

from vision.dice import read_dice
from vision.image_io import load_bgr
from vision.settle import SettleDetector

REPO = Path(__file__).resolve().parents[1]
PHOTO_SETS = {
    "real photos": REPO.parent / "shared" / "data" / "dice-d6-photos" / "images",
    "rendered fixtures": REPO / "calibration_images" / "dice" / "images",
}


def _frame(path: Path) -> np.ndarray:
    frame = load_bgr(path)
    return frame if frame.shape[:2] == (640, 640) else cv2.resize(frame, (640, 640), interpolation=cv2.INTER_AREA)


def _timings(fn, paths: list[Path]) -> np.ndarray:
    """Per-frame milliseconds; frames are loaded one at a time so memory stays the
    reader's own, and loading is not timed."""
    fn(_frame(paths[0]))  # the first call loads the model: not a per-frame cost
    out = []
    for path in paths:
        frame = _frame(path)
        start = time.perf_counter()
        fn(frame)
        out.append((time.perf_counter() - start) * 1000)
    return np.array(out)


def run(args=None) -> None:
    cv2.setNumThreads(1)
    for name, folder in PHOTO_SETS.items():
        if not folder.is_dir():
            print(f"{name}: not found at {folder}, skipped")
            continue
        paths = sorted(folder.glob("*.jpg"))
        reader = _timings(read_dice, paths)
        settle = _timings(SettleDetector().update, paths)
        print(f"{name} ({len(paths)} frames, 640x640, 1 thread): read_dice mean {reader.mean():.1f} ms, "
              f"median {np.median(reader):.1f} ms, p95 {np.percentile(reader, 95):.1f} ms, "
              f"max {reader.max():.1f} ms; SettleDetector.update mean {settle.mean():.2f} ms")
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak memory (max RSS of this process): {peak_kb / 1024:.0f} MB")
