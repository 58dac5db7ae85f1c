"""`tabletop21 bench dice`: milliseconds per 640x640 frame for the dice reader (the
hand-built and learned readers together, vision.dice_seen) and the settle
detector, single-threaded (a Pi 4 core is roughly five times slower than one
core of the development machine), the reader on frames of the appliance camera's
size, and the peak memory of a fresh process with the readers loaded."""

from __future__ import annotations

import resource
import time
from pathlib import Path

import cv2
import numpy as np

from tabletop21.bench.memory import fresh_peak_mb
from tabletop21.progress import progress
from vision.dice import read_dice as read_dice_hand
from vision.dice_net import read_dice_net
from vision.dice_seen import read_dice_seen as read_dice
from vision.image_io import load_bgr
from vision.settle import SettleDetector

REPO = Path(__file__).resolve().parents[2]
PHOTO_SETS = {
    "real photos": REPO.parent / "shared" / "data" / "dice-d6-photos" / "images",
    "rendered fixtures": REPO / "calibration_images" / "dice" / "images",
}


READ_PASSES = 3


def bench_frame(path: Path) -> np.ndarray:
    frame = load_bgr(path)
    return frame if frame.shape[:2] == (640, 640) else cv2.resize(frame, (640, 640), interpolation=cv2.INTER_AREA)


def _camera_frame(path: Path) -> np.ndarray:
    """A 1280x720 frame, the appliance camera's size, with dice twice as big as in the
    640x640 photos (about 40-75 pixels across, as the README's camera height gives)."""
    return cv2.resize(bench_frame(path), (1280, 1280), interpolation=cv2.INTER_LINEAR)[280:1000]


def timings(fn, paths: list[Path], load=bench_frame, passes: int = 1) -> np.ndarray:
    """Per-frame milliseconds, (passes, frames); frames are loaded one at a time so
    memory stays the reader's own, and loading is not timed."""
    fn(load(paths[0]))  # the first call loads the model: not a per-frame cost
    out = np.zeros((passes, len(paths)))
    steps = ((p, i, path) for p in range(passes) for i, path in enumerate(paths))
    for p, i, path in progress(steps, passes * len(paths), "frames timed"):
        frame = load(path)
        start = time.perf_counter()
        fn(frame)
        out[p, i] = (time.perf_counter() - start) * 1000
    return out


def decode_multiple(fn, paths: list[Path], runs: int = 3) -> float:
    """The read's time as a multiple of decoding the same frame's JPEG (cv2.imdecode of
    the 640x640 frame encoded at quality 90), best of `runs` each, median over the
    frames: a figure that holds when a shared machine is busy, as both slow alike."""
    fn(bench_frame(paths[0]))
    ratios = []
    for path in progress(paths, len(paths), "frames timed against decoding"):
        frame = bench_frame(path)
        jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])[1]
        decode, read = [], []
        for _ in range(runs):
            start = time.perf_counter()
            cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
            decode.append(time.perf_counter() - start)
            start = time.perf_counter()
            fn(frame)
            read.append(time.perf_counter() - start)
        ratios.append(min(read) / min(decode))
    return float(np.median(ratios))


def run(args=None) -> None:
    cv2.setNumThreads(1)
    for name, folder in PHOTO_SETS.items():
        if not folder.is_dir():
            print(f"{name}: not found at {folder}, skipped")
            continue
        paths = sorted(folder.glob("*.jpg"))
        # Three passes: the first is what one read costs as it comes; each frame's least
        # of the three is its cost with this shared machine's passing slowdowns left out
        # (they move a mean by a tenth from one minute to the next).
        passes = timings(read_dice, paths, passes=READ_PASSES)
        reader, least = passes[0], passes.min(axis=0)
        settle = timings(SettleDetector().update, paths)[0]
        print(f"{name} ({len(paths)} frames, 640x640, 1 thread): read_dice mean {reader.mean():.1f} ms, "
              f"median {np.median(reader):.1f} ms, p95 {np.percentile(reader, 95):.1f} ms, "
              f"max {reader.max():.1f} ms (each frame's least of {READ_PASSES} reads: mean {least.mean():.1f} ms); "
              f"SettleDetector.update mean {settle.mean():.2f} ms")
        camera = timings(read_dice, paths, _camera_frame)[0]
        print(f"{name} enlarged twice, cut to 1280x720 (the camera's frames): read_dice mean {camera.mean():.1f} ms, "
              f"p95 {np.percentile(camera, 95):.1f} ms")
        hand = timings(read_dice_hand, paths, passes=READ_PASSES).min(axis=0)
        print(f"{name}: the hand-built reader alone (vision.dice.read_dice) mean "
              f"{hand.mean():.1f} ms (each frame's least of {READ_PASSES}), against {least.mean():.1f} ms for both")
        learned = timings(read_dice_net, paths, passes=READ_PASSES).min(axis=0)
        learned_camera = timings(read_dice_net, paths, _camera_frame)[0]
        print(f"{name}: the learned reader (read_dice_net, one onnxruntime thread) mean {learned.mean():.1f} ms "
              f"(each frame's least of {READ_PASSES}), at 1280x720 {learned_camera.mean():.1f} ms")
        print(f"{name}: a read as a multiple of decoding the frame's JPEG (best of 3 each, median over frames): "
              f"read_dice {decode_multiple(read_dice, paths):.1f}x, read_dice_net "
              f"{decode_multiple(read_dice_net, paths):.1f}x")
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    photos = sorted(PHOTO_SETS["real photos"].glob("*.jpg"))
    sizes = ((640, 640), (1280, 720))
    readers = ["vision.dice_seen.read_dice_seen", "vision.dice_net.read_dice_net", "vision.dice.read_dice"]
    for hand_back, how in ((True, "memory handed back after each read, as the appliance does"),
                           (False, "memory kept by malloc between reads")):
        peaks = [fresh_peak_mb(r, photos, sizes, hand_back) for r in (readers[:1], readers[1:2], readers[2:])]
        print(f"peak memory of a fresh process reading the {len(photos)} real photos at 640x640 and 1280x720, "
              f"{how}: the shipped reader {peaks[0]:.0f} MB, the learned one {peaks[1]:.0f} MB, the hand-built "
              f"one alone (no detector) {peaks[2]:.0f} MB")
    print(f"this benchmark's process {peak_kb / 1024:.0f} MB")
