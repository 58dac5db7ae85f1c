"""8-bit copies of a run's two networks (onnxruntime static quantization, QDQ, weights
per channel): the convolutions, pools and sums run on 8-bit integers, the last linear
layer, the softmax and the heatmap's sigmoid stay in floats, so that confidences near 1
keep their resolution (quantized too, every probability was a multiple of 1/255 and no
die reached a face threshold of 0.997). The activations' ranges are set from photos
of the training split of the sources the run was trained on, never from the photos it
is scored on.

    python -m tools.dice_net.quantize --config RUN/onnx/dice_net.json --out RUN/int8
    python -m tools.dice_net.quantize --config RUN/onnx/dice_net.json --out RUN/int8 --leave-out dice-aws
    python -m tools.dice_net.calibrate --config RUN/int8/dice_net.json --leave-out dice-aws

Needs the `train` extra's onnx beside onnxruntime. The copy's config is the run's, with
the file names kept and `trained.quantized` saying how it was made; calibrate it again
before use (the thresholds are the float networks')."""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import shutil
import tempfile
from pathlib import Path

import numpy as np

from tools.dice_net.data import DEFAULT_DATA, is_val, kept_sources, leave_spec, left_out, load_photos

# every op of the two networks but the last linear layer, softmax and sigmoid
QUANTIZED_OPS = ["Conv", "Relu", "MaxPool", "GlobalAveragePool", "Add", "Resize", "Concat", "Flatten"]
# Weights in 7 bits: x86 CPUs without VNNI multiply 8-bit activations by 8-bit weights in
# pairs summed into 16 bits (VPMADDUBSW), which saturates; 7-bit weights cannot. Without
# it the shipped d6 pair read 78% of the val dice right on such a CPU against 88% where
# it was made.
REDUCE_RANGE = True
WEIGHT_BITS = " in 7 bits (reduce_range)" if REDUCE_RANGE else ""


class _Feed:
    """onnxruntime's calibration reader over a list of inputs."""

    def __init__(self, name: str, inputs: list[np.ndarray]):
        self._it = iter([{name: x} for x in inputs])

    def get_next(self):
        return next(self._it, None)


def calibration_inputs(config: Path, photos, det_threshold: float = 0.3) -> tuple[list, list]:
    """The detector's input for each photo and the face classifier's crops at the
    detector's finds (at `det_threshold`, so the crops hold near-misses as well)."""
    from vision import dice_net

    nets = dice_net.load_nets(config)
    det_in, face_in = [], []
    for ph in photos:
        frame = dice_net._check_frame(ph.load())
        det_in.append(dice_net.letterboxed(frame, nets)[0])
        finds = dice_net.detect(frame, nets, det_threshold)
        if finds:
            face_in.append(dice_net.face_crops(frame, nets, finds))
    return det_in, face_in


def output_nodes(path: Path) -> list[str]:
    """The nodes that write a graph output (a detector's last Concat of heatmap and
    sizes, a classifier's Concat of two softmaxes): in 8 bits one scale would cover
    values of every range the output holds."""
    import onnx

    model = onnx.load(str(path))
    outs = {o.name for o in model.graph.output}
    return [n.name for n in model.graph.node if n.name and outs & set(n.output)]


def quantize_file(src: Path, dst: Path, input_name: str, inputs: list[np.ndarray],
                  keep_outputs: bool = False) -> None:
    """An 8-bit copy of `src` at `dst`, activation ranges from `inputs`; with
    `keep_outputs` the nodes writing the outputs stay in floats (`output_nodes`)."""
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / "pre.onnx"
        quant_pre_process(str(src), str(pre), skip_symbolic_shape=True)
        quantize_static(str(pre), str(dst), _Feed(input_name, inputs), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        op_types_to_quantize=QUANTIZED_OPS, reduce_range=REDUCE_RANGE,
                        nodes_to_exclude=output_nodes(pre) if keep_outputs else None)


def quantize_pair(config: Path, out: Path, det_in: list[np.ndarray], face_in: list[np.ndarray], ranges: str,
                  tool: str) -> None:
    """8-bit copies of a reader's detector and classifier (as named in `config`) in
    `out`, the nodes writing their outputs kept in floats, with the config beside them
    saying how they were made (`tool`, and the `ranges` they were set from)."""
    from vision import dice_net

    nets = dice_net.load_nets(config)
    cfg = json.loads(Path(config).read_text())
    out.mkdir(parents=True, exist_ok=True)
    for part, name, inputs in (("detector", nets.det_in, det_in), ("face", nets.face_in, face_in)):
        quantize_file(nets.base / cfg[part]["file"], out / cfg[part]["file"], name, inputs, keep_outputs=True)
    cfg.setdefault("trained", {})["quantized"] = (
        f"{tool}: 8-bit QDQ, weights per channel{WEIGHT_BITS}, {', '.join(QUANTIZED_OPS)}, the output nodes in floats; ranges "
        f"from {ranges}")
    (out / Path(config).name).write_text(json.dumps(cfg, indent=1) + "\n")


def composite_setup(argv, default_config: Path, scenes: int = 96, seed: int = 9000):
    """The command line of the tools that set 8-bit ranges from composites on the real
    tables (--config, --out, --scenes, --seed, --data, --cache), parsed: the arguments,
    the config to copy, the tables and the rng the composites are drawn with."""
    import cv2

    from tools.domino_net.compose import DEFAULT_CACHE, all_tables

    ap = argparse.ArgumentParser()
    ap.add_argument("--config", type=Path, help="the reader's config (default: the shipped one)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--scenes", type=int, default=scenes, help="composites that set the ranges")
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    return a, a.config or default_config, all_tables(a.data, a.cache), np.random.default_rng(a.seed)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--config", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--leave-out", action="append", default=[], type=leave_spec, help="SOURCE or SOURCE@K/N")
    ap.add_argument("--photos", type=int, default=90, help="training photos that set the ranges")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--keep-outputs", action="store_true",
                    help="the detector's last Concat (heatmap and sizes) in floats too")
    ap.add_argument("--face-only", action="store_true",
                    help="copy the detector as it is (already 8-bit: a new face classifier for the shipped detector)")
    a = ap.parse_args(argv)
    from vision import dice_net

    pool = [p for p in load_photos(a.data, kept_sources(a.leave_out))
            if not is_val(p) and not left_out(p, a.leave_out)]
    pick = np.random.default_rng(a.seed).choice(len(pool), min(a.photos, len(pool)), replace=False)
    det_in, face_in = calibration_inputs(a.config, [pool[i] for i in sorted(pick)])
    nets = dice_net.load_nets(a.config)
    cfg = json.loads(a.config.read_text())
    a.out.mkdir(parents=True, exist_ok=True)
    if a.face_only:
        shutil.copy(nets.base / cfg["detector"]["file"], a.out / cfg["detector"]["file"])
    else:
        quantize_file(nets.base / cfg["detector"]["file"], a.out / cfg["detector"]["file"], nets.det_in, det_in,
                      keep_outputs=a.keep_outputs)
    quantize_file(nets.base / cfg["face"]["file"], a.out / cfg["face"]["file"], nets.face_in, face_in)
    for name in cfg["face"].get("also", ()):
        shutil.copy(nets.base / name, a.out / name)  # kept in floats
    cfg.setdefault("trained", {})["quantized"] = (
        f"tools/dice_net/quantize.py: 8-bit QDQ, weights per channel{WEIGHT_BITS}, {', '.join(QUANTIZED_OPS)}"
        f"{' (the detector output in floats)' if a.keep_outputs else ''}"
        f"{' (the face classifier; the detector was 8-bit already)' if a.face_only else ''}; ranges from "
        f"{len(pick)} training photos of {', '.join(kept_sources(a.leave_out))} (seed {a.seed})")
    (a.out / a.config.name).write_text(json.dumps(cfg, indent=1) + "\n")
    print(f"{a.out}: {len(det_in)} frames, {sum(len(f) for f in face_in)} crops set the ranges")


if __name__ == "__main__":
    main()
