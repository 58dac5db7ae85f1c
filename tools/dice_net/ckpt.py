"""What every trainer here shares: a warm-up then cosine learning rate, one optimiser
step, checkpoints written whole (a stop mid-write leaves the last one) and resumed, and
the device to train on (batches come from tools.dice_net.batches)."""

from __future__ import annotations

import math
import os
from pathlib import Path

import torch


def lr_at(base: float, step: int, steps: int, warm: int = 100) -> float:
    """A warm-up of `warm` steps, then a cosine from `base` to 0 at `steps`."""
    return base * min(1.0, (step + 1) / warm) * 0.5 * (1 + math.cos(math.pi * step / steps))


def take_step(opt: torch.optim.Optimizer, loss: torch.Tensor, lr: float) -> None:
    for g in opt.param_groups:
        g["lr"] = lr
    opt.zero_grad()
    loss.backward()
    opt.step()


def resume(model: torch.nn.Module, opt: torch.optim.Optimizer, path: Path) -> int:
    """The step a checkpoint at `path` reached, its model and optimiser loaded; 0 without one."""
    if not path.exists():
        return 0
    st = torch.load(path, weights_only=False, map_location="cpu")
    model.load_state_dict(st["model"])
    opt.load_state_dict(st["opt"])
    print(f"resumed at step {st['step']}", flush=True)
    return int(st["step"])


def save(model: torch.nn.Module, opt: torch.optim.Optimizer, step: int, path: Path) -> None:
    torch.save({"model": cpu_state(model), "opt": opt.state_dict(), "step": step}, path.with_suffix(".tmp"))
    os.replace(path.with_suffix(".tmp"), path)


def device_of(name: str) -> torch.device:
    """`--device`: cpu (the default, the recipe as documented) or cuda where there is one."""
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise SystemExit("--device cuda: this machine's torch sees no GPU")
    return torch.device(name)


def cpu_state(model: torch.nn.Module) -> dict:
    """The model's weights on the CPU, as the exporters load them."""
    return {k: v.detach().cpu() for k, v in model.state_dict().items()}
