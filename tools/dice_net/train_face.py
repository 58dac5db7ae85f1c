"""Train the face classifier: 7 classes, 0 = not a die (bare table, a die's edge, a
neighbour's corner), 1..6 = the value up. Crops are cut the way the run-time reader cuts
them (a square of CROP_SCALE x the box's long side round the box centre), jittered in
place, size and angle like a detector's boxes, from the labelled photos and dice-crops.

    python -m tools.dice_net.train_face --out runs/all
    python -m tools.dice_net.train_face --out runs/lo-aws --leave-out dice-aws
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import math
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from tools.dice_net.batches import batches
from tools.dice_net.ckpt import cpu_state, device_of, lr_at, resume, save, take_step
from tools.dice_net.data import (
    DEFAULT_DATA,
    PHOTO_SOURCES,
    crop_is_val,
    crop_square,
    glare,
    is_val,
    kept_sources,
    leave_spec,
    left_out,
    load_crops,
    load_photos,
    photometric,
    recolour,
)
from tools.dice_net.models import Face

FACE = 40  # classifier input, px (--size changes it; face.pt keeps the one it was trained at)
CROP_SCALE = 1.15  # crop side / box long side, at run time
PATCH = 96  # stored patch, px, covering PATCH_SCALE x the box's long side (grown with --size)
PATCH_SCALE = 2.4
UPRIGHT_TURN = 20.0  # degrees either way for crops of sources whose photos keep their up direction


def set_size(size: int) -> None:
    """The classifier's input size, and a stored patch big enough to cut it from."""
    global FACE, PATCH
    FACE = size
    PATCH = max(96, round(96 * size / 40 / 8) * 8)


def _patch(img, box):
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0, 4.0)
    return crop_square(img, (x0 + x1) / 2, (y0 + y1) / 2, side * PATCH_SCALE, PATCH)


def collect(data, sources, val, hard=None, rng=None, leave=(), upright=()):
    """Patches (N x PATCH x PATCH x 3 uint8), labels (0..6) and whether each keeps its up
    direction (its source is in `upright`) from the photos of `sources` in the train
    (val=False) or val split, plus dice-crops."""
    rng = rng or np.random.default_rng(0)
    patches, labels, ups = [], [], []
    for ph in load_photos(data, sources):
        if is_val(ph) != val or left_out(ph, leave):
            continue
        first = len(patches)
        img = ph.load()
        h, w = img.shape[:2]
        boxes = np.array([d["box"] for d in ph.dice], np.float32).reshape(-1, 4)
        for d in ph.dice:
            if d["value"] is not None:
                patches.append(_patch(img, d["box"]))
                labels.append(int(d["value"]))
        if not len(boxes):
            continue
        sides = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
        med = float(np.median(sides))
        # bare table: squares whose centre lies in no die's box, grown by 30%
        grow = np.stack([boxes[:, 0] - 0.3 * sides, boxes[:, 1] - 0.3 * sides,
                         boxes[:, 2] + 0.3 * sides, boxes[:, 3] + 0.3 * sides], 1)
        got = tries = 0
        while got < 4 and tries < 40:
            tries += 1
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            if ((grow[:, 0] <= cx) & (cx <= grow[:, 2]) & (grow[:, 1] <= cy) & (cy <= grow[:, 3])).any():
                continue
            s = med * rng.uniform(0.6, 1.6)
            patches.append(_patch(img, (cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2)))
            labels.append(0)
            got += 1
        # a die's edge: a box shifted off its die by most of its size (a half read)
        for i in rng.permutation(len(boxes))[:2]:
            x0, y0, x1, y1 = boxes[i]
            ang = rng.uniform(0, 2 * math.pi)
            dx, dy = math.cos(ang) * sides[i] * 0.75, math.sin(ang) * sides[i] * 0.75
            cx, cy = (x0 + x1) / 2 + dx, (y0 + y1) / 2 + dy
            if ((boxes[:, 0] <= cx) & (cx <= boxes[:, 2]) & (boxes[:, 1] <= cy) & (cy <= boxes[:, 3])).any():
                continue
            s = sides[i] * rng.uniform(0.7, 1.1)
            patches.append(_patch(img, (cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2)))
            labels.append(0)
        ups.extend([ph.source in upright] * (len(patches) - first))
    for path, value, key in load_crops(data):
        if crop_is_val(key) != val:
            continue
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        h, w = img.shape[:2]
        # the crops are tight: the die's box is most of the crop
        patches.append(_patch(img, (w * 0.04, h * 0.04, w * 0.96, h * 0.96)))
        labels.append(value)
        ups.append(False)
    if hard is not None:
        patches.extend(hard)
        labels.extend([0] * len(hard))
        ups.extend([False] * len(hard))
    return np.stack(patches), np.array(labels, np.int64), np.array(ups, bool)


def augment(patch, rng, jitter=True, upright=False, recol=0.0, invert=0.0, shine=0.0):
    """A run-time-like crop of a stored patch: jittered in place and size, turned by any
    angle and mirrored, or (`upright`) turned by at most UPRIGHT_TURN degrees and mirrored
    left to right only, so the top of the photo stays the top. With probability `recol`
    the die is given another colour (`recolour`, light and dark swapped at `invert`);
    with probability `shine` it gets specular highlights (`data.glare`)."""
    c = PATCH / 2
    side = PATCH / PATCH_SCALE * CROP_SCALE
    if jitter:
        side *= math.exp(rng.uniform(math.log(0.85), math.log(1.2)))
        c_x = c + rng.uniform(-0.1, 0.1) * PATCH / PATCH_SCALE
        c_y = c + rng.uniform(-0.1, 0.1) * PATCH / PATCH_SCALE
        angle = rng.uniform(-UPRIGHT_TURN, UPRIGHT_TURN) if upright else rng.uniform(0, 360)
        out = crop_square(patch, c_x, c_y, side, FACE, angle)
        if rng.random() < 0.5:
            out = np.ascontiguousarray(out[:, ::-1])
        # at run time the crop is cut from a frame at any size: blur/pixelate like a small die
        if rng.random() < 0.15:
            s = int(rng.integers(20, FACE))
            out = cv2.resize(cv2.resize(out, (s, s), interpolation=cv2.INTER_AREA), (FACE, FACE))
        if recol and rng.random() < recol:
            out = recolour(out, rng, invert)
        if shine and rng.random() < shine:
            out = glare(out, rng, PATCH / PATCH_SCALE / side)
        return photometric(out, rng, grey_p=0.35, blur=(0.3, 0.9))
    return crop_square(patch, c, c, side, FACE)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--leave-out", action="append", default=[], type=leave_spec, help="SOURCE or SOURCE@K/N")
    ap.add_argument("--steps", type=int, default=2500)
    ap.add_argument("--batch", type=int, default=96)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ckpt-every", type=int, default=250)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--device", default="cpu", help="cpu, or cuda to train on a GPU")
    ap.add_argument("--workers", type=int, default=0, help="processes making batches (0: this one)")
    ap.add_argument("--hard", type=Path, help="npz of hard negative patches (false detections)")
    ap.add_argument("--widths", default="24,48,64,96", help="the classifier's channel widths, 4 numbers")
    ap.add_argument("--size", type=int, default=FACE, help="the classifier's input, px")
    ap.add_argument("--upright", action="append", default=[], choices=PHOTO_SOURCES,
                    help="a source whose photos keep their up direction (phone photos at an angle)")
    ap.add_argument("--renders", type=int, default=0,
                    help="rendered dice of any design drawn on bare-table patches (tools.dice_net.render_faces)")
    ap.add_argument("--cubes", type=int, default=0,
                    help="dice drawn as cubes seen from 30-88 degrees up, side faces and all, on bare-table "
                         "patches (tools.dice_net.render_cube); kept upright")
    ap.add_argument("--recolour", type=float, default=0.0,
                    help="share of crops given another body colour (hue turned, channels swapped)")
    ap.add_argument("--invert", type=float, default=0.0,
                    help="share of the recoloured crops with light and dark swapped as well")
    ap.add_argument("--glare", type=float, default=0.0,
                    help="share of crops given specular highlights: streaks and arcs of light (data.glare)")
    ap.add_argument("--count", type=float, default=0.0,
                    help="weight of a second head that counts the top face's pips (Face.forward_both; 0: none)")
    a = ap.parse_args(argv)
    set_size(a.size)
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    a.out.mkdir(parents=True, exist_ok=True)
    sources = kept_sources(a.leave_out)
    rng = np.random.default_rng(a.seed)
    hard = [p if p.shape[0] == PATCH else cv2.resize(p, (PATCH, PATCH)) for p in np.load(a.hard)["patches"]] \
        if a.hard else None
    X, Y, U = collect(a.data, sources, val=False, hard=hard, rng=rng, leave=a.leave_out, upright=a.upright)
    if a.renders:
        from tools.dice_net.render_faces import rendered_patches

        R, RY = rendered_patches(X[Y == 0], a.renders, np.random.default_rng(a.seed + 2), 1 / PATCH_SCALE)
        X, Y, U = np.concatenate([X, R]), np.concatenate([Y, RY]), np.concatenate([U, np.zeros(len(R), bool)])
    if a.cubes:
        from tools.dice_net.render_cube import cube_patches

        C, CY = cube_patches(X[Y == 0], a.cubes, np.random.default_rng(a.seed + 3), 1 / PATCH_SCALE)
        X, Y, U = np.concatenate([X, C]), np.concatenate([Y, CY]), np.concatenate([U, np.ones(len(C), bool)])
    Xv, Yv, _ = collect(a.data, sources, val=True, rng=np.random.default_rng(a.seed + 1), leave=a.leave_out)
    print(f"train patches {len(X)} per class {np.bincount(Y, minlength=7).tolist()}; val {len(Xv)}", flush=True)
    xv = torch.from_numpy(np.stack([augment(p, None, False) for p in Xv])).permute(0, 3, 1, 2).float() / 255 - 0.5
    yv = torch.from_numpy(Yv)

    torch.manual_seed(a.seed)
    dev = device_of(a.device)
    xv, yv = xv.to(dev), yv.to(dev)
    widths = tuple(int(v) for v in a.widths.split(","))
    model = Face(widths, count=a.count > 0).to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=5e-4)
    ckpt = a.out / "face_last.pt"
    step = resume(model, opt, ckpt) if a.resume else 0
    t0 = time.time()
    lavg = None

    def make(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        idx = rng.integers(len(X), size=a.batch)
        return np.stack([augment(X[i], rng, upright=U[i], recol=a.recolour, invert=a.invert,
                                 shine=a.glare) for i in idx]), Y[idx]

    for xb, yb in batches(make, a.seed * 7919, step, a.steps, a.workers):
        model.train()
        x = torch.from_numpy(xb).to(dev).permute(0, 3, 1, 2).float() / 255 - 0.5
        y = torch.from_numpy(yb).to(dev)
        logits, count = model.forward_both(x) if a.count > 0 else (model(x), None)
        loss = F.cross_entropy(logits, y)  # no smoothing: it would cap the confidence the threshold needs
        dice = y > 0  # "not a die" crops may hold a neighbour's pips: no count asked of them
        if count is not None and dice.any():
            loss = loss + a.count * F.smooth_l1_loss(count[dice], y[dice].float())
        take_step(opt, loss, lr_at(a.lr, step, a.steps))
        step += 1
        lavg = loss.item() if lavg is None else 0.98 * lavg + 0.02 * loss.item()
        if step % 100 == 0 or step == a.steps:
            model.eval()
            with torch.no_grad():
                pv = model(xv).argmax(1)
            acc = (pv == yv).float().mean().item()
            dice = yv > 0
            vacc = (pv[dice] == yv[dice]).float().mean().item()
            print(f"step {step}/{a.steps} loss {lavg:.3f} val acc {acc:.4f} dice {vacc:.4f} "
                  f"{(time.time() - t0):.0f}s", flush=True)
            t0 = time.time()
        if step % a.ckpt_every == 0 or step == a.steps:
            save(model, opt, step, ckpt)
    torch.save({"widths": widths, "size": FACE, "upright": a.upright, "renders": a.renders, "cubes": a.cubes,
                "recolour": a.recolour, "invert": a.invert, "glare": a.glare, "count": a.count, "model": cpu_state(model)},
               a.out / "face.pt")
    print("done", flush=True)


if __name__ == "__main__":
    main()
