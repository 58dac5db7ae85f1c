"""Open up an exported pair of dice-net ONNX files for teaching, leaving every number
they compute as it was:

- the detector's input takes any height and width (the network is fully convolutional
  and its two upsamplings scale by 2), so a taught reader can run it on a frame shrunk
  or enlarged to put the owner's dice at the size the detector knows best;
- the face classifier gives, beside its probabilities, the features its last layer
  reads (the global average before the linear layer), which a taught head is fitted on.

    python -m tools.dice_net.onnx_outputs vision/models    # edits the files in place

`export.py` runs this on every export, so a new run's files come out the same way."""

from __future__ import annotations

import argparse
from pathlib import Path

import onnx

FEATURES = "features"


def open_detector(path: Path) -> bool:
    model = onnx.load(str(path))
    dims = model.graph.input[0].type.tensor_type.shape.dim
    if dims[2].dim_param == "h":
        return False
    for value, names in ((model.graph.input[0], ("h", "w")), (model.graph.output[0], ("gh", "gw"))):
        shape = value.type.tensor_type.shape.dim
        for dim, name in zip((shape[2], shape[3]), names):
            dim.ClearField("dim_value")
            dim.dim_param = name
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return True


def add_features(path: Path) -> bool:
    model = onnx.load(str(path))
    if any(out.name == FEATURES for out in model.graph.output):
        return False
    gemm = next(node for node in model.graph.node if node.op_type == "Gemm")
    node = onnx.helper.make_node("Identity", [gemm.input[0]], [FEATURES], name="features_out")
    model.graph.node.append(node)
    width = next(init for init in model.graph.initializer if init.name == gemm.input[1]).dims[1]
    model.graph.output.append(onnx.helper.make_tensor_value_info(FEATURES, onnx.TensorProto.FLOAT, ["n", width]))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return True


def open_up(folder: Path, prefix: str = "dice") -> None:
    """The pair `<prefix>_detector.onnx` and `<prefix>_face.onnx` (prefix "d10" for the d10 reader's)."""
    open_detector(folder / f"{prefix}_detector.onnx")
    add_features(folder / f"{prefix}_face.onnx")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    a = ap.parse_args(argv)
    open_up(a.folder)
    print(f"{a.folder}: detector input any size, face features output")


if __name__ == "__main__":
    main()
