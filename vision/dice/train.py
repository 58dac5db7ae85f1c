"""Makes die_cnn.npz from labelled photos (labels.json in the dice-d6-photos format).

    python -m vision.dice.train PHOTO_DIR [--split even|odd|all] [-o FILE]

Training examples come from the same candidate search the reader runs, so the
network learns exactly the places it must reject (tray walls, half dice, points
between two touching dice), plus jittered copies of every labelled die so it does
not depend on where the candidate grid happened to fall. Every batch is turned by a
random multiple of 90 degrees and mirrored: the upright patch fixes the angle only
modulo 90, and pip layouts do not care about mirroring."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from vision.dice.candidates import find_candidates
from vision.dice.classifier import MODEL_PATH, new_network
from vision.dice.foreground import foreground_mask
from vision.dice.patches import network_input, upright_patch
from vision.dice.tinycnn import train
from vision.evaluate import split_names
from vision.image_io import load_bgr

BOX_PER_SIDE = 1.37  # labelled box size / candidate side, measured on lone dice
POSITIVE_RADIUS = 0.15  # candidate within this many box sizes of a labelled centre
JITTERS = 4
NEGATIVES_PER_PHOTO = 40


def _label_for(x: float, y: float, dice: list[dict]) -> int | None:
    """Class of a candidate: a face value, 0 for no die, None when ambiguous."""
    for die in dice:
        x0, y0, x1, y1 = die["box"]
        if x0 <= x <= x1 and y0 <= y <= y1:
            size = (x1 - x0 + y1 - y0) / 2
            near = np.hypot(x - (x0 + x1) / 2, y - (y0 + y1) / 2) < POSITIVE_RADIUS * size
            return int(die["value"]) if near else None
    return 0


def collect(photo_dir: Path, names: list[str], seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Upright BGR patches and their classes from the named labelled photos."""
    rng = np.random.default_rng(seed)
    labels = json.loads((photo_dir / "labels.json").read_text())
    patches, classes = [], []
    for name in names:
        frame = load_bgr(photo_dir / "images" / name)
        dice = labels[name]["dice"]
        candidates, _ = find_candidates(foreground_mask(frame))
        negatives = []
        for c in candidates:
            cls = _label_for(c.x, c.y, dice)
            if cls is None:
                continue
            if cls == 0:
                negatives.append(c)
                continue
            patches.append(upright_patch(frame, (c.x, c.y), c.side)[0])
            classes.append(cls)
        for i in rng.permutation(len(negatives))[:NEGATIVES_PER_PHOTO]:
            c = negatives[i]
            patches.append(upright_patch(frame, (c.x, c.y), c.side)[0])
            classes.append(0)
        for die in dice:
            x0, y0, x1, y1 = die["box"]
            size = (x1 - x0 + y1 - y0) / 2
            for _ in range(JITTERS):
                side = size / BOX_PER_SIDE * rng.uniform(0.85, 1.2)
                cx = (x0 + x1) / 2 + rng.normal(0, 0.05) * size
                cy = (y0 + y1) / 2 + rng.normal(0, 0.05) * size
                patches.append(upright_patch(frame, (cx, cy), side)[0])
                classes.append(int(die["value"]))
    return np.stack(patches), np.array(classes)


def _turn_and_mirror(batch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    batch = np.rot90(batch, int(rng.integers(4)), axes=(1, 2))
    return np.ascontiguousarray(batch[:, :, ::-1] if rng.random() < 0.5 else batch)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train the dice face network.")
    parser.add_argument("photo_dir", type=Path)
    parser.add_argument("--split", choices=("even", "odd", "all"), default="all")
    parser.add_argument("-o", "--output", type=Path, default=MODEL_PATH)
    parser.add_argument("--epochs", type=int, default=30)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    names = split_names(list(json.loads((args.photo_dir / "labels.json").read_text())), args.split)
    patches, y = collect(args.photo_dir, names)
    print(f"{len(names)} photos, {len(y)} patches, class counts {np.bincount(y, minlength=7).tolist()}",
          flush=True)
    x = network_input(patches)
    net = train(new_network(), x, y, epochs=args.epochs, augment=_turn_and_mirror, lr=5e-3,
                log=lambda line: print(line, flush=True))
    accuracy = float(np.mean(net.probabilities(x).argmax(axis=1) == y))
    net.save(args.output)
    print(f"training accuracy {accuracy:.4f}; saved {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
