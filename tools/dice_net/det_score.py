"""The detector alone, before any face is read: of the labelled dice of a source, how many
have a detection peak inside their box, and how many peaks lie in no labelled box, at a
few detector thresholds. It compares detector recipes without training a face classifier.

    python -m tools.dice_net.det_score --run runs/lo-aws --source dice-aws
    python -m tools.dice_net.det_score --run runs/d6s-fold0 --source dice-d6-photos@0/2
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
from pathlib import Path

import torch

from tools.dice_net.data import DEFAULT_DATA, leave_spec, left_out, load_photos
from tools.dice_net.mine import detect
from tools.dice_net.models import Detector

THRESHOLDS = (0.2, 0.3, 0.4, 0.5, 0.6)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--run", type=Path, required=True, help="a folder holding det.pt")
    ap.add_argument("--source", type=leave_spec, required=True, help="SOURCE, or SOURCE@K/N: part K of N")
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    model = Detector()
    model.load_state_dict(torch.load(a.run / "det.pt"))
    model.eval()
    found = {t: 0 for t in THRESHOLDS}
    extra = {t: 0 for t in THRESHOLDS}
    n_dice = 0
    photos = [ph for ph in load_photos(a.data, (a.source[0],)) if left_out(ph, [a.source])]
    for ph in photos:
        peaks = detect(model, ph.load(), min(THRESHOLDS))
        boxes = [d["box"] for d in ph.dice]
        n_dice += len(boxes)
        for t in THRESHOLDS:
            kept = [(cx, cy) for cx, cy, _, _, s in peaks if s >= t]
            found[t] += sum(any(x0 <= cx <= x1 and y0 <= cy <= y1 for cx, cy in kept) for x0, y0, x1, y1 in boxes)
            extra[t] += sum(not any(x0 <= cx <= x1 and y0 <= cy <= y1 for x0, y0, x1, y1 in boxes) for cx, cy in kept)
    print(f"{a.run} on {a.source[0]}{f'@{a.source[1]}/{a.source[2]}' if a.source[2] else ''}: {len(photos)} photos, {n_dice} dice")
    for t in THRESHOLDS:
        print(f"  threshold {t}: found {found[t] / n_dice:.1%}, peaks in no box {extra[t] / n_dice:.1%} of the dice")


if __name__ == "__main__":
    main()
