"""Makes the dice reader's networks from labelled photos (labels.json in the
dice-d6-photos format): a finder (die_cnn.onnx) or, with --face, the face network
(die_face.onnx). Both learn from the same patches; they differ in size only. Trained
with PyTorch (the `train` extra) and written as ONNX, which the reader runs.

    python -m tools.train.dice PHOTO_DIR [--face] [--split even|odd|all] [--seed N] [-o FILE]

Training examples come from the same candidate search the reader runs, so the
network learns exactly the places it must reject (tray walls, half dice, points
between two touching dice), plus jittered copies of every labelled die so it does
not depend on where the candidate grid happened to fall. Every batch is turned by a
random multiple of 90 degrees and mirrored (the upright patch fixes the angle only
modulo 90, and pip layouts do not care about mirroring), shifted a little and
re-contrasted; with --glare, --erase or --defocus (experiments, off by default), some
also get a painted-on highlight, a rectangle of random pixels or blur and noise."""

from __future__ import annotations

import argparse
import json
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from table.reads import inside
from tabletop21.evaluate import split_names
from tools.render import d10 as d10_render
from tools.render.fixtures import SEED as FIXTURE_SEED
from tools.render.fixtures import dice_scene
from tools.train.augment import jitter
from tools.train.d10 import TRAINING_STYLE as D10_TRAINING_STYLE
from vision.dice.candidates import find_candidates
from vision.dice.classifier import (
    CLASSES,
    FACE_MODEL_PATH,
    FACE_WIDTHS,
    HUE_MODEL_PATH,
    INPUT_CHANNELS,
    MODEL_PATH,
    NOT_A_DIE,
    ODD_DIE,
    WIDTHS,
)
from vision.dice.foreground import foreground_mask
from vision.dice.patches import FIND_PATCH, PATCH, SquareAngles, network_input, upright_patch
from vision.image_io import load_bgr

BOX_PER_SIDE = 1.37  # labelled box size / candidate side, measured on lone dice
POSITIVE_RADIUS = 0.15  # candidate within this many box sizes of a labelled centre
JITTERS = 8
TURN_JITTER = 12.0  # degrees either way added to the measured die angle of jittered copies
NEGATIVES_PER_PHOTO = 40
RENDERED_SCENES = 60
D10_SCENES = 40
D10_SEED = 7000  # none of the d10 fixtures' (10), hold-out (99-103) or training (5000) seeds


def _label_for(x: float, y: float, dice: list[dict]) -> int | None:
    """Class of a candidate: a face value, 0 for no die, None when ambiguous."""
    for die in dice:
        if inside((x, y), die["box"]):
            x0, y0, x1, y1 = die["box"]
            size = (x1 - x0 + y1 - y0) / 2
            near = np.hypot(x - (x0 + x1) / 2, y - (y0 + y1) / 2) < POSITIVE_RADIUS * size
            return int(die["value"]) if near else None
    return NOT_A_DIE


def _jittered(frame: np.ndarray, field: SquareAngles, box: list[float], rng: np.random.Generator,
              size: int) -> list:
    """JITTERS patches of a labelled die, each a little off-centre, off-size and
    off-angle, as the candidate search and the angle estimate will present it
    (the angle noise turned held-out wrong values into right ones or refusals)."""
    x0, y0, x1, y1 = box
    extent = (x1 - x0 + y1 - y0) / 2
    out = []
    for _ in range(JITTERS):
        side = extent / BOX_PER_SIDE * rng.uniform(0.85, 1.2)
        cx = (x0 + x1) / 2 + rng.normal(0, 0.05) * extent
        cy = (y0 + y1) / 2 + rng.normal(0, 0.05) * extent
        out.append(upright_patch(frame, field, (cx, cy), side, rng.uniform(-TURN_JITTER, TURN_JITTER), size)[0])
    return out


def collect(photo_dir: Path, names: list[str], size: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Upright size x size BGR patches and their classes from the named labelled photos."""
    rng = np.random.default_rng(seed)
    labels = json.loads((photo_dir / "labels.json").read_text())
    patches, classes = [], []
    for name in names:
        frame = load_bgr(photo_dir / "images" / name)
        dice = labels[name]["dice"]
        candidates, _ = find_candidates(foreground_mask(frame))
        field = SquareAngles(frame)
        negatives = []
        for c in candidates:
            cls = _label_for(c.x, c.y, dice)
            if cls is None:
                continue
            if cls == NOT_A_DIE:
                negatives.append(c)
                continue
            patches.append(upright_patch(frame, field, (c.x, c.y), c.side, size=size)[0])
            classes.append(cls)
        for i in rng.permutation(len(negatives))[:NEGATIVES_PER_PHOTO]:
            c = negatives[i]
            patches.append(upright_patch(frame, field, (c.x, c.y), c.side, size=size)[0])
            classes.append(NOT_A_DIE)
        for die in dice:
            patches += _jittered(frame, field, die["box"], rng, size)
            classes += [int(die["value"])] * JITTERS
    return np.stack(patches), np.array(classes)


def collect_rendered(scenes: int, seed: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Patches from rendered scenes (a different seed from the shipped fixtures, which
    stay unseen): the only source of cocked and stacked dice (class ODD_DIE), and
    die styles the photos lack."""
    rng = np.random.default_rng(seed)
    patches, classes = [], []
    for i in range(scenes):
        frame, label = dice_scene(rng, i)
        field = SquareAngles(frame)
        boxes = [(d["box"], int(d["value"])) for d in label["dice"]]
        boxes += [(u["box"], ODD_DIE) for u in label["unreadable"]]
        for box, cls in boxes:
            patches += _jittered(frame, field, box, rng, size)
            classes += [cls] * JITTERS
        all_dice = [{"box": b, "value": 1} for b, _ in boxes]
        for c in find_candidates(foreground_mask(frame))[0]:
            if _label_for(c.x, c.y, all_dice) == NOT_A_DIE and rng.random() < 0.3:
                patches.append(upright_patch(frame, field, (c.x, c.y), c.side, size=size)[0])
                classes.append(NOT_A_DIE)
    return np.stack(patches), np.array(classes)


def collect_d10(scenes: int, seed: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Rendered ten-sided dice as "no die" (class 0), in the varied style the d10
    networks learn from: never having seen one, the d6 networks read 20 of the 60
    d10 fixture dice as d6 and refused 42, and in a read of everything those claims
    spoilt the d10 reader's answers too."""
    rng = np.random.default_rng(seed)
    patches = []
    for frame, label in d10_render.scenes(scenes, seed, D10_TRAINING_STYLE):
        field = SquareAngles(frame)
        boxes = [d["box"] for d in label["d10"]]
        for box in boxes:
            patches += _jittered(frame, field, box, rng, size)
        on_d10 = [{"box": box, "value": 1} for box in boxes]
        patches += [upright_patch(frame, field, (c.x, c.y), c.side, size=size)[0]
                    for c in find_candidates(foreground_mask(frame))[0] if _label_for(c.x, c.y, on_d10) != NOT_A_DIE]
    return np.stack(patches), np.full(len(patches), NOT_A_DIE)


def glare(patches: np.ndarray, rng: np.random.Generator, share: float) -> np.ndarray:
    """`share` of the BGR patches with a specular highlight painted on: a soft white
    streak or an arc along a rounded edge. Glossy dice under a lamp show one, and glare
    is the commonest cause of held-out misses; training with these was no better than
    seed noise (docs/tried/dice.md), so the shipped networks do without.
    Highlights are long and thin, unlike a pip, so the label stays true."""
    out = patches.copy()
    size = patches.shape[1]
    for n in np.flatnonzero(rng.random(len(patches)) < share):
        spot = np.zeros((size, size), np.float32)
        centre = tuple(int(v) for v in rng.uniform(0.15, 0.85, 2) * size)
        tilt = float(rng.uniform(0, 180))
        if rng.random() < 0.5:
            long = rng.uniform(0.12, 0.35) * size
            axes = (int(round(long)), max(1, int(round(long / rng.uniform(2.5, 5.0)))))
            cv2.ellipse(spot, centre, axes, tilt, 0, 360, 1.0, -1)
        else:
            axes = tuple(int(round(v)) for v in rng.uniform(0.15, 0.45, 2) * size)
            start = float(rng.uniform(0, 360))
            cv2.ellipse(spot, centre, axes, tilt, start, start + float(rng.uniform(60, 200)), 1.0,
                        int(rng.integers(1, 3)))
        spot = cv2.GaussianBlur(spot, (0, 0), float(rng.uniform(0.6, 1.2)))[..., None] * rng.uniform(0.5, 1.0)
        out[n] = np.clip(out[n] * (1 - spot) + 255 * spot, 0, 255).astype(np.uint8)
    return out


def erase(patches: np.ndarray, rng: np.random.Generator, share: float) -> np.ndarray:
    """`share` of the BGR patches with a small rectangle (an eighth to a quarter of the
    side each way) of random pixels: a glint, a finger or a neighbour's edge hides part
    of a face, and the pip layouts are redundant enough to be read with a corner
    missing. Random pixels, not a flat colour, because a small flat dark square is
    exactly what a pip looks like. Held out (--erase 0.3, seed 0): 730 of 759 right
    against 729, within seed noise, so the shipped networks do without."""
    out = patches.copy()
    size = patches.shape[1]
    for n in np.flatnonzero(rng.random(len(patches)) < share):
        h, w = (int(v) for v in rng.integers(size // 8, size // 4 + 1, 2))
        y, x = int(rng.integers(size - h + 1)), int(rng.integers(size - w + 1))
        out[n, y:y + h, x:x + w] = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    return out


def defocus(patches: np.ndarray, rng: np.random.Generator, share: float) -> np.ndarray:
    """`share` of the BGR patches blurred (Gaussian, 0.6-1.2 pixels) with sensor noise
    (2-8 grey levels) added: a camera a little out of focus, a die caught while it
    settles, a dim table, none of which the labelled photos show much of. Held out
    (--defocus 0.3, seed 0): 726 of 759 right against 729 and more refusals, so the
    shipped networks do without."""
    out = patches.copy()
    for n in np.flatnonzero(rng.random(len(patches)) < share):
        soft = cv2.GaussianBlur(patches[n].astype(np.float32), (0, 0), float(rng.uniform(0.6, 1.2)))
        soft += rng.normal(0, rng.uniform(2, 8), soft.shape).astype(np.float32)
        out[n] = np.clip(np.rint(soft), 0, 255).astype(np.uint8)
    return out


def augment_patches(batch: np.ndarray, rng: np.random.Generator, glare_share: float = 0.0, erase_share: float = 0.0,
             defocus_share: float = 0.0, hue_turned: bool = False) -> np.ndarray:
    """Network input out; in, network input too, or BGR patches when any share is set
    (highlights, erased rectangles and blur are applied to the colours, in that order,
    so these are converted afterwards; a share of 0 draws no random numbers, so the
    default recipe is unchanged). Then a random quarter turn and mirror (free: pips do
    not care), then per patch a shift of up to two pixels (centring error), contrast
    scaled per channel (other dice, other light) and a little noise: the network
    memorised the training dice without these."""
    if glare_share or erase_share or defocus_share:
        for paint, share in ((glare, glare_share), (erase, erase_share), (defocus, defocus_share)):
            if share:
                batch = paint(batch, rng, share)
        batch = network_input(batch, hue_turned)
    batch = np.rot90(batch, int(rng.integers(4)), axes=(1, 2))
    batch = batch[:, :, ::-1] if rng.random() < 0.5 else batch
    return jitter(batch, rng)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train a dice finder or face network.")
    parser.add_argument("photo_dir", type=Path)
    parser.add_argument("--split", choices=("even", "odd", "all"), default="all")
    parser.add_argument("--face", action="store_true", help="the face network rather than a finder")
    parser.add_argument("--hue", action="store_true",
                        help="with --face: the second opinion, taught every die's colours turned to one hue")
    parser.add_argument("-o", "--output", type=Path, help="default: the shipped file of that network")
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--widths", help="channels of the conv stages (default: the shipped network's)")
    parser.add_argument("--seed", type=int, default=0, help="initial weights and batch order")
    parser.add_argument("--rendered", type=int, default=RENDERED_SCENES, help="rendered scenes to add")
    parser.add_argument("--glare", type=float, default=0.0,
                        help="share of training patches given a painted-on highlight (docs/tried/dice.md: tried, not shipped)")
    parser.add_argument("--erase", type=float, default=0.0,
                        help="share of training patches with a small rectangle of random pixels (experiment, default off)")
    parser.add_argument("--defocus", type=float, default=0.0,
                        help="share of training patches blurred, with sensor noise (experiment, default off)")
    parser.add_argument("--d10", type=int, help="rendered d10 scenes to add as 'no die' (default: "
                        f"{D10_SCENES} for a finder, none for the face network)")
    args = parser.parse_args(argv)
    if args.hue and not args.face:
        parser.error("--hue is a face network's: add --face")
    from tools.train.to_onnx import write_onnx  # here: the rest of this module serves without PyTorch
    from tools.train.torch_fit import fit, new_net

    cv2.setNumThreads(1)
    names = split_names(list(json.loads((args.photo_dir / "labels.json").read_text())), args.split)
    size = PATCH if args.face else FIND_PATCH
    patches, y = collect(args.photo_dir, names, size)
    if args.rendered:
        more, more_y = collect_rendered(args.rendered, FIXTURE_SEED + 1, size)
        patches, y = np.concatenate([patches, more]), np.concatenate([y, more_y])
    # The finders decide where dice are, so they are the ones that must not find a
    # d10; a face network also taught d10s read more cocked render dice (4 of 6, not 2).
    d10_scenes = (0 if args.face else D10_SCENES) if args.d10 is None else args.d10
    if d10_scenes:
        more, more_y = collect_d10(d10_scenes, D10_SEED, size)
        patches, y = np.concatenate([patches, more]), np.concatenate([y, more_y])
    print(f"{len(names)} photos + {args.rendered} rendered scenes + {d10_scenes} d10 scenes, {len(y)} patches, "
          f"class counts {np.bincount(y, minlength=CLASSES).tolist()}", flush=True)
    widths = tuple(int(w) for w in args.widths.split(",")) if args.widths else FACE_WIDTHS if args.face else WIDTHS
    output = args.output or (HUE_MODEL_PATH if args.hue else FACE_MODEL_PATH if args.face else MODEL_PATH)
    # The finders were made with the numpy trainer's recipe, the face networks (four
    # times a finder's work, hours for that trainer) with PyTorch's one-cycle.
    recipe = "onecycle" if args.face else "cosine"
    # Converted once, unless the colours must be painted on every batch.
    x = network_input(patches, args.hue)
    painted = args.glare or args.erase or args.defocus
    augment = partial(augment_patches, glare_share=args.glare, erase_share=args.erase, defocus_share=args.defocus,
                      hue_turned=args.hue)
    net = fit(new_net(INPUT_CHANNELS, widths, size, CLASSES, seed=args.seed), patches if painted else x, y,
              epochs=args.epochs, augment=augment, lr=5e-3, seed=args.seed, recipe=recipe,
              log=lambda line: print(line, flush=True))
    accuracy = float(np.mean(net.probabilities(x).argmax(axis=1) == y))
    write_onnx(net, output)
    print(f"training accuracy {accuracy:.4f}; saved {output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
