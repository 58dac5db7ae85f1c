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
from pathlib import Path

import cv2
import numpy as np
import torch

from tools.d10_net.compose import composite, kept_tables
from tools.d10_net.data import cutouts, fold_spec, held_out, load_d10
from tools.dice_net.data import DEFAULT_DATA, PHOTO_SOURCES, photometric, rot_flip
from tools.dice_net.train_det import fit, fit_args, make_sample

DEFAULT_CACHE = Path(__file__).resolve().parents[2] / "runs" / "d10cache"  # git ignores runs/
REAL_SHARE, COMPOSITE_SHARE = 0.3, 0.6  # the rest: a d6 photo, nothing to find


def setup(a):
    """The d10 photos to train on, the cut-outs of their dice and values, and the tables."""
    every = load_d10(a.data)
    cuts = cutouts(every, a.cache)
    kept = [(p, c) for p, c in zip(every, cuts) if not held_out(p, a.fold)]
    return [p for p, _ in kept], [c for _, c in kept], [p.value for p, _ in kept], \
        kept_tables(a.data, a.cache, a.hold_tables)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--fold", type=fold_spec, help="hold this fold's dice out (tools.d10_net.data.FOLDS)")
    ap.add_argument("--hold-tables", action="append", default=[], choices=PHOTO_SOURCES)
    fit_args(ap)
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    a.out.mkdir(parents=True, exist_ok=True)
    photos, cuts, cut_values, tabs = setup(a)
    print(f"d10 photos {len(photos)}, cut-outs {len(cuts)}, tables {len(tabs)}", flush=True)
    (a.out / "about.json").write_text(json.dumps({"kind": "d10", "fold": a.fold, "hold_tables": a.hold_tables,
                                                  "det_steps": a.steps, "seed": a.seed}))

    def sample(rng: np.random.Generator):
        r = rng.random()
        if r < REAL_SHARE:
            ph = photos[int(rng.integers(len(photos)))]
            return make_sample(ph.load(), [{"box": list(ph.box)}], rng, a.size)
        if r < REAL_SHARE + COMPOSITE_SHARE:
            im, b, _ = composite(rng, a.size, tabs, cuts, cut_values)
            im, b = rot_flip(im, b, rng)
            return photometric(im, rng), b
        t = tabs[int(rng.integers(len(tabs)))]
        return make_sample(t.image, [], rng, a.size)

    fit(a, sample)


if __name__ == "__main__":
    main()
