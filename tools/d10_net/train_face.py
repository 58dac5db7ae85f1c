"""Train the d10 face classifier: 11 classes, 0 = not a d10 (a d6, bare table, a d10's
edge), then value + 1 for the values 0..9 printed on top.

    python -m tools.d10_net.train_face --out runs/d10-f0 --fold 0
    python -m tools.d10_net.train_face --out runs/d10-all

Examples, cut the way the reader cuts them (a square of CROP_SCALE x the box's long
side round its centre), then jittered in place, size and any angle (never mirrored: a
mirrored numeral is no numeral):
- the real d10 photos (dice not held out), as photographed and pasted onto other tables;
- rendered d10s of every value on the real tables (no real run shows a 1 or a 7);
- not a d10: the d6 dice of the d6 sources, rough d8/d12/d20 sprites, bare table, a
  d10's edge, and (with --det)
  what that detector finds on the tables that is no d10."""

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

from tools.d10_net.compose import kept_tables, paste_at, placed_sprite, rendered_d10, table_canvas
from tools.d10_net.data import cutouts, fold_spec, held_out, load_d10
from tools.d10_net.other_dice import other_die
from tools.d10_net.train_det import DEFAULT_CACHE
from tools.dice_net.ckpt import lr_at, resume, save, take_step
from tools.dice_net.data import DEFAULT_DATA, PHOTO_SOURCES, crop_square, photometric, recolour
from tools.dice_net.models import Face

FACE = 48
# crop side / box long side. The value is the face most squarely to the camera, in the
# middle of the die's box: a crop of the whole die (1.15, as the d6 reader) shows three
# to five numbers, and with few real dice the network learnt each die's colour instead
# of the number (22% right on held-out dice); a crop of the middle shows mostly one.
CROP_SCALE = 0.75
PATCH = 96  # stored patch, covering PATCH_SCALE x the box's long side
PATCH_SCALE = 2.0
CLASSES = 11
RENDERS = 3000
PASTES_PER_CUT = 3
D6_NEGATIVES = 3000
TABLE_NEGATIVES = 1500
OTHER_DICE = 1500  # d8, d12, d20 sprites: tools.d10_net.other_dice


def patch_of(img, box):
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0, 4.0)
    return crop_square(img, (x0 + x1) / 2, (y0 + y1) / 2, side * PATCH_SCALE, PATCH)


def _pasted(sprite, alpha, tabs, rng):
    """A sprite pasted on a window of a random table: the patch round it, or None."""
    canvas, _, _ = table_canvas(tabs[int(rng.integers(len(tabs)))], rng, 160)
    side = float(rng.uniform(40, 90))
    sp, al = placed_sprite(sprite, alpha, side, rng)
    h, w = al.shape
    box = paste_at(canvas, sp, al, 80 - w // 2, 80 - h // 2, rng)
    return None if box is None else patch_of(canvas, box)


def _edge(img, box, rng):
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0)
    ang = rng.uniform(0, 2 * math.pi)
    cx, cy = (x0 + x1) / 2 + math.cos(ang) * side * 0.75, (y0 + y1) / 2 + math.sin(ang) * side * 0.75
    s = side * rng.uniform(0.7, 1.1)
    return patch_of(img, (cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2))


def detector_negatives(det_path: Path, tabs, rng, limit=3000):
    """Patches of what the detector finds on the d6 tables (none of them is a d10)."""
    from tools.dice_net.models import Detector
    det = Detector()
    det.load_state_dict(torch.load(det_path))
    det.eval()
    out = []
    for t in tabs:
        img = t.image
        h, w = img.shape[:2]
        s = 320 / max(h, w)
        small = cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
        canvas = np.full((320, 320, 3), 114, np.uint8)
        canvas[:small.shape[0], :small.shape[1]] = small
        with torch.no_grad():
            y = det(torch.from_numpy(canvas).permute(2, 0, 1)[None].float() / 255 - 0.5)[0]
        heat = torch.sigmoid(y[0]).numpy()
        peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= 0.15)
        for gy, gx in zip(*np.nonzero(peaks)):
            cx, cy = (gx + 0.5) * 4 / s, (gy + 0.5) * 4 / s
            bw, bh = (float(np.exp(np.clip(y[k, gy, gx].item(), -3, 6))) * 4 / s for k in (1, 2))
            out.append(patch_of(img, (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2)))
    rng.shuffle(out)
    return out[:limit]


def collect(a, rng):
    everything = load_d10(a.data)
    cuts = cutouts(everything, a.cache)
    tabs = kept_tables(a.data, a.cache, a.hold_tables)
    X, Y = [], []
    val_X, val_Y = [], []
    for p, cut in zip(everything, cuts):
        img = p.load()
        if held_out(p, a.fold):
            val_X.append(patch_of(img, p.box))
            val_Y.append(p.value + 1)
            continue
        X.append(patch_of(img, p.box))
        Y.append(p.value + 1)
        for _ in range(PASTES_PER_CUT):
            q = _pasted(*cut, tabs, rng)
            if q is not None:
                X.append(q)
                Y.append(p.value + 1)
        X.append(_edge(img, p.box, rng))
        Y.append(0)
    for i in range(RENDERS):
        value = i % 10
        sprite, alpha = rendered_d10(rng, value, float(rng.uniform(40, 90)))
        q = _pasted(sprite, alpha, tabs, rng)
        if q is not None:
            X.append(q)
            Y.append(value + 1)
    for _ in range(OTHER_DICE):
        q = _pasted(*other_die(rng, float(rng.uniform(40, 90))), tabs, rng)
        if q is not None:
            X.append(q)
            Y.append(0)
    d6 = [(t, b) for t in tabs for b in t.d6_boxes]
    for i in rng.permutation(len(d6))[:D6_NEGATIVES]:
        t, b = d6[i]
        X.append(patch_of(t.image, b))
        Y.append(0)
    for _ in range(TABLE_NEGATIVES):
        t = tabs[int(rng.integers(len(tabs)))]
        h, w = t.image.shape[:2]
        side = float(np.median(np.maximum(t.d6_boxes[:, 2] - t.d6_boxes[:, 0], t.d6_boxes[:, 3] - t.d6_boxes[:, 1]))) \
            if len(t.d6_boxes) else 40.0
        s = side * rng.uniform(0.6, 1.6)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        X.append(patch_of(t.image, (cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2)))
        Y.append(0)
    if a.det:
        hard = detector_negatives(a.det, tabs, rng)
        X.extend(hard)
        Y.extend([0] * len(hard))
    return np.stack(X), np.array(Y, np.int64), (np.stack(val_X) if val_X else None), np.array(val_Y, np.int64)


def augment(patch, rng, jitter=True):
    c = PATCH / 2
    side = PATCH / PATCH_SCALE * CROP_SCALE
    if not jitter:
        return crop_square(patch, c, c, side, FACE)
    side *= math.exp(rng.uniform(math.log(0.85), math.log(1.2)))
    cx = c + rng.uniform(-0.1, 0.1) * PATCH / PATCH_SCALE
    cy = c + rng.uniform(-0.1, 0.1) * PATCH / PATCH_SCALE
    out = crop_square(patch, cx, cy, side, FACE, rng.uniform(0, 360))
    if rng.random() < 0.15:  # a die seen small
        s = int(rng.integers(16, FACE))
        out = cv2.resize(cv2.resize(out, (s, s), interpolation=cv2.INTER_AREA), (FACE, FACE))
    return photometric(recolour(out, rng), rng, grey_p=0.3, blur=(0.3, 0.9))


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--fold", type=fold_spec)
    ap.add_argument("--hold-tables", action="append", default=[], choices=PHOTO_SOURCES)
    ap.add_argument("--det", type=Path, help="a detector's det.pt: its finds on the tables are negatives")
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--batch", type=int, default=96)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--widths", default="24,48,64,96")
    ap.add_argument("--ckpt-every", type=int, default=250)
    ap.add_argument("--resume", action="store_true")
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    a.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(a.seed)
    X, Y, Xv, Yv = collect(a, rng)
    print(f"train patches {len(X)} per class {np.bincount(Y, minlength=CLASSES).tolist()}; "
          f"held-out real {0 if Xv is None else len(Xv)}", flush=True)
    xv = None if Xv is None else \
        torch.from_numpy(np.stack([augment(p, None, False) for p in Xv])).permute(0, 3, 1, 2).float() / 255 - 0.5
    torch.manual_seed(a.seed)
    widths = tuple(int(v) for v in a.widths.split(","))
    model = Face(widths, CLASSES)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=5e-4)
    ckpt = a.out / "face_last.pt"
    step = resume(model, opt, ckpt) if a.resume else 0
    rng = np.random.default_rng(a.seed * 7919 + step)
    t0 = time.time()
    lavg = None
    while step < a.steps:
        model.train()
        idx = rng.integers(len(X), size=a.batch)
        x = torch.from_numpy(np.stack([augment(X[i], rng) for i in idx])).permute(0, 3, 1, 2).float() / 255 - 0.5
        loss = F.cross_entropy(model(x), torch.from_numpy(Y[idx]))
        take_step(opt, loss, lr_at(a.lr, step, a.steps))
        step += 1
        lavg = loss.item() if lavg is None else 0.98 * lavg + 0.02 * loss.item()
        if step % 100 == 0 or step == a.steps:
            msg = ""
            if xv is not None:
                model.eval()
                with torch.no_grad():
                    pv = torch.softmax(model(xv), 1)
                conf, arg = pv.max(1)
                yv = torch.from_numpy(Yv)
                msg = (f" held-out right {(arg == yv).float().mean().item():.3f}"
                       f" sure(0.9) right {((arg == yv) & (conf > 0.9)).float().mean().item():.3f}"
                       f" sure wrong {((arg != yv) & (conf > 0.9)).float().mean().item():.3f}")
            print(f"step {step}/{a.steps} loss {lavg:.3f}{msg} {time.time() - t0:.0f}s", flush=True)
            t0 = time.time()
        if step % a.ckpt_every == 0 or step == a.steps:
            save(model, opt, step, ckpt)
    torch.save({"widths": widths, "size": FACE, "classes": CLASSES, "crop_scale": CROP_SCALE,
                "model": model.state_dict()}, a.out / "face.pt")
    about = a.out / "about.json"
    info = json.loads(about.read_text()) if about.exists() else {}
    info.update({"face_steps": a.steps, "face_seed": a.seed, "face_hold_tables": a.hold_tables,
                 "face_crop_scale": CROP_SCALE})
    about.write_text(json.dumps(info))
    print("done", flush=True)


if __name__ == "__main__":
    main()
