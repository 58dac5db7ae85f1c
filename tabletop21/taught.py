"""Taught readers on disk: made from a folder of labelled photos (`tabletop21 teach`),
written whole or not at all, and read back checked against the shipped models."""

from __future__ import annotations

import dataclasses
import hashlib
import os
from pathlib import Path

import cv2

from table.errors import TableError
from tabletop21.evaluate import BadLabels, load_labels, photo_path
from tabletop21.progress import progress
from vision.image_io import NotAnImage, load_bgr
from vision.teach import KINDS, Example, Taught, TaughtError, teach

MOST_PHOTOS = 200
PIECE = {"dice": "die", "d10": "d10", "dominoes": "domino tile", "cards": "card"}
LONGEST_SIDE = 1600  # px: teaching photos larger than this are shrunk as they load


def file_hash(path: str | Path) -> str:
    """The taught file's short hash: what a recording names as the reader it was read with."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def load_taught(path: str | Path) -> Taught:
    """The taught reader in `path`, or a TableError that names the file and says what to do."""
    path = Path(path)
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise TableError(f"{path}: no such taught-reader file (make one with `tabletop21 teach dice DIR -o "
                         f"{path}`)") from None
    except (OSError, UnicodeDecodeError) as err:
        raise TableError(f"{path}: cannot be read as a taught-reader file ({getattr(err, 'strerror', None) or err})") \
            from None
    try:
        return Taught.from_json(text)
    except TaughtError as err:
        raise TableError(f"{path}: {err}") from None


def save_taught(taught: Taught, path: str | Path) -> None:
    """Written to a file beside it, then put in place: a stop half-way leaves the old one."""
    path = Path(path)
    part = path.with_name(path.name + ".part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part.write_text(taught.to_json())
        os.replace(part, path)
    except OSError as err:
        part.unlink(missing_ok=True)
        raise TableError(f"{path}: the taught reader could not be written ({err.strerror or err})") from None


def examples_from_folder(kind: str, directory: str | Path) -> list[Example]:
    """Every labelled photo of DIR (labels.json in the `eval` format) as a teaching
    example, all checked before anything is taught: one bad photo or label is one line
    naming it, and nothing is taught."""
    if kind not in KINDS:
        raise TableError(f"only {', '.join(KINDS)} can be taught today; {kind} is read by the shipped reader alone")
    directory = Path(directory)
    if not directory.is_dir():
        raise TableError(f"{directory}: no such folder (give a folder holding labels.json and the photos)")
    try:
        labels = load_labels(directory)
    except BadLabels as err:
        raise TableError(str(err)) from None
    if len(labels) > MOST_PHOTOS:
        raise TableError(f"{directory}: {len(labels)} labelled photos; teach from {MOST_PHOTOS} at most (15-20 "
                         "are enough), so the Pi's memory holds them")
    examples = []
    for name in progress(sorted(labels), len(labels), "photos loaded"):
        try:
            frame = load_bgr(photo_path(directory, name))
        except NotAnImage as err:
            raise TableError(f"{err}; nothing was taught") from None
        # a phone photo is shrunk as it is loaded: the reader fits every frame to its
        # detector's input anyway, and 20 photos of 12 megapixels would fill a Pi's memory
        shrink = min(1.0, LONGEST_SIDE / max(frame.shape[:2]))
        if shrink < 1.0:
            frame = cv2.resize(frame, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        dice = tuple((_value(d, kind), (float(d["box"][0]) * shrink, float(d["box"][1]) * shrink,
                                        float(d["box"][2]) * shrink, float(d["box"][3]) * shrink))
                     for d in labels[name].get(kind, []))  # labels.json lists each kind under its name
        examples.append(Example(name, frame, dice))
    if not any(ex.dice for ex in examples):
        raise TableError(f"{directory / 'labels.json'}: no {PIECE[kind]} is labelled in any "
                         "photo; nothing was taught")
    return examples


def pieces_taught(taught: Taught) -> str:
    """How many pieces a taught file was taught on, in words ("142 tiles", "110 dice")."""
    on = taught.taught_on
    if taught.kind == "dominoes":
        return f"{on.get('tiles')} tiles"
    if taught.kind == "cards":
        return f"{on.get('cards')} cards"
    return f"{on.get('dice')} {'dice' if taught.kind == 'dice' else 'd10s'}"


def _value(piece: dict, kind: str):
    """A labelled piece's value as vision.teach takes it: a die's value, a tile's halves
    as a tuple, a card's rank and suit (None where not given)."""
    if kind == "cards":
        rank, suit = piece.get("rank"), piece.get("suit")
        return None if rank is None and suit is None else (rank, suit)
    if kind != "dominoes":
        return piece.get("value")
    halves = piece.get("halves")
    return tuple(halves) if isinstance(halves, list) else halves


def teach_folder(kind: str, directory: str | Path) -> Taught:
    examples = examples_from_folder(kind, directory)
    steps: list = []

    def told(done: int, total: int) -> None:
        if not steps:
            steps.append(progress(iter(range(total)), total, "teaching"))
        next(steps[0], None)

    try:
        taught = teach(kind, examples, progress=told)
    except TaughtError as err:
        raise TableError(f"{directory}: {err}; nothing was taught") from None
    return dataclasses.replace(taught, taught_on={**taught.taught_on, "folder": Path(directory).name})
