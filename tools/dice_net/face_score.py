"""The face classifier alone, on the labelled dice of a source it was not trained on:
each die cut as the reader cuts it (a square of CROP_SCALE x its box's long side,
resized to the classifier's input) from its labelled box, so the detector plays no part.
Recipes of the face classifier compared quickly, on the same crops and at equal wrong
reads, before a whole reader is built and swept (`sweep.py`).

    python -m tools.dice_net.face_score --source dice-aws runs/lo-aws runs/lo-aws-count

For each run (a folder with face.pt): the most likely value's share right, and the dice
read right (% of all) at the loosest confidence bar that keeps wrong / read at or under
0.2 / 0.5 / 1 / 2% (`sweep.right_at_wrong`). A run trained with a count head (`--count`)
is scored a second time with its count as a witness: a value is read only where the
counted pips round to it."""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
from pathlib import Path

import cv2
import numpy as np
import torch

from tools.dice_net import train_face
from tools.dice_net.data import DEFAULT_DATA, PHOTO_SOURCES, crop_square, leave_spec, left_out, load_photos
from tools.dice_net.models import face_size, load_face
from tools.dice_net.sweep import WRONG_OF_READ, right_at_wrong

BATCH = 256


def labelled_crops(data: Path, source: str, size: int, only=None) -> tuple[np.ndarray, np.ndarray]:
    """Every die with a value in `source` (or only the part `only` names), cut as the
    reader cuts it: N x size x size x 3 uint8 BGR, and the values."""
    crops, values = [], []
    for ph in load_photos(data, (source,)):
        if only is not None and not left_out(ph, [only]):
            continue
        img = ph.load()
        for d in ph.dice:
            if d["value"] is None:
                continue
            x0, y0, x1, y1 = d["box"]
            side = max(x1 - x0, y1 - y0, 4.0) * train_face.CROP_SCALE
            crops.append(crop_square(img, (x0 + x1) / 2, (y0 + y1) / 2, side, size))
            values.append(int(d["value"]))
    return np.stack(crops), np.array(values, np.int64)


@torch.no_grad()
def predict(face, crops: np.ndarray, turns: int = 1) -> tuple[np.ndarray, np.ndarray | None]:
    """Softmax probabilities (N x 7) and, for a model with a count head, the counts;
    with `turns` 2-4, the probabilities averaged over the crops turned by that many
    quarter turns (the reader's `face.tta`)."""
    if turns > 1:
        views = [predict(face, np.ascontiguousarray(np.rot90(crops, k, axes=(1, 2))))[0] for k in range(turns)]
        return np.mean(views, 0), None
    probs, counts = [], []
    for i in range(0, len(crops), BATCH):
        x = torch.from_numpy(crops[i:i + BATCH]).permute(0, 3, 1, 2).float() / 255 - 0.5
        if face.count is not None:
            logits, count = face.forward_both(x)
            counts.append(count.numpy())
        else:
            logits = face(x)
        probs.append(torch.softmax(logits, 1).numpy())
    return np.concatenate(probs), (np.concatenate(counts) if counts else None)


def scores(probs: np.ndarray, values: np.ndarray, agree: np.ndarray | None = None) -> dict:
    """Top-1 right share and right % at each wrong-of-read limit; a die whose most likely
    class is "not a die" (or, with `agree`, whose witness disagrees) is never read."""
    best = probs.argmax(1)
    conf = probs[np.arange(len(probs)), best].copy()
    status = np.where(best == values, 1, 2)
    unread = best == 0
    if agree is not None:
        unread |= ~agree
    conf[unread] = -1.0
    status[unread] = 0
    out = {"top1": 100 * float((best == values).mean())}
    for lim in WRONG_OF_READ:
        out[lim] = right_at_wrong(conf, status, len(values), lim)[0]
    return out


def wrong_montage(crops: np.ndarray, values: np.ndarray, probs: np.ndarray, most: int) -> np.ndarray:
    """The `most` dice read wrong with the highest confidence, side by side (6 a row),
    each with "label>read confidence" written under it: what a recipe fails on."""
    best = probs.argmax(1)
    conf = probs[np.arange(len(probs)), best]
    wrong = np.flatnonzero((best != values) & (best > 0))
    wrong = wrong[np.argsort(-conf[wrong])][:most]
    size = crops.shape[1] * 2
    tiles = []
    for i in wrong:
        tile = np.full((size + 14, size, 3), 255, np.uint8)
        tile[:size] = cv2.resize(crops[i], (size, size), interpolation=cv2.INTER_NEAREST)
        cv2.putText(tile, f"{values[i]}>{best[i]} {conf[i]:.3f}", (1, size + 11), cv2.FONT_HERSHEY_PLAIN, 0.8,
                    (0, 0, 0), 1)
        tiles.append(tile)
    while len(tiles) % 6:
        tiles.append(np.full_like(tiles[0], 255) if tiles else np.full((size + 14, size, 3), 255, np.uint8))
    return np.vstack([np.hstack(tiles[r:r + 6]) for r in range(0, len(tiles), 6)])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+", type=Path, help="folders with face.pt")
    ap.add_argument("--source", required=True, choices=PHOTO_SOURCES)
    ap.add_argument("--only", type=leave_spec, help="SOURCE@K/N: only that part of the source")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--turns", type=int, default=1, help="read each crop in 1-4 quarter turns, averaged")
    ap.add_argument("--wrong", type=int, default=0, help="write RUN/wrong-SOURCE.png: the N surest wrong reads")
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    print(f"{a.source}{'@' + str(a.only[1]) + '/' + str(a.only[2]) if a.only else ''}: top-1 right %, "
          f"then right % at wrong / read <= {' / '.join(f'{100 * w:g}%' for w in WRONG_OF_READ)}")
    for run in a.runs:
        st = torch.load(run / "face.pt")
        size = face_size(st)
        if size not in cache:
            cache[size] = labelled_crops(a.data, a.source, size, a.only)
        crops, values = cache[size]
        probs, counts = predict(load_face(st), crops, a.turns)
        if a.wrong:
            cv2.imwrite(str(run / f"wrong-{a.source}.png"), wrong_montage(crops, values, probs, a.wrong))
        rows = [("classifier", scores(probs, values))]
        if counts is not None:
            rows.append(("count agrees", scores(probs, values, np.rint(counts) == probs.argmax(1))))
            rows.append(("count alone top-1", {"top1": 100 * float((np.rint(counts) == values).mean())}))
        for name, s in rows:
            tail = "  ".join(f"{s[w]:5.1f}" for w in WRONG_OF_READ if w in s)
            print(f"{str(run):32s} {name:18s} n={len(values)} top-1 {s['top1']:5.1f}  {tail}", flush=True)


if __name__ == "__main__":
    main()
