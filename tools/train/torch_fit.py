"""Training a TinyCNN with PyTorch, for networks too big for the numpy trainer.

The face network does about four times the work per patch of a finder; the numpy
trainer in tinycnn needed over an hour for it on this machine, PyTorch ten minutes.
Only training uses PyTorch (the optional `train` extra): the weights are copied
into a TinyCNN, which is what the reader runs, so the appliance never imports it."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.dice.tinycnn import TinyCNN


def torch_twin(net: TinyCNN):
    """A torch module computing exactly what `net` computes, starting from its weights."""
    import torch
    from torch import nn

    class Twin(nn.Module):
        def __init__(self):
            super().__init__()
            self.convs = nn.ModuleList()
            for i in range(net.depth):
                k = net.params[f"k{i}"]
                c_in, c_out = k.shape[0] // 9, k.shape[1]
                conv = nn.Conv2d(c_in, c_out, 3, padding=1)
                # TinyCNN keeps a kernel as rows (dy, dx, c_in) by columns c_out.
                conv.weight.data = torch.from_numpy(k.reshape(3, 3, c_in, c_out).transpose(3, 2, 0, 1).copy())
                conv.bias.data = torch.from_numpy(net.params[f"b{i}"].copy())
                self.convs.append(conv)
            self.fc = nn.Linear(*net.params["w"].shape)
            self.fc.weight.data = torch.from_numpy(net.params["w"].T.copy())
            self.fc.bias.data = torch.from_numpy(net.params["b"].copy())

        def forward(self, x):  # NHWC in, like TinyCNN
            x = x.permute(0, 3, 1, 2)
            for conv in self.convs:
                x = torch.relu(nn.functional.max_pool2d(conv(x), 2))
            return self.fc(torch.flatten(x.permute(0, 2, 3, 1), 1))

        def weights(self) -> TinyCNN:
            params = {}
            for i, conv in enumerate(self.convs):
                w = conv.weight.detach().numpy()
                params[f"k{i}"] = np.ascontiguousarray(w.transpose(2, 3, 1, 0).reshape(-1, w.shape[0]))
                params[f"b{i}"] = conv.bias.detach().numpy().copy()
            params["w"] = self.fc.weight.detach().numpy().T.copy()
            params["b"] = self.fc.bias.detach().numpy().copy()
            return TinyCNN(params)

    return Twin()


def fit(net: TinyCNN, x: np.ndarray, y: np.ndarray, epochs: int, augment: Callable | None = None,
        batch: int = 128, lr: float = 5e-3, decay: float = 1e-4, seed: int = 0, log=None) -> TinyCNN:
    """`net` trained on (n, h, w, c) float32 inputs and their classes: AdamW with a
    one-cycle learning rate; `augment(batch, rng)` transforms each numpy batch (the
    same augmentation the numpy trainer uses). Training starts from `net`'s weights
    (PyTorch's own initial weights were tried: no better held out)."""
    import torch

    torch.manual_seed(seed)
    twin = torch_twin(net)
    steps = epochs * -(-len(x) // batch)
    optimiser = torch.optim.AdamW(twin.parameters(), lr=lr, weight_decay=decay)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, lr, total_steps=steps)
    rng = np.random.default_rng(seed)
    targets = torch.from_numpy(y.astype(np.int64))
    for epoch in range(epochs):
        order = rng.permutation(len(x))
        total = 0.0
        for start in range(0, len(x), batch):
            idx = order[start:start + batch]
            xb = x[idx] if augment is None else augment(x[idx], rng)
            loss = torch.nn.functional.cross_entropy(twin(torch.from_numpy(np.ascontiguousarray(xb))), targets[idx])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * len(idx)
        if log:
            log(f"epoch {epoch + 1}/{epochs} loss {total / len(x):.4f}")
    return twin.weights()
