"""One call that reads everything on the table, whatever readers exist.

Readers are named in READERS as "module:function" strings and imported on first use,
so a reader whose module is missing or broken disables only its own kind (with a note
in the result) and adding a reader is one line. Each reader fills only its own
fields of a TableRead; merging concatenates field by field, then `resolve_overlaps`
gets the chance to settle objects claimed by two readers (a die read on a card, say)."""

from __future__ import annotations

import dataclasses
from importlib import import_module
from typing import Callable, Iterable

import numpy as np

from vision.calibration import Calibration
from vision.image_io import checked_bgr
from vision.types import TableRead, Unreadable, inside

Reader = Callable[[np.ndarray, Calibration | None], TableRead]
SAME_OBJECT = 0.4  # share of the smaller box two reads' boxes must share to be one object

READERS: dict[str, str] = {
    "dice": "vision.dice:read_dice",
    "d10": "vision.d10:read_d10",
    "dominoes": "vision.dominoes:read_dominoes",
    "cards": "vision.cards:read_cards",
}


def load_reader(spec: str) -> Reader:
    module, _, name = spec.partition(":")
    return getattr(import_module(module), name)


def merge(reads: list[TableRead]) -> TableRead:
    """Field-by-field concatenation of partial reads."""
    fields = {f.name: tuple(item for read in reads for item in getattr(read, f.name))
              for f in dataclasses.fields(TableRead)}
    return TableRead(**fields)


def _same_object(centre_a, box_a, centre_b, box_b) -> bool:
    if inside(centre_a, box_b) or inside(centre_b, box_a):
        return True
    w = min(box_a[2], box_b[2]) - max(box_a[0], box_b[0])
    h = min(box_a[3], box_b[3]) - max(box_a[1], box_b[1])
    smaller = min((b[2] - b[0]) * (b[3] - b[1]) for b in (box_a, box_b))
    return w > 0 and h > 0 and w * h >= SAME_OBJECT * smaller


def resolve_overlaps(read: TableRead, kinds: Iterable[str] = READERS) -> TableRead:
    """Objects claimed by two readers. A domino half or a card's pips can look like a
    die face (and a pip pair like a d10's number), so a die or a d10, read or not,
    centred on a tile or a card is part of that tile or card, also when the tile or
    card itself could not be read. A court card's picture can look like a tile: a tile
    refusal centred on a read card is part of the card. A d6 read and a d10 read of
    one object (centre in the other's box, or boxes sharing SAME_OBJECT of the
    smaller) are a d10: the d10 reader reads only with one sure look and none leaning
    elsewhere and has read none of the 1487 real d6 dice, while the d6 reader takes
    some d10 digits for pips (on the d10 fixtures it read three dice of one frame,
    two of them at 0.95 and over). A read stands over the other reader's refusal
    (the refusal says only that it is not that reader's kind). A tile read without its
    divider line (`Domino.dice_alike`) could be two dice side by side: where the dice
    reader is among `kinds`, the readers that ran, it is refused with that doubt; at a
    table of tiles only it stands."""
    if "dice" in kinds:
        doubted = [t for t in read.dominoes if t.dice_alike]
        read = dataclasses.replace(
            read, dominoes=tuple(t for t in read.dominoes if not t.dice_alike),
            unreadable=(*read.unreadable, *(Unreadable("domino", t.center, t.dice_alike, t.box)
                                            for t in doubted)))
    flat = [*(t.box for t in read.dominoes), *(c.box for c in read.cards), *(f.box for f in read.face_down),
            *(u.box for u in read.unreadable if u.kind in ("domino", "card") and u.box is not None)]
    dice = [d for d in read.dice if not any(inside(d.center, box) for box in flat)]
    d10 = [t for t in read.d10 if not any(inside(t.center, box) for box in flat)]
    dice = [d for d in dice if not any(_same_object(d.center, d.box, t.center, t.box) for t in d10)]
    claimed = {"die": [*flat, *(t.box for t in d10)], "d10": [*flat, *(d.box for d in dice)],
               "domino": [c.box for c in read.cards]}
    unreadable = [u for u in read.unreadable if not any(inside(u.center, box) for box in claimed.get(u.kind, ()))]
    return dataclasses.replace(read, dice=tuple(dice), d10=tuple(d10), unreadable=tuple(unreadable))


def read_table(frame_bgr: np.ndarray, calibration: Calibration | None = None,
               readers: dict[str, str] | None = None) -> TableRead:
    """Everything the chosen readers (all registered ones unless `readers` is given)
    see in one frame. No readers chosen reads nothing: a table whose pieces are all
    typed in, or labels holding no kind, must not have every reader run on it. A
    calibration made for frames of another size is refused here, before any reader
    runs, so that no reader reads the wrong pixels of its play area."""
    frame_bgr = checked_bgr(frame_bgr)
    if calibration is not None:
        calibration.check_frame(frame_bgr.shape)
    readers = READERS if readers is None else readers
    parts: list[TableRead] = []
    for kind, spec in readers.items():
        try:
            reader = load_reader(spec)
        except (ImportError, AttributeError) as err:
            parts.append(TableRead(notes=(f"{kind} reader unavailable: {err}",)))
            continue
        parts.append(reader(frame_bgr, calibration))
    return resolve_overlaps(merge(parts), readers)
