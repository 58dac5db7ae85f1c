"""Train the d10 detector (the d6 reader's CenterNet-style network, one class: a d10).

    python -m tools.d10_net.train_det --out runs/d10-all --steps 3000
    python -m tools.d10_net.train_det --out runs/d10-f0 --fold 0   # dice of fold 0 held out
    python -m tools.d10_net.train_det --out runs/d10-f0 --fold 0 --resume

A batch mixes the real d10 photos (their dice not held out), composites (real d10
cut-outs and renders pasted onto the d6 sources' tables; the d6 dice there are what it
must not find) and bare d6 photos. --hold-tables SOURCE keeps a d6 source's tables out,
to count phantom d10s on tables the detector never saw. Fixed seed, one thread,
checkpoints every --ckpt-every steps."""

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

from tools.d10_net.compose import composite, finish, small_tables
from tools.d10_net.data import cutouts, fold_spec, held_out, load_d10, tables
from tools.dice_net.ckpt import lr_at, resume, save, take_step
from tools.dice_net.data import DEFAULT_DATA, PHOTO_SOURCES, rot_flip
from tools.dice_net.models import Detector
from tools.dice_net.train_det import det_loss, make_sample, targets

DEFAULT_CACHE = Path(__file__).resolve().parents[2] / "runs" / "d10cache"  # git ignores runs/
REAL_SHARE, COMPOSITE_SHARE = 0.3, 0.6  # the rest: a d6 photo, nothing to find


def setup(a):
    photos = [p for p in load_d10(a.data) if not held_out(p, a.fold)]
    cuts = cutouts(load_d10(a.data), a.cache)
    keep = {p.path for p in photos}
    all_photos = load_d10(a.data)
    cut_pairs = [(c, p.value) for c, p in zip(cuts, all_photos) if p.path in keep]
    tabs_all = tables(a.data)
    tabs = small_tables([t for t in tabs_all if not any(f"/{s}/" in str(t.path) for s in a.hold_tables)], a.cache)
    return photos, [c for c, _ in cut_pairs], [v for _, v in cut_pairs], tabs


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--fold", type=fold_spec, help="hold this fold's dice out (tools.d10_net.data.FOLDS)")
    ap.add_argument("--hold-tables", action="append", default=[], choices=PHOTO_SOURCES)
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ckpt-every", type=int, default=200)
    ap.add_argument("--resume", action="store_true")
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    a.out.mkdir(parents=True, exist_ok=True)
    photos, cuts, cut_values, tabs = setup(a)
    print(f"d10 photos {len(photos)}, cut-outs {len(cuts)}, tables {len(tabs)}", flush=True)
    (a.out / "about.json").write_text(json.dumps({"kind": "d10", "fold": a.fold, "hold_tables": a.hold_tables,
                                                  "det_steps": a.steps, "seed": a.seed}))
    torch.manual_seed(a.seed)
    model = Detector()
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    ckpt = a.out / "det_last.pt"
    step = resume(model, opt, ckpt) if a.resume else 0
    rng = np.random.default_rng(a.seed * 1000003 + step)
    model.train()
    t0 = time.time()
    hl_avg = sl_avg = None
    while step < a.steps:
        imgs, hs, whs, ms = [], [], [], []
        for _ in range(a.batch):
            r = rng.random()
            if r < REAL_SHARE:
                ph = photos[int(rng.integers(len(photos)))]
                im, b = make_sample(ph.load(), [{"box": list(ph.box)}], rng, a.size)
            elif r < REAL_SHARE + COMPOSITE_SHARE:
                im, b, _ = composite(rng, a.size, tabs, cuts, cut_values)
                im, b = rot_flip(im, b, rng)
                im = finish(im, rng)
            else:
                t = tabs[int(rng.integers(len(tabs)))]
                im, b = make_sample(t.image, [], rng, a.size)
            h_, wh_, m_ = targets(b, a.size)
            imgs.append(im)
            hs.append(h_)
            whs.append(wh_)
            ms.append(m_)
        x = torch.from_numpy(np.stack(imgs)).permute(0, 3, 1, 2).float() / 255.0 - 0.5
        out = model(x)
        hl, sl = det_loss(out, torch.from_numpy(np.stack(hs)), torch.from_numpy(np.stack(whs)),
                          torch.from_numpy(np.stack(ms)))
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
    torch.save(model.state_dict(), a.out / "det.pt")
    print("done", flush=True)


if __name__ == "__main__":
    main()
