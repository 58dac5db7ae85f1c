"""A full disk under the recordings is said in words with nothing half-written left;
old recordings are pruned at start to [table] keep_sessions_mb."""

from __future__ import annotations

import errno
import os

import numpy as np
import pytest

from hardware.frames import Frame
from tabletop21 import recording
from tabletop21.cli import main
from tabletop21.recording import Manifest, RecordingError, SessionReader, SessionWriter, prune_sessions
from tests.test_run_command import settings


def no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_under_the_recording_leaves_no_half_line_and_no_tmp_file(tmp_path, monkeypatch):
    writer = SessionWriter(tmp_path / "s", Manifest("dicey21", ("ann",)))
    writer.log("note", "before the disk filled")
    before = (tmp_path / "s" / "events.jsonl").read_bytes()
    real_write = os.write

    def half_then_full(fd, data):  # a line half written, then the disk is full
        real_write(fd, data[:10])
        no_space()

    monkeypatch.setattr(recording.os, "write", half_then_full)
    with pytest.raises(RecordingError, match=r"the disk under .* is full \(No space left on device\): the recording "
                                             r"stops here, whole up to its last event"):
        writer.log("note", "lost")
    monkeypatch.undo()
    assert (tmp_path / "s" / "events.jsonl").read_bytes() == before
    monkeypatch.setattr(recording.os, "fsync", no_space)
    with pytest.raises(RecordingError, match="is full"):
        writer.save_frame(Frame(np.zeros((48, 64, 3), np.uint8), 1, 0.0))
    monkeypatch.undo()
    assert list((tmp_path / "s" / "frames").iterdir()) == []  # no .jpg.tmp left behind
    writer.close()
    reader = SessionReader(tmp_path / "s")
    assert [e.data for e in reader.events] == ["before the disk filled"] and not reader.torn_tail


def test_a_run_whose_recording_fills_the_disk_ends_in_one_line(tmp_path, monkeypatch, capsys):
    config = settings(tmp_path)
    monkeypatch.setattr(recording.os, "fsync", no_space)
    assert main(["run", "--config", str(config), "--frames", "5"]) == 2
    err = capsys.readouterr().err
    *warnings, last = err.strip().splitlines()  # the full disk refused the bankroll file's copy too: warned
    assert "the recording stops here" in last and all("warning: no copy of" in w for w in warnings)


def make_session(root, when: str, size: int):
    folder = root / when
    (folder / "frames").mkdir(parents=True)
    (folder / "manifest.json").write_text("{}")
    (folder / "frames" / "000001.jpg").write_bytes(b"\0" * size)
    return folder


def test_the_oldest_sessions_are_pruned_to_the_budget_and_nothing_else(tmp_path):
    mib = 2**20
    sessions = [make_session(tmp_path, f"2026010{day}-120000", mib - 100) for day in range(1, 6)]
    (tmp_path / "20260101-000000").mkdir()  # no recording in it: not a session, kept
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "manifest.json").write_text("{}")  # not named as a session: kept
    assert prune_sessions(tmp_path, 0, ()) == (0, 0)  # 0 keeps every one
    removed, freed = prune_sessions(tmp_path, 3, keep=(sessions[-1],))
    assert (removed, freed) == (2, 2 * (mib - 98))
    assert [s.exists() for s in sessions] == [False, False, True, True, True]
    assert (tmp_path / "20260101-000000").is_dir() and (tmp_path / "notes").is_dir()
    prune_sessions(tmp_path, 1, keep=(sessions[-1],))
    assert [s.exists() for s in sessions] == [False, False, False, False, True]  # this run's own stays


def test_run_prunes_old_sessions_at_start_and_says_so(tmp_path, capsys):
    config = settings(tmp_path)
    config.write_text(config.read_text().replace("[camera]", "keep_sessions_mb = 1\n[camera]"))
    assert main(["run", "--config", str(config), "--frames", "1"]) == 0
    old = make_session(tmp_path / "sessions", "20250101-120000", 3 * 2**20)
    capsys.readouterr()
    assert main(["run", "--config", str(config), "--frames", "1"]) == 0
    assert not old.exists() and len(list((tmp_path / "sessions").iterdir())) == 2
    assert "removed the 1 oldest session recording (3 MiB)" in capsys.readouterr().out


def test_keep_sessions_mb_below_zero_is_refused(tmp_path, capsys):
    config = settings(tmp_path)
    config.write_text(config.read_text().replace("[camera]", "keep_sessions_mb = -1\n[camera]"))
    assert main(["run", "--config", str(config), "--frames", "1"]) == 2
    assert "keep_sessions_mb = -1" in capsys.readouterr().err
