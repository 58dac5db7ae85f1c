"""Hard negatives for the face classifier's "not a die" class: the trained detector's
false detections on the training photos (a peak whose centre lies in no labelled box),
cut as the face trainer stores its patches.

    python -m tools.dice_net.mine --run runs/all [--leave-out SOURCE]   # -> runs/all/hard.npz
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from tools.dice_net.data import DEFAULT_DATA, PAD_VALUE, is_val, kept_sources, leave_spec, left_out, load_photos
from tools.dice_net.models import Detector
from tools.dice_net.train_det import INPUT, STRIDE
from tools.dice_net.train_face import _patch


def detect(model, img, min_score):
    h, w = img.shape[:2]
    scale = INPUT / max(h, w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    canvas = np.full((INPUT, INPUT, 3), PAD_VALUE, np.uint8)
    canvas[:nh, :nw] = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    with torch.no_grad():
        out = model(torch.from_numpy(canvas).permute(2, 0, 1)[None].float() / 255 - 0.5)[0]
    heat = torch.sigmoid(out[0])
    peaks = (heat == F.max_pool2d(heat[None, None], 3, 1, 1)[0, 0]) & (heat >= min_score)
    found = []
    for y, x in peaks.nonzero().tolist():
        cx, cy = (x + 0.5) * STRIDE / scale, (y + 0.5) * STRIDE / scale
        if cx >= w or cy >= h:
            continue
        bw = float(torch.exp(out[1, y, x])) * STRIDE / scale
        bh = float(torch.exp(out[2, y, x])) * STRIDE / scale
        found.append((cx, cy, bw, bh, float(heat[y, x])))
    return found


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--run", type=Path, required=True)
    ap.add_argument("--leave-out", action="append", default=[], type=leave_spec)
    ap.add_argument("--min-score", type=float, default=0.15)
    ap.add_argument("--config", type=Path, help="mine with an exported detector (this dice_net.json's) instead of "
                    "RUN/det.pt; the patches still go to RUN/hard.npz")
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    if a.config:
        from vision import dice_net

        nets = dice_net.load_nets(a.config)

        def found_in(img):
            return [(*d["center"], d["w"], d["h"], d["score"]) for d in dice_net.detect(img, nets, a.min_score)]
    else:
        model = Detector()
        model.load_state_dict(torch.load(a.run / "det.pt"))
        model.eval()

        def found_in(img):
            return detect(model, img, a.min_score)
    a.run.mkdir(parents=True, exist_ok=True)
    patches, n_photos = [], 0
    for ph in load_photos(a.data, kept_sources(a.leave_out)):
        if is_val(ph) or left_out(ph, a.leave_out):
            continue
        n_photos += 1
        img = ph.load()
        boxes = [d["box"] for d in ph.dice]
        for cx, cy, bw, bh, _ in found_in(img):
            if any(x0 <= cx <= x1 and y0 <= cy <= y1 for x0, y0, x1, y1 in boxes):
                continue
            patches.append(_patch(img, (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2)))
    arr = np.stack(patches) if patches else np.zeros((0, 96, 96, 3), np.uint8)
    np.savez_compressed(a.run / "hard.npz", patches=arr)
    print(f"{len(arr)} false detections from {n_photos} training photos", flush=True)


if __name__ == "__main__":
    main()
