"""Train the learned card reader's two networks on composites (tools.card_net.compose):

- the index detector: the d6 reader's CenterNet-style network (tools.dice_net.models)
  with four output channels at stride 4: the heatmap of corner-index centres, the log
  of the index block's height / 4, and the index's "down" direction (x, y);
- the index classifier: a crop of each index turned upright (vision.cards.net.index_crop), two
  heads: the rank (class 0: no index here: bare table, a card's middle, a back, a die,
  a chip, an index upside down) and the suit.

    python -m tools.card_net.train --part det --out runs/cardnet --steps 2500
    python -m tools.card_net.train --part index --out runs/cardnet --steps 2500 [--resume]
    python -m tools.card_net.train --part index --out runs/cardnet2 --init runs/cardnet/index.pt \
        --negatives runs/cardnet/mined.npz --lr 1.5e-3 --steps 3000 --seed 1     # fine-tuning

The shipped recipe, step by step: docs/vision-cards-d10.md, "The learned card reader".

Designs in tools.card_net.faces.HELD_OUT are never drawn. Fixed seed, one thread, a
checkpoint every --ckpt-every steps (runs/<out>/<part>_last.pt), the weights at the end
in runs/<out>/<part>.pt."""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import json
import math
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from table.rules.cards import RANKS
from tools.card_net import compose, faces
from tools.dice_net.ckpt import lr_at, resume, save, take_step
from tools.dice_net.data import DEFAULT_DATA
from tools.dice_net.models import Detector, Face, headed_detector
from tools.domino_net.compose import DEFAULT_CACHE, all_tables
from vision.cards.net import index_crop

STRIDE = 4
CHANNELS = 4  # heat, log(height / 4), down x, down y
CROP, CROP_SCALE = 40, 1.5  # classifier input, and its side in index heights
SUITS = faces.SUITS
RANK_CLASSES = 1 + len(RANKS)  # 0: no index


def detector() -> Detector:
    return headed_detector(CHANNELS, heatmaps=1)


def classifier() -> Face:
    return Face((24, 48, 64, 96), RANK_CLASSES + len(SUITS))


class ClassifierExport(nn.Module):
    """uint8-range BGR crops in; rank probabilities (14) then suit probabilities (4)."""

    def __init__(self, net: nn.Module):
        super().__init__()
        self.net = net

    def forward(self, x):
        y = self.net(x / 255.0 - 0.5)
        return torch.cat([torch.softmax(y[:, :RANK_CLASSES], 1), torch.softmax(y[:, RANK_CLASSES:], 1)], 1)


def det_targets(indices: list[compose.Index], size: int):
    g = size // STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((3, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    ignore = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for ix_ in indices:
        if not (ix_.shown or ix_.unclear):
            continue
        cx, cy = ix_.centre / STRIDE
        if not (0 <= cx < g and 0 <= cy < g):
            continue
        ix, iy = int(cx), int(cy)
        sigma = max(0.6, 0.2 * ix_.height / STRIDE)
        d2 = (xx - ix) ** 2 + (yy - iy) ** 2
        if ix_.unclear:
            ignore = np.maximum(ignore, (d2 <= (2 * sigma + 1) ** 2).astype(np.float32))
            continue
        heat = np.maximum(heat, np.exp(-d2 / (2 * sigma * sigma)))
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (math.log(max(ix_.height, 2.0) / STRIDE), ix_.down[0], ix_.down[1])
        mask[iy, ix] = 1.0
    ignore[heat >= 1.0] = 0.0
    return heat, reg, mask, ignore


def det_batch(rng, n, size, tabs, designs, long_range=compose.LONG_RANGE):
    imgs, hs, rs, ms, igs = [], [], [], [], []
    for _ in range(n):
        img, indices = compose.scene(rng, size, tabs, designs, long_range=long_range)
        h, r, m, ig = det_targets(indices, size)
        imgs.append(img)
        hs.append(h)
        rs.append(r)
        ms.append(m)
        igs.append(ig)
    x = torch.from_numpy(np.stack(imgs)).permute(0, 3, 1, 2).float() / 255.0 - 0.5
    return x, *(torch.from_numpy(np.stack(v)) for v in (hs, rs, ms, igs))


def det_loss(out, heat, reg, mask, ignore):
    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = (heat >= 1.0).float()
    neg = (1.0 - pos) * (1.0 - ignore)
    pos_l = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_l = -(torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * neg).sum()
    npos = pos.sum().clamp(min=1.0)
    size_l = (torch.abs(out[:, 1] - reg[:, 0]) * mask).sum() / npos
    down_l = (torch.abs(out[:, 2:4] - reg[:, 1:3]) * mask[:, None]).sum() / npos
    return (pos_l + neg_l) / npos, size_l, down_l


def _jitter(rng, centre, down, height, far: float = 0.12, turn: float = 12.0, grow: float = 0.15):
    a = math.radians(rng.uniform(-turn, turn))
    d = np.array([down[0] * math.cos(a) - down[1] * math.sin(a), down[0] * math.sin(a) + down[1] * math.cos(a)])
    c = np.asarray(centre) + rng.uniform(-far, far, 2) * height
    return c, d, height * math.exp(rng.uniform(-grow, grow))


def index_samples(rng, tabs, designs, size: int = 512):
    """Crops from one composite: (crop, rank class, suit class or -1)."""
    img, indices = compose.scene(rng, size, tabs, designs, long_range=(40.0, 420.0), frame_side=size)
    out = []
    heights = [i.height for i in indices if i.shown] or [float(rng.uniform(8, 60))]
    for ix_ in indices:
        if ix_.shown:
            for _ in range(2):  # two cuts of each index, each as a detector might place it
                c, d, h = _jitter(rng, ix_.centre, ix_.down, ix_.height)
                out.append((index_crop(img, c, d, h, CROP, CROP_SCALE), 1 + RANKS.index(ix_.rank),
                            SUITS.index(ix_.suit)))
            if rng.random() < 0.5:  # the same index upside down: no index read this way
                c, d, h = _jitter(rng, ix_.centre, -ix_.down, ix_.height)
                out.append((index_crop(img, c, d, h, CROP, CROP_SCALE), 0, -1))
            if rng.random() < 0.3:  # half an index off: the crop is not on it
                shift = ix_.down * ix_.height * rng.choice([-1, 1]) * rng.uniform(0.45, 0.8)
                out.append((index_crop(img, ix_.centre + shift, ix_.down, ix_.height, CROP, CROP_SCALE), 0, -1))
    for _ in range(max(3, len(out) // 3)):  # anywhere else
        h = float(heights[int(rng.integers(len(heights)))]) * math.exp(rng.uniform(-0.3, 0.3))
        c = rng.uniform(0, size, 2)
        if any(np.hypot(*(c - i.centre)) < 0.7 * i.height for i in indices if i.shown or i.unclear):
            continue
        a = rng.uniform(0, 2 * math.pi)
        out.append((index_crop(img, c, (math.cos(a), math.sin(a)), h, CROP, CROP_SCALE), 0, -1))
    return out


def index_batch(rng, n, tabs, designs, mined: np.ndarray | None = None, share: float = 0.0):
    crops: list = []
    n_mined = int(round(n * share)) if mined is not None and len(mined) else 0
    while len(crops) < n - n_mined:
        crops.extend(index_samples(rng, tabs, designs))
    crops = crops[:n - n_mined]
    if n_mined:
        assert mined is not None
        crops += [(mined[i], 0, -1) for i in rng.integers(0, len(mined), n_mined)]
    x = torch.from_numpy(np.stack([c for c, _, _ in crops])).permute(0, 3, 1, 2).float() / 255.0 - 0.5
    return x, torch.tensor([r for _, r, _ in crops]), torch.tensor([s for _, _, s in crops])


def index_loss(out, ranks, suits):
    rank_l = F.cross_entropy(out[:, :RANK_CLASSES], ranks)
    has = suits >= 0
    suit_l = F.cross_entropy(out[has, RANK_CLASSES:], suits[has]) if has.any() else out.sum() * 0
    return rank_l, suit_l


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--part", choices=("det", "index"), required=True)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--steps", type=int, default=2500)
    ap.add_argument("--batch", type=int, default=0, help="default 10 pictures (det), 128 crops (index)")
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ckpt-every", type=int, default=100)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--long-range", type=float, nargs=2, default=compose.LONG_RANGE, metavar=("LO", "HI"),
                    help="det: a card's long side in px at the 448 px run-time frame")
    ap.add_argument("--init", type=Path, help="start from these weights (a fine-tuning run)")
    ap.add_argument("--negatives", type=Path, help="index: no-index crops mined from real photos (tools.card_net.mine)")
    ap.add_argument("--neg-share", type=float, default=0.25, help="share of each batch taken from --negatives")
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    a.out.mkdir(parents=True, exist_ok=True)
    tabs = all_tables(a.data, a.cache)
    designs, held = faces.split(faces.all_faces(np.random.default_rng(a.seed)))
    print(f"tables {len(tabs)}, designs {len(designs)} (held out {sorted(held)})", flush=True)
    about = a.out / "about.json"
    info = json.loads(about.read_text()) if about.exists() else {}
    info.update({"kind": "cards", f"{a.part}_steps": a.steps, "seed": a.seed, "held_out": sorted(held),
                 f"{a.part}_init": str(a.init or ""), f"{a.part}_long_range": list(a.long_range), f"{a.part}_negatives": str(a.negatives or ""),
                 "designs": sorted(designs), "geometry": faces.card_geometry(designs)})
    about.write_text(json.dumps(info, indent=1))
    torch.manual_seed(a.seed)
    model: nn.Module = detector() if a.part == "det" else classifier()
    if a.init:
        model.load_state_dict(torch.load(a.init))
    mined = np.load(a.negatives)["crops"] if a.negatives else None
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    ckpt = a.out / f"{a.part}_last.pt"
    step = resume(model, opt, ckpt) if a.resume else 0
    rng = np.random.default_rng(a.seed * 1000003 + step + (7 if a.part == "index" else 0))
    batch = a.batch or (10 if a.part == "det" else 128)
    model.train()
    t0 = time.time()
    avg: list[float] | None = None
    while step < a.steps:
        if a.part == "det":
            x, heat, reg, mask, ignore = det_batch(rng, batch, a.size, tabs, designs, tuple(a.long_range))
            parts = det_loss(model(x), heat, reg, mask, ignore)
        else:
            x, ranks, suits = index_batch(rng, batch, tabs, designs, mined, a.neg_share)
            parts = index_loss(model(x), ranks, suits)
        take_step(opt, sum(parts), lr_at(a.lr, step, a.steps))
        step += 1
        now = [float(p.item()) for p in parts]
        avg = now if avg is None else [0.98 * p + 0.02 * q for p, q in zip(avg, now)]
        if step % 50 == 0:
            print(f"step {step}/{a.steps} " + " ".join(f"{v:.3f}" for v in avg)
                  + f" {(time.time() - t0) / 50:.2f} s/step", flush=True)
            t0 = time.time()
        if step % a.ckpt_every == 0 or step == a.steps:
            save(model, opt, step, ckpt)
    torch.save(model.state_dict(), a.out / f"{a.part}.pt")
    print("done", flush=True)


if __name__ == "__main__":
    main()
