"""Speed of the card and d10 readers on one core, as the Pi runs them (`tabletop21 bench
cards`): the default card reader (vision.cards.learned) and its two parts, the
hand-built card reader, and the two d10 readers. Prints per-image CPU milliseconds,
mean and worst, on the committed fixtures (frames full of the reader's own objects) and
on the real d6 photos when present (frames where it must find nothing, which is most of
what it sees during a dice game), the default card reader on the card fixtures enlarged
twice (the size a 1280-pixel camera frame shows cards at), and the peak memory of a
fresh process with every reader loaded (`readers_peak_mb`)."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np

from tabletop21.bench.memory import fresh_peak_mb
from vision.cards import read_cards as read_cards_hand_built
from vision.cards.learned import read_cards_learned
from vision.cards.net import read_cards_net
from vision.cards.read import read_backs
from vision.d10 import read_d10
from vision.d10.net import read_d10_net
from vision.image_io import load_bgr

REPO = Path(__file__).resolve().parents[2]
SETS = {
    "card fixtures": REPO / "calibration_images" / "cards" / "images",
    "d10 fixtures": REPO / "calibration_images" / "d10" / "images",
    "real d6 photos": REPO.parent / "shared" / "data" / "dice-d6-photos" / "images",
    "real d10 photos": REPO.parent / "shared" / "data" / "d10-photos" / "images",
}


def per_image_cpu_ms(reader, frames: list[np.ndarray], repeat: int) -> np.ndarray:
    """CPU time of each call (one core's work, whatever else the machine is doing)."""
    reader(frames[0], None)  # first call loads the glyph templates
    times = []
    for _ in range(repeat):
        for frame in frames:
            start = time.process_time()
            reader(frame, None)
            times.append(1000 * (time.process_time() - start))
    return np.array(times)


def _print(name: str, label: str, ms: np.ndarray, frames: list[np.ndarray], repeat: int) -> None:
    h, w = frames[0].shape[:2]
    print(f"{name} on {label}: {ms.mean():.1f} ms mean, {np.percentile(ms, 95):.1f} ms p95, "
          f"{ms.max():.1f} ms worst CPU per {w}x{h} image ({len(frames)} images x {repeat}, 1 thread)")


def run(args=None) -> None:
    cv2.setNumThreads(1)
    repeat = getattr(args, "repeat", 3) if args is not None else 3
    for label, folder in SETS.items():
        frames = [cv2.resize(load_bgr(p), (640, 640)) for p in sorted(folder.glob("*.jpg"))]
        if not frames:
            print(f"{label}: none found in {folder}")
            continue
        frames = frames[::4] if label == "real d10 photos" else frames
        for name, reader in (("cards, the default (learned faces and backs)", read_cards_learned),
                             ("its faces (read_cards_net)", read_cards_net), ("its backs (read_backs)", read_backs),
                             ("hand-built read_cards", read_cards_hand_built), ("read_d10", read_d10),
                             ("read_d10_net", read_d10_net)):
            _print(name, label, per_image_cpu_ms(reader, frames, repeat), frames, repeat)
        if label == "card fixtures":
            big = [cv2.resize(f, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC) for f in frames]
            _print("cards, the default", label + " enlarged twice", per_image_cpu_ms(read_cards_learned, big, repeat),
                   big, repeat)
    print(f"peak memory with every reader loaded, each card fixture read by each: {readers_peak_mb(True):.0f} MB "
          f"with memory handed back after each read as the appliance does, {readers_peak_mb(False):.0f} MB "
          "without (peak resident memory of a fresh process)")


def readers_peak_mb(hand_back: bool = True) -> float:
    """Peak memory of a fresh process that loads every reader (shipped and learned) and
    reads every card fixture with each: what the Pi holds with all of them loaded (with
    `hand_back`, freed memory handed back after each read, as the appliance does)."""
    fixtures = sorted(SETS["card fixtures"].glob("*.jpg"))
    return fresh_peak_mb(["vision.read.READERS", "vision.read.OTHER_READERS"], fixtures, hand_back=hand_back)


if __name__ == "__main__":
    run()
