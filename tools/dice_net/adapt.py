"""Adapt a run's face classifier to a new table without labels: its batch-norm
statistics recomputed on the crops its own detector finds in photos of that table
(AdaBN), the weights left as trained. A measure of whether a table's unlabelled
pictures alone can close part of the gap a left-out source shows.

    python -m tools.dice_net.adapt --run runs/lo-web --source dice-webcam-gray@0/2 --out runs/lo-web-bn0
    python -m tools.dice_net.sweep --config runs/lo-web-bn0/dice_net.json --only dice-webcam-gray@1/2

The crops come from part K of the source (`SOURCE@K/N`, split by photo group, as
--leave-out splits): score the other part, which the adaptation never saw. `--blend W`
keeps W of the trained statistics (0: the new table's alone). The detector is the
run's, unchanged; the thresholds are the run's calibrated ones."""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import shutil
from pathlib import Path

import numpy as np
import torch

from tools.dice_net import models
from tools.dice_net.data import DEFAULT_DATA, leave_spec, left_out, load_photos
from tools.dice_net.export import write_onnx
from tools.dice_net.models import Face

BATCH = 256


def table_crops(config: Path, photos, threshold: float) -> np.ndarray:
    """The face classifier's inputs (N x 3 x S x S, uint8-range floats) for every
    detection at `threshold` in the photos: what the table's own reader would cut."""
    from vision import dice_net

    nets = dice_net.load_nets(config)
    out = []
    for photo in photos:
        frame = dice_net._check_frame(photo.load())
        dets = dice_net.detect(frame, nets, threshold)
        if dets:
            out.append(dice_net.face_crops(frame, nets, dets))
    if not out:
        raise SystemExit("no detections in those photos: nothing to adapt on")
    return np.concatenate(out)


def load_face(run: Path) -> tuple[Face, int]:
    """A run's face classifier (face.pt) and its input size."""
    st = torch.load(run / "face.pt")
    return models.load_face(st), models.face_size(st)


@torch.no_grad()
def adapt_batchnorm(face: Face, crops: np.ndarray, blend: float = 0.0) -> Face:
    """Each batch-norm layer's running mean and variance recomputed over `crops` (the
    cumulative average over batches of BATCH), then blended with the trained ones
    (`blend` of the trained). Dropout stays off; no weight changes."""
    norms = [m for m in face.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    trained = [(m.running_mean.clone(), m.running_var.clone()) for m in norms]
    for m in norms:
        m.reset_running_stats()
        m.momentum = None  # a plain average over every batch seen
    face.eval()
    for m in norms:
        m.train()
    x = torch.from_numpy(crops)
    for start in range(0, len(x), BATCH):
        face(x[start:start + BATCH] / 255.0 - 0.5)
    for m, (mean, var) in zip(norms, trained):
        m.running_mean.mul_(1 - blend).add_(blend * mean)
        m.running_var.mul_(1 - blend).add_(blend * var)
        m.eval()
    return face


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--run", type=Path, required=True, help="a run with face.pt and onnx/ (its exported networks)")
    ap.add_argument("--config", type=Path, help="the run's reader config (default RUN/onnx/dice_net.json)")
    ap.add_argument("--source", type=leave_spec, required=True, help="SOURCE@K/N: the photos to adapt on")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--blend", type=float, default=0.0, help="share of the trained statistics kept")
    ap.add_argument("--threshold", type=float, help="detector threshold for the crops (default: the config's)")
    a = ap.parse_args(argv)
    config = a.config or a.run / "onnx" / "dice_net.json"
    cfg = json.loads(config.read_text())
    photos = [p for p in load_photos(a.data, (a.source[0],)) if left_out(p, [a.source])]
    threshold = float(cfg["detector"]["threshold"] if a.threshold is None else a.threshold)
    crops = table_crops(config, photos, threshold)
    face, size = load_face(a.run)
    adapt_batchnorm(face, crops, a.blend)
    a.out.mkdir(parents=True, exist_ok=True)
    shutil.copy(config.parent / cfg["detector"]["file"], a.out / "dice_detector.onnx")
    write_onnx(None, face, size, a.out, "dice")
    cfg["detector"]["file"], cfg["face"]["file"] = "dice_detector.onnx", "dice_face.onnx"
    cfg["adapted"] = {"source": "@".join([a.source[0], f"{a.source[1]}/{a.source[2]}"]) if a.source[2] else
                      a.source[0], "photos": len(photos), "crops": int(len(crops)), "blend": a.blend,
                      "detector_threshold": threshold}
    (a.out / "dice_net.json").write_text(json.dumps(cfg, indent=1) + "\n")
    print(f"{a.out / 'dice_net.json'}: batch norm from {len(crops)} crops of {len(photos)} photos")


if __name__ == "__main__":
    main()
