"""Teach the learned card reader (vision.cards.net) the owner's own deck, from a few
labelled frames: the same kind of taught file as for dice (vision.teach), fitted on the
index classifier.

- the detector threshold: the one at which most labelled cards have a found index, a
  find on no labelled card counting FALSE_FIND_COST of a found card against it;
- two heads, softmax regressions on the features the index classifier's last layer
  reads and on its own log-probabilities (so that untaught they answer as the
  classifier does): the rank (class 0 "no index here") and the suit. Each index found on
  a labelled card teaches its rank and suit, in VIEWS crops (as cut, a little smaller
  and bigger, a little turned either way: the detector's height and direction wander
  that much); a find on no labelled card (a face-down card, a chip, the table)
  teaches "no index". Which card an index belongs to: of the labelled boxes it lies in,
  the one whose middle is nearest where the card geometry puts that index's card
  (`owner`); a find that could be either of two cards teaches nothing;
- the head threshold, from the shipped classifier's own up (lower ones, allowed for
  dice, read cards of the fixtures wrong that the folds of the other photos had not),
  and whether the shipped classifier's answer is kept for an index the heads are unsure
  of: the pair at which the heads, fitted without each photo in turn, read most indices
  of that photo right with no more wrong (rank or suit, or something else taken for an
  index) than the shipped classifier alone reads there. The photos' labels are of
  cards, not of indices, so an index taught as the wrong card is label noise the
  check cannot tell from a wrong read: the shipped classifier's own count is the bar.

At a frame the cards are then placed, merged and refused exactly as the shipped reader
does (vision.cards.net.decide).

    taught = teach_cards(examples)   # vision.teach.Example, pieces ((rank, suit) or None, box)
    read = read_taught_cards(frame, taught)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from table.reads import TableRead
from table.rules.cards import RANKS, SUITS
from vision import dice_net
from vision.calibration import Calibration
from vision.cards import net
from vision.teach import (
    FALSE_FIND_COST,
    FOLDS,
    HEAD_THRESHOLDS,
    SPECS,
    Example,
    Taught,
    TaughtError,
    _fit,
    _inputs,
    _log,
    _softmax,
    checked_pieces,
    model_id,
)

# The shipped threshold (0.3) one step down, and up: lower ones found more cards of
# held-out designs but read more of them wrong or twice (tools/card_net/teach_bench.py)
DETECTOR_THRESHOLDS = (0.25, 0.3, 0.4, 0.5)
RANK = net.RANK_CLASSES  # 14: class 0 "no index", then A, 2 ... K
SUIT = len(net.SUITS)
# the crops each index is taught in: (height times, turn in radians)
VIEWS = ((1.0, 0.0), (0.9, 0.0), (1.1, 0.0), (1.0, 0.1), (1.0, -0.1))
MIN_CARDS = 6
NEAR = 1.5  # index heights: an index's card middle at most this far from its labelled card's
CLEAR = 0.75  # index heights: and this much nearer it than any other card's it lies in, or
LIKELIER = 10.0  # the classifier finds its label this many times likelier than theirs
# A find the shipped classifier calls "no index" (its not_index_threshold) and gives its
# card's label under this probability teaches nothing: on held-out designs most such
# finds on a card are its middle or its pips, not an index (tools/card_net/teach_bench.py)
DOUBT = 0.01
BIAS_L2 = 1.0  # the heads' bias penalty (vision.teach._fit): a rank few photos show keeps its shipped odds


def _config(config_path):
    return config_path or dice_net.MODELS / SPECS["cards"].config


def checked(examples: Sequence[Example]) -> list[Example]:
    """The examples with their frames checked, or a TaughtError naming the photo: a card
    is (rank, suit) of a 52-card deck ("A", "2" ... "10", "J", "Q", "K"; "C", "D", "H",
    "S"), or None (a card whose face nobody could tell: taught as nothing), boxes
    x0 < x1, y0 < y1."""
    return checked_pieces(examples, "card", "cards", _is_card,
                          f"a card is a rank ({', '.join(RANKS)}) and a suit ({', '.join(SUITS)})", _card, MIN_CARDS,
                          "the whole deck laid out in rows over a few pictures is better")


def _is_card(card: object) -> bool:
    return isinstance(card, (tuple, list)) and len(card) == 2 and card[0] in RANKS and card[1] in SUITS


def _card(value) -> tuple[str, str]:
    """A checked card label as (rank, suit)."""
    return str(value[0]), str(value[1])


def owner(find: dict, boxes: Sequence[Sequence[float]], geometry: dict,
          likely: Callable[[int], float] | None = None) -> int | None:
    """The labelled card (index into `boxes`) an index find belongs to; None where it lies
    on no card; -1 where it lies on a card but which one is not clear (not taught).

    Of the boxes it lies in, those whose middle is at most NEAR index heights from where
    the card geometry puts the index's card may be its card: the nearest when it is CLEAR
    index heights nearer than the next; else (a hand of overlapping cards, whose middles
    lie close together) the one whose label `likely` (the shipped classifier's
    probability of a box's rank and suit) makes at least LIKELIER times likelier than any
    other near one."""
    x, y = find["centre"]
    holding = [j for j, (x0, y0, x1, y1) in enumerate(boxes) if x0 <= x <= x1 and y0 <= y <= y1]
    if not holding:
        return None
    mid = net.card_middle(find["centre"], find["down"], find["height"], geometry)
    h = find["height"]
    near = sorted((math.hypot(mid[0] - (boxes[j][0] + boxes[j][2]) / 2, mid[1] - (boxes[j][1] + boxes[j][3]) / 2), j)
                  for j in holding)
    near = [(d, j) for d, j in near if d <= NEAR * h]
    if not near:
        return -1
    if len(near) == 1 or near[1][0] - near[0][0] >= CLEAR * h:
        return near[0][1]
    if likely is None:
        return -1
    odds = sorted(((likely(j), j) for _, j in near), reverse=True)
    return odds[0][1] if odds[0][0] >= LIKELIER * max(odds[1][0], 1e-9) else -1


def _odds(card, q: np.ndarray) -> float:
    """The classifier's probability (q: 18) of a labelled card's rank and suit."""
    if card is None:
        return 0.0
    rank, suit = _card(card)
    return float(q[RANKS.index(rank) + 1] * q[RANK + SUITS.index(suit)])


def _views(found: list[dict]) -> list[dict]:
    """Each find in len(VIEWS) crops, find by find."""
    out = []
    for f in found:
        dx, dy = f["down"]
        for times, turn in VIEWS:
            c, s = math.cos(turn), math.sin(turn)
            out.append({"centre": f["centre"], "height": f["height"] * times, "down": (c * dx - s * dy, s * dx + c * dy)})
    return out


def _classified(frame: np.ndarray, found: list[dict], nets) -> tuple[np.ndarray, np.ndarray]:
    """The classifier's probabilities (N x 18) and features of these finds' crops."""
    return nets.face.run(["probs", "features"], {nets.face_in: net.index_inputs(frame, found, nets)})


def heads(probs: np.ndarray, feats: np.ndarray, taught: Taught) -> tuple[np.ndarray, np.ndarray]:
    """The taught rank (N x 14) and suit (N x 4) probabilities."""
    return _heads(probs, (_inputs(probs, feats) - taught.mean) / taught.scale, taught.weights, taught.bias)


def _heads(probs: np.ndarray, z: np.ndarray, weights: np.ndarray, bias: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank and suit probabilities from the classifier's (N x 18) and the heads on the
    standardized inputs z: "no index" stays the classifier's (as few photos show what is
    not an index), the ranks and the suits are re-read."""
    qr = np.empty((len(probs), RANK))
    qr[:, 0] = probs[:, 0]
    qr[:, 1:] = (1 - probs[:, :1]) * _softmax(_log(probs[:, 1:RANK]) + z @ weights[:, 1:RANK] + bias[1:RANK])
    return qr, _softmax(_log(probs[:, RANK:]) + z @ weights[:, RANK:] + bias[RANK:])


def judge(qr: np.ndarray, qs: np.ndarray, p: np.ndarray, head_thr: float, keep_shipped: bool, shipped_thr: float,
          not_index: float) -> tuple[str, np.ndarray, np.ndarray]:
    """("drop" | "card" | "unsure", rank and suit probabilities to read): the heads' answer,
    or the shipped classifier's (`p`, 18) where the heads are unsure, the taught file says
    so and that one is sure."""
    if qr[0] >= not_index:
        return "drop", qr, qs
    if qr[1:].max() >= head_thr and qs.max() >= head_thr:
        return "card", qr, qs
    pr, ps = p[:RANK], p[RANK:]
    if keep_shipped and pr[0] < not_index and pr[1:].max() >= shipped_thr and ps.max() >= shipped_thr:
        return "card", pr, ps
    return "unsure", qr, qs


def _tally(qr, qs, shipped, ranks, suits, head_thr, keep_shipped, shipped_thr, not_index) -> tuple[int, int]:
    """(indices read right, indices read wrong or false finds read as cards)."""
    right = wrong = 0
    for i in range(len(ranks)):
        what, r, s = judge(qr[i], qs[i], shipped[i], head_thr, keep_shipped, shipped_thr, not_index)
        if what != "card":
            continue
        if ranks[i] > 0 and int(np.argmax(r[1:])) + 1 == ranks[i] and int(np.argmax(s)) == suits[i]:
            right += 1
        else:
            wrong += 1
    return right, wrong


def _fit_heads(z: np.ndarray, offset: np.ndarray, ranks: np.ndarray, suits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both heads on the taught indices' R x V inputs: weights F x 18 and bias 18 (the
    rank head's, "no index" zero, then the suit head's). A head with one class taught
    stays the shipped classifier's."""
    v, f = z.shape[1], z.shape[2]
    index = ranks > 0
    weights, bias = np.zeros((f, RANK + SUIT)), np.zeros(RANK + SUIT)
    for values, cols, n in ((ranks[index] - 1, slice(1, RANK), RANK - 1), (suits[index], slice(RANK, RANK + SUIT), SUIT)):
        if len(np.unique(values)) >= 2:
            weights[:, cols], bias[cols] = _fit(z[index].reshape(-1, f), np.repeat(values, v),
                                                offset[index][:, :, cols].reshape(-1, n), BIAS_L2)
    return weights, bias


def teach_cards(examples: Sequence[Example], config_path=None,
                progress: Callable[[int, int], None] | None = None) -> Taught:
    """A taught card reader fitted to these labelled frames of the owner's deck (every
    face-up card in them labelled: a find on no labelled card is taught as "no index")."""
    exs = checked(examples)
    config_path = _config(config_path)
    nets = dice_net.load_nets(config_path)
    geometry = nets.cfg["geometry"]
    steps, done = len(exs), 0
    not_index = float(nets.cfg["face"]["not_index_threshold"])
    # 1. every find at the lowest detector threshold, classified in each view
    finds, probs_v, feats_v, owners = [], [], [], []
    for ex in exs:
        found = net.detect(ex.frame, nets, min(DETECTOR_THRESHOLDS))
        if found:
            p, ft = _classified(ex.frame, _views(found), nets)
            p, ft = p.astype(np.float64).reshape(len(found), len(VIEWS), -1), ft.reshape(len(found), len(VIEWS), -1)
        else:
            p, ft = np.zeros((0, len(VIEWS), RANK + SUIT)), np.zeros((0, len(VIEWS), 1))
        finds.append(found)
        probs_v.append(p)
        feats_v.append(ft)
        boxes = [box for _, box in ex.dice]
        odds = [[_odds(card, q) for card, _ in ex.dice] for q in p[:, 0]]  # each find's odds of each card
        owners.append([owner(f, boxes, geometry, o.__getitem__) for f, o in zip(found, odds)])
        done += 1
        if progress:
            progress(done, steps)
    # 2. the detector threshold
    score = {}
    for thr in DETECTOR_THRESHOLDS:
        hits = false = 0
        for ex, found, own in zip(exs, finds, owners):
            kept = [o for f, o in zip(found, own) if f["score"] >= thr]
            hits += len({o for o in kept if o is not None and o >= 0 and ex.dice[o][0] is not None})
            false += sum(o is None for o in kept)
        score[thr] = hits - FALSE_FIND_COST * false
    best = max(score.values())
    shipped_det = float(nets.cfg["detector"]["threshold"])
    thr = min((t for t, v in score.items() if v == best), key=lambda t: abs(t - shipped_det))
    # 3. the heads' examples: each index on a labelled card, and each find on none
    photo, ranks, suits, rows_p, rows_f = [], [], [], [], []
    for i, (ex, found, own) in enumerate(zip(exs, finds, owners)):
        for k, (f, o) in enumerate(zip(found, own)):
            if f["score"] < thr or o == -1 or (o is not None and ex.dice[o][0] is None):
                continue
            card = None if o is None else _card(ex.dice[o][0])
            q = probs_v[i][k, 0]
            if card is not None and q[0] >= not_index and _odds(card, q) < DOUBT:
                continue
            photo.append(i)
            ranks.append(0 if card is None else RANKS.index(card[0]) + 1)
            suits.append(-1 if card is None else SUITS.index(card[1]))
            rows_p.append(probs_v[i][k])
            rows_f.append(feats_v[i][k])
    rank_arr, suit_arr = np.array(ranks), np.array(suits)
    if not (rank_arr > 0).any():
        raise TaughtError("no labelled card's corner index was found in the photos: lay the cards face up with "
                          "their corners in clear view, and take the pictures again")
    probs = np.stack(rows_p)  # R x VIEWS x 18
    feats = np.stack(rows_f)
    x_all = _inputs(probs.reshape(-1, probs.shape[2]), feats.reshape(-1, feats.shape[2])).reshape(len(ranks),
                                                                                                    len(VIEWS), -1)
    mean = x_all.reshape(-1, x_all.shape[2]).mean(0)
    scale = x_all.reshape(-1, x_all.shape[2]).std(0) + 1e-6
    z = (x_all - mean) / scale
    offset = _log(probs)
    shipped = probs[:, 0]
    # 4. the head threshold from each photo read by heads fitted without it
    photos = np.array(photo)
    fold = photos % min(FOLDS, len(exs))
    qr, qs = np.zeros((len(ranks), RANK)), np.zeros((len(ranks), SUIT))
    for k in np.unique(fold):
        train = fold != k
        qr[~train], qs[~train] = _heads(probs[~train, 0], z[~train, 0],
                                        *_fit_heads(z[train], offset[train], rank_arr[train], suit_arr[train]))
    shipped_thr = float(nets.cfg["face"]["threshold"])
    # most right with no more wrong than the shipped classifier alone, then the higher threshold
    tried = {(t, keep_shipped): _tally(qr, qs, shipped, rank_arr, suit_arr, t, keep_shipped, shipped_thr, not_index)
             for keep_shipped in (False, True) for t in HEAD_THRESHOLDS if t >= shipped_thr}
    _, alone = _tally(qr, qs, shipped, rank_arr, suit_arr, 1.0, True, shipped_thr, not_index)
    fits = [k for k, (_, wrong) in tried.items() if wrong <= alone] or [(HEAD_THRESHOLDS[-1], True)]
    head_thr, keep = max(fits, key=lambda k: (tried[k][0], k[0]))
    weights, bias = _fit_heads(z, offset, rank_arr, suit_arr)
    labelled = [card for ex in exs for card, _ in ex.dice if card is not None]
    return Taught(kind="cards", model=model_id(config_path, "cards"), enlarge=1.0, detector_threshold=float(thr),
                  head_threshold=float(head_thr), keep_shipped=keep, mean=mean, scale=scale, weights=weights,
                  bias=bias, taught_on={"photos": len(exs), "cards": len(labelled),
                                        "kinds_of_card": len(set(labelled)),
                                        "indices": int((rank_arr > 0).sum()),
                                        "false_finds": int((rank_arr == 0).sum())})


def read_taught_cards(frame_bgr: np.ndarray, taught: Taught, calibration: Calibration | None = None,
                      config_path=None) -> TableRead:
    """Read the face-up cards in a BGR frame as vision.cards.net reads them (corners
    merged, twins refused, the play area's edge), with the taught heads on each index."""

    def read_indices(frame: np.ndarray, found: list[dict], nets) -> None:
        if not found:
            return
        probs, feats = _classified(frame, found, nets)
        probs = probs.astype(np.float64)
        qr, qs = heads(probs, feats, taught)
        face = nets.cfg["face"]
        for f, r, s, p in zip(found, qr, qs, probs):
            what, f["ranks"], f["suits"] = judge(r, s, p, taught.head_threshold, taught.keep_shipped,
                                                 float(face["threshold"]), float(face["not_index_threshold"]))
            f["drop"], f["sure"] = what == "drop", what == "card"

    return net.read_cards_net(frame_bgr, calibration, _config(config_path),
                              detector_threshold=taught.detector_threshold, read_indices=read_indices)
