"""Session recordings: a folder with manifest.json, events.jsonl and frames/*.jpg.

Every event is appended, flushed and fsynced as it happens, so a power cut loses at
most the line being written; a reader accepts a torn last line (and says so) but
refuses any other damage with the line number, so a replay is never silently wrong.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import time
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from hardware.frames import Frame
from table import serial
from table.errors import TableError
from table.serial import CorruptRecord
from tabletop21.folders import folder_to_keep
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


def earlier_sessions(root: str | Path) -> str:
    """Words for the session recordings under `root` ('' when there are none): what
    shows that a table was played here, for a bankroll file gone missing."""
    try:
        count = sum(1 for folder in Path(root).iterdir() if (folder / "manifest.json").is_file())
    except OSError:
        return ""
    return f"{count} session recording{'s' if count != 1 else ''} in {root}" if count else ""


class RecordingError(TableError):
    """The recording cannot be written (a full disk): said in words, nothing half-written left."""


def _unwritten(folder: Path, err: OSError) -> RecordingError:
    if err.errno == errno.ENOSPC:
        return RecordingError(
            f"the disk under {folder} is full ({err.strerror}): the recording stops here, whole up to its last "
            "event, and the round in play stays as it was last saved in the bankroll file, to go on at the next "
            "start. Free some space (set [table] keep_sessions_mb lower to prune old recordings at start) and "
            "start again")
    return RecordingError(f"{folder}: the recording cannot be written ({err.strerror or err}); the round in "
                          "play stays as it was last saved in the bankroll file")


SESSION_NAME = re.compile(r"\d{8}-\d{6}(-\d+)?")  # what new_session_folder names a session


def prune_sessions(root: str | Path, keep_mb: int, keep: tuple[Path, ...] = ()) -> tuple[int, int]:
    """The oldest recorded sessions under `root` removed until all of them take at most
    `keep_mb` MiB ([table] keep_sessions_mb; 0 keeps every one). Only folders named as
    new_session_folder names them and holding a recording are touched, never `keep`.
    Returns how many were removed and how many bytes they held."""
    if keep_mb <= 0:
        return 0, 0
    try:
        folders = sorted(folder for folder in Path(root).iterdir()
                         if folder.is_dir() and not folder.is_symlink() and SESSION_NAME.fullmatch(folder.name)
                         and ((folder / "manifest.json").is_file() or (folder / "events.jsonl").is_file())
                         and folder not in keep)
    except OSError:
        return 0, 0
    sizes = {folder: _size(folder) for folder in folders}
    total = sum(sizes.values()) + sum(_size(Path(folder)) for folder in keep if Path(folder).is_dir())
    removed = freed = 0
    for folder in folders:
        if total <= keep_mb * 2**20:
            break
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists():
            removed, freed, total = removed + 1, freed + sizes[folder], total - sizes[folder]
    return removed, freed


def _size(folder: Path) -> int:
    total = 0
    for base, _, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(base, name)).st_size
            except OSError:
                pass
    return total


class SessionWriter:
    def __init__(self, folder: str | Path, manifest: Manifest, *, jpeg_quality: int = 90) -> None:
        self.folder = Path(folder)
        (self.folder / "frames").mkdir(parents=True, exist_ok=True)
        if (self.folder / "events.jsonl").exists():
            raise FileExistsError(f"{self.folder} already holds a session: choose a new folder")
        try:
            _write_atomically(self.folder / "manifest.json", json.dumps(serial.to_data(manifest), indent=1))
            self._events: int | None = os.open(self.folder / "events.jsonl",
                                               os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as err:
            raise _unwritten(self.folder, err) from None
        self._quality = jpeg_quality
        self._start = time.monotonic()

    def log(self, kind: str, data: Any = None, t: float | None = None) -> Event:
        if kind not in KINDS:
            raise ValueError(f"no event is of kind {kind!r}: a session holds {', '.join(KINDS)}")
        event = Event(round(time.monotonic() - self._start if t is None else t, 4), kind, data)
        line = (json.dumps(serial.to_data(event), separators=(",", ":")) + "\n").encode("utf-8")
        if self._events is None:
            raise ValueError(f"{self.folder}: the recording is closed")
        end = os.lseek(self._events, 0, os.SEEK_END)
        try:
            written = 0
            while written < len(line):
                written += os.write(self._events, line[written:])
            os.fsync(self._events)
        except OSError as err:  # a full disk: the part of the line that got there goes again
            with suppress(OSError):
                os.ftruncate(self._events, end)
            raise _unwritten(self.folder, err) from None
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
        try:
            _write_atomically(self.folder / name, jpeg.tobytes())
        except OSError as err:
            raise _unwritten(self.folder, err) from None
        self.log("frame", {"path": name, "index": frame.index}, t)
        kept = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
        return frame.image if kept is None else kept  # what was kept, as the reader will read it again

    def close(self) -> None:
        if self._events is not None:
            os.close(self._events)
            self._events = None

    def __enter__(self) -> SessionWriter:
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
    try:
        with open(tmp, "wb") as handle:
            handle.write(content.encode("utf-8") if isinstance(content, str) else content)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:  # a full disk: no .tmp is left behind
        with suppress(OSError):
            tmp.unlink()
        raise
