"""The learned domino reader: two small networks trained by tools/domino_net on rendered
tiles of many looks pasted onto real table photos (docs/vision-dominoes.md, "The learned
domino reader").

The detector (the d6 reader's CenterNet-style network with two heads) finds each tile
HALF (a square pip face) and each whole TILE: centre heatmaps and box sizes at stride
4 on the frame letterboxed to a square. Two halves could make a tile when their
midpoint lies on a found tile's centre and they stand about one half apart. The half
classifier reads both halves of each such pair from a square crop as big as the half,
turned so that the other half lies to its right: class 0 no half of a pair (the next
tile's half across a seam, a tile's middle, a back, a die, bare table), else its number
of pips, 0..6. Pairs are then taken best fit first, each half joining one tile, passing
over those the classifier sees no pair in.

A tile is read only when both halves are read for sure (`face.threshold` in
domino_net.json); a found tile whose halves are not sure, or that no two halves fit, is
Unreadable with the reason. A double-six set holds each tile once: two reads of one
tile are both refused, as the hand-built reader does. Face-down tiles are not
reported. Both networks are ONNX files in vision/models/, run with onnxruntime on one
thread (vision.dice_net.load_nets).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from table.reads import Domino, TableRead, Unreadable, inside
from vision import dice_net
from vision.calibration import Calibration, boxes_in_play, checked_frame
from vision.dominoes.layout import tile_key

CONFIG = dice_net.MODELS / "domino_net.json"
NO_HALVES = "a tile is there but its two halves cannot be made out"  # a found tile no halves fit
HALF, TILE = 0, 1  # heatmap channels; sizes of halves in 2-3, of tiles in 4-5
# What is made of one classified half: (no half of a pair, pips, confidence, sure).
Judged = tuple[bool, int, float, bool]
# A taught head (vision.teach_dominoes): the classifier's probabilities and features of N
# half crops -> N Judged.
Judge = Callable[[np.ndarray, np.ndarray], list[Judged]]


def _peaks(out: np.ndarray, kind: int, threshold: float, scale: float, stride: int,
           frame_wh: tuple[int, int], most: int) -> list[dict]:
    """Peaks of heatmap `kind` at `threshold` or more: centre, w, h, box, score in frame px."""
    heat = np.ascontiguousarray(out[kind])
    w, h = frame_wh
    found: list[dict] = []
    for y, x in dice_net.heat_peaks(heat, threshold, most):
        cx, cy = dice_net.peak_centre(heat, y, x, stride, scale)
        bw = float(np.exp(np.clip(out[2 + 2 * kind, y, x], -3, 6))) * stride / scale
        bh = float(np.exp(np.clip(out[3 + 2 * kind, y, x], -3, 6))) * stride / scale
        if not (0 <= cx < w and 0 <= cy < h):
            continue  # in the letterbox padding
        if any(abs(cx - k["center"][0]) < 0.3 * k["w"] and abs(cy - k["center"][1]) < 0.3 * k["h"] for k in found):
            continue  # one thing, one find
        found.append({"center": (float(cx), float(cy)), "w": bw, "h": bh, "score": float(heat[y, x]),
                      "box": (max(0.0, cx - bw / 2), max(0.0, cy - bh / 2), min(float(w), cx + bw / 2),
                              min(float(h), cy + bh / 2))})
    return found


def candidates(frame: np.ndarray, config: Path | str | None = None,
               threshold: float | None = None, look: float = 1.0) -> tuple[list[dict], list[dict]]:
    """The detector's halves and tiles in a checked BGR frame, at the config's detector
    thresholds (or at `threshold` for both: a taught reader's). `look` below 1 shows
    the detector the frame that much smaller than its input (tiles seen close up)."""
    nets = dice_net.load_nets(config or CONFIG)
    cfg = nets.cfg
    det = cfg["detector"]
    stride = int(det["stride"])
    h, w = frame.shape[:2]
    out, scale = dice_net.run_letterboxed(frame, nets, look)
    most = int(det.get("max_tiles", 48))
    half_t = float(det["half_threshold"]) if threshold is None else threshold
    tile_t = float(det["tile_threshold"]) if threshold is None else threshold
    halves = _peaks(out, HALF, half_t, scale, stride, (w, h), 2 * most)
    tiles = _peaks(out, TILE, tile_t, scale, stride, (w, h), most)
    return halves, tiles


def _fits_box(a: np.ndarray, b: np.ndarray, tile: dict, fit: float) -> bool:
    """Whether a tile whose halves' centres are a and b would have about the found tile's
    box: a tile of short side d = |a - b| turned by t has a box of d (2|cos t| + |sin t|)
    by d (2|sin t| + |cos t|); within a factor `fit` of each side."""
    d = float(np.hypot(*(b - a)))
    c, s = abs(b[0] - a[0]) / max(d, 1e-6), abs(b[1] - a[1]) / max(d, 1e-6)
    w, h = d * (2 * c + s), d * (2 * s + c)
    return 1 / fit <= w / max(tile["w"], 1e-6) <= fit and 1 / fit <= h / max(tile["h"], 1e-6) <= fit


def pair_options(halves: list[dict], tiles: list[dict], near: float = 0.35,
                 apart: tuple[float, float] = (0.5, 1.25), fit: float = 1.5) -> list[tuple[float, int, int, int]]:
    """Every (misfit, tile, half, half) that could make a found tile, best fit first: the
    two halves' midpoint within `near` half-boxes of the tile's centre, their centres
    `apart` times a half-box from each other, the tile they would make about as big as
    the one found (within `fit`)."""
    options = []
    for t_i, t in enumerate(tiles):
        tc = np.array(t["center"])
        x0, y0, x1, y1 = t["box"]
        mx, my = 0.25 * (x1 - x0), 0.25 * (y1 - y0)
        near_t = [i for i, h in enumerate(halves)
                  if x0 - mx <= h["center"][0] <= x1 + mx and y0 - my <= h["center"][1] <= y1 + my]
        for n, i in enumerate(near_t):
            for j in near_t[n + 1:]:
                a, b = np.array(halves[i]["center"]), np.array(halves[j]["center"])
                side = (max(halves[i]["w"], halves[i]["h"]) + max(halves[j]["w"], halves[j]["h"])) / 2
                gap = float(np.linalg.norm(a - b)) / side
                off = float(np.linalg.norm((a + b) / 2 - tc)) / side
                if off <= near and apart[0] <= gap <= apart[1] and _fits_box(a, b, t, fit):
                    options.append((off, t_i, i, j))
    options.sort()
    return options


def pair(halves: list[dict], tiles: list[dict], keep: Callable[[int, int], bool] | None = None,
         **fits: Any) -> list[tuple[dict, dict | None, dict | None]]:
    """Each found tile with the two halves that make it (`pair_options`), or None, None
    where no two fit. Best fits first; a half joins one tile at most; `keep(i, j)` False
    rules a pair out (the classifier saw no pair there: two touching tiles' halves
    either side of their seam)."""
    used_t: dict[int, tuple[dict, dict]] = {}
    used_h: set[int] = set()
    for _, t_i, i, j in pair_options(halves, tiles, **fits):
        if t_i in used_t or i in used_h or j in used_h or (keep is not None and not keep(i, j)):
            continue
        used_t[t_i] = (halves[i], halves[j])
        used_h.update((i, j))
    return [(t, *used_t[k]) if k in used_t else (t, None, None) for k, t in enumerate(tiles)]


def half_crop(frame: np.ndarray, centre, partner, out: int, scale: float) -> np.ndarray:
    """An out x out crop of the half at `centre` whose other half lies at `partner`,
    turned so that the other half lies to the right: its side is the two centres'
    distance (a half's side) times `scale`. The half classifier is trained on these."""
    v = np.asarray(partner, np.float64) - np.asarray(centre, np.float64)
    return dice_net.turned_crop(frame, centre, v, max(float(np.hypot(*v)), 2.0) * scale, out)


def option_crops(frame: np.ndarray, halves: list[dict], pairs: list[tuple[int, int]], nets) -> np.ndarray:
    """The classifier's input for both halves of each pair (i, j), i's crop then j's
    (each cut with the other to its right), as an N x 3 x S x S float batch."""
    face = nets.cfg["face"]
    size, scale = int(face["input"]), float(face["crop_scale"])
    crops = []
    for i, j in pairs:
        crops.append(half_crop(frame, halves[i]["center"], halves[j]["center"], size, scale))
        crops.append(half_crop(frame, halves[j]["center"], halves[i]["center"], size, scale))
    return np.ascontiguousarray(np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32))


def classify_options(frame: np.ndarray, halves: list[dict], options: list[tuple[float, int, int, int]],
                     nets, judge: Judge | None = None) -> dict[tuple[int, int], tuple[Any, Any]]:
    """For both halves of every possible pair (i, j), each half cut with the other to its
    right: the classifier's 8 probabilities, or with `judge` (a taught head) what it
    makes of them and of the features the classifier's last layer reads."""
    pairs = sorted({(i, j) for _, _, i, j in options})
    if not pairs:
        return {}
    batch = option_crops(frame, halves, pairs, nets)
    if judge is None:
        probs = dice_net.classify(batch, nets).astype(float)
        return {ij: (probs[2 * k], probs[2 * k + 1]) for k, ij in enumerate(pairs)}
    judged = judge(*dice_net.classify(batch, nets, features=True))
    return {ij: (judged[2 * k], judged[2 * k + 1]) for k, ij in enumerate(pairs)}


def reading_order(halves: tuple[int, int], a: tuple[float, float], b: tuple[float, float]):
    """(halves, angle) as vision.dominoes reports them: halves[0] the left end (the top
    end when upright), angle from halves[0] to halves[1] in degrees, in (-90, 90]."""
    angle = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
    if -90 < angle <= 90:
        return halves, round(angle, 1)
    return (halves[1], halves[0]), round(angle + (180 if angle <= -90 else -180), 1)


def judged(probs: np.ndarray, threshold: float, not_half: float) -> Judged:
    """The shipped classifier's answer for one half: no half at `not_half` or more, else
    its most likely pips, sure at `threshold` or more."""
    value = int(np.argmax(probs[1:]))
    conf = float(probs[value + 1])
    return bool(probs[0] >= not_half), value, conf, conf >= threshold


def decide(paired: list[tuple[dict, dict | None, dict | None]], threshold: float,
           sure_tile: float, not_half: float = 0.5, sure_only: bool = False) -> tuple[list[Domino], list[Unreadable]]:
    """Reads and refusals from found tiles and their classified halves (each half's
    "probs", or "judged" where a taught head judged it). A pair the classifier takes for
    no half at all (`not_half` or more on either) is dropped; with `sure_only`, so is
    every pair at a found tile the detector puts under `sure_tile`."""
    reads, refusals = [], []
    for t, a, b in paired:
        if sure_only and t["score"] < sure_tile:
            continue
        if a is None or b is None:
            if t["score"] >= sure_tile:
                refusals.append(Unreadable("domino", t["center"], f"{NO_HALVES}; straighten it or move it into "
                                           "clear view", t["box"]))
            continue
        (gone_a, va, pa, sure_a), (gone_b, vb, pb, sure_b) = (
            h["judged"] if "judged" in h else judged(h["probs"], threshold, not_half) for h in (a, b))
        if gone_a or gone_b:
            continue
        ca = (a["center"][0] + b["center"][0]) / 2, (a["center"][1] + b["center"][1]) / 2
        box = (min(t["box"][0], a["box"][0], b["box"][0]), min(t["box"][1], a["box"][1], b["box"][1]),
               max(t["box"][2], a["box"][2], b["box"][2]), max(t["box"][3], a["box"][3], b["box"][3]))
        if sure_a and sure_b:
            halves, angle = reading_order((va, vb), a["center"], b["center"])
            reads.append(Domino(halves, ca, box, angle, min(1.0, max(0.0, pa * pb))))
        else:
            refusals.append(Unreadable("domino", ca, f"cannot read this tile's pips for sure ({va}: {pa:.2f}, "
                                       f"{vb}: {pb:.2f}); move it into clear view", box))
    return reads, refusals


def refuse_duplicates(reads: list[Domino], refusals: list[Unreadable]) -> tuple[list[Domino], list[Unreadable]]:
    """A double-six set holds each tile once: every read of a tile read more than once
    becomes an Unreadable ("duplicate tile a-b")."""
    counts = Counter(tile_key(d.halves) for d in reads)
    kept: list[Domino] = []
    refused = list(refusals)
    for d in reads:
        n = counts[tile_key(d.halves)]
        if n > 1:
            low, high = tile_key(d.halves)
            refused.append(Unreadable("domino", d.center, f"duplicate tile {low}-{high}: read {n} times; "
                                      "check the table", d.box))
        else:
            kept.append(d)
    return kept, refused


def read_look(frame: np.ndarray, nets, config, judge: Judge | None, detector_threshold: float | None,
              look: float, sure_only: bool = False) -> tuple[list[Domino], list[Unreadable]]:
    """The reads and refusals of one look at the frame (`candidates`' `look`): halves and
    tiles found, pairs classified, pairs taken, decided; duplicates not yet refused."""
    cfg = nets.cfg
    halves, tiles = candidates(frame, config, detector_threshold, look)
    half = cfg["face"]
    not_half = float(half["not_half_threshold"])
    threshold = float(half["threshold"])
    got = classify_options(frame, halves, pair_options(halves, tiles), nets, judge)
    if judge is None:
        got = {ij: (judged(pa, threshold, not_half), judged(pb, threshold, not_half)) for ij, (pa, pb) in got.items()}

    def keep(i: int, j: int) -> bool:
        return not (got[i, j][0][0] or got[i, j][1][0])

    paired = pair(halves, tiles, keep)
    index = {id(h): k for k, h in enumerate(halves)}
    for _, a, b in paired:
        if a is not None and b is not None:
            a["judged"], b["judged"] = got[index[id(a)], index[id(b)]]
    return decide(paired, threshold, float(cfg["detector"]["sure_tile"]), not_half, sure_only)


def _meet(one: Domino | Unreadable, other: Domino | Unreadable) -> bool:
    """Whether two finds are of one tile: either's middle inside the other's box."""
    return (other.box is not None and inside(one.center, other.box)) or (
        one.box is not None and inside(other.center, one.box))


def merge_looks(first: tuple[list[Domino], list[Unreadable]], second: tuple[list[Domino], list[Unreadable]],
                keep: str = "surer") -> tuple[list[Domino], list[Unreadable]]:
    """Two looks' (or readers') reads and refusals as one. A tile read in both is read
    once when both read the same tile (the surer read), and refused when they read
    different ones; a tile one reads and the other refuses or misses is read; a refusal
    is kept only where no look read a tile. With `keep` "first" the first one's read
    stands whenever both read a tile, alike or not (the first is the one trusted)."""
    reads_a, refused_a = first
    reads_b, refused_b = second
    reads: list[Domino] = []
    refusals: list[Unreadable] = []
    taken_b: set[int] = set()
    for a in reads_a:
        alike = [k for k, b in enumerate(reads_b) if _meet(a, b)]
        taken_b.update(alike)
        others = [reads_b[k] for k in alike if tile_key(reads_b[k].halves) != tile_key(a.halves)]
        if others and keep != "first":
            names = ", ".join(f"{low}-{high}" for low, high in sorted({tile_key(d.halves) for d in (a, *others)}))
            refusals.append(Unreadable("domino", a.center, f"this tile reads as {names} in two looks; move it into "
                                       "clear view", a.box))
            continue
        same = [reads_b[k] for k in alike]
        reads.append(a if keep == "first" else max([a, *same], key=lambda d: d.confidence))
    reads += [b for k, b in enumerate(reads_b) if k not in taken_b]
    decided: list[Domino | Unreadable] = [*reads, *refusals]
    for refusal in (*refused_a, *refused_b):
        if not any(_meet(refusal, d) for d in decided):
            refusals.append(refusal)
            decided.append(refusal)
    return reads, refusals


def read_dominoes_net(frame_bgr: np.ndarray, calibration: Calibration | None = None,
                      config: Path | str | None = None, judge: Judge | None = None,
                      detector_threshold: float | None = None, sure_tiles: bool = False) -> TableRead:
    """Read the face-up domino tiles in a BGR frame with the shipped networks (or those
    of `config`, a domino_net.json with its ONNX files beside it). Fills `dominoes` and
    `unreadable` (kind "domino"). With a calibration, only what lies in its play area is
    reported, and a tile across its edge is refused. Anything but an H x W x 3 uint8
    frame is a ValueError (vision.image_io.NotAnImage). A taught reader
    (vision.teach_dominoes) gives its `judge` of each half and its detector threshold.
    With `sure_tiles`, only tiles the detector is `sure_tile` sure of are read or
    refused (the default merged reader, vision.dominoes.both)."""
    frame = checked_frame(frame_bgr, calibration, min_side=32)
    nets = dice_net.load_nets(config or CONFIG)
    looks = [float(look) for look in nets.cfg["detector"].get("looks", [1.0])]
    reads, refusals = read_look(frame, nets, config, judge, detector_threshold, looks[0], sure_tiles)
    for look in looks[1:]:
        reads, refusals = merge_looks((reads, refusals),
                                      read_look(frame, nets, config, judge, detector_threshold, look, sure_tiles))
    kept, refusals = refuse_duplicates(reads, refusals)
    out_reads, out_refusals = boxes_in_play(calibration, kept, refusals, "domino", "the tile")
    return TableRead(dominoes=tuple(out_reads), unreadable=tuple(out_refusals))
