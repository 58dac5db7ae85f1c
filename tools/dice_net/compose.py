"""Composites for the d6 detector: dice cut from one photo source pasted onto the tables
of the others (and onto the d10 photos' tables, whose d10 is not a d6 to find).

A table keeps its own labelled dice (they stay labels); the pasted dice come from any
kept source, so a model trained without a source still sees dice of one look on the
table of another. Cut-outs are GrabCut from each labelled box (tools.d10_net.data.cutout)
and cached under the cache folder, never in the repository. The left-out sources give
neither cut-outs nor tables."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from tools.d10_net.compose import SmallTable, free_spot, paste_at, placed_sprite, small_tables, table_canvas
from tools.d10_net.data import Table, cutout, load_d10
from tools.dice_net.batches import parallel_map
from tools.dice_net.data import Photo

SIDE_RANGE = (9.0, 110.0)  # die sides in the detector's 320-px frame, as make_sample keeps them


def _kept(p: Photo) -> list[tuple[str, list[float]]]:
    """(cache key, box) of each labelled die of `p` at least 8 px across."""
    return [(f"{p.path.name}#{i}", d["box"]) for i, d in enumerate(p.dice)
            if min(d["box"][2] - d["box"][0], d["box"][3] - d["box"][1]) >= 8]


def _cutouts_of(p: Photo) -> list[tuple[str, tuple[np.ndarray, np.ndarray]]]:
    img = p.load()
    return [(key, cutout(img, box, pad=max(4, int(0.15 * (box[2] - box[0]))))) for key, box in _kept(p)]


def d6_cutouts(photos: list[Photo], cache: Path, workers: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """The cut-out of every labelled die of `photos` (at least 8 px across). Cut once per
    photo (in `workers` forked processes where more than one): each source's cut-outs are
    kept in `cache`, so runs that keep other photos share them."""
    out = []
    for source in sorted({p.source for p in photos}):
        f = cache / f"d6_cutouts_{source}.npz"
        known: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        if f.exists():
            z = np.load(f, allow_pickle=True)
            known = dict(zip(z["keys"], zip(z["sprites"], z["alphas"])))
        mine = [p for p in photos if p.source == source]
        todo = [p for p in mine if any(k not in known for k, _ in _kept(p))]
        for pairs in parallel_map(_cutouts_of, todo, workers):
            known.update(pairs)
        out.extend(known[k] for p in mine for k, _ in _kept(p))
        if todo:
            cache.mkdir(parents=True, exist_ok=True)
            keys = sorted(known)
            sprites, alphas = np.empty(len(keys), object), np.empty(len(keys), object)
            for i, k in enumerate(keys):
                sprites[i], alphas[i] = known[k]
            np.savez(f, keys=np.array(keys), sprites=sprites, alphas=alphas)
    return out


def d6_tables(photos: list[Photo], data: Path, cache: Path, d10_tables: bool = True,
              workers: int = 0) -> list[SmallTable]:
    """The photos as tables (their dice labelled), and the d10 photos with no d6 on them."""
    tabs = [Table(p.path, np.array([d["box"] for d in p.dice], np.float32).reshape(-1, 4)) for p in photos]
    if d10_tables:
        tabs += [Table(p.path, np.zeros((0, 4), np.float32)) for p in load_d10(data)]
    return small_tables(tabs, cache, workers)


def composite(rng: np.random.Generator, size: int, tabs: list[SmallTable], cuts: list, max_new: int = 8,
              surfaces: float = 0.0):
    """A size x size training picture: a table window (its own dice kept as labels) with
    0..max_new cut-out dice pasted where nothing lies; on a share `surfaces` of them the
    table is one drawn from noise (tools.dice_net.surfaces), with no dice of its own.
    Returns (canvas, N x 4 boxes)."""
    if surfaces > 0 and rng.random() < surfaces:
        from tools.dice_net.surfaces import surface

        canvas, own, (tx0, ty0, tx1, ty1) = surface(rng, size), np.zeros((0, 4), np.float32), (0, 0, size, size)
    else:
        canvas, own, (tx0, ty0, tx1, ty1) = table_canvas(tabs[int(rng.integers(len(tabs)))], rng, size)
    keep = []
    taken = np.zeros((size, size), np.uint8)
    for x0, y0, x1, y1 in own:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        ix0, iy0, ix1, iy1 = (int(np.clip(v, 0, size)) for v in (x0 - 2, y0 - 2, x1 + 2, y1 + 2))
        taken[iy0:iy1, ix0:ix1] = 1
        if 0 <= cx < size and 0 <= cy < size:
            keep.append(np.clip([x0, y0, x1, y1], 0, size))
    if len(own) and rng.random() < 0.6:  # dice of the table's own dice's size
        common = float(np.median(np.maximum(own[:, 2] - own[:, 0], own[:, 3] - own[:, 1])))
    else:  # any camera height
        common = math.exp(rng.uniform(math.log(SIDE_RANGE[0] * 1.5), math.log(SIDE_RANGE[1])))
    n = int(rng.integers(1, max_new + 1)) if rng.random() > 0.1 else 0
    for _ in range(n):
        side = float(np.clip(common * rng.uniform(0.8, 1.25), *SIDE_RANGE))
        sprite, alpha = cuts[int(rng.integers(len(cuts)))]
        sp, al = placed_sprite(sprite, alpha, side, rng, tilt=0.15)
        h, w = al.shape
        spot = free_spot(taken, w, h, (tx0, ty0, tx1, ty1), rng)
        if spot is None:
            continue
        x, y = spot
        box = paste_at(canvas, sp, al, x, y, rng)
        taken[max(0, y):y + h, max(0, x):x + w] = 1
        if box is not None:
            keep.append(box)
    return canvas, np.array(keep, np.float32).reshape(-1, 4)
