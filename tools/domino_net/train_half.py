"""Train the domino half classifier: from a square crop of a paired half, class 0 (no
half: a tile's middle, a face-down tile, a die, bare table) or the
number of pips on it (class value + 1, 0..6). tools.dice_net.models.Face, 8 classes,
trained on crops of composites only (tools.domino_net.compose).

    python -m tools.domino_net.train_half --out runs/domino --steps 2500
    python -m tools.domino_net.train_half --out runs/domino --steps 2500 --resume

Crops are cut as the reader cuts them (vision.dominoes.net.half_crop: a half's side
times CROP_SCALE, turned so that the other half lies to the right), with the centre,
size and turn off by as much as the detector's are. Fixed seed, one
thread, checkpoints in runs/<out>/half_last.pt, the weights in runs/<out>/half.pt."""

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

from tools.d10_net.compose import SmallTable
from tools.dice_net.ckpt import lr_at, resume, save, take_step
from tools.dice_net.data import DEFAULT_DATA, photometric
from tools.dice_net.models import Face
from tools.domino_net.compose import DEFAULT_CACHE, all_tables, scene
from vision.dominoes.net import half_crop

CLASSES = 8  # not a half, then 0..6 pips
INPUT = 40
CROP_SCALE = 1.1
WIDTHS = (16, 32, 48, 64)
FRAME = 320  # scenes as big as the detector's input


def crops(rng: np.random.Generator, tabs: list[SmallTable], held: bool = False,
          jitter: bool = True, seams: bool = False) -> tuple[list[np.ndarray], list[int]]:
    """Crops of one scene (INPUT x INPUT BGR, cut by vision.dominoes.net.half_crop) and
    their classes: every half in view, turned so its other half lies to the right, with
    the centre, size and turn off by as much as the detector's finds are; and things
    that are no half of a pair: a tile's middle, a face-down tile's ends, the table,
    dice; with `seams`, also a half cut towards a half of the next tile (across the
    seam between touching tiles: docs/tried/domino-net.md, not in the shipped model)."""
    img, placed = scene(rng, FRAME, tabs, held=held, crowd=12)
    img = photometric(img, rng)
    out: list[np.ndarray] = []
    labels: list[int] = []
    j = 1.0 if jitter else 0.0

    def cut(centre: np.ndarray, partner: np.ndarray, label: int) -> None:
        v = partner - centre
        d = float(np.hypot(*v))
        turn = math.radians(rng.uniform(-8, 8) * j)
        v = np.array([v[0] * math.cos(turn) - v[1] * math.sin(turn), v[0] * math.sin(turn) + v[1] * math.cos(turn)])
        v *= math.exp(rng.uniform(-0.12, 0.12) * j)
        c = centre + rng.uniform(-0.08, 0.08, 2) * d * j
        crop = half_crop(img, c, c + v, INPUT, CROP_SCALE)
        if rng.random() < 0.5:
            crop = np.ascontiguousarray(crop[::-1])  # a mirror shows as many pips
        out.append(crop)
        labels.append(label)

    sides = []
    for p in placed:
        a, b = p.half_centres
        sides.append(float(np.hypot(*(b - a))))
        for k in range(2):
            if p.halves_seen[k]:
                cut(p.half_centres[k], p.half_centres[1 - k], 0 if p.halves is None else p.halves[k] + 1)
        if p.halves is not None and p.seen and rng.random() < 0.6:
            k = int(rng.integers(2))  # the middle of the tile, its other half to the right
            cut(p.centre, p.centre + (p.half_centres[1 - k] - p.half_centres[k]), 0)
    # a half whose "partner" is a half of the next tile across a seam: no pair, class 0
    ends = [(p.half_centres[k], i) for i, p in enumerate(placed) for k in range(2) if p.halves_seen[k]]
    for i, p in enumerate(placed):
        if p.halves is None or not seams:
            continue
        side = float(np.hypot(*(p.half_centres[1] - p.half_centres[0])))
        for k in range(2):
            if not p.halves_seen[k]:
                continue
            for c, owner in ends:
                if owner != i and 0.6 * side <= float(np.hypot(*(c - p.half_centres[k]))) <= 1.4 * side \
                        and rng.random() < 0.7:
                    cut(p.half_centres[k], c, 0)
    typical = float(np.median(sides)) if sides else float(rng.uniform(10, 60))
    for _ in range(int(rng.integers(1, 3))):  # bare table, dice, anything
        c = rng.uniform(0, FRAME, 2)
        ang = rng.uniform(0, 2 * math.pi)
        cut(c, c + typical * math.exp(rng.uniform(-0.4, 0.4)) * np.array([math.cos(ang), math.sin(ang)]), 0)
    return out, labels


def make_batch(rng: np.random.Generator, n: int, tabs: list[SmallTable], held: bool = False):
    """n crops of fresh scenes, as a tensor, and their classes."""
    xs: list[np.ndarray] = []
    ys: list[int] = []
    while len(xs) < n:
        c, y = crops(rng, tabs, held)
        xs.extend(c)
        ys.extend(y)
    return _tensors(np.stack(xs[:n]), np.array(ys[:n]), rng)


def _tensors(x: np.ndarray, y: np.ndarray, rng: np.random.Generator):
    return torch.from_numpy(x).permute(0, 3, 1, 2).float() / 255.0 - 0.5, torch.from_numpy(y).long()


class Pool:
    """The last POOL crops drawn; each step adds `fresh` scenes' crops and takes a batch
    from the pool (a scene takes longer to draw than a step to learn from)."""

    def __init__(self, rng: np.random.Generator, tabs: list[SmallTable], size: int = 2000, seams: bool = False):
        self.rng, self.tabs, self.size, self.seams = rng, tabs, size, seams
        self.x: list[np.ndarray] = []
        self.y: list[int] = []
        while len(self.x) < size // 2:
            self.add()

    def add(self) -> None:
        c, y = crops(self.rng, self.tabs, seams=self.seams)
        self.x = (self.x + c)[-self.size:]
        self.y = (self.y + y)[-self.size:]

    def batch(self, n: int, fresh: int = 3):
        for _ in range(fresh):
            self.add()
        i = self.rng.integers(len(self.x), size=n)
        return _tensors(np.stack([self.x[k] for k in i]), np.array([self.y[k] for k in i]), self.rng)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--steps", type=int, default=2500)
    ap.add_argument("--batch", type=int, default=96)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ckpt-every", type=int, default=100)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--seams", action="store_true", help="also teach 'no pair' across the seam of touching tiles")
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    a.out.mkdir(parents=True, exist_ok=True)
    tabs = all_tables(a.data, a.cache)
    torch.manual_seed(a.seed)
    model = Face(WIDTHS, CLASSES)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    ckpt = a.out / "half_last.pt"
    step = resume(model, opt, ckpt) if a.resume else 0
    rng = np.random.default_rng(a.seed * 7919 + step + 17)
    held_rng = np.random.default_rng(12345)
    held_x, held_y = make_batch(held_rng, 600, tabs, held=True)
    pool = Pool(rng, tabs, seams=a.seams)
    model.train()
    t0 = time.time()
    avg = None
    while step < a.steps:
        x, y = pool.batch(a.batch)
        loss = F.cross_entropy(model(x), y)
        take_step(opt, loss, lr_at(a.lr, step, a.steps))
        step += 1
        avg = loss.item() if avg is None else 0.98 * avg + 0.02 * loss.item()
        if step % 100 == 0 or step == a.steps:
            model.eval()
            with torch.no_grad():
                acc = float((model(held_x).argmax(1) == held_y).float().mean())
            model.train()
            print(f"step {step}/{a.steps} loss {avg:.3f} held-out looks acc {acc:.3f} "
                  f"{(time.time() - t0) / 100:.2f} s/step", flush=True)
            t0 = time.time()
        if step % a.ckpt_every == 0 or step == a.steps:
            save(model, opt, step, ckpt)
    torch.save({"model": model.state_dict(), "widths": list(WIDTHS), "classes": CLASSES, "size": INPUT,
                "crop_scale": CROP_SCALE}, a.out / "half.pt")
    about = a.out / "about.json"
    info = json.loads(about.read_text()) if about.exists() else {}
    info.update({"half_steps": a.steps, "half_seed": a.seed, "half_batch": a.batch, "half_seams": a.seams})
    about.write_text(json.dumps(info))
    print("done", flush=True)


if __name__ == "__main__":
    main()
