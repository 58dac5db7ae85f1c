"""The 8-bit copies (tools/dice_net/quantize.py): with keep_outputs the node that writes
a network's output stays in floats, so probabilities keep their resolution; without
it the output is rounded to one 8-bit scale."""

import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="onnx (the `train` extra) is not installed")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from tools.dice_net.quantize import output_nodes, quantize_file  # noqa: E402


def _net(path):
    """x (1x3x8x8) -> Conv -> Relu -> [Sigmoid of channel 0, channel 1] -> Concat -> out."""
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.normal(0, 0.5, (2, 3, 3, 3)).astype(np.float32), "w")
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"], name="relu"),
             helper.make_node("Split", ["r"], ["a", "b"], name="split", axis=1, num_outputs=2),
             helper.make_node("Sigmoid", ["a"], ["s"], name="sig"),
             helper.make_node("Concat", ["s", "b"], ["out"], name="cat", axis=1)]
    graph = helper.make_graph(nodes, "t", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                              [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 2, 8, 8])], [w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 9
    onnx.save(model, str(path))


def test_the_output_node_stays_in_floats_only_when_asked(tmp_path):
    src = tmp_path / "net.onnx"
    _net(src)
    assert output_nodes(src) == ["cat"]
    feed = [np.random.default_rng(i).normal(0, 1, (1, 3, 8, 8)).astype(np.float32) for i in range(8)]
    kept, rounded = tmp_path / "kept.onnx", tmp_path / "rounded.onnx"
    quantize_file(src, kept, "x", feed, keep_outputs=True)
    quantize_file(src, rounded, "x", feed)
    last = {p: [n.op_type for n in onnx.load(str(p)).graph.node][-1] for p in (kept, rounded)}
    assert last[kept] == "Concat"
    assert last[rounded] == "DequantizeLinear"
    assert any(n.op_type == "QuantizeLinear" for n in onnx.load(str(kept)).graph.node)  # the Conv is 8-bit
