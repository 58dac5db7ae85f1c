"""The PyTorch trainer must train the very network the reader runs: its twin
computes what TinyCNN computes, and the weights it hands back are TinyCNN's. Only
training needs PyTorch (the `train` extra), so without it these tests skip."""

import numpy as np
import pytest

from vision.dice.tinycnn import TinyCNN

torch = pytest.importorskip("torch", reason="PyTorch (the optional `train` extra) is not installed")

from tools.train.torch_fit import fit, torch_twin  # noqa: E402


def test_the_twin_computes_what_tinycnn_computes():
    net = TinyCNN.create(4, (6, 8, 10), 24, 8, seed=3)
    x = np.random.default_rng(0).normal(size=(5, 24, 24, 4)).astype(np.float32)
    twin = torch_twin(net)
    with torch.no_grad():
        theirs = torch.softmax(twin(torch.from_numpy(x)), 1).numpy()
    assert np.allclose(theirs, net.probabilities(x), atol=1e-5)
    assert np.allclose(twin.weights().probabilities(x), theirs, atol=1e-5)


def test_fit_learns_a_separable_toy_problem():
    rng = np.random.default_rng(1)
    x = rng.normal(0, 0.3, (120, 8, 8, 1)).astype(np.float32)
    y = np.arange(120) % 2
    x[y == 1, 2:6, 2:6] += 2.0  # class 1 has a bright square in the middle
    net = fit(TinyCNN.create(1, (4, 4), 8, 2, seed=0), x, y, epochs=15, batch=16, lr=1e-2)
    assert isinstance(net, TinyCNN)
    assert np.mean(net.probabilities(x).argmax(axis=1) == y) > 0.95
