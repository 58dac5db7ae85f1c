"""Progress of long work (eval over many photos, benchmarks, teaching, training): a bar
redrawn in place on a terminal, a plain line every tenth of the way when the output is
piped or logged, nothing for work of a few items."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import TextIO, TypeVar

Item = TypeVar("Item")
WIDTH = 30  # characters of the bar
SMALL = 5  # no progress is shown for this many items or fewer


def progress(items: Iterable[Item], total: int, what: str, *, out: TextIO | None = None,
             clock=time.monotonic) -> Iterator[Item]:
    """Yields `items`, telling `out` (stderr by default) how far it got and how long is left."""
    out = sys.stderr if out is None else out
    shown = total > SMALL
    live = shown and out.isatty()
    start, step = clock(), max(1, total // 10)
    done = 0
    for item in items:
        yield item
        done += 1
        if not shown or not (live or done % step == 0 or done == total):
            continue
        elapsed = clock() - start
        left = elapsed / done * (total - done)
        line = f"{what}: {done}/{total} ({done * 100 // total}%), about {left:.0f} s left"
        if live:
            bar = "#" * (WIDTH * done // total)
            out.write(f"\r[{bar:<{WIDTH}}] {line}" + ("\n" if done == total else ""))
        else:
            out.write(line + "\n")
        out.flush()
