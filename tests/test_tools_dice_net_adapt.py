"""tools/dice_net/adapt.py: a face classifier's batch-norm statistics recomputed on a new
table's crops (AdaBN), the weights unchanged. Needs the `train` extra (torch)."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from tools.dice_net.adapt import adapt_batchnorm  # noqa: E402
from tools.dice_net.models import Face  # noqa: E402


def crops(seed: int, shift: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(rng.normal(128 + shift, 30, (40, 3, 24, 24)), 0, 255).astype(np.float32)


def test_the_first_norm_takes_the_new_tables_statistics_and_the_weights_stay():
    torch.manual_seed(0)
    face = Face((8, 8, 8, 8)).eval()
    weights = {k: v.clone() for k, v in face.state_dict().items() if "running" not in k and "num_batches" not in k}
    x = crops(0, 40.0)
    adapt_batchnorm(face, x)
    conv, norm = face.f[0][0], face.f[0][1]
    with torch.no_grad():
        pre = conv(torch.from_numpy(x) / 255.0 - 0.5)
    assert torch.allclose(norm.running_mean, pre.mean((0, 2, 3)), atol=1e-4)
    assert torch.allclose(norm.running_var, pre.var((0, 2, 3)), rtol=1e-2)
    assert not face.training and not norm.training
    after = face.state_dict()
    assert all(torch.equal(after[k], v) for k, v in weights.items()), "no weight changes"


def test_blend_keeps_that_share_of_the_trained_statistics():
    import copy

    torch.manual_seed(0)
    trained = Face((8, 8, 8, 8)).eval()
    trained.f[0][1].running_mean.fill_(1.0)
    trained.f[0][1].running_var.fill_(4.0)
    alone = adapt_batchnorm(copy.deepcopy(trained), crops(1, 0.0))
    half = adapt_batchnorm(copy.deepcopy(trained), crops(1, 0.0), blend=0.5)
    assert torch.allclose(half.f[0][1].running_mean, 0.5 * alone.f[0][1].running_mean + 0.5, atol=1e-5)
    assert torch.allclose(half.f[0][1].running_var, 0.5 * alone.f[0][1].running_var + 2.0, atol=1e-5)
