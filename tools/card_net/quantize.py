"""8-bit copies of the card reader's two networks (as tools.dice_net.quantize makes the
d6 reader's, and with the nodes writing the outputs kept in floats: the index
classifier's output joins two softmaxes, the detector's a heatmap, sizes and a down
direction). The activation ranges come from composites of the training designs on the
real tables (tools.card_net.compose), never from the held-out designs or the fixtures.

    python -m tools.card_net.quantize --out runs/card-int8
    python -m tools.card_net.evaluate --config runs/card-int8/card_net.json
    tabletop21 bench cards --card-net runs/card-int8/card_net.json

Needs the `train` extra's onnx beside onnxruntime."""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

from pathlib import Path

import numpy as np

from tools.card_net import compose, faces
from tools.card_net.evaluate import HEIGHTS
from tools.dice_net.quantize import composite_setup, quantize_pair


def calibration_inputs(config: Path, frames: list[np.ndarray]) -> tuple[list, list]:
    """The detector's input for each frame and the index classifier's crops at its finds."""
    from vision import dice_net
    from vision.cards import net

    nets = dice_net.load_nets(config)
    det_in, face_in = [], []
    for frame in frames:
        det_in.append(dice_net.letterboxed(frame, nets)[0])
        found = net.detect(frame, nets, float(nets.cfg["detector"]["threshold"]))
        if found:
            face_in.append(net.index_inputs(frame, found, nets))
    return det_in, face_in


def main(argv=None):
    from vision.cards.net import CONFIG

    a, config, tabs, rng = composite_setup(argv, CONFIG)
    train, _ = faces.split(faces.all_faces(np.random.default_rng(0)))
    heights = list(HEIGHTS.values())
    frames = []
    for i in range(a.scenes):
        long_range, size = heights[i % len(heights)]
        frames.append(compose.scene(rng, size, tabs, train, long_range=long_range, frame_side=size)[0])
    det_in, face_in = calibration_inputs(config, frames)
    quantize_pair(config, a.out, det_in, face_in, f"{a.scenes} composites of the training designs (seed {a.seed})",
                  "tools/card_net/quantize.py")
    print(f"{a.out}: {len(det_in)} frames, {sum(len(f) for f in face_in)} crops set the ranges")


if __name__ == "__main__":
    main()
