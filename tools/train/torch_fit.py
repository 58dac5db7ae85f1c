"""Training the readers' small networks with PyTorch (the optional `train` extra).

The network (TinyNet) is what the readers run from an ONNX file (vision.weights):
three 3x3 convolution + 2x2 max-pool + ReLU stages, then one linear layer; NHWC
float32 input (n, rows, columns, channels), logits out. Pooling comes before the ReLU
(the same result on four times fewer values). The trainers here write the ONNX file
straight away (tools.train.to_onnx.write_onnx); the readers never import PyTorch.

Weights start as the hand-written numpy trainer these networks were first made with
started them (He-normal kernels, zero biases, from numpy's generator seeded with
`seed`): PyTorch's own initial weights were tried for the face network and were no
better held out. `fit` has that trainer's recipe too (recipe="cosine": Adam, L2 decay
on kernels and linear weights, a cosine learning rate stepped per epoch, batches of
64), which made the shipped finders, d10 and rank networks; the face networks were
made with recipe="onecycle" (AdamW, one-cycle learning rate, batches of 128)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch
from torch import nn


class TinyNet(nn.Module):
    def __init__(self, in_channels: int, widths: tuple[int, ...], side: int, classes: int):
        super().__init__()
        self.input_shape = (side, side, in_channels)
        self.convs = nn.ModuleList()
        c = in_channels
        for width in widths:
            self.convs.append(nn.Conv2d(c, width, 3, padding=1))
            c, side = width, side // 2
        self.fc = nn.Linear(side * side * c, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # NHWC in, logits out
        x = x.permute(0, 3, 1, 2)
        for conv in self.convs:
            x = torch.relu(nn.functional.max_pool2d(conv(x), 2))
        return self.fc(torch.flatten(x.permute(0, 2, 3, 1), 1))

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            return torch.softmax(self(torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32))), 1).numpy()

    @staticmethod
    def from_arrays(params: dict[str, np.ndarray], side: int) -> TinyNet:
        """A TinyNet holding `params` in the layout of the old numpy network files (.npz):
        kernels k0, k1... as (9 * c_in, c_out) matrices with rows in (dy, dx, c_in) order,
        biases b0, b1..., the linear layer's w (features, classes) and b."""
        depth = sum(1 for name in params if name.startswith("k"))
        kernels = [np.asarray(params[f"k{i}"], np.float32) for i in range(depth)]
        net = TinyNet(kernels[0].shape[0] // 9, tuple(k.shape[1] for k in kernels), side, params["w"].shape[1])
        for i, (conv, k) in enumerate(zip(net.convs, kernels)):
            c_in, c_out = k.shape[0] // 9, k.shape[1]
            conv.weight.data = torch.from_numpy(k.reshape(3, 3, c_in, c_out).transpose(3, 2, 0, 1).copy())
            conv.bias.data = torch.from_numpy(np.asarray(params[f"b{i}"], np.float32).copy())
        net.fc.weight.data = torch.from_numpy(np.asarray(params["w"], np.float32).T.copy())
        net.fc.bias.data = torch.from_numpy(np.asarray(params["b"], np.float32).copy())
        return net


def new_net(in_channels: int, widths: tuple[int, ...], side: int, classes: int, seed: int = 0) -> TinyNet:
    """A TinyNet with the numpy trainer's initial weights for `seed`."""
    rng = np.random.default_rng(seed)
    params: dict[str, np.ndarray] = {}
    c, s = in_channels, side
    for i, width in enumerate(widths):
        params[f"k{i}"] = rng.normal(0, np.sqrt(2 / (9 * c)), (9 * c, width)).astype(np.float32)
        params[f"b{i}"] = np.zeros(width, np.float32)
        c, s = width, s // 2
    params["w"] = rng.normal(0, np.sqrt(1 / (s * s * c)), (s * s * c, classes)).astype(np.float32)
    params["b"] = np.zeros(classes, np.float32)
    return TinyNet.from_arrays(params, side)


def fit(net: TinyNet, x: np.ndarray, y: np.ndarray, epochs: int, augment: Callable | None = None,
        batch: int | None = None, lr: float = 5e-3, decay: float = 1e-4, seed: int = 0, log=None,
        recipe: str = "onecycle") -> TinyNet:
    """`net` trained in place on (n, h, w, c) float32 inputs and their classes;
    `augment(batch, rng)` transforms each numpy batch. recipe "onecycle": AdamW with a
    one-cycle learning rate, batches of 128; "cosine": the numpy trainer's Adam with L2
    decay on the weights (not the biases) and a cosine learning rate per epoch,
    batches of 64."""
    if recipe not in ("onecycle", "cosine"):
        raise ValueError(f"recipe {recipe!r}: 'onecycle' or 'cosine'")
    torch.manual_seed(seed)
    batch = batch or (128 if recipe == "onecycle" else 64)
    steps = epochs * -(-len(x) // batch)
    schedule: torch.optim.lr_scheduler.LRScheduler | None = None
    optimiser: torch.optim.Optimizer
    if recipe == "onecycle":
        optimiser = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=decay)
        schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, lr, total_steps=steps)
    else:
        weights = [p for name, p in net.named_parameters() if name.endswith("weight")]
        biases = [p for name, p in net.named_parameters() if name.endswith("bias")]
        optimiser = torch.optim.Adam([{"params": weights, "weight_decay": decay}, {"params": biases}], lr=lr)
    rng = np.random.default_rng(seed)
    targets = torch.from_numpy(y.astype(np.int64))
    net.train()
    for epoch in range(epochs):
        if recipe == "cosine":
            for group in optimiser.param_groups:
                group["lr"] = lr * 0.5 * (1 + np.cos(np.pi * epoch / epochs))
        order = rng.permutation(len(x))
        total = 0.0
        for start in range(0, len(x), batch):
            idx = order[start:start + batch]
            xb = x[idx] if augment is None else augment(x[idx], rng)
            loss = nn.functional.cross_entropy(net(torch.from_numpy(np.ascontiguousarray(xb, dtype=np.float32))),
                                               targets[idx])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            if schedule is not None:
                schedule.step()
            total += loss.item() * len(idx)
        if log:
            log(f"epoch {epoch + 1}/{epochs} loss {total / len(x):.4f}")
    net.eval()
    return net
