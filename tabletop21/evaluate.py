"""Scoring a reader against labelled photos (labels.json in the dice-d6-photos format,
optionally with "dominoes", "cards" and "d10" lists beside "dice").

A prediction matches a labelled object when its centre lies inside the object's box,
one prediction per object (see `_matching`); every prediction left over is a phantom
(a double read, or something that is not there). Unreadable reports are counted on their own: refusing
to read is not a wrong value and not a phantom, but it does spoil a perfect photo. So does
a needless refusal, one that covers no object left unread (nor a box the labels mark as
unreadable, as a cocked die): a second look at a die already read, or a refusal of
bare table. The appliance asks for a re-roll on any refusal, so such a photo was not
read perfectly, though every object on it was."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from table.reads import TableRead, inside
from table.rules.cards import RANKS
from tabletop21.progress import progress
from vision.image_io import load_bgr


@dataclass(frozen=True)
class KindSpec:
    """How one kind of object is labelled and read."""

    read_field: str  # attribute of TableRead
    unreadable_kind: str  # Unreadable.kind for this object
    truth: Callable[[dict], Any]  # value from a label entry
    predicted: Callable[[Any], Any]  # value from a read object
    labelled: Callable[[dict], bool]  # whether a label entry holds a value of this kind
    value_words: str  # what `labelled` wants, for the error


def _whole(value: object, allowed: range) -> bool:
    """A whole number in `allowed`. Not a fraction (5.9 would be scored as a 5), not
    JSON's true (it would be scored as a 1); 3.0 is 3."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and \
        float(value).is_integer() and int(value) in allowed


def _halves(label: dict) -> bool:
    halves = label.get("halves")
    return isinstance(halves, list) and len(halves) == 2 and all(_whole(h, range(7)) for h in halves)


KINDS: dict[str, KindSpec] = {
    "dice": KindSpec("dice", "die", lambda lab: int(lab["value"]), lambda d: d.value,
                     lambda lab: _whole(lab.get("value"), range(1, 7)), "a value: a whole number 1-6"),
    "d10": KindSpec("d10", "d10", lambda lab: int(lab["value"]), lambda d: d.value,
                    lambda lab: _whole(lab.get("value"), range(10)), "a value: a whole number 0-9"),
    # A tile read upside down is the same tile: compare halves as an unordered pair.
    "dominoes": KindSpec("dominoes", "domino", lambda lab: tuple(sorted(int(h) for h in lab["halves"])),
                         lambda d: tuple(sorted(d.halves)), _halves, "halves: two whole numbers 0-6"),
    "cards": KindSpec("cards", "card", lambda lab: lab["rank"], lambda c: c.rank,
                      lambda lab: lab.get("rank") in RANKS, f"a rank: one of {', '.join(RANKS)}"),
}


@dataclass
class KindScore:
    labelled: int = 0
    found: int = 0
    value_right: int = 0
    phantoms: int = 0
    unreadable: int = 0
    needless_refusals: int = 0

    def add(self, other: KindScore) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_dict(self) -> dict[str, float]:
        n = max(self.labelled, 1)
        return {**self.__dict__, "found_pct": round(100 * self.found / n, 2),
                "value_right_pct": round(100 * self.value_right / n, 2),
                "phantom_pct": round(100 * self.phantoms / n, 2),
                "unreadable_pct": round(100 * self.unreadable / n, 2)}


@dataclass
class PhotoScore:
    file: str
    kinds: dict[str, KindScore]
    ms: float
    mistakes: list[str] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(k.labelled - k.value_right + k.phantoms + k.needless_refusals for k in self.kinds.values())


def split_names(names: list[str], split: str) -> list[str]:
    """Sorted names, or every other one ("even": 0th, 2nd, ...; "odd": 1st, 3rd, ...),
    so that tuning on one half and measuring on the other is one flag."""
    names = sorted(names)
    if split == "all":
        return names
    return names[{"even": 0, "odd": 1}[split]::2]


def _distance(point: tuple[float, float], box: list[float]) -> float:
    return float(np.hypot(point[0] - (box[0] + box[2]) / 2, point[1] - (box[1] + box[3]) / 2))


def _matching(spec: KindSpec, predictions: list, labels: list[dict]) -> dict[int, int]:
    """Label index -> prediction index: each prediction matched to at most one box
    containing its centre and each box to at most one prediction. First as many
    right-valued pairs as possible, then as many pairs as possible among the rest
    (augmenting paths, nearest box first). Overlapping boxes (a fanned hand) need
    this: any value-blind rule swapped the reads of two cards whose boxes hold both
    centres. The price: of a die read twice, the right read is the one counted (the
    other still counts as a phantom)."""
    boxes = [sorted((j for j, lab in enumerate(labels) if inside(p.center, lab["box"])),
                    key=lambda j: _distance(p.center, labels[j]["box"])) for p in predictions]
    owner: dict[int, int] = {}

    def place(i: int, edges: list[list[int]], seen: set[int]) -> bool:
        for j in edges[i]:
            if j not in seen:
                seen.add(j)
                if j not in owner or place(owner[j], edges, seen):
                    owner[j] = i
                    return True
        return False

    right = [[j for j in b if spec.predicted(p) == spec.truth(labels[j])] for p, b in zip(predictions, boxes)]
    for i in range(len(predictions)):
        place(i, right, set())
    taken = set(owner.values())
    rest = [[] if i in taken else [j for j in b if j not in owner] for i, b in enumerate(boxes)]
    for i in range(len(predictions)):
        place(i, rest, set())
    return owner


def score_kind(spec: KindSpec, labels: list[dict], read: TableRead,
               excused: Sequence[dict] = ()) -> tuple[KindScore, list[str]]:
    """Score of one kind on one photo, and a line per mistake; `excused` are labelled
    boxes where a refusal is the right answer (the labels' "unreadable" list)."""
    # A die labelled with no value (too blurred to tell, as in dice-aws) is there but not
    # scored: a read of it is neither right nor a phantom, a refusal of it not needless.
    unknown = [lab for lab in labels if isinstance(lab, dict) and "value" in lab and lab["value"] is None]
    labels = [lab for lab in labels if not any(lab is other for other in unknown)]
    excused = [*excused, *unknown]
    score = KindScore(labelled=len(labels))
    mistakes: list[str] = []
    predictions = [p for p in getattr(read, spec.read_field) if not any(inside(p.center, lab["box"]) for lab in unknown)]
    owner = _matching(spec, predictions, labels)
    refused = [u for u in read.unreadable if u.kind == spec.unreadable_kind]
    for i, lab in enumerate(labels):
        if i in owner:
            score.found += 1
            value = spec.predicted(predictions[owner[i]])
            if value == spec.truth(lab):
                score.value_right += 1
            else:
                mistakes.append(f"{spec.read_field} at {lab['box']}: read {value}, labelled {spec.truth(lab)}")
        elif any(inside(u.center, lab["box"]) for u in refused):
            score.unreadable += 1
            mistakes.append(f"{spec.read_field} at {lab['box']}: reported unreadable")
        else:
            mistakes.append(f"{spec.read_field} at {lab['box']}: missed")
    unread = [lab["box"] for i, lab in enumerate(labels) if i not in owner] + [e["box"] for e in excused]
    for u in refused:
        if not any(inside(u.center, box) for box in unread):
            score.needless_refusals += 1
            mistakes.append(f"{spec.read_field} refusal at {u.center} where nothing was left unread: {u.reason}")
    matched = set(owner.values())
    for n, p in enumerate(predictions):
        if n in matched:
            continue
        score.phantoms += 1
        holding = [lab["box"] for lab in labels if inside(p.center, lab["box"])]
        where = f"at {holding[0]}: read again as {spec.predicted(p)}" if holding else \
            f"phantom at {p.center}: read {spec.predicted(p)}"
        mistakes.append(f"{spec.read_field} {where}")
    return score, mistakes


class BadLabels(ValueError):
    """A labels.json that cannot be scored against: not JSON, not {photo: labels}, an
    object without a box or a value its kind can have, or no object at all."""


def load_labels(photo_dir: str | Path) -> dict[str, dict]:
    """DIR/labels.json checked whole before any photo is read, so a typo is one clear
    line naming the file and the entry, not a crash half-way through a long run."""
    path = Path(photo_dir) / "labels.json"
    try:
        text = path.read_text()
        labels = json.loads(text)
    except (OSError, UnicodeDecodeError) as err:
        raise BadLabels(f"{path}: cannot be read ({err})") from err
    except json.JSONDecodeError as err:
        if not text.strip():
            raise BadLabels(f"{path}: the file is empty") from err
        raise BadLabels(f"{path}: not JSON ({err})") from err
    if not isinstance(labels, dict):
        raise BadLabels(f"{path}: expected {{photo file name: {{kind: [objects]}}}}, not a {type(labels).__name__}")
    if not labels:
        raise BadLabels(f"{path}: no labelled photos")
    for name, entry in labels.items():
        if not isinstance(entry, dict):
            raise BadLabels(f"{path}: {name}: expected {{kind: [objects]}}, not {entry!r}")
        for kind, spec in KINDS.items():
            objects = entry.get(kind, [])
            if not isinstance(objects, list):
                raise BadLabels(f"{path}: {name}: {kind} is a list of objects, not {objects!r}")
            for number, label in enumerate(objects, 1):
                wanted = _wanted(spec, label)
                if wanted:
                    raise BadLabels(f"{path}: {name}: {kind} object {number} needs {wanted}, not {label!r}")
        excused = entry.get("unreadable", [])
        if not isinstance(excused, list) or not all(isinstance(e, dict) and _is_box(e.get("box")) for e in excused):
            raise BadLabels(f"{path}: {name}: unreadable is a list of objects with a box [x0, y0, x1, y1], "
                            f"not {excused!r}")
    return labels


def _wanted(spec: KindSpec, label: object) -> str:
    """What a labelled object lacks ("" for nothing): a value the reader could not
    give is never scored as one it could."""
    if not isinstance(label, dict) or not _is_box(label.get("box")):
        return "a box [x0, y0, x1, y1]: four finite numbers with x0 < x1 and y0 < y1"
    if "value" in label and label["value"] is None:
        return ""  # there, but its value not known: found, never scored (score_kind)
    return "" if spec.labelled(label) else spec.value_words


def _is_box(box: object) -> bool:
    """Four finite numbers round some area: a NaN or upside-down box holds no centre,
    so its object would be scored missed whatever was read."""
    return isinstance(box, list) and len(box) == 4 and \
        all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in box) and \
        box[0] < box[2] and box[1] < box[3]


def labelled_kinds(labels: dict[str, dict]) -> list[str]:
    """The kinds of which a labels.json holds at least one object: what is on the
    table in those photos. An empty list on every photo ("dice": [] in a set of
    domino photos) says that kind is not, and its reader is not run or scored: the
    figures are those of the game's own readers, as at its table."""
    return [k for k in KINDS if any(entry.get(k) for entry in labels.values())]


def _scored_kinds(labels: dict[str, dict], photo_dir: Path) -> list[str]:
    """The labelled kinds, of which there must be one: with none, nothing is scored and
    every photo counts as read perfectly, a 100% that measures nothing."""
    kinds = labelled_kinds(labels)
    if not kinds:
        raise BadLabels(f"{photo_dir / 'labels.json'}: nothing labelled in any photo "
                        f"(no {', '.join(KINDS)} object): cannot score")
    return kinds


def photo_path(photo_dir: Path, name: str) -> Path:
    """Where a labelled photo is: DIR/images/NAME as in dice-d6-photos, or DIR/NAME
    beside labels.json, the other way a labelled set is commonly laid out; a photo in
    neither is named at its images/ place in the error."""
    in_images = photo_dir / "images" / name
    beside = photo_dir / name
    return beside if not in_images.exists() and beside.is_file() else in_images


def evaluate(photo_dir: str | Path, reader: Callable[[np.ndarray], TableRead],
             names: list[str] | None = None, *, show_progress: bool = False) -> list[PhotoScore]:
    """Run `reader` on each labelled photo (all of them unless `names` is given).
    Raises BadLabels for a bad labels.json or one in which no photo holds an object
    (after the first photo is read, so a missing photo is named first), NotAnImage
    for a photo missing or unreadable."""
    photo_dir = Path(photo_dir)
    labels = load_labels(photo_dir)
    names = sorted(labels) if names is None else names
    if names:
        # Once untimed: the first read pays for lazy imports and OpenCV's start-up
        # (a quarter of a second or more), which a running appliance pays once.
        reader(load_bgr(photo_path(photo_dir, names[0])))
    kinds = _scored_kinds(labels, photo_dir)
    results = []
    for name in progress(names, len(names), "photos read") if show_progress else names:
        frame = load_bgr(photo_path(photo_dir, name))
        start = time.perf_counter()
        read = reader(frame)
        ms = (time.perf_counter() - start) * 1000
        photo = PhotoScore(name, {}, ms)
        for kind in kinds:
            photo.kinds[kind], mistakes = score_kind(KINDS[kind], labels[name].get(kind, []), read,
                                                     labels[name].get("unreadable", []))
            photo.mistakes += mistakes
        results.append(photo)
    return results


def summary(results: list[PhotoScore]) -> dict[str, Any]:
    """Totals per kind plus photo-level figures, as plain data for printing or JSON."""
    totals: dict[str, KindScore] = {}
    for photo in results:
        for kind, score in photo.kinds.items():
            totals.setdefault(kind, KindScore()).add(score)
    perfect = sum(1 for p in results if p.errors == 0 and
                  not any(k.unreadable for k in p.kinds.values()))
    ms = [p.ms for p in results]
    return {"photos": len(results), "perfect_photos": perfect,
            "perfect_pct": round(100 * perfect / max(len(results), 1), 2),
            "ms_per_photo": round(float(np.mean(ms)) if ms else 0.0, 2),
            "ms_p95": round(float(np.percentile(ms, 95)) if ms else 0.0, 2),
            "kinds": {k: s.as_dict() for k, s in totals.items()}}


def draw(frame_bgr: np.ndarray, read: TableRead, labels: dict) -> np.ndarray:
    """The frame with labelled boxes (blue), reads (green right / red wrong) and
    unreadable reports (yellow), for a person to look at."""
    out = frame_bgr.copy()
    for kind in (k for k in KINDS if k in labels):
        spec = KINDS[kind]
        for lab in labels.get(kind, []):
            x0, y0, x1, y1 = (int(round(v)) for v in lab["box"])
            cv2.rectangle(out, (x0, y0), (x1, y1), (255, 120, 0), 1)
            cv2.putText(out, str(spec.truth(lab)), (x0, y1 + 12), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 120, 0), 1)
        for p in getattr(read, spec.read_field):
            right = any(inside(p.center, lab["box"]) and spec.truth(lab) == spec.predicted(p)
                        for lab in labels.get(kind, []))
            colour = (0, 200, 0) if right else (0, 0, 255)
            cx, cy = (int(round(v)) for v in p.center)
            cv2.circle(out, (cx, cy), 3, colour, -1)
            cv2.putText(out, str(spec.predicted(p)), (cx + 4, cy - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 2)
    for u in read.unreadable:
        cx, cy = (int(round(v)) for v in u.center)
        cv2.drawMarker(out, (cx, cy), (0, 220, 255), cv2.MARKER_TILTED_CROSS, 12, 2)
    return out
