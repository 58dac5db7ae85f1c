"""Teach the learned d10 reader one die from d10-photos, then score that die's other
photos with and without teaching.

    python -m tools.d10_net.teach_bench --die swirl --config runs/d10-f0/onnx/d10_net.json

Give a model trained with the die's fold held out (tools.d10_net.data.FOLDS), so the
die is one the networks never saw. The teaching photos are --photos frames spread
evenly over the die's runs; the other frames of those runs are scored. A run is one
video of the die resting on one face, so the scored frames are near twins of taught
ones: this is the owner teaching the dice on the table and camera they play with, not
a new table. --hold-run RUN teaches from the die's other runs only and scores RUN: a
face, table and light the teaching never showed (the value taught only where another
run of the die rests on it).

    python -m tools.d10_net.teach_bench --die swirl --hold-run top-0188 --config runs/d10-f0/onnx/d10_net.json"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import time
from pathlib import Path

import numpy as np

from tools.d10_net.data import DICE, load_d10
from tools.dice_net.data import DEFAULT_DATA


def tally(reads, truths) -> dict:
    t = {"d10": 0, "right": 0, "wrong": 0, "refused": 0, "missed": 0, "phantoms": 0, "perfect": 0}
    for read, (value, (x0, y0, x1, y1)) in zip(reads, truths):
        t["d10"] += 1
        on = [d for d in read.d10 if x0 <= d.center[0] <= x1 and y0 <= d.center[1] <= y1]
        off = len(read.d10) - len(on[:1])
        t["phantoms"] += off
        if on:
            t["right" if on[0].value == value else "wrong"] += 1
        elif any(x0 <= u.center[0] <= x1 and y0 <= u.center[1] <= y1 for u in read.unreadable):
            t["refused"] += 1
        else:
            t["missed"] += 1
        t["perfect"] += bool(on) and on[0].value == value and off == 0 and not read.unreadable
    return t


def line(name: str, t: dict) -> str:
    n = max(t["d10"], 1)
    read = max(t["right"] + t["wrong"], 1)
    return (f"{name:8s} {t['d10']:4d} d10: right {100 * t['right'] / n:5.1f}%  wrong {100 * t['wrong'] / read:4.2f}% "
            f"of reads  refused {t['refused']}  missed {t['missed']}  phantoms {100 * t['phantoms'] / n:4.1f}%  "
            f"perfect {100 * t['perfect'] / n:5.1f}%")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--die", choices=DICE, required=True)
    ap.add_argument("--config", type=Path, required=True, help="d10_net.json of a model that never saw the die")
    ap.add_argument("--photos", type=int, default=20)
    ap.add_argument("--hold-run", help="teach from the die's other runs and score this one (e.g. top-0188)")
    a = ap.parse_args(argv)

    from vision.d10.net import read_d10_net
    from vision.teach import Example, read_taught, teach

    photos = [p for p in load_d10(a.data) if p.die == a.die]
    pool = [p for p in photos if p.run != a.hold_run] if a.hold_run else photos
    if a.hold_run and len(pool) == len(photos):
        raise SystemExit(f"{a.hold_run} is no run of the {a.die} die: {sorted({p.run for p in photos})}")
    step = len(pool) / a.photos
    taught_idx = {int(i * step + step / 2) for i in range(a.photos)}
    teach_on = [p for i, p in enumerate(pool) if i in taught_idx]
    rest = [p for p in photos if p.run == a.hold_run] if a.hold_run else \
        [p for i, p in enumerate(pool) if i not in taught_idx]
    examples = [Example(p.path.name, p.load(), ((p.value, p.box),)) for p in teach_on]
    t0 = time.process_time()
    taught = teach("d10", examples, a.config, min_values=1)  # a die here shows 2-4 values; teach refuses that
    spent = time.process_time() - t0
    values = sorted({p.value for p in photos})
    print(f"{a.die}: values {values}; taught from {len(teach_on)} photos in {spent:.1f} s of CPU: enlarge "
          f"{taught.enlarge}, detector {taught.detector_threshold}, head {taught.head_threshold}, shipped kept "
          f"where unsure: {taught.keep_shipped}; {len(taught.to_json())} bytes", flush=True)
    plain, learned, ms = [], [], []
    for p in rest:
        img = p.load()
        plain.append(read_d10_net(img, config=a.config))
        t = time.perf_counter()
        learned.append(read_taught(img, taught, a.config))
        ms.append(1000 * (time.perf_counter() - t))
    truths = [(p.value, p.box) for p in rest]
    print(line("shipped", tally(plain, truths)))
    print(line("taught", tally(learned, truths)))
    print(f"taught read: median {np.median(ms):.1f} ms per frame ({len(ms)} frames, load avg {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
