"""Training batches made from a seed and the step alone, in this process or in forked
worker processes: the same batches either way, and a resumed run carries on with the
batches the stopped one would have had. Workers matter on a GPU, where one CPU core
cannot cut and augment pictures as fast as the network trains on them. `parallel_map`
makes the trainers' caches (cut-outs, shrunk tables) the same way."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import numpy as np

T = TypeVar("T")
R = TypeVar("R")

_MAKE: Callable[[np.random.Generator], tuple] | None = None


def parallel_map(fn: Callable[[T], R], items: Sequence[T], workers: int = 0) -> list[R]:
    """`[fn(x) for x in items]`, in `workers` forked processes where more than one (and
    more than one item); `fn` must be a module-level function."""
    if workers > 1 and len(items) > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            return pool.map(fn, items, chunksize=4)
    return [fn(x) for x in items]


def _batch_at(args: tuple[int, int]) -> tuple:
    seed, step = args
    assert _MAKE is not None
    return _MAKE(np.random.default_rng([seed, step]))


def batches(make: Callable[[np.random.Generator], tuple], seed: int, step: int, steps: int,
            workers: int = 0) -> Iterator[tuple]:
    """`make(rng)` for each step from `step` to `steps`, in order, each step's rng seeded
    by (seed, step); in `workers` forked processes where workers > 0 (`make` may be a
    closure: the workers inherit it)."""
    global _MAKE
    _MAKE = make
    todo = ((seed, s) for s in range(step, steps))
    if workers <= 0:
        yield from map(_batch_at, todo)
        return
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap(_batch_at, todo, chunksize=4)
