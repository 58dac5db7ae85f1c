"""8-bit copies of the learned domino reader's two networks (as tools.dice_net.quantize
makes the d6 reader's, with the nodes writing the outputs kept in floats: the detector's
output holds two heatmaps and four sizes, the half classifier's a softmax whose top has
to pass 0.95). The activation ranges come from composites of the training looks on the
real tables (tools.domino_net.compose, never the held-out looks or domino-photos), at
every size band the detector was trained on, each seen at both looks the reader takes.

    python -m tools.domino_net.quantize --out runs/domino-int8
    python -m tools.domino_net.evaluate --config runs/domino-int8/domino_net.json

Needs the `train` extra's onnx beside onnxruntime."""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

from pathlib import Path

import numpy as np

from tools.dice_net.quantize import composite_setup, quantize_pair
from tools.domino_net.compose import scene
from tools.domino_net.evaluate import SIZE_BANDS


def calibration_inputs(config: Path, frames: list[np.ndarray]) -> tuple[list, list]:
    """The detector's input for each frame at each of the config's looks, and the half
    classifier's crops of every pair option it finds there."""
    from vision import dice_net
    from vision.dominoes import net

    nets = dice_net.load_nets(config)
    looks = [float(look) for look in nets.cfg["detector"].get("looks", [1.0])]
    det_in, face_in = [], []
    for frame in frames:
        for look in looks:
            det_in.append(dice_net.letterboxed(frame, nets, look)[0])
            halves, tiles = net.candidates(frame, config, look=look)
            pairs = [(i, j) for _, _, i, j in net.pair_options(halves, tiles)]
            if pairs:
                face_in.append(net.option_crops(frame, halves, pairs, nets))
    return det_in, face_in


def main(argv=None):
    from vision.dominoes.net import CONFIG

    a, config, tabs, rng = composite_setup(argv, CONFIG)
    frames = [scene(rng, 320, tabs, held=False, short_range=SIZE_BANDS[i % len(SIZE_BANDS)])[0]
              for i in range(a.scenes)]
    det_in, face_in = calibration_inputs(config, frames)
    quantize_pair(config, a.out, det_in, face_in, f"{a.scenes} composites of the training looks (seed {a.seed})",
                  "tools/domino_net/quantize.py")
    print(f"{a.out}: {len(det_in)} detector inputs, {sum(len(f) for f in face_in)} crops set the ranges")


if __name__ == "__main__":
    main()
