"""Writes a TinyNet (tools.train.torch_fit) as the ONNX file a reader runs
(vision.weights), and converts network files of the old numpy format (.npz) to it.

    python -m tools.train.to_onnx FILE.npz [FILE.npz ...] [--side N]

writes FILE.onnx beside each: the same network, computing the same logits (checked
against PyTorch on random input before the file is written). The graph is written
node by node rather than through torch.onnx.export: a handful of plain operators
(Transpose, Conv, MaxPool, Relu, Flatten, Gemm; Cast for weights kept as float16) at opset 13 and IR version 8, which
every onnxruntime from 1.10 on reads, the Raspberry Pi's included. Needs torch and
onnx (the `train` extra)."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from tools.train.torch_fit import TinyNet

OPSET = 13
IR_VERSION = 8
CHECK_ATOL = 1e-4  # largest logit difference from PyTorch allowed (float32 sums in another order)


def onnx_model(net: TinyNet, half: bool = False) -> onnx.ModelProto:
    """The ONNX model of `net`: input "x" (n, rows, columns, channels) float32, output
    "logits" (n, classes). `half`: the weights rounded to float16 in the file (half
    its size) and widened to float32 when the file is opened, so the network computes
    in float32 on the rounded weights."""
    rows, cols, channels = net.input_shape
    nodes = [helper.make_node("Transpose", ["x"], ["x_nchw"], perm=[0, 3, 1, 2])]
    inits = []

    def weight(values, name: str) -> None:
        values = values.detach().numpy()
        if half:
            inits.append(numpy_helper.from_array(values.astype(np.float16), name + "_half"))
            nodes.append(helper.make_node("Cast", [name + "_half"], [name], to=TensorProto.FLOAT))
        else:
            inits.append(numpy_helper.from_array(values.astype(np.float32), name))

    last = "x_nchw"
    for i, conv in enumerate(net.convs):
        weight(conv.weight, f"k{i}")
        weight(conv.bias, f"b{i}")
        nodes += [helper.make_node("Conv", [last, f"k{i}", f"b{i}"], [f"conv{i}"], kernel_shape=[3, 3],
                                   pads=[1, 1, 1, 1]),
                  helper.make_node("MaxPool", [f"conv{i}"], [f"pool{i}"], kernel_shape=[2, 2], strides=[2, 2]),
                  helper.make_node("Relu", [f"pool{i}"], [f"relu{i}"])]
        last = f"relu{i}"
    weight(net.fc.weight, "w")
    weight(net.fc.bias, "b")
    nodes += [helper.make_node("Transpose", [last], ["features_nhwc"], perm=[0, 2, 3, 1]),
              helper.make_node("Flatten", ["features_nhwc"], ["features"], axis=1),
              helper.make_node("Gemm", ["features", "w", "b"], ["logits"], transB=1)]
    classes = net.fc.out_features
    graph = helper.make_graph(nodes, "tinynet", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                              ["n", rows, cols, channels])],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n", classes])], inits)
    model = helper.make_model(graph, producer_name="tabletop21 tools.train", opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model)
    return model


def write_onnx(net: TinyNet, path: str | Path, half: bool = False, seed: int = 0) -> float:
    """Writes `net` to `path` (`half`: as onnx_model) once onnxruntime's logits for
    random input match PyTorch's (on the rounded weights, with `half`); returns their
    largest difference."""
    import onnxruntime as ort
    import torch

    if half:
        with torch.no_grad():
            for values in net.parameters():
                values.copy_(values.half().float())
    model = onnx_model(net, half)
    x = np.random.default_rng(seed).normal(0, 1, (8, *net.input_shape)).astype(np.float32)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
    ours = session.run(None, {"x": x})[0]
    with torch.no_grad():
        theirs = net.eval()(torch.from_numpy(x)).numpy()
    difference = float(np.abs(ours - theirs).max())
    if not difference <= CHECK_ATOL * max(1.0, float(np.abs(theirs).max())):
        raise ValueError(f"the ONNX network's logits differ from PyTorch's by {difference}")
    Path(path).write_bytes(model.SerializeToString())
    return difference


def convert(npz: Path, side: int | None = None) -> Path:
    """FILE.onnx beside the old numpy network file FILE.npz. The input's side is found
    from the linear layer's size when not given (square input, three pools)."""
    with np.load(npz) as data:
        half = all(data[name].dtype == np.float16 for name in data.files)  # the d10 networks were so saved
        params = {name: data[name].astype(np.float32) for name in data.files}
    if side is None:
        depth = sum(1 for name in params if name.startswith("k"))
        cells = params["w"].shape[0] // params[f"k{depth - 1}"].shape[1]
        last = round(cells ** 0.5)
        if last * last != cells:
            raise ValueError(f"{npz}: the input's side cannot be told from the weights; give --side")
        side = last * 2 ** depth
    out = npz.with_suffix(".onnx")
    difference = write_onnx(TinyNet.from_arrays(params, side), out, half)
    print(f"{npz} -> {out} (input {side}x{side}x{params['k0'].shape[0] // 9}{', float16 weights' if half else ''}, "
          f"largest logit difference from PyTorch {difference:.2e})")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Convert numpy network files (.npz) to ONNX.")
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--side", type=int, help="the input's side, where the weights leave it open")
    args = parser.parse_args(argv)
    for path in args.files:
        convert(path, args.side)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
