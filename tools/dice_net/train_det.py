"""Train the die detector (CenterNet-style, stride 4) on the labelled photo sources.

    python -m tools.dice_net.train_det --out runs/all --steps 3000
    python -m tools.dice_net.train_det --out runs/lo-aws --leave-out dice-aws
    python -m tools.dice_net.train_det --out runs/all --resume

Fixed seed; a checkpoint (model, optimiser, step) every --ckpt-every steps and at the
end; --resume carries on from runs/<out>/det_last.pt. One thread (the machine is shared);
--device cuda --workers N trains on a GPU with N processes making the batches.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import math
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import torch

from tools.dice_net.batches import batches
from tools.dice_net.ckpt import cpu_state, device_of, lr_at, resume, save, take_step
from tools.dice_net.data import (
    DEFAULT_DATA,
    PAD_VALUE,
    REPO,
    is_val,
    kept_sources,
    leave_spec,
    left_out,
    load_photos,
    photometric,
    rot_flip,
)
from tools.dice_net.models import Detector

INPUT = 320  # run-time letterbox size
STRIDE = 4


def make_sample(img, dice, rng, size):
    h, w = img.shape[:2]
    boxes = np.array([d["box"] for d in dice], np.float32).reshape(-1, 4)
    scale = INPUT / max(h, w) * math.exp(rng.uniform(math.log(0.5), math.log(2.0)))
    if len(boxes):
        med = float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]))) * scale
        if med > 120:
            scale *= 120 / med * rng.uniform(0.7, 1.0)
        elif med < 9:
            scale *= 9 / med
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    im = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    b = boxes * np.float32(nw / w)
    if len(b) and rng.random() < 0.7:
        i = int(rng.integers(len(b)))
        cx = (b[i, 0] + b[i, 2]) / 2 + rng.uniform(-size / 2.5, size / 2.5)
        cy = (b[i, 1] + b[i, 3]) / 2 + rng.uniform(-size / 2.5, size / 2.5)
    else:
        cx, cy = rng.uniform(0, nw), rng.uniform(0, nh)
    if rng.random() < 0.3:  # as the letterbox puts it: the image's corner at the crop's corner
        ox, oy = 0, 0
    else:
        ox, oy = int(round(cx - size / 2)), int(round(cy - size / 2))
    canvas = np.full((size, size, 3), PAD_VALUE, np.uint8)
    x0, y0 = max(ox, 0), max(oy, 0)
    x1, y1 = min(ox + size, nw), min(oy + size, nh)
    if x1 > x0 and y1 > y0:
        canvas[y0 - oy:y1 - oy, x0 - ox:x1 - ox] = im[y0:y1, x0:x1]
    b = b - np.array([ox, oy, ox, oy], np.float32)
    if len(b):
        c = (b[:, :2] + b[:, 2:]) / 2
        keep = (c[:, 0] >= 0) & (c[:, 0] < size) & (c[:, 1] >= 0) & (c[:, 1] < size)
        b = np.clip(b[keep], 0, size)
    canvas, b = rot_flip(canvas, b, rng)
    canvas = photometric(canvas, rng)
    return canvas, b


def targets(boxes, size):
    g = size // STRIDE
    heat = np.zeros((g, g), np.float32)
    wh = np.zeros((2, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for x0, y0, x1, y1 in boxes:
        bw, bh = max(x1 - x0, 2.0), max(y1 - y0, 2.0)
        cx, cy = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        ix, iy = min(int(cx), g - 1), min(int(cy), g - 1)
        sigma = max(0.6, 0.12 * (bw + bh) / 2 / STRIDE)
        gauss = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma * sigma))
        heat = np.maximum(heat, gauss)
        heat[iy, ix] = 1.0
        wh[:, iy, ix] = (math.log(bw / STRIDE), math.log(bh / STRIDE))
        mask[iy, ix] = 1.0
    return heat, wh, mask


def det_loss(out, heat, wh, mask):
    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = (heat >= 1.0).float()
    neg = 1.0 - pos
    pos_l = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_l = -(torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * neg).sum()
    npos = pos.sum().clamp(min=1.0)
    hl = (pos_l + neg_l) / npos
    sl = (torch.abs(out[:, 1:] - wh) * mask[:, None]).sum() / npos
    return hl, sl


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--leave-out", action="append", default=[], type=leave_spec, help="SOURCE or SOURCE@K/N")
    fit_args(ap)
    ap.add_argument("--all-photos", action="store_true", help="train on the val split too")
    ap.add_argument("--composite", type=float, default=0.0,
                    help="share of pictures that are composites (tools.dice_net.compose); 0 as shipped")
    ap.add_argument("--surfaces", type=float, default=0.0,
                    help="share of composites laid on a table surface drawn from noise (tools.dice_net.surfaces)")
    ap.add_argument("--cache", type=Path, default=REPO / "runs" / "d6cache", help="cut-outs and small tables")
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    a.out.mkdir(parents=True, exist_ok=True)
    sources = kept_sources(a.leave_out)
    photos = [p for p in load_photos(a.data, sources)
              if (a.all_photos or not is_val(p)) and not left_out(p, a.leave_out)]
    by_source = {s: [p for p in photos if p.source == s] for s in sources}
    print(f"train photos: {', '.join(f'{s} {len(v)}' for s, v in by_source.items())}", flush=True)
    if a.composite > 0:
        from tools.dice_net import compose

        cuts = compose.d6_cutouts(photos, a.cache, a.workers)
        tabs = compose.d6_tables(photos, a.data, a.cache, workers=a.workers)
        print(f"composites {a.composite:.0%}: {len(cuts)} cut-outs, {len(tabs)} tables", flush=True)

    def sample(rng: np.random.Generator):
        if a.composite > 0 and rng.random() < a.composite:
            im, b = compose.composite(rng, a.size, tabs, cuts, surfaces=a.surfaces)
            im, b = rot_flip(im, b, rng)
            return photometric(im, rng), b
        src = sources[int(rng.integers(len(sources)))]
        ph = by_source[src][int(rng.integers(len(by_source[src])))]
        return make_sample(ph.load(), ph.dice, rng, a.size)

    fit(a, sample)


def fit_args(ap: argparse.ArgumentParser) -> None:
    """The options `fit` reads, for every detector trainer's command line."""
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ckpt-every", type=int, default=200)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--device", default="cpu", help="cpu, or cuda to train on a GPU")
    ap.add_argument("--workers", type=int, default=0, help="processes making batches (0: this one)")


def fit(a, sample: Callable[[np.random.Generator], tuple[np.ndarray, np.ndarray]]) -> None:
    """Train a Detector from --seed, resuming from a.out/det_last.pt with --resume, on
    batches of `sample(rng)` (a size x size BGR picture and its N x 4 boxes); the
    weights go to a.out/det.pt. The d10 detector (tools.d10_net.train_det) trains so too."""
    torch.manual_seed(a.seed)
    dev = device_of(a.device)
    model = Detector().to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    ckpt = a.out / "det_last.pt"
    step = resume(model, opt, ckpt) if a.resume else 0
    model.train()
    t0 = time.time()
    hl_avg = sl_avg = None

    def make(rng: np.random.Generator) -> tuple[np.ndarray, ...]:
        imgs, hs, whs, ms = [], [], [], []
        for _ in range(a.batch):
            im, b = sample(rng)
            h_, wh_, m_ = targets(b, a.size)
            imgs.append(im)
            hs.append(h_)
            whs.append(wh_)
            ms.append(m_)
        return np.stack(imgs), np.stack(hs), np.stack(whs), np.stack(ms)

    for imgs, hs, whs, ms in batches(make, a.seed, step, a.steps, a.workers):
        x = torch.from_numpy(imgs).to(dev).permute(0, 3, 1, 2).float() / 255.0 - 0.5
        out = model(x)
        hl, sl = det_loss(out, *(torch.from_numpy(t).to(dev) for t in (hs, whs, ms)))
        loss = hl + sl
        take_step(opt, loss, lr_at(a.lr, step, a.steps))
        step += 1
        hl_avg = hl.item() if hl_avg is None else 0.98 * hl_avg + 0.02 * hl.item()
        sl_avg = sl.item() if sl_avg is None else 0.98 * sl_avg + 0.02 * sl.item()
        if step % 50 == 0:
            print(f"step {step}/{a.steps} heat {hl_avg:.3f} size {sl_avg:.3f} "
                  f"{(time.time() - t0) / 50:.2f} s/step", flush=True)
            t0 = time.time()
        if step % a.ckpt_every == 0 or step == a.steps:
            save(model, opt, step, ckpt)
    torch.save(cpu_state(model), a.out / "det.pt")
    print("done", flush=True)


if __name__ == "__main__":
    main()
