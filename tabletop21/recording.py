"""Session recordings: a folder with manifest.json, events.jsonl and frames/*.jpg.

Every event is appended, flushed and fsynced as it happens, so a power cut loses at
most the line being written; a reader accepts a torn last line (and says so) but
refuses any other damage with the line number, so a replay is never silently wrong.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator

import cv2
import numpy as np

from tabletop21.folders import folder_to_keep
from hardware.frames import Frame
from table import serial
from table.serial import CorruptRecord
from vision.image_io import NotAnImage, load_bgr

FORMAT = 1
# Everything a session holds; a reader refuses any other kind, so one damaged byte in
# "input" cannot make a replay silently skip what the driver was fed.
KINDS = ("input", "frame", "round", "action", "settlement", "note")


@dataclass(frozen=True)
class Manifest:
    game: str
    seats: tuple[str, ...]
    settings: Any = None
    versions: dict[str, str] = field(default_factory=dict)
    created: str = ""
    format: int = FORMAT


@dataclass(frozen=True)
class Event:
    t: float
    kind: str  # one of KINDS: "input" (fed to the driver), "frame", "round", "action", "settlement", "note"
    data: Any


serial.register("manifest", Manifest)
serial.register("event", Event)


def new_session_folder(root: str | Path, now: datetime) -> Path:
    """A folder of its own for a session started at `now`, named by the second.

    Two starts in one second (a service restarted at once by systemd) must not share
    or refuse a folder: the second one is suffixed -2, -3, ... The folder is made here,
    by an exclusive mkdir, so two processes cannot both take the same name."""
    root = folder_to_keep(root, "session recordings", "point [table] sessions at a folder")
    stem = now.strftime("%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        folder = root / (stem if n == 1 else f"{stem}-{n}")
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder
    raise FileExistsError(f"{root} already holds 999 sessions started at {stem}")


class SessionWriter:
    def __init__(self, folder: str | Path, manifest: Manifest, *, jpeg_quality: int = 90) -> None:
        self.folder = Path(folder)
        (self.folder / "frames").mkdir(parents=True, exist_ok=True)
        if (self.folder / "events.jsonl").exists():
            raise FileExistsError(f"{self.folder} already holds a session: choose a new folder")
        _write_atomically(self.folder / "manifest.json", json.dumps(serial.to_data(manifest), indent=1))
        self._events = open(self.folder / "events.jsonl", "a", encoding="utf-8")
        self._quality = jpeg_quality
        self._start = time.monotonic()

    def log(self, kind: str, data: Any = None, t: float | None = None) -> Event:
        if kind not in KINDS:
            raise ValueError(f"no event is of kind {kind!r}: a session holds {', '.join(KINDS)}")
        event = Event(round(time.monotonic() - self._start if t is None else t, 4), kind, data)
        self._events.write(json.dumps(serial.to_data(event), separators=(",", ":")) + "\n")
        self._events.flush()
        os.fsync(self._events.fileno())
        return event

    def save_frame(self, frame: Frame, t: float | None = None) -> np.ndarray:
        """Store the frame as JPEG and return the image as stored, so that what is read
        live is exactly what a replay will read again."""
        ok, jpeg = cv2.imencode(".jpg", frame.image, [cv2.IMWRITE_JPEG_QUALITY, self._quality])
        if not ok:
            raise ValueError("frame could not be encoded as JPEG")
        name, copy = f"frames/{frame.index:06d}.jpg", 1
        while (self.folder / name).exists():  # a reopened camera numbers its frames from 1 again
            copy += 1
            name = f"frames/{frame.index:06d}-{copy}.jpg"
        _write_atomically(self.folder / name, jpeg.tobytes())
        self.log("frame", {"path": name, "index": frame.index}, t)
        return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)

    def close(self) -> None:
        self._events.close()

    def __enter__(self) -> "SessionWriter":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class SessionReader:
    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        manifest_path = self.folder / "manifest.json"
        if not manifest_path.is_file():
            raise CorruptRecord(f"{self.folder}: no manifest.json, not a recorded session")
        try:
            manifest = serial.loads(manifest_path.read_bytes().decode("utf-8"), Manifest)
        except (CorruptRecord, UnicodeDecodeError) as err:
            raise CorruptRecord(f"{manifest_path}: not a session manifest: {err}") from None
        if manifest.format > FORMAT:
            raise CorruptRecord(f"{self.folder}: recorded by a newer tabletop21 (format {manifest.format})")
        self.manifest = manifest
        self.torn_tail = False
        self.events = tuple(self._read_events())

    def _read_events(self) -> Iterator[Event]:
        path = self.folder / "events.jsonl"
        if not path.is_file():
            raise CorruptRecord(f"{self.folder}: no events.jsonl")
        lines = path.read_bytes().split(b"\n")  # line by line: a cut can split a character too
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                yield _checked(serial.loads(line.decode("utf-8"), Event))
            except (CorruptRecord, UnicodeDecodeError) as err:
                if number == len(lines):  # no newline after it: the write was cut short
                    self.torn_tail = True
                    return
                raise CorruptRecord(f"{path}:{number}: {err}") from None

    def of_kind(self, kind: str) -> tuple[Event, ...]:
        return tuple(event for event in self.events if event.kind == kind)

    def image(self, relative: str):
        try:
            target = (self.folder / relative).resolve()
        except (RuntimeError, OSError):  # how Path.resolve says "link loop", to Python 3.12 and after
            raise CorruptRecord(f"recorded frame unreadable: {self.folder / relative}: "
                                "a symbolic link that loops") from None
        if self.folder.resolve() not in target.parents:
            raise CorruptRecord(f"frame path {relative!r} points outside the session")
        try:
            return load_bgr(target)
        except NotAnImage as err:
            raise CorruptRecord(f"recorded frame unreadable: {err}") from err


def _checked(event: Event) -> Event:
    """An event of a kind no session holds, and a frame event without the path and number
    a replay follows, are refused here, where the line number is known."""
    if event.kind not in KINDS:
        raise CorruptRecord(f"no event is of kind {event.kind!r}: a session holds {', '.join(KINDS)}")
    if event.kind == "frame" and not (isinstance(event.data, dict) and isinstance(event.data.get("path"), str)
                                      and "\0" not in event.data["path"] and type(event.data.get("index")) is int):
        raise CorruptRecord(f"a frame event needs a path and a frame number, not {event.data!r}")
    return event


class EndOfRecording(Exception):
    """The replayed session has no more frames. No lost camera: reopening it, as
    ReconnectingSource reopens a lost one, started the recording again, with frames
    from earlier times, for ever. `run` ends here."""


class RecordedSource:
    """Frames of a session, in order, as if a camera delivered them."""

    def __init__(self, reader: SessionReader) -> None:
        self._reader = reader
        self._frames = iter(reader.of_kind("frame"))

    def read(self) -> Frame:
        event = next(self._frames, None)
        if event is None:
            raise EndOfRecording(f"the recording in {self._reader.folder} has no more frames")
        return Frame(self._reader.image(event.data["path"]), event.data["index"], event.t)

    def close(self) -> None:
        self._frames = iter(())


def _write_atomically(path: Path, content: str | bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as handle:
        handle.write(content.encode("utf-8") if isinstance(content, str) else content)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
