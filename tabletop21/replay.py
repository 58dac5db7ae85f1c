"""Replaying a recorded session through today's vision, driver, rules and display.

The recorded "input" events are fed to the same Appliance.feed the live table used;
what it logs now ("action", "settlement") is compared with what was logged then.
With check=True every recorded read is redone on its recorded frame, so a change in
the dice reader that would have paid a round differently is caught and shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from table.driver import Dealt, Driver, Motion, Press, SettledRead, Typed, house_account
from table.errors import TableError
from table.games import game
from table.ledger import Ledger
from table.reads import TableRead
from table.serial import CorruptRecord, to_data
from table.view import TableView
from tabletop21.appliance import Appliance, Table, reader_kinds, table_reader
from tabletop21.recording import SessionReader
from vision.calibration import Calibration
from vision.image_io import NotAnImage

COMPARED = ("action", "settlement")
# What the appliance logs after an input, as it applies that input: the events a
# stop between the input's line and the settlement's can leave unwritten.
FROM_AN_INPUT = ("round", "action")


@dataclass(frozen=True)
class Difference:
    event_no: int  # the input event (numbered from 1 in events.jsonl) that led to it
    what: str  # "read", "action", "settlement" or "length"
    recorded: Any
    today: Any
    game_id: str = ""
    round_no: int = 0
    read_no: int = 0  # the how-many-th read of its round

    def __str__(self) -> str:
        """"round 3, read 2: recorded 2 5, read now 2 6", in the pieces' and bets' words."""
        where = f"round {self.round_no}" if self.round_no else f"event {self.event_no}"
        if self.what == "read":
            return (f"{where}, read {self.read_no}: recorded {_words(self.recorded)}, "
                    f"read now {_words(self.today)} (event {self.event_no})")
        if self.what == "length":
            return f"the recording holds {self.recorded}, the replay came to {self.today}"
        return (f"{where}: the {self.what} recorded was {self._said(self.recorded)}, "
                f"today it is {self._said(self.today)} (event {self.event_no})")

    def _said(self, data: Any) -> str:
        if data is None:
            return "nothing"
        if isinstance(data, dict):
            return ", ".join(f"{seat} {chips:+d}" for seat, chips in data.items()) or "no chips moved"
        try:
            return game(self.game_id).engine.label(data)
        except TableError:
            return str(to_data(data))


def _words(read: TableRead) -> str:
    """A read as a person says it: dice by value left to right, then tiles and cards."""
    parts = [" ".join(str(die.value) for die in sorted(read.dice, key=lambda die: die.center))]
    parts += [f"d10 {die.value}" for die in sorted(read.d10, key=lambda die: die.center)]
    parts += ["-".join(map(str, tile.halves)) for tile in read.dominoes]
    parts += [card.rank + (card.suit or "") for card in read.cards]
    if read.unreadable:
        parts.append(f"{len(read.unreadable)} unreadable")
    return " ".join(part for part in parts if part) or "nothing"


@dataclass(frozen=True)
class CutShort:
    """The recording ends mid-round: a stop (a power cut) came after the line of its
    last input and before what that input led to, which today's code goes on to do.
    Nothing recorded differs, so this is no Difference. (A last input that led to
    nothing when it was recorded looks the same; only the last input gets this.)"""

    event_no: int  # the last input, whose outcome the recording lacks

    def __str__(self) -> str:
        return f"the recording ends mid-round (cut short) after event {self.event_no}"


def _where(appliance: Appliance, read_no: int) -> tuple[str, int, int]:
    driver = appliance.table.driver
    return driver.game, driver.round_no, read_no


class _Collector:
    """Stands where the session writer stood, keeping what the replay would record."""

    def __init__(self) -> None:
        self.logged: list[tuple[str, Any]] = []

    def log(self, kind: str, data: Any = None, t: float | None = None) -> None:
        if kind in COMPARED:
            self.logged.append((kind, data))


def same_read(recorded: TableRead, today: TableRead, tolerance: float = 4.0) -> bool:
    """The same objects with the same values, each within `tolerance` pixels of where it
    was; confidences may drift with library versions and do not count."""
    def key(item) -> Any:
        for name in ("value", "halves", "rank", "kind"):
            if hasattr(item, name):
                value = getattr(item, name)
                return tuple(sorted(value)) if name == "halves" else (value, getattr(item, "suit", None))
        return None

    for name in ("dice", "d10", "dominoes", "cards", "face_down", "unreadable"):
        left, right = list(getattr(recorded, name)), list(getattr(today, name))
        if len(left) != len(right):
            return False
        for item in left:
            match = next((other for other in right if key(other) == key(item)
                          and abs(other.center[0] - item.center[0]) <= tolerance
                          and abs(other.center[1] - item.center[1]) <= tolerance), None)
            if match is None:
                return False
            right.remove(match)
    return True


def session_readers(reader: SessionReader) -> Callable[[np.ndarray], TableRead]:
    """The readers the session was recorded with, run by today's code on the same
    calibration (a session recorded before calibrations were kept read without one)."""
    from vision.read import READERS

    settings = _settings(reader)
    driver = table_for(reader).driver
    kinds = settings.get("readers") or reader_kinds(driver.game, driver.typed_kinds + driver.dealt_kinds)
    if not isinstance(kinds, (list, tuple)) or not all(isinstance(kind, str) and kind in READERS for kind in kinds):
        raise CorruptRecord(f"{reader.folder}: the manifest's readers {kinds!r} are not readers: {', '.join(READERS)}")
    calibration = settings.get("calibration")
    if not (calibration is None or isinstance(calibration, Calibration)):
        raise CorruptRecord(f"{reader.folder}: the manifest's calibration is not a calibration")
    learned = settings.get("learned") or []  # a session recorded before the setting read with none
    if not isinstance(learned, list) or not all(isinstance(kind, str) and kind in kinds for kind in learned):
        raise CorruptRecord(f"{reader.folder}: the manifest's learned readers {learned!r} are not among its "
                            f"readers {', '.join(kinds)}")
    return table_reader(tuple(kinds), calibration, _session_taught(reader, settings.get("taught")), tuple(learned))


def _session_taught(reader: SessionReader, named: object):
    """The taught dice reader the session was read with: the same file, by its hash."""
    if named is None:
        return None
    from tabletop21.taught import file_hash, load_taught

    if not (isinstance(named, dict) and isinstance(named.get("file"), str) and isinstance(named.get("hash"), str)):
        raise CorruptRecord(f"{reader.folder}: the manifest's taught reader is not a file and its hash")
    path = Path(named["file"])
    if not path.is_file() or file_hash(path) != named["hash"]:
        raise TableError(f"{reader.folder} was read with the taught dice reader {path} (hash {named['hash']}), "
                         f"which is {'changed' if path.is_file() else 'not there'}: put that file back to "
                         "re-read the session as it was")
    return load_taught(path)


def table_for(reader: SessionReader) -> Table:
    manifest = reader.manifest
    settings = _settings(reader)
    try:
        driver = settings.get("driver") or Driver(
            manifest.game, tuple(manifest.seats), bet=int(settings["bet"]),
            seat_bets=tuple(dict(settings.get("seat_bets", {})).items()),
            typed_kinds=tuple(settings.get("typed_kinds", ())),
            rules=tuple(dict(settings.get("rules", {})).items()))
        ledger = Ledger.open(dict(settings["bankrolls"]), credit=house_account(manifest.game))
    except (KeyError, TypeError, ValueError) as err:
        raise CorruptRecord(f"{reader.folder}: manifest lacks the table set-up: {err}") from err
    if not isinstance(driver, Driver):
        raise CorruptRecord(f"{reader.folder}: the manifest's driver is not a round driver")
    unfunded = [seat for seat in driver.seats if seat not in ledger.as_dict()]
    if unfunded:
        raise CorruptRecord(f"{reader.folder}: manifest lacks the table set-up: no bankroll for seat {unfunded[0]!r}")
    return Table(driver, ledger)


def _settings(reader: SessionReader) -> dict:
    settings = reader.manifest.settings or {}
    if not isinstance(settings, dict):
        raise CorruptRecord(f"{reader.folder}: the manifest's settings are not a table of settings")
    return settings


def replay_session(
    session: str | Path | SessionReader,
    *,
    check: bool = False,
    read: Callable[[np.ndarray], TableRead] | None = None,  # default: the session's own readers
    show: Callable[[TableView, np.ndarray | None, float], None] | None = None,
    advisor: bool = False,
) -> Difference | CutShort | None:
    """Feed the session to today's code; return the first difference, CutShort when
    the recording stops short of what its last input led to, or None."""
    reader = session if isinstance(session, SessionReader) else SessionReader(session)
    if not reader.events:  # an empty events.jsonl passed --check with nothing checked
        raise CorruptRecord(f"{reader.folder}: events.jsonl holds no event"
                            + (" but a line cut short" if reader.torn_tail else "") + ": nothing to replay or check")
    read = read or session_readers(reader)
    collector = _Collector()
    appliance = Appliance(table_for(reader), source=None, settle=None, read=read, recorder=collector,
                          advisor=advisor and show is not None)
    recorded = [(e.kind, e.data) for e in reader.events if e.kind in COMPARED]
    frame_image = None
    compared = 0
    reads_this_round, round_no = 0, 0
    for number, event in enumerate(reader.events, 1):
        if appliance.table.driver.round_no != round_no:
            reads_this_round, round_no = 0, appliance.table.driver.round_no
        if event.kind == "frame":
            frame_image = reader.image(event.data["path"])
            appliance.table.read_frame = (event.data["index"], (frame_image.shape[1], frame_image.shape[0]))
            appliance.table.shown_frame = appliance.table.read_frame
            continue
        if event.kind != "input":
            continue
        fed = event.data
        if not isinstance(fed, (Press, Motion, SettledRead, Typed, Dealt)):  # the driver would ignore it
            raise CorruptRecord(f"{reader.folder}: event {number} is not an input the driver takes: {fed!r}")
        if isinstance(fed, SettledRead):
            if check:
                if frame_image is None:
                    raise CorruptRecord(f"event {number}: a read with no frame recorded before it")
                try:
                    today = read(frame_image)
                except NotAnImage as err:  # too small, or not the size of the recorded calibration
                    raise CorruptRecord(f"{reader.folder}: event {number}: today's readers refuse the recorded "
                                        f"frame: {err}") from None
                if not same_read(fed.read, today):
                    return Difference(number, "read", fed.read, today, *_where(appliance, reads_this_round + 1))
                fed = SettledRead(today)
            reads_this_round += 1
        appliance.feed(fed)
        for index in range(compared, len(collector.logged)):
            kind, today = collector.logged[index]
            if index >= len(recorded) and all(later.kind in FROM_AN_INPUT for later in reader.events[number:]):
                return CutShort(number)
            if index >= len(recorded) or recorded[index] != (kind, today):
                return Difference(number, kind, recorded[index][1] if index < len(recorded) else None, today,
                                  *_where(appliance, reads_this_round))
        compared = len(collector.logged)
        if show:
            appliance.clock = event.t
            show(appliance.view(), frame_image, event.t)
    if len(collector.logged) != len(recorded):
        return Difference(len(reader.events), "length", f"{len(recorded)} actions and settlements",
                          f"{len(collector.logged)} actions and settlements")
    return None
