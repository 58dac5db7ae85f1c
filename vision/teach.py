"""Teach a learned reader (the d6 reader, or the d10 reader) the owner's own dice, from a
few labelled frames.

The shipped networks stay as they are. What is taught is small and fitted on this
machine's CPU in seconds:

- the scale: the frame is enlarged or shrunk before the detector so that the owner's
  dice, seen from the owner's camera height, come out at a size the detector knows; the
  scale and the detector threshold are the pair that finds most of the taught dice with
  fewest false finds;
- a head: a softmax regression on the features the face classifier's last layer reads
  (and on its own log-probabilities), fitted to the taught dice in all 4 turns and
  (pips, not numerals) their mirror images, with the detector's false finds as "not a die";
- its threshold: the lowest at which the head, fitted without each photo in turn,
  read none of that photo's dice wrong and took nothing else for a die.

At a frame the head reads each die; where it is unsure, the shipped classifier's answer
is kept if that one is sure (its own calibrated threshold), and only when neither is
sure is the die unreadable (a re-roll). A `Taught` names the shipped models it was
fitted on (a hash of their files) and is refused with other ones.

    taught = teach_dice(examples)              # examples: (name, frame, labelled dice)
    read = read_taught(frame, taught)          # a TableRead, like read_dice_net
    text = taught.to_json(); Taught.from_json(text)
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import cast

import numpy as np
from scipy.optimize import minimize

from table.reads import D10, Die, TableRead, Unreadable, UnreadableKind
from vision import dice_net

FORMAT = "tabletop21 taught reader"
VERSION = 1


@dataclass(frozen=True)
class Kind:
    """What differs between the pieces a taught reader can be taught: the shipped
    models it is fitted on, the values a piece shows (class = value - low + 1, class 0
    "not one"), and whether a crop's mirror image shows the same piece (pips yes,
    numerals no)."""

    name: str
    config: str  # file name in vision/models
    low: int
    high: int
    mirror: bool
    piece: str  # in messages
    unreadable: UnreadableKind
    # Values the taught photos must show between them. A head taught a d10 on two or
    # three values learnt the table and light of those photos, not the numbers: taught
    # on runs of one d10 resting on one face, it read a run on another table 100% wrong
    # (docs/teach.md). Pips are told apart by count, and d6 teaching was measured without.
    min_values: int = 1
    # A taught file's class count where it is not one head over the values (cards: a
    # rank head of 14 classes, 0 "no index", beside a suit head of 4)
    heads_width: int | None = None

    @property
    def classes(self) -> int:
        return self.heads_width or self.high - self.low + 2

    def make(self, value: int, center, box, confidence: float):
        return (Die if self.name == "dice" else D10)(value, center, box, confidence)


SPECS = {"dice": Kind("dice", "dice_net.json", 1, 6, True, "die", "die"),
         "d10": Kind("d10", "d10_net.json", 0, 9, False, "d10", "d10", min_values=6),
         # a tile's halves, 0-6 pips each (vision.teach_dominoes teaches and reads them)
         "dominoes": Kind("dominoes", "domino_net.json", 0, 6, True, "tile", "domino"),
         # a card's rank and suit (vision.teach_cards teaches and reads them)
         "cards": Kind("cards", "card_net.json", 0, 0, False, "card", "card", heads_width=18)}
KINDS = tuple(SPECS)  # what can be taught
ENLARGE = (0.5, 0.71, 1.0, 1.41, 2.0)
DETECTOR_THRESHOLDS = (0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5)
HEAD_THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.999)
NOT_A_DIE = 0.5  # the head's p(not a die) at or over which a find is dropped
FALSE_FIND_COST = 0.2  # a false find costs this much of a found die when the scale is chosen
L2 = 1e-2
FOLDS = 5


class TaughtError(ValueError):
    """A taught file or teaching set that cannot be used, in one line of plain words."""


Label = int | tuple[int, int] | tuple[str, str]  # a die's value, a tile's halves, a card's rank and suit


@dataclass(frozen=True)
class Example:
    """One labelled frame: its name (for messages) and its pieces as (value or None, box);
    a domino tile's value is its two halves, (a, b), a card's its rank and suit, ("10", "D")."""

    name: str
    frame: np.ndarray
    dice: tuple[tuple[Label | None, tuple[float, float, float, float]], ...]


@dataclass(frozen=True)
class Taught:
    kind: str
    model: str
    enlarge: float
    detector_threshold: float
    head_threshold: float
    keep_shipped: bool
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray  # F x classes (7 for dice, 11 for d10)
    bias: np.ndarray  # classes
    taught_on: dict = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps({
            "format": FORMAT, "version": VERSION, "kind": self.kind, "model": self.model,
            "enlarge": self.enlarge, "detector_threshold": self.detector_threshold,
            "head_threshold": self.head_threshold, "keep_shipped": self.keep_shipped,
            "mean": _numbers(self.mean), "scale": _numbers(self.scale),
            "weights": _numbers(self.weights), "bias": _numbers(self.bias),
            "taught_on": self.taught_on}, indent=None, separators=(",", ":")) + "\n"

    @classmethod
    def from_json(cls, text: str, config_path=None) -> Taught:
        """A taught reader from its file's text, checked against the shipped models."""
        try:
            data = json.loads(text)
        except ValueError:
            raise TaughtError("is not a taught-reader file (it is not JSON)") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise TaughtError("is not a taught-reader file")
        if data.get("version") != VERSION:
            raise TaughtError(f"was written in taught-file version {data.get('version')}, and this tabletop21 "
                              f"reads version {VERSION}: teach again")
        if data.get("kind") not in KINDS:
            raise TaughtError(f"teaches {data.get('kind')!s}, and only {', '.join(KINDS)} can be taught today")
        spec = SPECS[data["kind"]]
        model = model_id(config_path, spec.name)
        if data.get("model") != model:
            raise TaughtError(f"was taught for other reader models ({data.get('model')!s}; these are {model}): "
                              "teach again")
        try:
            weights = np.asarray(data["weights"], np.float64)
            taught = cls(kind=data["kind"], model=model, enlarge=float(data["enlarge"]),
                         detector_threshold=float(data["detector_threshold"]),
                         head_threshold=float(data["head_threshold"]), keep_shipped=bool(data["keep_shipped"]),
                         mean=np.asarray(data["mean"], np.float64), scale=np.asarray(data["scale"], np.float64),
                         weights=weights, bias=np.asarray(data["bias"], np.float64),
                         taught_on=dict(data.get("taught_on", {})))
        except (KeyError, TypeError, ValueError):
            raise TaughtError("is a damaged taught-reader file (a part is missing or not a number): teach again") \
                from None
        n = taught.mean.shape
        c = spec.classes
        if (taught.weights.ndim != 2 or taught.weights.shape[1] != c or taught.scale.shape != n
                or taught.weights.shape[0] != n[0] or taught.bias.shape != (c,)
                or not all(np.isfinite(a).all() for a in (taught.mean, taught.scale, taught.weights, taught.bias))
                or not (ENLARGE[0] <= taught.enlarge <= ENLARGE[-1])
                or not (0 < taught.detector_threshold < 1 and 0 < taught.head_threshold < 1)):
            raise TaughtError("is a damaged taught-reader file (its numbers do not fit together): teach again")
        return taught


def _numbers(values: np.ndarray) -> list:
    """Numbers as JSON writes them back exactly: a taught file reads as it was taught."""
    return np.asarray(values, np.float64).tolist()


def _config(config_path, kind: str):
    return config_path or dice_net.MODELS / SPECS[kind].config


def model_id(config_path=None, kind: str = "dice") -> str:
    """A short hash of the shipped reader's model files and settings: what a taught
    reader was fitted on."""
    nets = dice_net.load_nets(_config(config_path, kind))
    digest = hashlib.sha256()
    for name in (nets.cfg["detector"]["file"], nets.cfg["face"]["file"], *nets.cfg["face"].get("also", ())):
        digest.update((nets.base / name).read_bytes())
    detector = {k: v for k, v in nets.cfg["detector"].items() if k not in dice_net.LOOK_KEYS}
    digest.update(json.dumps([detector, nets.cfg["face"]], sort_keys=True).encode())
    return digest.hexdigest()[:16]


def match(centers: Sequence[tuple[float, float]], boxes: Sequence[Sequence[float]]) -> list[int | None]:
    """For each centre, the index of the box it lies in (nearest box centre first, one
    centre a box), or None: how a find is matched to a labelled die."""
    pairs = []
    for i, (x, y) in enumerate(centers):
        for j, (x0, y0, x1, y1) in enumerate(boxes):
            if x0 <= x <= x1 and y0 <= y <= y1:
                pairs.append(((x - (x0 + x1) / 2) ** 2 + (y - (y0 + y1) / 2) ** 2, i, j))
    pairs.sort()
    got: list[int | None] = [None] * len(centers)
    taken: set[int] = set()
    for _, i, j in pairs:
        if got[i] is None and j not in taken:
            got[i] = j
            taken.add(j)
    return got


VIEWS = 8  # views of each crop the head is fitted on: 4 turns, each also mirrored where that shows the same piece


def _turns(batch: np.ndarray, mirror: bool = True) -> np.ndarray:
    """VIEWS views of each crop, crop by crop: the 4 turns and their mirror images, or
    (numerals, which a mirror does not show) the 4 turns twice."""
    flips = (batch, batch[:, :, :, ::-1] if mirror else batch)
    views = [np.rot90(b, k, axes=(2, 3)) for b in flips for k in range(4)]
    return np.ascontiguousarray(np.stack(views, 1).reshape(-1, *batch.shape[1:]))


def _log(probs: np.ndarray) -> np.ndarray:
    return np.log(np.clip(probs, 1e-6, 1.0))


def _inputs(probs: np.ndarray, feats: np.ndarray) -> np.ndarray:
    return np.concatenate([feats, _log(probs)], 1).astype(np.float64)


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


def _fit(x: np.ndarray, y: np.ndarray, offset: np.ndarray, bias_l2: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Softmax regression with an L2 penalty, each class weighted by the inverse of how
    often it is seen (a value taught on few dice still counts). `bias_l2`: a penalty on
    the bias too, for heads over many classes of which a few photos teach some not at
    all (card ranks): unpenalized, the bias of a class never taught runs down and the
    head stops reading it."""
    n, f = x.shape
    c = offset.shape[1]
    counts = np.bincount(y, minlength=c).astype(np.float64)
    weight = np.where(counts > 0, n / (c * np.maximum(counts, 1)), 0.0)[y]
    onehot = np.eye(c)[y]

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        w, b = theta[: f * c].reshape(f, c), theta[f * c:]
        p = _softmax(offset + x @ w + b)
        value = (-(weight * np.log(np.clip((p * onehot).sum(1), 1e-12, 1))).sum() / n + L2 * (w * w).sum()
                 + bias_l2 * (b * b).sum())
        g = (p - onehot) * weight[:, None] / n
        return value, np.concatenate([(x.T @ g + 2 * L2 * w).ravel(), g.sum(0) + 2 * bias_l2 * b])

    theta = minimize(loss, np.zeros(f * c + c), jac=True, method="L-BFGS-B", options={"maxiter": 300}).x
    return theta[: f * c].reshape(f, c), theta[f * c:]


def checked_pieces(examples: Iterable[Example], piece: str, many: str, valid: Callable[[object], bool], what: str,
                   as_value: Callable[[object], Label], least: int, better: str) -> list[Example]:
    """The examples with their frames checked and their labels as `as_value` makes them,
    or a TaughtError naming the photo: a label `valid` refuses ("a tile is labelled
    [7, 2], and `what`"), a box that is not x0 < x1, y0 < y1, fewer than `least` labelled
    pieces (`better`: what teaches well). A piece labelled None (nobody could tell it)
    stays None: taught as nothing."""
    out = []
    for ex in examples:
        for value, box in ex.dice:
            if value is not None and not valid(value):
                shown = list(value) if isinstance(value, (tuple, list)) else value
                raise TaughtError(f"{ex.name}: a {piece} is labelled {shown!r}, and {what}")
            if len(box) != 4 or not box[0] < box[2] or not box[1] < box[3]:
                raise TaughtError(f"{ex.name}: a {piece}'s box {list(box)} is not x0 < x1, y0 < y1")
        pieces = tuple((None if v is None else as_value(v), (float(b[0]), float(b[1]), float(b[2]), float(b[3])))
                       for v, b in ex.dice)
        out.append(Example(ex.name, dice_net._check_frame(ex.frame), pieces))
    if not out:
        raise TaughtError("nothing to teach from: no labelled photos")
    if sum(1 for ex in out for value, _ in ex.dice if value is not None) < least:
        raise TaughtError(f"too few labelled {many} to teach from (at least {least} are needed; {better})")
    return out


def _checked(examples: Iterable[Example], spec: Kind, min_values: int | None = None) -> list[Example]:
    out = []
    for ex in examples:
        for value, box in ex.dice:
            if value is not None and not (isinstance(value, int) and not isinstance(value, bool)
                                          and spec.low <= value <= spec.high):
                what = "a d6" if spec.name == "dice" else "a d10"
                raise TaughtError(f"{ex.name}: a {spec.piece} is labelled {value!r}, and {what} shows "
                                  f"{spec.low} to {spec.high}")
            if len(box) != 4 or not box[0] < box[2] or not box[1] < box[3]:
                raise TaughtError(f"{ex.name}: a {spec.piece}'s box {list(box)} is not x0 < x1, y0 < y1")
        out.append(Example(ex.name, dice_net._check_frame(ex.frame), ex.dice))
    if not out:
        raise TaughtError("nothing to teach from: no labelled photos")
    if sum(1 for ex in out for value, _ in ex.dice if value is not None) < 6:
        raise TaughtError("too few labelled dice to teach from (at least 6 are needed; 20 photos of a dozen "
                          "rolls are better)")
    shown = sorted({value for ex in out for value, _ in ex.dice if value is not None})
    need = spec.min_values if min_values is None else min_values
    if len(shown) < need:
        raise TaughtError(f"the photos show only {len(shown)} of the {spec.piece}'s values "
                          f"({', '.join(map(str, shown))}); roll again until at least {need} values show "
                          "(a dozen rolls), or the reader learns the photos instead of the numbers")
    return out


def teach_dice(examples: Iterable[Example], config_path=None,
               progress: Callable[[int, int], None] | None = None) -> Taught:
    """A taught reader fitted to these labelled frames of the owner's six-sided dice."""
    return teach("dice", examples, config_path, progress)


def teach(kind: str, examples: Iterable[Example], config_path=None,
          progress: Callable[[int, int], None] | None = None, min_values: int | None = None) -> Taught:
    """A taught reader of `kind` ("dice", "d10", "dominoes", "cards") fitted to these labelled frames
    of the owner's pieces (Example.dice holds them, whatever the kind: a value, for a
    tile its two halves, for a card its rank and suit). `min_values` other than
    the kind's own is for measuring only (tools/d10_net/teach_bench.py)."""
    if kind not in SPECS:
        raise TaughtError(f"only {', '.join(KINDS)} can be taught today, not {kind}")
    if kind == "dominoes":
        from vision.teach_dominoes import teach_dominoes

        return teach_dominoes(list(examples), config_path, progress)
    if kind == "cards":
        from vision.teach_cards import teach_cards

        return teach_cards(list(examples), config_path, progress)
    spec = SPECS[kind]
    exs = _checked(examples, spec, min_values)
    config_path = _config(config_path, kind)
    nets = dice_net.load_nets(config_path)
    steps = len(exs) * (len(ENLARGE) + 1)
    done = 0
    # 1. the scale and detector threshold that find most taught dice with fewest false finds
    score = {}
    finds: dict[float, list[list[dict]]] = {}
    for enlarge in ENLARGE:
        finds[enlarge] = []
        for ex in exs:
            finds[enlarge].append(dice_net.detect(ex.frame, nets, min(DETECTOR_THRESHOLDS), enlarge))
            done += 1
            if progress:
                progress(done, steps)
        for thr in DETECTOR_THRESHOLDS:
            found = false = 0
            for ex, dets in zip(exs, finds[enlarge]):
                kept = [d for d in dets if d["score"] >= thr]
                got = match([d["center"] for d in kept], [box for _, box in ex.dice])
                found += sum(j is not None for j in got)
                false += sum(j is None for j in got)
            score[(enlarge, thr)] = found - FALSE_FIND_COST * false
    best = max(score.values())
    enlarge, thr = min((k for k, v in score.items() if v == best), key=lambda k: (abs(np.log(k[0])), -k[1]))
    # 2. the head's examples: each labelled die from its find (or its box, when not found), false finds as 0
    rows: list[tuple[int, int, np.ndarray, np.ndarray]] = []  # photo, label, probs (8 views), features (8 views)
    for i, ex in enumerate(exs):
        dets = [d for d in finds[enlarge][i] if d["score"] >= thr]
        got = match([d["center"] for d in dets], [box for _, box in ex.dice])
        items: list[tuple[dict, int]] = []
        for d, j in zip(dets, got):
            value = None if j is None else ex.dice[j][0]
            if j is None or value is not None:  # a die whose value nobody could tell teaches nothing
                items.append((d, 0 if value is None else cast(int, value) - spec.low + 1))
        for j, (value, box) in enumerate(ex.dice):
            if j not in got and value is not None:
                x0, y0, x1, y1 = box
                items.append(({"center": ((x0 + x1) / 2, (y0 + y1) / 2), "w": x1 - x0, "h": y1 - y0},
                              cast(int, value) - spec.low + 1))
        if items:
            crops = dice_net.face_crops(ex.frame, nets, [d for d, _ in items])
            probs, feats = dice_net.classify(_turns(crops, spec.mirror), nets, features=True)
            for k, (_, label) in enumerate(items):
                rows.append((i, label, probs[VIEWS * k: VIEWS * k + VIEWS], feats[VIEWS * k: VIEWS * k + VIEWS]))
        done += 1
        if progress:
            progress(done, steps)
    x_all = np.stack([_inputs(p, f) for _, _, p, f in rows])  # R x 8 x F
    mean = x_all.reshape(-1, x_all.shape[2]).mean(0)
    scale = x_all.reshape(-1, x_all.shape[2]).std(0) + 1e-6
    z = (x_all - mean) / scale
    labels = np.array([value for _, value, _, _ in rows])
    photos = np.array([i for i, _, _, _ in rows])
    shipped = np.stack([p[0] for _, _, p, _ in rows])  # the shipped classifier on the crop as it comes
    offset = _log(np.stack([p for _, _, p, _ in rows]))  # R x VIEWS x classes: the head adds to these
    classes = offset.shape[2]
    # 3. the head's threshold from reads of each photo by a head fitted without it
    fold = photos % min(FOLDS, len(exs))
    held = np.zeros((len(rows), classes))
    for k in np.unique(fold):
        train = fold != k
        if len(np.unique(labels[train])) < 2:
            held[~train] = 1 / classes  # nothing to fit on: every find unsure
            continue
        w, b = _fit(z[train].reshape(-1, z.shape[2]), np.repeat(labels[train], VIEWS),
                    offset[train].reshape(-1, classes))
        held[~train] = _softmax(offset[~train, 0] + z[~train, 0] @ w + b)
    shipped_thr = float(nets.cfg["face"]["threshold"])
    shipped_not_die = float(nets.cfg["face"]["not_die_threshold"])
    head_thr, keep = HEAD_THRESHOLDS[-1], False
    best_right = -1
    for keep_shipped in (False, True):
        for t in HEAD_THRESHOLDS:
            right, wrong = _tally(held, shipped, labels, t, keep_shipped, shipped_thr, shipped_not_die)
            if wrong == 0 and right > best_right:
                head_thr, keep, best_right = t, keep_shipped, right
    weights, bias = _fit(z.reshape(-1, z.shape[2]), np.repeat(labels, VIEWS), offset.reshape(-1, classes))
    values = [value for ex in exs for value, _ in ex.dice if value is not None]
    return Taught(kind=kind, model=model_id(config_path, kind), enlarge=float(enlarge), detector_threshold=float(thr),
                  head_threshold=float(head_thr), keep_shipped=keep, mean=mean, scale=scale, weights=weights,
                  bias=bias, taught_on={"photos": len(exs), "dice": len(values),
                                        "values": {str(v): values.count(v) for v in range(spec.low, spec.high + 1)},
                                        "false_finds": int((labels == 0).sum())})


def _decide(q: np.ndarray, p: np.ndarray, head_thr: float, keep_shipped: bool, shipped_thr: float,
            shipped_not_die: float) -> tuple[str, int, float]:
    """What is made of one find: ("drop" | "die" | "unsure", value, confidence)."""
    if q[0] >= NOT_A_DIE:
        return "drop", 0, float(q[0])
    value = int(np.argmax(q[1:])) + 1
    if q[value] >= head_thr:
        return "die", value, float(q[value])
    shipped_value = int(np.argmax(p[1:])) + 1
    if keep_shipped and p[0] < shipped_not_die and p[shipped_value] >= shipped_thr:
        return "die", shipped_value, float(p[shipped_value])
    return "unsure", value, float(q[value])


def _tally(held, shipped, labels, head_thr, keep_shipped, shipped_thr, shipped_not_die) -> tuple[int, int]:
    right = wrong = 0
    for q, p, label in zip(held, shipped, labels):
        what, value, _ = _decide(q, p, head_thr, keep_shipped, shipped_thr, shipped_not_die)
        if what != "die":
            continue
        if value == label:
            right += 1
        else:
            wrong += 1  # a wrong value, or a false find taken for a die
    return right, wrong


def read_taught(frame_bgr: np.ndarray, taught: Taught, config_path=None) -> TableRead:
    """Read the pieces a taught reader was taught (six-sided dice, d10s, domino tiles or
    cards) in a BGR frame."""
    if taught.kind == "dominoes":
        from vision.teach_dominoes import read_taught_dominoes

        return read_taught_dominoes(frame_bgr, taught, config_path)
    if taught.kind == "cards":
        from vision.teach_cards import read_taught_cards

        return read_taught_cards(frame_bgr, taught, config_path=config_path)
    frame = dice_net._check_frame(frame_bgr)
    return taught_read(taught_finds(frame, taught, taught.detector_threshold, config_path), taught, config_path)


def taught_finds(frame: np.ndarray, taught: Taught, threshold: float, config_path=None) -> list[dict]:
    """A d6 or d10 taught reader's finds in a checked frame: the detector at the taught
    scale, at `threshold` or more, each find with "probs", the taught head's
    probabilities (not a die, then each value), and "shipped", the shipped classifier's."""
    nets = dice_net.load_nets(_config(config_path, taught.kind))
    dets = dice_net.detect(frame, nets, threshold, taught.enlarge)
    if not dets:
        return []
    probs, feats = dice_net.classify(dice_net.face_crops(frame, nets, dets), nets, features=True)
    q = _softmax(_log(probs) + ((_inputs(probs, feats) - taught.mean) / taught.scale) @ taught.weights + taught.bias)
    for d, qi, pi in zip(dets, q, probs):
        d["probs"], d["shipped"] = qi.astype(float), pi.astype(float)
    return dets


def taught_read(finds: Sequence[dict], taught: Taught, config_path=None) -> TableRead:
    """What a d6 or d10 taught reader reads from its finds (`taught_finds`): those at its
    detector threshold, each a die, dropped, or unreadable by the taught head."""
    spec = SPECS[taught.kind]
    cfg = dice_net.load_nets(_config(config_path, taught.kind)).cfg
    shipped_thr = float(cfg["face"]["threshold"])
    shipped_not_die = float(cfg["face"]["not_die_threshold"])
    dice, unreadable = [], []
    for d in finds:
        if d["score"] < taught.detector_threshold:
            continue
        what, value, conf = _decide(d["probs"], d["shipped"], taught.head_threshold, taught.keep_shipped, shipped_thr,
                                    shipped_not_die)
        value = value - 1 + spec.low  # the class's value
        if what == "die":
            dice.append(spec.make(value, d["center"], d["box"], min(1.0, max(0.0, conf))))
        elif what == "unsure":
            unreadable.append(Unreadable(spec.unreadable, d["center"], f"cannot read this {spec.piece}'s value for "
                                         f"sure (taught reader, {value}: {conf:.2f}); re-roll it", d["box"]))
    dice.sort(key=lambda d: (d.center[1], d.center[0]))
    unreadable.sort(key=lambda u: (u.center[1], u.center[0]))
    return dataclasses.replace(TableRead(unreadable=tuple(unreadable)), **{spec.name: tuple(dice)})  # the kind's field
