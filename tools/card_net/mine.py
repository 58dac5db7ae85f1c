"""Hard "no index" examples for the card index classifier, and phantom counts, from real
photos that hold no card: the d6 photo sources and d10-photos. Whatever the detector
finds there is not a card's index.

    python -m tools.card_net.mine --config runs/cardnet/onnx/card_net.json --out runs/cardnet/mined.npz
    python -m tools.card_net.mine --config ... --count val       # phantoms on the photos not mined
    python -m tools.card_net.mine --config ... --count dominoes  # phantoms on domino-photos (never used)

Mining takes the train split of tools.dice_net.data (photo groups, 85%) and the d10
photos of every other run (sorted by name); `--count val` reads the rest, `--count dominoes` the domino photos,
which no card tool uses for anything else."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from tools.d10_net.data import load_d10
from tools.dice_net.data import DEFAULT_DATA, PHOTO_SOURCES, is_val, load_photos
from vision import dice_net
from vision.cards.net import classify, decide, detect, index_crop

MINE_THRESHOLD = 0.15


def photos(data: Path, part: str) -> list[Path]:
    if part == "dominoes":
        folder = data / "domino-photos"
        labels = json.loads((folder / "labels.json").read_text())
        return [folder / "images" / n for n in sorted(labels)]
    d6 = [p.path for p in load_photos(data, PHOTO_SOURCES) if is_val(p) == (part == "val")]
    d10s = load_d10(data)
    val_runs = sorted({p.run for p in d10s})[1::2]
    d10 = [p.path for p in d10s if (p.run in val_runs) == (part == "val")]
    return d6 + d10


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--count", choices=("train", "val", "dominoes"))
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    nets = dice_net.load_nets(a.config)
    face = nets.cfg["face"]
    crops, phantoms, refusals, n = [], 0, 0, 0
    for path in photos(a.data, a.count or "train"):
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if img is None:
            continue
        n += 1
        found = detect(img, nets, MINE_THRESHOLD if a.out else float(nets.cfg["detector"]["threshold"]))
        if a.out:
            crops += [index_crop(img, f["centre"], f["down"], f["height"], int(face["input"]), float(face["crop_scale"]))
                      for f in found]
            continue
        if found:
            classify(img, found, nets)
            cards, unsure = decide(found, nets.cfg, (img.shape[1], img.shape[0]))
            phantoms += len(cards)
            refusals += len(unsure)
    if a.out:
        np.savez_compressed(a.out, crops=np.stack(crops) if crops else np.zeros((0, 40, 40, 3), np.uint8))
        print(f"{n} photos, {len(crops)} finds kept as no-index crops in {a.out}")
    else:
        print(f"{n} photos with no card: {phantoms} cards read (phantoms), {refusals} refusals")


if __name__ == "__main__":
    main()
