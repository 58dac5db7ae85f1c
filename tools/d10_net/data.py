"""Data for the learned d10 reader.

- Real d10s: ../shared/data/d10-photos (548 photos, one d10 each, 17 runs of one die on
  one face). Every photo belongs to a run; a run belongs to one physical die. Folds hold
  whole dice out, so a model is measured on dice it never saw.
- Cut-outs: each real d10 cut from its photo with GrabCut started from its box (cached
  under --cache, never in the repository), pasted onto the tables of the d6 photo
  sources, whose d6 dice stay in the picture unlabelled: they are what a d10 reader must
  not read.
- Renders: tools.render.d10 with the training style (any colour, marbling, glare), for
  every value, 1 and 7 among them (no real run rests on those faces).

Values are the number printed on top, 0..9 (0 counts ten in play), as table.reads.D10.
The face classifier's class is value + 1; class 0 is "not a d10"."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tools.dice_net.data import DEFAULT_DATA, PHOTO_SOURCES, load_photos

SOURCE = "d10-photos"
# (group, first frame, last frame, die, value): the runs of d10-photos/README.md
RUNS = (
    ("top", 0, 96, "light-blue", 6), ("top", 97, 187, "green", 2), ("top", 188, 273, "swirl", 6),
    ("top", 274, 360, "ivory", 3), ("top", 361, 448, "orange", 4),
    ("color", 0, 88, "orange", 5), ("color", 89, 165, "ivory", 3), ("color", 166, 254, "swirl", 6),
    ("color", 255, 376, "green", 8),
    ("wood", 0, 88, "ivory", 5), ("wood", 91, 229, "teal", 0), ("wood", 232, 304, "orange", 2),
    ("wood", 307, 391, "swirl", 9), ("wood", 394, 499, "light-blue", 8), ("wood", 607, 755, "orange", 3),
    ("wood", 763, 923, "teal", 2), ("wood", 926, 1040, "swirl", 4),
)
DICE = ("ivory", "swirl", "green", "orange", "light-blue", "teal")
# Two folds, three dice each: a fold's model never sees the dice it is scored on.
FOLDS = (("ivory", "swirl", "green"), ("orange", "light-blue", "teal"))


@dataclass(frozen=True)
class D10Photo:
    path: Path
    value: int
    box: tuple[float, float, float, float]
    run: str  # "wood-0091"
    die: str  # "teal"

    def load(self) -> np.ndarray:
        img = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if img is None:
            raise OSError(f"cannot read {self.path}")
        return img


def run_of(name: str) -> tuple[str, str]:
    """(run, die) of a d10-photos file name such as d10_wood0093.jpg."""
    m = re.fullmatch(r"d10_(top|color|wood)(\d+)\.jpg", name)
    if m is None:
        raise ValueError(f"{name} is not a d10-photos file name")
    group, frame = m.group(1), int(m.group(2))
    for g, first, last, die, _ in RUNS:
        if g == group and first <= frame <= last:
            return f"{g}-{first:04d}", die
    raise ValueError(f"{name} lies in no run of the README")


def load_d10(data: Path = DEFAULT_DATA) -> list[D10Photo]:
    labels = json.loads((data / SOURCE / "labels.json").read_text())
    out = []
    for name in sorted(labels):
        (d,) = labels[name]["d10"]
        run, die = run_of(name)
        out.append(D10Photo(data / SOURCE / "images" / name, int(d["value"]), tuple(map(float, d["box"])), run, die))
    return out


def fold_spec(text: str) -> int:
    k = int(text)
    if not 0 <= k < len(FOLDS):
        raise ValueError(f"fold {k}? there are {len(FOLDS)}")
    return k


def held_out(photo: D10Photo, fold: int | None) -> bool:
    return fold is not None and photo.die in FOLDS[fold]


# ---------------------------------------------------------------- cut-outs

def cutout(img: np.ndarray, box, pad: int = 12) -> tuple[np.ndarray, np.ndarray]:
    """(sprite, alpha) of the die in `box`: GrabCut from the box, feathered by a pixel."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    cx0, cy0, cx1, cy1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
    crop = np.ascontiguousarray(img[cy0:cy1, cx0:cx1])
    mask = np.zeros(crop.shape[:2], np.uint8)
    rect = (x0 - cx0, y0 - cy0, max(1, x1 - x0), max(1, y1 - y0))
    bgd, fgd = np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64)
    cv2.setRNGSeed(0)
    cv2.grabCut(crop, mask, rect, bgd, fgd, 4, cv2.GC_INIT_WITH_RECT)
    fg = ((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD)).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(fg)
    if n > 1:  # the largest part only, holes filled
        big = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        fg = (lab == big).astype(np.uint8)
        cnts, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        fg = np.zeros_like(fg)
        cv2.drawContours(fg, cnts, -1, 1, -1)
    alpha = cv2.GaussianBlur(fg.astype(np.float32) * 255, (0, 0), 1.0).astype(np.uint8)
    ys, xs = np.nonzero(fg)
    if not len(ys):
        return crop, np.full(crop.shape[:2], 255, np.uint8)
    return crop[ys.min():ys.max() + 1, xs.min():xs.max() + 1].copy(), alpha[ys.min():ys.max() + 1, xs.min():xs.max() + 1].copy()


def cutouts(photos: list[D10Photo], cache: Path) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every photo's cut-out, made once and kept in `cache`."""
    key = hashlib.sha1("\n".join(f"{p.path.name}{p.box}" for p in photos).encode()).hexdigest()[:12]
    f = cache / f"d10_cutouts_{key}.npz"
    if f.exists():
        z = np.load(f, allow_pickle=True)
        return list(zip(z["sprites"], z["alphas"]))
    out = [cutout(p.load(), p.box) for p in photos]
    cache.mkdir(parents=True, exist_ok=True)
    sprites, alphas = np.empty(len(out), object), np.empty(len(out), object)
    for i, (s, a) in enumerate(out):
        sprites[i], alphas[i] = s, a
    np.savez(f, sprites=sprites, alphas=alphas)
    return out


# ---------------------------------------------------------------- tables to paste on

@dataclass
class Table:
    path: Path
    d6_boxes: np.ndarray  # N x 4: dice that must not be read as d10

    def load(self) -> np.ndarray:
        img = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if img is None:
            raise OSError(f"cannot read {self.path}")
        return img


def tables(data: Path = DEFAULT_DATA) -> list[Table]:
    return [Table(p.path, np.array([d["box"] for d in p.dice], np.float32).reshape(-1, 4))
            for p in load_photos(data, PHOTO_SOURCES)]
