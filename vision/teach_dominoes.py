"""Teach the learned domino reader (vision.dominoes.net) the owner's own tile set, from a
few labelled frames: the same kind of taught file as for dice (vision.teach), fitted on
the half classifier.

- the detector threshold (for halves and tiles alike): the one at which most labelled
  tiles have two found halves that could make them, a found tile on no labelled tile
  counting FALSE_FIND_COST of one against it (only where every tile in the photos is
  labelled, `complete`);
- a head: a softmax regression on the features the half classifier's last layer reads
  (and its own log-probabilities, so that untaught it answers as the classifier does),
  fitted to both halves of every labelled tile in two views (the crop and its mirror
  top to bottom, which keeps the other half to the right and a pip count as it was).
  It re-reads the pips only: "no half" (a pair across two tiles' seam) stays the
  shipped classifier's, as the photos show no labelled "no half". Which half shows
  which number of a tile labelled [a, b] is not in the labels: the way round the
  shipped classifier finds likelier is taken;
- its threshold: the lowest at which the head, fitted without each photo in turn, read
  no tile of that photo wrong (both halves sure, the pair other than labelled); the
  shipped classifier's answer is kept for a half the head is unsure of where that
  reads more tiles with none wrong in the same check.

    taught = teach_dominoes(examples)   # examples: vision.teach.Example, pieces ((a, b) or None, box)
    read = read_taught_dominoes(frame, taught)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from table.reads import TableRead
from vision import dice_net
from vision.dominoes import net
from vision.teach import (
    FALSE_FIND_COST,
    FOLDS,
    HEAD_THRESHOLDS,
    SPECS,
    Example,
    Taught,
    TaughtError,
    _decide,
    _fit,
    _inputs,
    _log,
    _softmax,
    checked_pieces,
    match,
    model_id,
)

DETECTOR_THRESHOLDS = (0.1, 0.15, 0.2, 0.25, 0.3, 0.4)
VIEWS = 2  # the crop, and its mirror top to bottom
MIN_TILES = 6


def _config(config_path):
    return config_path or dice_net.MODELS / SPECS["dominoes"].config


def _halves(value) -> tuple[int, int]:
    """A checked tile label as its two halves."""
    return int(value[0]), int(value[1])


def checked(examples: Sequence[Example]) -> list[Example]:
    """The examples with their frames checked, or a TaughtError naming the photo: tile
    halves must be two whole numbers 0-6 (or the tile None: a tile whose pips nobody
    could tell, taught as nothing), boxes x0 < x1, y0 < y1."""
    return checked_pieces(examples, "tile", "tiles", _is_tile, "a double-six tile's two halves show 0 to 6 pips each",
                          _halves, MIN_TILES, "the whole set, 28 tiles, in a few pictures is better")


def _is_tile(halves: object) -> bool:
    return (isinstance(halves, (tuple, list)) and len(halves) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 6 for v in halves))


def _views(batch: np.ndarray) -> np.ndarray:
    """VIEWS views of each crop, crop by crop."""
    return np.ascontiguousarray(np.stack([batch, batch[:, :, ::-1, :]], 1).reshape(-1, *batch.shape[1:]))


def _midpoints(halves: list[dict], options) -> list[tuple[float, float]]:
    return [((halves[i]["center"][0] + halves[j]["center"][0]) / 2,
             (halves[i]["center"][1] + halves[j]["center"][1]) / 2) for _, _, i, j in options]


def _above(found: list[dict], threshold: float) -> list[dict]:
    return [f for f in found if f["score"] >= threshold]


def _inside(point, box) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def examples_of(exs: list[Example], found, thr: float, nets):
    """Both halves of the pair that makes each labelled tile: rows (photo, tile, class,
    first view's row) in pairs (the tile's two halves), their inputs (R x VIEWS x F), the shipped log-probabilities the head adds
    to (R x VIEWS x classes), and the shipped probabilities of each crop as it comes."""
    rows: list[tuple[int, int, int, int]] = []  # photo, tile, label, half's row in probs/feats
    probs_all, feats_all = [], []
    n_rows = 0
    for p, (ex, (halves, tiles)) in enumerate(zip(exs, found)):
        halves, tiles = _above(halves, thr), _above(tiles, thr)
        options = net.pair_options(halves, tiles)
        labelled = [(h, box) for h, box in ex.dice if h is not None]
        got = match(_midpoints(halves, options), [box for _, box in labelled])
        items: list[tuple[int, int, int, tuple[int, int]]] = []  # tile, i, j, its halves' pips
        for k, j in enumerate(got):
            if j is not None:
                items.append((j, options[k][2], options[k][3], _halves(labelled[j][0])))
        if items:
            crops = net.option_crops(ex.frame, halves, [(i, j) for _, i, j, _ in items], nets)
            probs, feats = dice_net.classify(_views(crops), nets, features=True)
            probs_all.append(probs)
            feats_all.append(feats)
            for k, (tile, _, _, pips) in enumerate(items):
                first, second = VIEWS * 2 * k, VIEWS * (2 * k + 1)  # the rows of i's and of j's crop
                a, b = pips[0] + 1, pips[1] + 1
                pa, pb = probs[first], probs[second]
                la, lb = (a, b) if pa[a] * pb[b] >= pa[b] * pb[a] else (b, a)
                rows.append((p, tile, la, n_rows + first))
                rows.append((p, tile, lb, n_rows + second))
            n_rows += len(probs)
    if not rows:
        raise TaughtError("no labelled tile was found in the photos (two halves of it seen): lay the tiles flat, "
                          "face up, in clear view, and take the pictures again")
    probs_v = np.concatenate(probs_all)
    x_v = _inputs(probs_v, np.concatenate(feats_all))
    starts = np.array([r for _, _, _, r in rows])
    x_all = np.stack([x_v[s:s + VIEWS] for s in starts])  # R x VIEWS x F
    offset = np.stack([_log(probs_v[s:s + VIEWS]) for s in starts])  # R x VIEWS x classes
    shipped = probs_v[starts]  # the shipped classifier on each crop as it comes
    return rows, x_all, offset, shipped


def teach_dominoes(examples: Sequence[Example], config_path=None,
                   progress: Callable[[int, int], None] | None = None, complete: bool = True) -> Taught:
    """A taught domino reader fitted to these labelled frames of the owner's set.
    `complete`: every face-up tile in the photos is labelled (as an owner labels them);
    False (photo sets labelled in part, for measuring) counts no found tile as false."""
    exs = checked(examples)
    config_path = _config(config_path)
    nets = dice_net.load_nets(config_path)
    steps, done = len(exs) + 1, 0
    # 1. the detector threshold
    found = []
    for ex in exs:
        found.append(net.candidates(ex.frame, config_path, min(DETECTOR_THRESHOLDS)))
        done += 1
        if progress:
            progress(done, steps)
    score = {}
    for thr in DETECTOR_THRESHOLDS:
        hits = false = 0
        for ex, (halves, tiles) in zip(exs, found):
            halves, tiles = _above(halves, thr), _above(tiles, thr)
            boxes = [box for h, box in ex.dice if h is not None]
            hits += sum(j is not None for j in match(_midpoints(halves, net.pair_options(halves, tiles)), boxes))
            if complete:
                false += sum(not any(_inside(t["center"], box) for _, box in ex.dice) for t in tiles)
        score[thr] = hits - FALSE_FIND_COST * false
    best = max(score.values())
    thr = min(t for t, v in score.items() if v == best)
    # 2. the head's examples: both halves of the pair that makes each labelled tile
    rows, x_all, offset, shipped = examples_of(exs, found, thr, nets)
    done = steps
    if progress:
        progress(done, steps)
    mean = x_all.reshape(-1, x_all.shape[2]).mean(0)
    scale = x_all.reshape(-1, x_all.shape[2]).std(0) + 1e-6
    z = (x_all - mean) / scale
    labels = np.array([label for _, _, label, _ in rows])
    photos = np.array([p for p, _, _, _ in rows])
    classes = offset.shape[2]
    # 3. the threshold from each photo read by a head fitted without it
    fold = photos % min(FOLDS, len(exs))
    held = np.zeros((len(rows), classes))
    held[:, 0] = shipped[:, 0]
    for k in np.unique(fold):
        train = fold != k
        if len(np.unique(labels[train])) < 2:
            held[~train, 1:] = (1 - shipped[~train, :1]) / (classes - 1)  # nothing to fit on: every half unsure
            continue
        held[~train] = _head(shipped[~train], z[~train, 0], *_fit_pips(z[train], labels[train], offset[train]))
    face = nets.cfg["face"]
    shipped_thr, shipped_not = float(face["threshold"]), float(face["not_half_threshold"])
    head_thr, keep, best_right = HEAD_THRESHOLDS[-1], False, -1
    for keep_shipped in (False, True):
        for t in HEAD_THRESHOLDS:
            right, wrong = _tally(held, shipped, labels, t, keep_shipped, shipped_thr, shipped_not)
            if wrong == 0 and right > best_right:
                head_thr, keep, best_right = t, keep_shipped, right
    weights, bias = _fit_pips(z, labels, offset)
    taught_tiles = [tuple(sorted(_halves(h))) for ex in exs for h, _ in ex.dice if h is not None]
    return Taught(kind="dominoes", model=model_id(config_path, "dominoes"), enlarge=1.0,
                  detector_threshold=float(thr), head_threshold=float(head_thr), keep_shipped=keep, mean=mean,
                  scale=scale, weights=weights, bias=bias,
                  taught_on={"photos": len(exs), "tiles": len(taught_tiles), "kinds_of_tile": len(set(taught_tiles)),
                             "tiles_found": len(rows) // 2})


def _fit_pips(z: np.ndarray, labels: np.ndarray, offset: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The head over the pip classes alone (R x VIEWS inputs, classes 1-7): "no half"
    stays the shipped classifier's, as no taught photo shows what is not a half. Weights
    and bias over all classes, class 0's zero (as `_head` and the taught file take them)."""
    w, b = _fit(z.reshape(-1, z.shape[2]), np.repeat(labels - 1, VIEWS),
                offset[:, :, 1:].reshape(-1, offset.shape[2] - 1))
    return np.hstack([np.zeros((w.shape[0], 1)), w]), np.concatenate([[0.0], b])


def _head(probs: np.ndarray, z: np.ndarray, weights: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """The taught probabilities: "no half" as shipped, the pips re-read by the head."""
    q = np.empty_like(probs, dtype=np.float64)
    q[:, 0] = probs[:, 0]
    q[:, 1:] = (1 - probs[:, :1]) * _softmax(_log(probs[:, 1:]) + z @ weights[:, 1:] + bias[1:])
    return q


def _judge_one(q: np.ndarray, p: np.ndarray, head_thr: float, keep_shipped: bool, shipped_thr: float,
               shipped_not: float) -> net.Judged:
    """(no half, pips, confidence, sure) for one half, decided as a taught die is
    (vision.teach._decide): the head's answer, or the shipped classifier's where the head
    is unsure, the taught file says so and that one is sure."""
    what, cls, conf = _decide(q, p, head_thr, keep_shipped, shipped_thr, shipped_not)
    return what == "drop", cls - 1, conf, what == "die"


def _tally(held, shipped, labels, head_thr, keep_shipped, shipped_thr, shipped_not):
    """(tiles read right, tiles read wrong) by these held-out reads: a tile is read when
    both its halves are sure and neither is "no half"."""
    right = wrong = 0
    for r in range(0, len(labels), 2):  # rows come in pairs: a tile's two halves
        ja = _judge_one(held[r], shipped[r], head_thr, keep_shipped, shipped_thr, shipped_not)
        jb = _judge_one(held[r + 1], shipped[r + 1], head_thr, keep_shipped, shipped_thr, shipped_not)
        if ja[0] or jb[0] or not (ja[3] and jb[3]):
            continue
        if sorted((ja[1] + 1, jb[1] + 1)) == sorted((int(labels[r]), int(labels[r + 1]))):
            right += 1
        else:
            wrong += 1
    return right, wrong


def judge_for(taught: Taught, nets) -> net.Judge:
    """The taught head as vision.dominoes.net's judge of each half."""
    face = nets.cfg["face"]
    shipped_thr, shipped_not = float(face["threshold"]), float(face["not_half_threshold"])

    def judge(probs: np.ndarray, feats: np.ndarray) -> list[net.Judged]:
        q = _head(probs, (_inputs(probs, feats) - taught.mean) / taught.scale, taught.weights, taught.bias)
        return [_judge_one(qi, pi, taught.head_threshold, taught.keep_shipped, shipped_thr, shipped_not)
                for qi, pi in zip(q, probs)]

    return judge


def read_taught_dominoes(frame_bgr: np.ndarray, taught: Taught, config_path=None,
                         sure_tiles: bool = False) -> TableRead:
    """Read the tiles a taught domino reader was taught, as vision.dominoes.net reads them
    (the set check and refusals included), with the taught head on each half; with
    `sure_tiles`, only at tiles the detector is sure of (as the merged reader at the
    table takes the learned reader's reads, vision.dominoes.both)."""
    config_path = _config(config_path)
    nets = dice_net.load_nets(config_path)
    return net.read_dominoes_net(frame_bgr, None, config_path, judge=judge_for(taught, nets),
                                 detector_threshold=taught.detector_threshold, sure_tiles=sure_tiles)
