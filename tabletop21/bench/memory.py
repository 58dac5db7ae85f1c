"""Peak memory of a fresh process that imports some readers and reads frames with each:
what the Pi holds for them, without the benchmark's own frames and timings.

The peak settles after a few hundred reads: glibc's malloc keeps freed buffers for the
next frame (forcing large buffers back to the system, MALLOC_MMAP_THRESHOLD_, cut the
peak by a third but made every read 75% slower), so one read alone understates it. The
appliance hands freed memory back after each read (tabletop21.heap); `hand_back=True`
measures that."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_SCRIPT = """
import importlib, resource, sys
import cv2, numpy as np
cv2.setNumThreads(1)
sizes = [tuple(int(v) for v in s.split("x")) for s in sys.argv[1].split(",")]
names, trim, paths = sys.argv[2].split(","), sys.argv[3] == "trim", sys.argv[4:]
if trim:
    from tabletop21.heap import hand_back
readers = []
for name in names:
    module, _, attr = name.rpartition(".")
    found = getattr(importlib.import_module(module), attr)
    readers += [lambda f, r=r: r(f, None) for r in found.values()] if isinstance(found, dict) else [found]
for path in paths or [""]:
    image = cv2.imread(path) if path else None
    for width, height in sizes:
        if image is None:
            frame = np.full((height, width, 3), 90, np.uint8)
        else:  # scaled to cover width x height, the middle cut out (as the camera frames are)
            scale = max(width / image.shape[1], height / image.shape[0])
            big = cv2.resize(image, (round(image.shape[1] * scale), round(image.shape[0] * scale)))
            y0, x0 = (big.shape[0] - height) // 2, (big.shape[1] - width) // 2
            frame = np.ascontiguousarray(big[y0:y0 + height, x0:x0 + width])
        for reader in readers:
            reader(frame)
            if trim:
                hand_back()
try:  # this process's own high-water mark: ru_maxrss can carry the parent's across exec
    with open("/proc/self/status") as status:
        print(next(line.split()[1] for line in status if line.startswith("VmHWM:")))
except (OSError, StopIteration):
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def fresh_peak_mb(readers: list[str], frames: list[Path], sizes: tuple[tuple[int, int], ...] = ((640, 640),),
                  hand_back: bool = False) -> float:
    """Peak resident MB of a new Python process that reads every frame in `frames`,
    scaled to cover each of `sizes` (width, height) and cut to it (one grey frame when
    `frames` is empty), with each of `readers`: dotted names of a reader function called as `reader(frame)`,
    or of a dict of readers called as `reader(frame, None)`. With `hand_back`, freed
    memory is handed back to the system after each read, as the appliance does
    (tabletop21.heap)."""
    spec = ",".join(f"{w}x{h}" for w, h in sizes)
    args = [sys.executable, "-c", _SCRIPT, spec, ",".join(readers), "trim" if hand_back else "keep",
            *map(str, frames)]
    out = subprocess.run(args, capture_output=True, text=True, check=True,
                         env={**os.environ, "OMP_NUM_THREADS": "1"})
    return int(out.stdout.split()[-1]) / 1024
