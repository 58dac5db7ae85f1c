"""Teach the learned d6 reader from a few photos of one source, then score the rest of
that source's photos with and without teaching.

    python -m tools.dice_net.teach_bench --source dice-aws --config /work/runs/lo-aws/onnx/dice_net.json
    python -m tools.dice_net.teach_bench --source dice-d6-photos            # the shipped models
    python -m tools.dice_net.teach_bench --source dice-aws --table          # and as the table reads

The honest figure uses models trained without the source (`pipeline.sh RUN SOURCE`): the
shipped models saw 85% of every source's photos. The teaching photos are drawn with a
fixed seed, one per photo group where the source has groups (webcam exports, minutes of
a phone session), so the photos scored are never the ones taught from, nor their near
twins. Columns as tools.dice_net.evaluate prints them."""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import time
from pathlib import Path

import numpy as np

from tools.dice_net.data import DEFAULT_DATA, PHOTO_SOURCES, load_photos
from tools.dice_net.evaluate import HEADER, Tally


def pick(photos: list, count: int, seed: int) -> tuple[list, list]:
    """`count` photos to teach from, each from a group of its own where the source has
    enough groups, and the photos of every other group to score."""
    rng = np.random.default_rng(seed)
    groups = sorted({p.group for p in photos})
    rng.shuffle(groups)
    if len(groups) >= count:
        chosen = set(groups[:count])
        teach = [next(p for p in photos if p.group == g) for g in groups[:count]]
        return teach, [p for p in photos if p.group not in chosen]
    order = rng.permutation(len(photos))
    return [photos[i] for i in order[:count]], [photos[i] for i in order[count:]]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--source", choices=PHOTO_SOURCES, required=True)
    ap.add_argument("--config", type=Path, help="dice_net.json (default: the shipped vision/models)")
    ap.add_argument("--photos", type=int, default=20, help="photos to teach from")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=int, default=0, help="score at most this many photos (0: all)")
    ap.add_argument("--table", action="store_true", help="also as the table reads: with the hand-built reader, "
                    "untaught and taught (vision.dice_seen)")
    a = ap.parse_args(argv)

    from vision.dice_net import read_dice_net
    from vision.dice_seen import read_dice_seen, read_dice_seen_taught
    from vision.teach import Example, read_taught, teach_dice

    config = str(a.config) if a.config else None
    photos = load_photos(a.data, [a.source])
    teach, rest = pick(photos, a.photos, a.seed)
    if a.limit:
        rest = rest[: a.limit]
    examples = [Example(p.path.name, p.load(), tuple((d["value"], tuple(d["box"])) for d in p.dice)) for p in teach]
    t0 = time.process_time()
    taught = teach_dice(examples, config)
    spent = time.process_time() - t0
    print(f"{a.source}: taught from {len(teach)} photos ({taught.taught_on['dice']} dice, "
          f"{taught.taught_on['false_finds']} false finds) in {spent:.1f} s of CPU: enlarge {taught.enlarge}, "
          f"detector {taught.detector_threshold}, head {taught.head_threshold}, "
          f"shipped kept where unsure: {taught.keep_shipped}; {len(taught.to_json())} bytes", flush=True)
    plain, tt, table, table_taught = Tally(), Tally(), Tally(), Tally()
    times = []
    for p in rest:
        img = p.load()
        plain.add(read_dice_net(img, config), p.dice)
        t = time.perf_counter()
        tt.add(read_taught(img, taught, config), p.dice)
        times.append(time.perf_counter() - t)
        if a.table:
            table.add(read_dice_seen(img, config=config), p.dice)
            table_taught.add(read_dice_seen_taught(img, taught, config=config), p.dice)
    print(HEADER)
    print(plain.row("shipped"))
    print(tt.row("taught"))
    if a.table:  # what the table reads: with the hand-built reader (vision.dice_seen)
        print(table.row("table"))
        print(table_taught.row("table, taught"))
    ms = 1000 * np.array(times)
    print(f"taught read: median {np.median(ms):.1f} ms per frame ({len(ms)} frames, load avg "
          f"{os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
