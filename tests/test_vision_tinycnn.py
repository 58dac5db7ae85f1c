"""The hand-written network: its gradients must match finite differences (a wrong
backward pass would still 'train', just badly), and weights must round-trip."""

import numpy as np

from vision.dice.tinycnn import FEW_CHANNELS, TinyCNN, convolve, pad, train


def _direct_conv(x, kernel):
    """The 3x3 'same' convolution written out pixel by pixel."""
    n, h, w, c = x.shape
    taps = kernel.reshape(3, 3, c, -1)
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros((n, h, w, taps.shape[3]))
    for i in range(h):
        for j in range(w):
            out[:, i, j] = np.einsum("nyxc,yxco->no", padded[:, i:i + 3, j:j + 3], taps)
    return out


def test_both_ways_of_convolving_compute_the_convolution():
    rng = np.random.default_rng(4)
    for channels in (FEW_CHANNELS, FEW_CHANNELS + 2):  # one im2col product / nine shifted ones
        x = rng.normal(size=(3, 6, 5, channels))
        kernel = rng.normal(size=(9 * channels, 7))
        assert np.allclose(convolve(pad(x), kernel), _direct_conv(x, kernel))


def test_gradients_match_finite_differences():
    net = TinyCNN.create(2, (3, 4), 8, 3, seed=1)
    net.params = {k: v.astype(np.float64) for k, v in net.params.items()}
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4, 8, 8, 2))
    y = np.array([0, 1, 2, 1])
    _, grads = net.gradients(x, y)
    for name in ("k0", "b0", "k1", "w", "b"):
        p = net.params[name]
        for _ in range(3):
            idx = tuple(int(rng.integers(s)) for s in p.shape)
            p[idx] += 1e-5
            up, _ = net.gradients(x, y)
            p[idx] -= 2e-5
            down, _ = net.gradients(x, y)
            p[idx] += 1e-5
            assert abs((up - down) / 2e-5 - grads[name][idx]) < 1e-6 + 1e-4 * abs(grads[name][idx])


def test_learns_a_separable_toy_problem():
    rng = np.random.default_rng(1)
    x = rng.normal(0, 0.3, (120, 8, 8, 1)).astype(np.float32)
    y = np.arange(120) % 2
    x[y == 1, 2:6, 2:6] += 2.0  # class 1 has a bright square in the middle
    net = train(TinyCNN.create(1, (4, 4), 8, 2, seed=0), x, y, epochs=15, lr=1e-2)
    assert np.mean(net.probabilities(x).argmax(axis=1) == y) > 0.95


def test_save_and_load_round_trip(tmp_path):
    net = TinyCNN.create(3, (4,), 8, 5, seed=2)
    net.save(tmp_path / "n.npz")
    again = TinyCNN.load(tmp_path / "n.npz")
    x = np.random.default_rng(3).normal(size=(2, 8, 8, 3)).astype(np.float32)
    assert np.allclose(net.probabilities(x), again.probabilities(x))
    assert np.allclose(again.probabilities(x).sum(axis=1), 1.0)
