"""Score the learned dice reader per photo source.

    python -m tools.dice_net.evaluate                              # shipped models, val split of each source
    python -m tools.dice_net.evaluate --config runs/lo-aws/onnx/dice_net.json --source dice-aws --split all
    python -m tools.dice_net.evaluate --split all                  # every photo (the shipped model saw 85% of them)

A read (die or unreadable) matches a labelled die when its centre lies in the die's box,
one read per die (pairs taken nearest first). A die read that matches no labelled die
is a phantom; an unreadable that matches none is a stray refusal. Right / wrong /
unreadable / missed are % of the labelled dice that have a value (dice-aws `null` dice
are detected but never scored); phantoms are per 100 such dice. A photo is perfect when
every die with a value is read right, with no phantom and no unreadable at all.
Timing: wall-clock ms per frame of read_dice_net on this process (one onnxruntime thread),
photo decoding not included."""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import time
from pathlib import Path

import numpy as np

from tools.dice_net.data import DEFAULT_DATA, PHOTO_SOURCES, is_val, leave_spec, left_out, load_photos


def match(centers: list, labels: list) -> list:
    """For each read centre, the index of the labelled die it matches or None (the
    taught reader's matching, vision.teach.match, on the labels' boxes)."""
    from vision.teach import match as match_boxes

    return match_boxes(centers, [lab["box"] for lab in labels])


class Tally:
    def __init__(self):
        self.photos = self.perfect = self.dice = self.right = self.wrong = 0
        self.unread = self.missed = self.phantom = self.stray = 0

    def add(self, read, labels):
        reads = [(d.center, d.value) for d in read.dice] + [(u.center, None) for u in read.unreadable]
        got = match([c for c, _ in reads], labels)
        claimed = {j: (reads[i][1], i < len(read.dice)) for i, j in enumerate(got) if j is not None}
        phantom = sum(1 for i, j in enumerate(got) if j is None and i < len(read.dice))
        stray = sum(1 for i, j in enumerate(got) if j is None and i >= len(read.dice))
        ok = phantom == 0 and not read.unreadable
        for j, lab in enumerate(labels):
            if lab["value"] is None:
                continue
            self.dice += 1
            if j not in claimed:
                self.missed += 1
                ok = False
            elif not claimed[j][1]:
                self.unread += 1
                ok = False
            elif claimed[j][0] == lab["value"]:
                self.right += 1
            else:
                self.wrong += 1
                ok = False
        self.photos += 1
        self.perfect += ok
        self.phantom += phantom
        self.stray += stray

    def row(self, name):
        n = max(self.dice, 1)
        read = self.right + self.wrong
        return (f"{name:<18} {self.photos:>6} {self.dice:>5} {100 * self.right / n:>6.1f} {100 * self.wrong / n:>6.2f} "
                f"{100 * self.unread / n:>6.1f} {100 * self.missed / n:>6.1f} {100 * self.phantom / n:>7.1f} "
                f"{self.stray:>5} {100 * self.perfect / max(self.photos, 1):>7.1f} "
                f"{100 * self.wrong / max(read, 1):>7.2f}")


HEADER = (f"{'source':<18} {'photos':>6} {'dice':>5} {'right%':>6} {'wrong%':>6} {'unread%':>6} {'miss%':>6} "
          f"{'phantom%':>7} {'stray':>5} {'perfect%':>7} {'wrong/read%':>7}")


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--config", type=Path, help="dice_net.json (default: the shipped vision/models)")
    ap.add_argument("--source", action="append", choices=PHOTO_SOURCES)
    ap.add_argument("--split", choices=("val", "train", "all"), default="val")
    ap.add_argument("--only", type=leave_spec, help="SOURCE@K/N: only that part of a source (a fold left out)")
    a = ap.parse_args(argv)
    import onnxruntime  # noqa: F401  (fail early if missing)

    from vision.dice_net import read_dice_net

    sources = [a.only[0]] if a.only else a.source or list(PHOTO_SOURCES)
    print(f"config {a.config or 'vision/models/dice_net.json'}, split {a.split}")
    print(HEADER)
    times = []
    total = Tally()
    for source in sources:
        t = Tally()
        for ph in load_photos(a.data, [source]):
            if a.split != "all" and is_val(ph) != (a.split == "val"):
                continue
            if a.only and not left_out(ph, [a.only]):
                continue
            img = ph.load()
            t0 = time.perf_counter()
            read = read_dice_net(img, str(a.config) if a.config else None)
            times.append(time.perf_counter() - t0)
            t.add(read, ph.dice)
            total.add(read, ph.dice)
        print(t.row(source), flush=True)
    if len(sources) > 1:
        print(total.row("all"))
    ms = 1000 * np.array(times[1:] or times)
    print(f"time per frame: median {np.median(ms):.1f} ms, 90th pct {np.percentile(ms, 90):.1f} ms "
          f"({len(ms)} frames, one onnxruntime thread, load avg {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
