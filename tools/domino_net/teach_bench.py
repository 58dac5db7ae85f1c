"""Teach the learned domino reader from photos of one set, then score the set's other
photos with and without teaching: the learned reader alone, and as the table reads
(merged with the hand-built reader, vision.dominoes.both).

    python -m tools.domino_net.teach_bench                 # every 3rd photo of domino-photos taught
    python -m tools.domino_net.teach_bench --offset 1      # another 20

domino-photos (../shared/data/domino-photos) is one green set with white pips; it is
measured on, never trained on (no licence), and the taught file is not kept. Its photos
are not labelled in full, so the teaching counts no found tile as false (`complete`
False) and the scoring is tools.domino_net.evaluate's: a read counts for a labelled tile
when its centre lies in the tile's box. Several photos come from one session, so a
scored photo may show the layout of a taught one."""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import time
from pathlib import Path

import cv2

from tools.dice_net.data import DEFAULT_DATA
from tools.domino_net.evaluate import PHOTOS, _line, _tally, score_frame
from vision.dominoes import net
from vision.read import READERS, taught_reader
from vision.teach import Example, read_taught
from vision.teach_dominoes import teach_dominoes


def photos(data: Path) -> list[Example]:
    labels = json.loads((data / PHOTOS / "labels.json").read_text())
    return [Example(n, cv2.imread(str(data / PHOTOS / "images" / n), cv2.IMREAD_COLOR),
                    tuple((tuple(d["halves"]), tuple(map(float, d["box"]))) for d in labels[n]["dominoes"]))
            for n in sorted(labels)]


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--photos", type=int, default=20, help="photos taught")
    ap.add_argument("--every", type=int, default=3, help="teach every N-th photo")
    ap.add_argument("--offset", type=int, default=0, help="starting from this one")
    a = ap.parse_args(argv)
    exs = photos(a.data)
    taught_idx = list(range(a.offset, len(exs), a.every))[:a.photos]
    taught_exs = [exs[i] for i in taught_idx]
    scored = [ex for i, ex in enumerate(exs) if i not in set(taught_idx)]
    start = time.process_time()
    taught = teach_dominoes(taught_exs, complete=False)
    took = time.process_time() - start
    print(f"taught from {len(taught_exs)} photos ({taught.taught_on['tiles']} tiles, "
          f"{taught.taught_on['tiles_found']} found) in {took:.1f} s of CPU: detector {taught.detector_threshold}, "
          f"head {taught.head_threshold}, shipped kept where unsure: {taught.keep_shipped}")
    out = {}
    at_table = taught_reader(taught)  # merged with the hand-built reader, as `run` reads with a taught file
    for name, reader in (("shipped", net.read_dominoes_net), ("taught", lambda f: read_taught(f, taught)),
                         ("at the table, shipped", READERS["dominoes"]),
                         ("at the table, taught", at_table)):
        t = _tally()
        for ex in scored:
            score_frame(reader(ex.frame), [(box, halves) for halves, box in ex.dice], t)
        out[name] = t
        print(_line(f"{name}, {len(scored)} photos", t))
    return out


if __name__ == "__main__":
    main()
