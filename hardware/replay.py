"""Replaying a recorded session through today's vision, driver, rules and display.

The recorded "input" events are fed to the same Appliance.feed the live table used;
what it logs now ("action", "settlement") is compared with what was logged then.
With check=True every recorded read is redone on its recorded frame, so a change in
the dice reader that would have paid a round differently is caught and shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

from hardware.appliance import Appliance, Table
from hardware.recording import SessionReader
from table.driver import Driver, SettledRead, house_account
from table.ledger import Ledger
from table.serial import CorruptRecord, to_data
from table.view import TableView
from vision.types import TableRead

COMPARED = ("action", "settlement")


@dataclass(frozen=True)
class Difference:
    event_no: int  # the input event (numbered from 1 in events.jsonl) that led to it
    what: str  # "read", "action", "settlement" or "length"
    recorded: Any
    today: Any

    def __str__(self) -> str:
        return (f"after event {self.event_no}: the {self.what} differs\n"
                f"  recorded: {to_data(self.recorded)}\n  today:    {to_data(self.today)}")


class _Collector:
    """Stands where the session writer stood, keeping what the replay would record."""

    def __init__(self) -> None:
        self.logged: list[tuple[str, Any]] = []

    def log(self, kind: str, data: Any = None, t: float | None = None) -> None:
        if kind in COMPARED:
            self.logged.append((kind, data))

    def save_frame(self, frame, t=None) -> None:
        pass


def read_signature(read: TableRead) -> tuple:
    """What a read means for the game: kinds, values and where (to 4 px), not confidences."""
    def place(item) -> tuple[int, int]:
        return (round(item.center[0] / 4), round(item.center[1] / 4))

    return (
        tuple(sorted((d.value, place(d)) for d in read.dice)),
        tuple(sorted((d.value, place(d)) for d in read.d10)),
        tuple(sorted((tuple(sorted(t.halves)), place(t)) for t in read.dominoes)),
        tuple(sorted((c.rank, c.suit or "", place(c)) for c in read.cards)),
        tuple(sorted((u.kind, place(u)) for u in read.unreadable)),
    )


def table_for(reader: SessionReader) -> Table:
    manifest = reader.manifest
    settings = manifest.settings or {}
    try:
        driver = settings.get("driver") or Driver(manifest.game, tuple(manifest.seats), bet=int(settings["bet"]),
                                                  typed_kinds=tuple(settings.get("typed_kinds", ())))
        ledger = Ledger.open(dict(settings["bankrolls"]), credit=house_account(manifest.game))
    except (KeyError, TypeError, ValueError) as err:
        raise CorruptRecord(f"{reader.folder}: manifest lacks the table set-up: {err}") from err
    return Table(driver, ledger)


def replay_session(
    folder: str | Path,
    *,
    check: bool = False,
    read: Callable[[np.ndarray], TableRead] | None = None,
    show: Callable[[TableView, np.ndarray | None, float], None] | None = None,
) -> Difference | None:
    """Feed the session to today's code; return the first difference (or None)."""
    reader = SessionReader(folder)
    collector = _Collector()
    appliance = Appliance(table_for(reader), source=None, settle=None, read=read, recorder=collector)
    recorded = [(e.kind, e.data) for e in reader.events if e.kind in COMPARED]
    frame_image = None
    compared = 0
    for number, event in enumerate(reader.events, 1):
        if event.kind == "frame":
            frame_image = reader.image(event.data["path"])
            appliance.table.read_frame = (event.data["index"], (frame_image.shape[1], frame_image.shape[0]))
            continue
        if event.kind != "input":
            continue
        fed = event.data
        if isinstance(fed, SettledRead):
            if check:
                if frame_image is None:
                    raise CorruptRecord(f"event {number}: a read with no frame recorded before it")
                today = read(frame_image)
                if read_signature(today) != read_signature(fed.read):
                    return Difference(number, "read", fed.read, today)
                fed = SettledRead(today)
            appliance.table.read = fed.read
        appliance.feed(fed)
        for index in range(compared, len(collector.logged)):
            kind, today = collector.logged[index]
            if index >= len(recorded) or recorded[index] != (kind, today):
                return Difference(number, kind, recorded[index][1] if index < len(recorded) else None, today)
        compared = len(collector.logged)
        if show:
            show(appliance.view(), frame_image, event.t)
    if len(collector.logged) != len(recorded):
        return Difference(len(reader.events), "length", f"{len(recorded)} actions and settlements",
                          f"{len(collector.logged)} actions and settlements")
    return None
