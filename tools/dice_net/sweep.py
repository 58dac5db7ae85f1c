"""Right, wrong and phantom dice over a grid of thresholds on one source: recipes
compared at equal wrong reads rather than at thresholds each run's calibration chose.

    python -m tools.dice_net.sweep --config runs/lo-aws/onnx/dice_net.json --source dice-aws
    python -m tools.dice_net.sweep --config vision/models/dice_net.json --split val
    python -m tools.dice_net.sweep --config runs/d6s-fold0/onnx/dice_net.json --only dice-d6-photos@0/2

Percentages are of the source's labelled dice that have a value (as evaluate counts
them); "wrong of read" is wrong / (right + wrong). Only for comparing recipes: the
thresholds a reader ships with are chosen by calibrate on photos of the sources it was
trained on, never on the source scored here."""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
from pathlib import Path

import numpy as np

from tools.dice_net.calibrate import outcomes
from tools.dice_net.data import DEFAULT_DATA, PHOTO_SOURCES, is_val, leave_spec, left_out, load_photos

DETECTOR = (0.2, 0.3, 0.4)
FACE = (0.9, 0.97, 0.99, 0.997, 0.999)
NOT_DIE = 0.3
WRONG_OF_READ = (0.002, 0.005, 0.01, 0.02)


def right_at_wrong(conf, status, n: int, limit: float) -> tuple[float, float]:
    """The most dice read right (% of n) at a face threshold whose reads keep wrong / read
    at or under `limit` (phantoms and dice with no value aside), and that threshold:
    recipes compared at equal wrong reads, whatever threshold each would need."""
    keep = (status == 1) | (status == 2)
    c, st = conf[keep], status[keep]
    order = np.argsort(-c, kind="stable")
    c, wrong = c[order], np.cumsum(st[order] == 2)
    read = np.arange(1, len(c) + 1)
    # a threshold at c[i] reads every die of that confidence: cut only where it changes
    ok = np.append(c[1:] != c[:-1], True) & (wrong <= limit * read)
    if not ok.any():
        return 0.0, 1.0
    i = int(np.flatnonzero(ok)[-1])
    return 100 * (read[i] - int(wrong[i])) / n, float(c[i])


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--config", type=Path, required=True)
    ap.add_argument("--source", choices=PHOTO_SOURCES, action="append", help="default: every source")
    ap.add_argument("--only", type=leave_spec, help="SOURCE@K/N: only that part of a source (a fold left out)")
    ap.add_argument("--split", choices=("all", "val"), default="all", help="val: the photos calibrate chooses on")
    a = ap.parse_args(argv)
    from vision.dice_net import candidates

    sources = (a.only[0],) if a.only else tuple(a.source or PHOTO_SOURCES)
    photos = [p for p in load_photos(a.data, sources) if (a.split == "all" or is_val(p))
              and (not a.only or left_out(p, [a.only]))]
    per_photo = [(candidates(ph.load(), a.config, min_score=min(DETECTOR)), ph.dice) for ph in photos]
    n = sum(1 for ph in photos for d in ph.dice if d["value"] is not None)
    print(f"{a.config} on {', '.join(sources)} ({a.split}): {n} dice with a value; not-a-die threshold {NOT_DIE}")
    print("detector  face    right%  wrong%  phantom%  wrong-of-read%")
    found = {det_thr: outcomes(per_photo, det_thr, NOT_DIE)[:2] for det_thr in DETECTOR}
    for det_thr, (conf, status) in found.items():
        for ft in FACE:
            read = conf >= ft
            right, wrong = int(((status == 1) & read).sum()), int(((status == 2) & read).sum())
            phantom = int(((status == -1) & read).sum())
            print(f"{det_thr:8.2f}  {ft:5.3f}  {100 * right / n:6.1f}  {100 * wrong / n:6.2f}  {100 * phantom / n:8.2f}"
                  f"  {100 * wrong / max(1, right + wrong):14.2f}")
    print("detector  at wrong-of-read <=  right%  (face threshold)")
    for det_thr, (conf, status) in found.items():
        print(f"{det_thr:8.2f}  " + "  ".join(
            f"{100 * lim:.1f}%: {r:5.1f} ({t:.4f})" for lim in WRONG_OF_READ
            for r, t in [right_at_wrong(conf, status, n, lim)]))


if __name__ == "__main__":
    main()
