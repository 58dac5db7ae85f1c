"""Train the domino detector: the d6 reader's CenterNet-style network (tools.dice_net.models)
with two heads, one for each tile HALF (a square pip face) and one for each whole TILE,
on composites only (tools.domino_net.compose: rendered tiles on real tables).

    python -m tools.domino_net.train_det --out runs/domino --steps 2500
    python -m tools.domino_net.train_det --out runs/domino --steps 2500 --resume

Output channels (stride 4): 0 half heat, 1 tile heat, 2-3 log(half box w, h / 4),
4-5 log(tile box w, h / 4). Fixed seed, one thread, a checkpoint every --ckpt-every
steps (runs/<out>/det_last.pt), the weights at the end in runs/<out>/det.pt."""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np
import torch

from tools.dice_net.ckpt import lr_at, resume, save, take_step
from tools.dice_net.data import DEFAULT_DATA
from tools.dice_net.models import Detector, headed_detector
from tools.dice_net.train_det import det_loss, targets
from tools.domino_net.compose import DEFAULT_CACHE, all_tables, det_sample

CHANNELS = 6


def detector() -> Detector:
    """A tools.dice_net Detector whose last layer gives the six channels above."""
    return headed_detector(CHANNELS, heatmaps=2)


def batch(rng: np.random.Generator, n: int, size: int, tabs) -> tuple[torch.Tensor, ...]:
    imgs, hh, hw, hm, th, tw, tm = [], [], [], [], [], [], []
    for _ in range(n):
        im, halves, tiles_ = det_sample(rng, size, tabs)
        for boxes, heat, wh, mask in ((halves, hh, hw, hm), (tiles_, th, tw, tm)):
            h_, wh_, m_ = targets(boxes, size)
            heat.append(h_)
            wh.append(wh_)
            mask.append(m_)
        imgs.append(im)
    x = torch.from_numpy(np.stack(imgs)).permute(0, 3, 1, 2).float() / 255.0 - 0.5
    return (x, *(torch.from_numpy(np.stack(v)) for v in (hh, hw, hm, th, tw, tm)))


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--steps", type=int, default=2500)
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ckpt-every", type=int, default=100)
    ap.add_argument("--resume", action="store_true")
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    a.out.mkdir(parents=True, exist_ok=True)
    tabs = all_tables(a.data, a.cache)
    print(f"tables {len(tabs)}", flush=True)
    about = a.out / "about.json"
    info = json.loads(about.read_text()) if about.exists() else {}
    info.update({"kind": "domino", "det_steps": a.steps, "seed": a.seed, "batch": a.batch, "size": a.size})
    about.write_text(json.dumps(info))
    torch.manual_seed(a.seed)
    model = detector()
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    ckpt = a.out / "det_last.pt"
    step = resume(model, opt, ckpt) if a.resume else 0
    rng = np.random.default_rng(a.seed * 1000003 + step)
    model.train()
    t0 = time.time()
    avg: list[float] | None = None
    while step < a.steps:
        x, hh, hw, hm, th, tw, tm = batch(rng, a.batch, a.size, tabs)
        out = model(x)
        h1, s1 = det_loss(out[:, [0, 2, 3]], hh, hw, hm)
        h2, s2 = det_loss(out[:, [1, 4, 5]], th, tw, tm)
        loss = h1 + s1 + h2 + s2
        take_step(opt, loss, lr_at(a.lr, step, a.steps))
        step += 1
        now = [h1.item(), s1.item(), h2.item(), s2.item()]
        avg = now if avg is None else [0.98 * p + 0.02 * q for p, q in zip(avg, now)]
        if step % 50 == 0:
            print(f"step {step}/{a.steps} half heat {avg[0]:.3f} size {avg[1]:.3f} tile heat {avg[2]:.3f} "
                  f"size {avg[3]:.3f} {(time.time() - t0) / 50:.2f} s/step", flush=True)
            t0 = time.time()
        if step % a.ckpt_every == 0 or step == a.steps:
            save(model, opt, step, ckpt)
    torch.save(model.state_dict(), a.out / "det.pt")
    print("done", flush=True)


if __name__ == "__main__":
    main()
