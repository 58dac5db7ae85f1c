"""Makes the d10 reader's networks (d10_cnn.onnx, d10_cnn_2.onnx), with PyTorch (the
`train` extra), written as ONNX:

    python -m tools.train.d10 --d6-photos ../shared/data/dice-d6-photos --seed 0
    python -m tools.train.d10 --d6-photos ../shared/data/dice-d6-photos --seed 1 -o vision/d10/d10_cnn_2.onnx

Dice are rendered with far more variety than the fixtures (upright DejaVu faces of
every width and weight, random body and ink colours, marbling and glare, 32-100 px
dice, 6 and 9 underlined, dotted or unmarked) on seeds that the fixtures and the
measured hold-out seeds never use. Examples come from the same blob search the reader
runs, so the network also learns what it must reject: rendered d6 faces and playing
cards, real d6 photos (class NOT_D10), and blobs that are not one whole die. Every
labelled die is cut out several times a little off-centre, off-angle and off-size,
as the outline's pose will present it. Training on the even half of the d6 photos
(`--split even`) leaves the odd half to measure how well that rejection carries over."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from table.reads import inside
from tabletop21.evaluate import split_names
from tools.render import camera_look, fonts
from tools.render import cards as card_render
from tools.render import d10 as render
from tools.render.fixtures import dice_scene
from tools.train.augment import jitter
from vision.d10.classifier import CLASSES, INPUT_CHANNELS, MODEL_PATH, NOT_D10, UNMARKED, WIDTHS
from vision.d10.find import die_blobs
from vision.d10.patch import PATCH, face_patch, network_input, outline_pose
from vision.image_io import load_bgr

TRAIN_SEED = 5000  # fixtures use 10, the documented hold-out 99-103
JITTERS = 4
PHOTO_COPIES = 3  # patches per blob on the real d6 photos
TRAINING_FONTS = tuple(fonts.ttf(name) for name in (
    "freesansbold", "DejaVuSans", "DejaVuSans-Bold", "DejaVuSansCondensed", "DejaVuSansCondensed-Bold",
    "DejaVuSerif", "DejaVuSerif-Bold", "DejaVuSerifCondensed", "DejaVuSerifCondensed-Bold",
    "DejaVuSansMono", "DejaVuSansMono-Bold"))


def _random_colours(rng: np.random.Generator) -> tuple:
    """A body of any hue and lightness and an ink that stands out from it: near white,
    near black, or a light or dark colour of its own (gold on purple, red on white)."""
    body = rng.integers(0, 256, 3)
    light = float(body @ [0.114, 0.587, 0.299]) > 120
    if rng.random() < 0.6:
        ink = rng.integers(0, 40, 3) if light else rng.integers(215, 256, 3)
    else:
        ink = rng.integers(0, 110, 3) if light else rng.integers(150, 256, 3)
    return tuple(int(v) for v in body), tuple(int(v) for v in ink)


def _random_marker(rng: np.random.Generator) -> str:
    return str(rng.choice(["underline", "dot", "none"], p=[0.55, 0.3, 0.15]))


def _marble_and_glare(sprite: np.ndarray, alpha: np.ndarray, rng: np.random.Generator) -> None:
    """Some bought dice are marbled (the body's colour swirls) and most are glossy (a
    bright highlight somewhere): neither may be taken for ink."""
    h, w = alpha.shape
    if rng.random() < 0.4:
        swirl = cv2.resize(rng.normal(0, 1, (5, 5, 3)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        swirl = 1 + rng.uniform(0.1, 0.3) * np.clip(swirl, -2, 2)
        sprite[:] = np.clip(sprite * swirl, 0, 255).astype(np.uint8)
    ys, xs = np.nonzero(alpha)
    if len(ys) and rng.random() < 0.4:
        i = int(rng.integers(len(ys)))
        spot = np.zeros((h, w), np.float32)
        if rng.random() < 0.5:  # a round highlight
            axes = (int(rng.integers(2, 8)), int(rng.integers(2, 5)))
            cv2.ellipse(spot, (int(xs[i]), int(ys[i])), axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        else:  # a curved streak along a rounded edge, the glare that most resembles a stroke
            axes = (int(rng.integers(8, 30)), int(rng.integers(5, 20)))
            start = float(rng.uniform(0, 360))
            cv2.ellipse(spot, (int(xs[i]), int(ys[i])), axes, float(rng.uniform(0, 180)), start,
                        start + float(rng.uniform(40, 160)), 1.0, int(rng.integers(1, 4)))
        spot = cv2.GaussianBlur(spot * (alpha > 0), (0, 0), 1.2)[..., None] * rng.uniform(0.4, 0.9)
        sprite[:] = np.clip(sprite * (1 - spot) + 255 * spot, 0, 255).astype(np.uint8)


TRAINING_STYLE = render.Style(fonts=TRAINING_FONTS, colour=_random_colours, sizes=(32.0, 100.0),
                              marker=_random_marker, finish=_marble_and_glare)


def _patches(frame: np.ndarray, contour: np.ndarray, copies: int, rng: np.random.Generator) -> list[np.ndarray]:
    """The reader's own patch, then `copies - 1` jittered ones."""
    centre, angle, length, _ = outline_pose(contour)
    out = [face_patch(frame, centre, angle, length)]
    for _ in range(copies - 1):
        shifted = (centre[0] + rng.normal(0, 0.04) * length, centre[1] + rng.normal(0, 0.04) * length)
        out.append(face_patch(frame, shifted, angle + rng.uniform(-15, 15), length * rng.uniform(0.88, 1.12)))
    return out


def _any_way(frame: np.ndarray, contour: np.ndarray, copies: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Patches of something that is not a d10, at any turn, size and a little off-centre:
    what is not a number is not one at any angle, and variety keeps the network from
    remembering the few real photos it is shown."""
    centre, angle, length, _ = outline_pose(contour)
    out = [face_patch(frame, centre, angle, length)]
    for _ in range(copies - 1):
        shifted = (centre[0] + rng.normal(0, 0.08) * length, centre[1] + rng.normal(0, 0.08) * length)
        out.append(face_patch(frame, shifted, rng.uniform(0, 360), length * rng.uniform(0.8, 1.25)))
    return out


def _owner(contour: np.ndarray, boxes: list[list[float]]) -> int | None:
    """Index of the labelled box the blob's centre falls in (the nearest centre), if any."""
    (x, y), _, _, _ = outline_pose(contour)
    holding = [i for i, box in enumerate(boxes) if inside((x, y), box)]
    return min(holding, key=lambda i: np.hypot(x - (boxes[i][0] + boxes[i][2]) / 2,
                                             y - (boxes[i][1] + boxes[i][3]) / 2)) if holding else None


def _labelled(frame: np.ndarray, dice: list[dict], marker: str, rng: np.random.Generator) -> tuple[list, list]:
    """Patches of every blob in a frame with labelled d10s: the dice's (jittered) and,
    for blobs that are not one of them, NOT_D10."""
    patches, classes = [], []
    for contour in die_blobs(frame, None, None):
        i = _owner(contour, [d["box"] for d in dice])
        if i is None:
            patches += _patches(frame, contour, 1, rng)
            classes.append(NOT_D10)
            continue
        value = int(dice[i]["value"])
        patches += _patches(frame, contour, JITTERS, rng)
        classes += [UNMARKED if value in (6, 9) and marker == "none" else value] * JITTERS
    return patches, classes


def d10_examples(scenes: int, seed: int) -> tuple[list[np.ndarray], list[int]]:
    rng = np.random.default_rng(seed)
    patches, classes = [], []
    for frame, label in render.scenes(scenes, seed, TRAINING_STYLE):
        more, more_classes = _labelled(frame, label["d10"], label["marker"], rng)
        patches, classes = patches + more, classes + more_classes
    return patches, classes


def paste_d10s(photo: np.ndarray, taken_boxes: list[list[float]], rng: np.random.Generator) -> tuple[np.ndarray, list[dict], str]:
    """The photo with one to three rendered d10s (34-60 px, as a camera at the d6 photos'
    height sees them) dropped where nothing is labelled, their labels, and the marker of
    their 6 and 9. Rendered dice on real tables, in real light and real sensor noise,
    keep the network from telling d10s from everything else by how a render looks."""
    out = photo.copy()
    h, w = out.shape[:2]
    taken = np.zeros((h, w), np.uint8)
    for x0, y0, x1, y1 in taken_boxes:
        cv2.rectangle(taken, (int(x0) - 8, int(y0) - 8), (int(x1) + 8, int(y1) + 8), 1, -1)
    faces = fonts.available(list(TRAINING_FONTS))
    font, marker = faces[int(rng.integers(len(faces)))], _random_marker(rng)
    canvas, placed = 96, []
    for _ in range(int(rng.integers(1, 4))):
        value = int(rng.integers(10))
        sprite, alpha = render.render_die(value, rng.uniform(34, 60), rng.uniform(0, 360), _random_colours(rng),
                                          font, marker, rng, canvas)
        _marble_and_glare(sprite, alpha, rng)
        for _ in range(50):
            x, y = (int(v) for v in rng.integers(0, [w - canvas, h - canvas]))
            spot = np.zeros_like(taken)
            spot[y:y + canvas, x:x + canvas] = alpha > 0
            if not (cv2.dilate(spot, np.ones((15, 15), np.uint8)) & taken).any():
                break
        else:
            continue
        move = np.array([[1, 0, x], [0, 1, y], [0, 0, 1]], np.float64)
        camera_look.drop_shadow(out, cv2.warpPerspective(alpha, move, (w, h)), rng)
        camera_look.paste(out, cv2.GaussianBlur(sprite, (0, 0), rng.uniform(0.4, 0.9)), alpha, move)
        taken |= spot
        ys, xs = np.nonzero(alpha)
        placed.append({"value": value, "box": [xs.min() + x, ys.min() + y, xs.max() + x, ys.max() + y]})
    out = np.clip(out + rng.normal(0, rng.uniform(1, 4), out.shape), 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 92))])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR), placed, marker


def other_examples(scenes: int, seed: int) -> tuple[list[np.ndarray], list[int]]:
    """Blobs on rendered d6 and card scenes: never a d10."""
    rng = np.random.default_rng(seed)
    frames = [dice_scene(rng, i)[0] for i in range(scenes)]
    frames += [frame for frame, _ in card_render.scenes(max(1, scenes // 4), seed)]
    patches = [p for frame in frames for contour in die_blobs(frame, None, None) for p in _any_way(frame, contour, 2, rng)]
    return patches, [NOT_D10] * len(patches)


def photo_examples(photo_dir: Path, split: str, seed: int) -> tuple[list[np.ndarray], list[int]]:
    """Real photos of d6 dice (labels.json in the dice-d6-photos format), the one kind of
    real photo there is: every blob in them, at any turn, is NOT_D10 (real pips,
    translucent and glossy bodies, which no render imitates well enough); and a copy
    of each with rendered d10s dropped in (paste_d10s). Half the photos (`split`) keep
    the other half unseen."""
    rng = np.random.default_rng(seed)
    labels = json.loads((photo_dir / "labels.json").read_text())
    patches, classes = [], []
    for name in split_names(list(labels), split):
        frame = load_bgr(photo_dir / "images" / name)
        more = [p for contour in die_blobs(frame, None, None) for p in _any_way(frame, contour, PHOTO_COPIES, rng)]
        patches, classes = patches + more, classes + [NOT_D10] * len(more)
        pasted, dice, marker = paste_d10s(frame, [d["box"] for d in labels[name]["dice"]], rng)
        more, more_classes = _labelled(pasted, dice, marker, rng)
        patches, classes = patches + more, classes + more_classes
    return patches, classes


def _augment(batch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Half turns (the reader cannot tell up from down), a pixel or two of shift, contrast
    per channel and noise. No mirroring: a mirrored digit is not a digit."""
    turn = rng.random(len(batch)) < 0.5
    return jitter(np.where(turn[:, None, None, None], batch[:, ::-1, ::-1], batch), rng, gain=(0.75, 1.25))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train the d10 number network on rendered dice.")
    parser.add_argument("--scenes", type=int, default=800, help="rendered d10 scenes")
    parser.add_argument("--others", type=int, default=150, help="rendered d6 scenes (and a quarter as many card scenes)")
    parser.add_argument("--d6-photos", type=Path, help="real d6 photos to learn as not a d10")
    parser.add_argument("--split", choices=("even", "odd", "all"), default="all", help="which of the d6 photos")
    parser.add_argument("--epochs", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0, help="initial weights and batch order")
    parser.add_argument("-o", "--output", default=str(MODEL_PATH))
    args = parser.parse_args(argv)
    from tools.train.to_onnx import write_onnx  # here: the rest of this module serves without PyTorch
    from tools.train.torch_fit import fit, new_net

    cv2.setNumThreads(1)
    start = time.time()
    patches, classes = d10_examples(args.scenes, TRAIN_SEED)
    more, more_classes = other_examples(args.others, TRAIN_SEED + 1)
    patches, classes = patches + more, classes + more_classes
    if args.d6_photos:
        more, more_classes = photo_examples(args.d6_photos, args.split, TRAIN_SEED + 2)
        patches, classes = patches + more, classes + more_classes
    x = network_input(np.stack(patches))
    y = np.array(classes)
    print(f"{len(y)} patches in {time.time() - start:.0f} s, class counts {np.bincount(y, minlength=CLASSES).tolist()}",
          flush=True)
    net = fit(new_net(INPUT_CHANNELS, WIDTHS, PATCH, CLASSES, args.seed), x, y, epochs=args.epochs,
              augment=_augment, lr=4e-3, seed=args.seed, recipe="cosine", log=lambda line: print(line, flush=True))
    accuracy = float(np.mean(net.probabilities(x).argmax(axis=1) == y))
    # Half precision halves the shipped file and changes no probability by more than ~1e-3.
    write_onnx(net, args.output, half=True)
    print(f"training accuracy {accuracy:.4f}; saved {args.output} after {time.time() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
