"""One call that reads everything on the table, whatever readers exist.

Readers are named in READERS as "module:function" strings and imported on first use,
so a reader whose module is missing or broken disables only its own kind (with a note
in the result) and adding a reader is one line. Each reader fills only its own
fields of a TableRead; merging concatenates field by field, then `resolve_overlaps`
gets the chance to settle objects claimed by two readers (a die read on a card, say)."""

from __future__ import annotations

import dataclasses
from importlib import import_module
from typing import Callable

import numpy as np

from vision.calibration import Calibration
from vision.types import TableRead, Unreadable

Reader = Callable[[np.ndarray, Calibration | None], TableRead]
SURE_MARGIN = 0.2  # confidence one reading must lead by before a d6/d10 clash is decided

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


def _inside(point: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def resolve_overlaps(read: TableRead) -> TableRead:
    """Objects claimed by two readers. A domino half or a card's pips can look like a
    die face (and a pip pair like a d10's number), so a die or a d10, read or not,
    centred on a tile or a card is part of that tile or card, also when the tile or
    card itself could not be read. A court card's picture can look like a tile: a tile
    refusal centred on a read card is part of the card. A die and a
    d10 on the same spot are one object: of two reads the more confident stands, and
    if neither is sure it is reported unreadable; a read stands over the other
    reader's refusal (the refusal says only that it is not that reader's kind)."""
    flat = [*(t.box for t in read.dominoes), *(c.box for c in read.cards), *(f.box for f in read.face_down),
            *(u.box for u in read.unreadable if u.kind in ("domino", "card") and u.box is not None)]
    dice = [d for d in read.dice if not any(_inside(d.center, box) for box in flat)]
    d10 = [t for t in read.d10 if not any(_inside(t.center, box) for box in flat)]
    claimed = {"die": [*flat, *(t.box for t in d10)], "d10": [*flat, *(d.box for d in dice)],
               "domino": [c.box for c in read.cards]}
    unreadable = [u for u in read.unreadable if not any(_inside(u.center, box) for box in claimed.get(u.kind, ()))]
    for die in list(dice):
        rival = next((t for t in d10 if _inside(die.center, t.box) or _inside(t.center, die.box)), None)
        if rival is None:
            continue
        if abs(die.confidence - rival.confidence) < SURE_MARGIN:
            dice.remove(die)
            d10.remove(rival)
            unreadable.append(Unreadable("die", die.center, "read both as a d6 and as a d10", die.box))
        elif die.confidence > rival.confidence:
            d10.remove(rival)
        else:
            dice.remove(die)
    return dataclasses.replace(read, dice=tuple(dice), d10=tuple(d10), unreadable=tuple(unreadable))


def read_table(frame_bgr: np.ndarray, calibration: Calibration | None = None,
               readers: dict[str, str] | None = None) -> TableRead:
    """Everything the registered readers see in one frame."""
    parts: list[TableRead] = []
    for kind, spec in (readers or READERS).items():
        try:
            reader = load_reader(spec)
        except (ImportError, AttributeError) as err:
            parts.append(TableRead(notes=(f"{kind} reader unavailable: {err}",)))
            continue
        parts.append(reader(frame_bgr, calibration))
    return resolve_overlaps(merge(parts))
