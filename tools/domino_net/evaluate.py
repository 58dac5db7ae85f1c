"""Measure the learned domino reader (vision.dominoes.net) where it was not trained.

    python -m tools.domino_net.evaluate                                 # shipped models
    python -m tools.domino_net.evaluate --config runs/domino/onnx/domino_net.json
    python -m tools.domino_net.evaluate --only photos --set face.threshold=0.8

* domino-photos (../shared/data/domino-photos: 61 oblique phone photos of a green set
  with white pips; no licence, so measured on, never trained on). Its photos are not
  labelled exhaustively: a read counts for a labelled tile when its centre lies in the
  tile's box; per labelled tile the result is right, wrong (a read tile of other pips),
  refused (only an Unreadable there) or missed; reads in no labelled box are counted
  apart as "unlabelled or phantom". At 1x, at 0.5x (the photo in the middle of a
  frame twice its size) and at 2x (each quarter of the photo on its own, the tiles
  lying wholly inside it).
* renders of the held-out looks (violet bodies, yellow pips: tools.domino_net.render),
  which training never drew, on the training tables, in four bands of tile size.
* phantoms on the d6 photo sources (dice-d6-photos, dice-aws): no tile there, so every
  domino read or refusal is a phantom. Their tables were in training (under pasted
  tiles), so this is a lower bound for unseen tables.
* time per 640 x 640 frame, one thread.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from table.reads import TableRead, inside
from tools.d10_net.compose import small_tables
from tools.d10_net.data import tables
from tools.dice_net.data import DEFAULT_DATA, PAD_VALUE
from tools.domino_net.compose import DEFAULT_CACHE, all_tables, scene
from vision.dominoes import net

PHOTOS = "domino-photos"
PHANTOM_SOURCES = ("dice-d6-photos", "dice-aws")
SIZE_BANDS = ((12.0, 20.0), (20.0, 35.0), (35.0, 60.0), (60.0, 110.0))  # tile short side, px in a 320 frame
Reader = Callable[[np.ndarray], TableRead]


def _tally() -> dict:
    return {"labelled": 0, "right": 0, "wrong": 0, "refused": 0, "missed": 0,
            "unlabelled_reads": 0, "unlabelled_refusals": 0}


def score_frame(read: TableRead, labels: list[tuple[tuple[float, float, float, float], tuple[int, int]]],
                t: dict) -> None:
    """Add one frame's result to tally `t`; labels: (box, unordered halves) per tile."""
    claimed_r = [False] * len(read.dominoes)
    claimed_u = [False] * len(read.unreadable)
    for box, halves in labels:
        t["labelled"] += 1
        mine = [i for i, d in enumerate(read.dominoes) if inside(d.center, box)]
        refs = [i for i, u in enumerate(read.unreadable) if inside(u.center, box)]
        for i in mine:
            claimed_r[i] = True
        for i in refs:
            claimed_u[i] = True
        pairs = [tuple(sorted(read.dominoes[i].halves)) for i in mine]
        if any(p != tuple(sorted(halves)) for p in pairs):
            t["wrong"] += 1
        elif pairs:
            t["right"] += 1
        elif refs:
            t["refused"] += 1
        else:
            t["missed"] += 1
    t["unlabelled_reads"] += claimed_r.count(False)
    t["unlabelled_refusals"] += claimed_u.count(False)


def photo_frames(data: Path, scale: float):
    """(name, frame, labels) of domino-photos at a scale of 1, 0.5 or 2."""
    labels = json.loads((data / PHOTOS / "labels.json").read_text())
    for name in sorted(labels):
        img = cv2.imread(str(data / PHOTOS / "images" / name), cv2.IMREAD_COLOR)
        tiles = [(tuple(map(float, d["box"])), tuple(d["halves"])) for d in labels[name]["dominoes"]]
        h, w = img.shape[:2]
        if scale == 1:
            yield name, img, tiles
        elif scale == 0.5:
            frame = np.full((2 * h, 2 * w, 3), PAD_VALUE, np.uint8)
            frame[h // 2:h // 2 + h, w // 2:w // 2 + w] = img
            yield name, frame, [((b[0] + w // 2, b[1] + h // 2, b[2] + w // 2, b[3] + h // 2), v) for b, v in tiles]
        elif scale == 2:
            for ox, oy in ((0, 0), (w // 2, 0), (0, h // 2), (w // 2, h // 2), (w // 4, h // 4)):
                part = img[oy:oy + h // 2, ox:ox + w // 2]
                kept = [((b[0] - ox, b[1] - oy, b[2] - ox, b[3] - oy), v) for b, v in tiles
                        if b[0] >= ox and b[1] >= oy and b[2] <= ox + w // 2 and b[3] <= oy + h // 2]
                yield f"{name}@{ox},{oy}", np.ascontiguousarray(part), kept
        else:
            raise ValueError(f"scale 0.5, 1 or 2, not {scale}")


CLOSEUPS = (1.5, 2.5, 4.0)  # the square round one tile, in tile lengths: a phone held close


def closeup_frames(data: Path, lengths: float):
    """(name, frame, labels) of close-ups cut from domino-photos: for every third labelled
    tile of every second photo, a square `lengths` times the tile's longer side round
    its middle (cut at the photo's edge), with that tile alone as the label, as a phone
    held over one tile sees it. Crops under 64 px a side are left out."""
    labels = json.loads((data / PHOTOS / "labels.json").read_text())
    for name in sorted(labels)[::2]:
        img = cv2.imread(str(data / PHOTOS / "images" / name), cv2.IMREAD_COLOR)
        h, w = img.shape[:2]
        for n, d in enumerate(labels[name]["dominoes"][::3]):
            x0, y0, x1, y1 = map(float, d["box"])
            side = lengths * max(x1 - x0, y1 - y0)
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            a, b = int(max(0, cx - side / 2)), int(max(0, cy - side / 2))
            c, e = int(min(w, cx + side / 2)), int(min(h, cy + side / 2))
            if c - a < 64 or e - b < 64:
                continue
            yield (f"{name}#{n}", np.ascontiguousarray(img[b:e, a:c]),
                   [((x0 - a, y0 - b, x1 - a, y1 - b), tuple(d["halves"]))])


def score_closeups(reader: Reader, data: Path) -> dict:
    out = {}
    for lengths in CLOSEUPS:
        t = _tally()
        for _, frame, labels in closeup_frames(data, lengths):
            score_frame(reader(frame), labels, t)
        out[f"{lengths:g}"] = t
    return out


def score_photos(reader: Reader, data: Path, scale: float = 1.0) -> dict:
    t = _tally()
    for _, frame, labels in photo_frames(data, scale):
        score_frame(reader(frame), labels, t)
    return t


def render_frames(n: int, seed: int, band: tuple[float, float], tabs, held: bool = True):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        img, placed = scene(rng, 320, tabs, held=held, short_range=band, max_tilt=30.0)
        labels = [(tuple(map(float, p.box)), p.halves) for p in placed if p.halves is not None and p.seen]
        yield img, labels, placed


def score_renders(reader: Reader, tabs, n: int = 60, seed: int = 7, held: bool = True) -> dict:
    """Per size band: right / wrong / refused / missed over the face-up tiles in view,
    and reads in no tile's box (a face-down tile's, a die's, the table's)."""
    out = {}
    for band in SIZE_BANDS:
        t = _tally()
        for img, labels, _ in render_frames(n, seed, band, tabs, held):
            score_frame(reader(img), labels, t)
        out[f"{band[0]:g}-{band[1]:g}px"] = t
    return out


def phantoms(reader: Reader, data: Path, cache: Path) -> dict:
    out = {}
    for source in PHANTOM_SOURCES:
        tabs = small_tables([t for t in tables(data) if f"/{source}/" in str(t.path)], cache)
        reads = refusals = photos_with = 0
        for t in tabs:
            r = reader(t.image)
            reads += len(r.dominoes)
            refusals += len(r.unreadable)
            photos_with += bool(r.dominoes or r.unreadable)
        out[source] = {"photos": len(tabs), "tiles_read": reads, "refusals": refusals,
                       "photos_with_any": photos_with}
    return out


def timing(reader: Reader, tabs, n: int = 40) -> dict:
    frames = [cv2.resize(img, (640, 640), interpolation=cv2.INTER_LINEAR)
              for img, _, _ in render_frames(n, 99, (20.0, 60.0), tabs, held=False)]
    reader(frames[0])
    ms = []
    for f in frames:
        t0 = time.perf_counter()
        reader(f)
        ms.append(1000 * (time.perf_counter() - t0))
    return {"frames": len(ms), "ms_mean": round(float(np.mean(ms)), 1), "ms_p95": round(float(np.percentile(ms, 95)), 1)}


def with_overrides(config: Path, sets: list[str]) -> Path:
    """A copy of `config` beside its ONNX files with KEY.SUB=VALUE settings changed."""
    if not sets:
        return config
    cfg = json.loads(config.read_text())
    for s in sets:
        key, value = s.split("=", 1)
        section, name = key.split(".", 1)
        cfg[section][name] = json.loads(value)  # a number, or a list: detector.looks=[1,0.5]
    fd, name = tempfile.mkstemp(prefix="domino_net.", suffix=".json", dir=config.parent)
    os.close(fd)
    Path(name).write_text(json.dumps(cfg))
    return Path(name)


def _line(name: str, t: dict) -> str:
    n = max(1, t["labelled"])
    return (f"{name}: labelled {t['labelled']}, right {t['right']} ({100 * t['right'] / n:.1f}%), wrong {t['wrong']}, "
            f"refused {t['refused']}, missed {t['missed']}; unlabelled or phantom: {t['unlabelled_reads']} reads, "
            f"{t['unlabelled_refusals']} refusals")


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--config", type=Path, default=net.CONFIG)
    ap.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                    help="change a threshold for this run, e.g. face.threshold=0.8")
    ap.add_argument("--only", action="append",
                    choices=("photos", "scales", "closeups", "renders", "phantoms", "time"))
    ap.add_argument("--renders", type=int, default=60, help="render scenes per size band")
    ap.add_argument("--reader", choices=("net", "both", "hand"), default="net",
                    help="the learned reader alone, the default merged reader (vision.dominoes.both; its "
                         "learned part with --config and --set), or the hand-built one")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    config = with_overrides(a.config, a.set)
    try:
        from vision.dominoes import read_dominoes
        from vision.dominoes.both import read_dominoes_both

        def learned(frame: np.ndarray, calibration=None, sure_tiles: bool = False) -> TableRead:
            return net.read_dominoes_net(frame, calibration, config=config, sure_tiles=sure_tiles)

        def reader(frame: np.ndarray) -> TableRead:
            if a.reader == "both":  # the learned part with --config and --set, as the merged reader takes it
                return read_dominoes_both(frame, None, lambda f, c: learned(f, c, sure_tiles=True))
            return read_dominoes(frame, None) if a.reader == "hand" else learned(frame)

        parts = a.only or ["photos", "scales", "closeups", "renders", "phantoms", "time"]
        out: dict = {"config": str(a.config), "set": a.set}
        if "photos" in parts:
            out["photos"] = score_photos(reader, a.data)
            print(_line("domino-photos 1x", out["photos"]), flush=True)
        if "scales" in parts:
            for s in (0.5, 2.0):
                out[f"photos_{s:g}x"] = score_photos(reader, a.data, s)
                print(_line(f"domino-photos {s:g}x", out[f"photos_{s:g}x"]), flush=True)
        if "closeups" in parts:
            out["closeups"] = score_closeups(reader, a.data)
            for lengths, t in out["closeups"].items():
                print(_line(f"domino-photos close-ups, {lengths} tile lengths", t), flush=True)
        tabs = all_tables(a.data, a.cache) if {"renders", "time"} & set(parts) else []
        if "renders" in parts:
            out["held_out_renders"] = score_renders(reader, tabs, a.renders)
            for band, t in out["held_out_renders"].items():
                print(_line(f"held-out looks, tiles {band}", t), flush=True)
        if "phantoms" in parts:
            out["phantoms"] = phantoms(reader, a.data, a.cache)
            for source, p in out["phantoms"].items():
                print(f"phantoms on {source}: {p}", flush=True)
        if "time" in parts:
            out["time_640"] = timing(reader, tabs)
            print(f"time per 640x640 frame: {out['time_640']}", flush=True)
    finally:
        if config != a.config:
            config.unlink()
    if a.json:
        a.json.write_text(json.dumps(out, indent=1) + "\n")
    return out


if __name__ == "__main__":
    main()
