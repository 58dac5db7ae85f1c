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
from vision.types import TableRead

Reader = Callable[[np.ndarray, Calibration | None], TableRead]

READERS: dict[str, str] = {
    "dice": "vision.dice:read_dice",
}


def load_reader(spec: str) -> Reader:
    module, _, name = spec.partition(":")
    return getattr(import_module(module), name)


def merge(reads: list[TableRead]) -> TableRead:
    """Field-by-field concatenation of partial reads."""
    fields = {f.name: tuple(item for read in reads for item in getattr(read, f.name))
              for f in dataclasses.fields(TableRead)}
    return TableRead(**fields)


def resolve_overlaps(read: TableRead) -> TableRead:
    """Hook for objects claimed by more than one reader. With only the dice reader
    registered nothing can collide, so the read is returned unchanged; when other
    kinds land, the rule (e.g. a die centred on a card wins over the card's pip)
    belongs here and nowhere else."""
    return read


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
