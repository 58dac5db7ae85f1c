"""The trainers' PyTorch network must be the very network the reader runs: written to
ONNX (tools.train.to_onnx), onnxruntime computes what PyTorch computes, and the old
numpy network files convert to the same function. Only training needs PyTorch and
onnx (the `train` extra), so without them these tests skip."""

import re

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch (the optional `train` extra) is not installed")
pytest.importorskip("onnx", reason="onnx (the optional `train` extra) is not installed")

from tools.train.to_onnx import convert, onnx_model, write_onnx  # noqa: E402
from tools.train.torch_fit import TinyNet, fit, new_net  # noqa: E402
from vision import weights  # noqa: E402


def _numpy_network(params: dict, x: np.ndarray) -> np.ndarray:
    """What the old hand-written numpy network computed: 'same' 3x3 convolutions with
    kernels as (9 * c_in, c_out) rows in (dy, dx, c_in) order, 2x2 max-pool, ReLU, then
    the linear layer on the NHWC features; its softmax."""
    depth = sum(1 for name in params if name.startswith("k"))
    for i in range(depth):
        n, h, w, c = x.shape
        padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
        windows = np.stack([padded[:, dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3)], axis=3)
        pre = windows.reshape(n, h, w, 9 * c) @ params[f"k{i}"] + params[f"b{i}"]
        pre = pre[:, :h - h % 2, :w - w % 2]
        x = np.maximum(pre.reshape(n, h // 2, 2, w // 2, 2, -1).max(axis=(2, 4)), 0)
    logits = x.reshape(len(x), -1) @ params["w"] + params["b"]
    odds = np.exp(logits - logits.max(axis=1, keepdims=True))
    return odds / odds.sum(axis=1, keepdims=True)


def _params(seed: int, c_in: int, widths: tuple[int, ...], side: int, classes: int) -> dict:
    rng = np.random.default_rng(seed)
    params, c, s = {}, c_in, side
    for i, width in enumerate(widths):
        params[f"k{i}"] = rng.normal(0, 0.3, (9 * c, width)).astype(np.float32)
        params[f"b{i}"] = rng.normal(0, 0.1, width).astype(np.float32)
        c, s = width, s // 2
    params["w"] = rng.normal(0, 0.3, (s * s * c, classes)).astype(np.float32)
    params["b"] = rng.normal(0, 0.1, classes).astype(np.float32)
    return params


def test_an_old_numpy_network_file_converts_to_the_same_function(tmp_path):
    params = _params(3, 4, (6, 8, 10), 24, 8)
    np.savez_compressed(tmp_path / "net.npz", **params)
    onnx_path = convert(tmp_path / "net.npz")
    assert onnx_path == tmp_path / "net.onnx"
    x = np.random.default_rng(0).normal(size=(5, 24, 24, 4)).astype(np.float32)
    net = weights.load_network(onnx_path, "test", (24, 24, 4), 8)
    assert np.abs(net.probabilities(x) - _numpy_network(params, x)).max() < 1e-5
    assert np.abs(TinyNet.from_arrays(params, 24).probabilities(x) - _numpy_network(params, x)).max() < 1e-5


def test_half_precision_files_compute_on_the_rounded_weights(tmp_path):
    net = new_net(2, (16, 32), 16, 3, seed=1)
    write_onnx(net, tmp_path / "half.onnx", half=True)
    x = np.random.default_rng(2).normal(size=(4, 16, 16, 2)).astype(np.float32)
    loaded = weights.load_network(tmp_path / "half.onnx", "test", (16, 16, 2), 3)
    assert np.abs(loaded.probabilities(x) - net.probabilities(x)).max() < 1e-5
    full = tmp_path / "full.onnx"
    write_onnx(net, full)
    assert (tmp_path / "half.onnx").stat().st_size < 0.75 * full.stat().st_size


@pytest.mark.parametrize("recipe", ["onecycle", "cosine"])
def test_fit_learns_a_separable_toy_problem_and_the_file_reads_the_same(tmp_path, recipe):
    rng = np.random.default_rng(1)
    x = rng.normal(0, 0.3, (120, 8, 8, 1)).astype(np.float32)
    y = np.arange(120) % 2
    x[y == 1, 2:6, 2:6] += 2.0  # class 1 has a bright square in the middle
    net = fit(new_net(1, (4, 4), 8, 2, seed=0), x, y, epochs=15, batch=16, lr=1e-2, recipe=recipe)
    assert np.mean(net.probabilities(x).argmax(axis=1) == y) > 0.95
    write_onnx(net, tmp_path / "toy.onnx")
    loaded = weights.load_network(tmp_path / "toy.onnx", "test", (8, 8, 1), 2)
    assert np.abs(loaded.probabilities(x) - net.probabilities(x)).max() < 1e-5


def test_new_nets_start_from_the_seeds_weights():
    a, b, c = (new_net(4, (16, 32, 48), 16, 8, seed=s) for s in (0, 0, 1))
    assert torch.equal(a.convs[0].weight, b.convs[0].weight) and not torch.equal(a.convs[0].weight, c.convs[0].weight)


def test_a_network_answering_other_classes_or_no_numbers_is_refused(tmp_path):
    write_onnx(new_net(1, (4,), 8, 5), tmp_path / "five.onnx")
    with pytest.raises(weights.IncompleteInstall, match=re.escape(str(tmp_path / "five.onnx")) + ".* 5 classes, not 3"):
        weights.load_network(tmp_path / "five.onnx", "test", (8, 8, 1), 3)
    broken = new_net(1, (4,), 8, 3)
    with torch.no_grad():
        broken.fc.bias[0] = float("nan")
    (tmp_path / "nan.onnx").write_bytes(onnx_model(broken).SerializeToString())
    with pytest.raises(weights.IncompleteInstall, match="not numbers"):
        weights.load_network(tmp_path / "nan.onnx", "test", (8, 8, 1), 3)
