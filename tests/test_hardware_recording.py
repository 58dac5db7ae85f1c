from datetime import datetime

import numpy as np
import pytest

from hardware.frames import Frame
from table.driver import Press, SettledRead
from table.errors import TableError
from table.reads import Die, TableRead
from table.serial import CorruptRecord
from tabletop21.recording import (
    EndOfRecording,
    Manifest,
    RecordedSource,
    SessionReader,
    SessionWriter,
    new_session_folder,
)


def record(folder):
    manifest = Manifest(game="dicey21", seats=("ann", "bob"), versions={"tabletop21": "test"})
    with SessionWriter(folder, manifest) as writer:
        writer.log("input", Press("shake"), t=0.5)
        image = np.zeros((60, 80, 3), np.uint8)
        image[20:40, 30:50] = 255
        writer.save_frame(Frame(image, 1, 0.6), t=0.6)
        writer.log("input", SettledRead(TableRead(dice=(Die(4, (40.0, 30.0), (30.0, 20.0, 50.0, 40.0), 0.99),))), t=0.7)
    return folder


def test_a_session_reads_back_exactly(tmp_path):
    reader = SessionReader(record(tmp_path / "s"))
    assert reader.manifest.seats == ("ann", "bob")
    assert [e.kind for e in reader.events] == ["input", "frame", "input"]
    assert reader.of_kind("input")[1].data.read.dice[0].value == 4
    source = RecordedSource(reader)
    frame = source.read()
    assert frame.image.shape == (60, 80, 3) and frame.image[30, 40].mean() > 200
    with pytest.raises(EndOfRecording):
        source.read()


def test_a_reopened_camera_numbering_its_frames_from_1_again_overwrites_no_stored_frame(tmp_path):
    """ReconnectingSource opens a new camera after a loss, and its frames are numbered
    from 1 again: the frames read before the loss must stay what their events say."""
    before, after = np.zeros((60, 80, 3), np.uint8), np.full((60, 80, 3), 255, np.uint8)
    with SessionWriter(tmp_path / "s", Manifest(game="dicey21", seats=("x",))) as writer:
        writer.save_frame(Frame(before, 1, 0.5))
        writer.save_frame(Frame(after, 1, 9.5))
    source = RecordedSource(SessionReader(tmp_path / "s"))
    assert [source.read().image.mean() for _ in range(2)] == [0, 255]


def test_a_torn_last_line_is_dropped_and_noticed(tmp_path):
    folder = record(tmp_path / "s")
    with open(folder / "events.jsonl", "a") as handle:
        handle.write('{"@type": "event", "t": 9, "ki')
    reader = SessionReader(folder)
    assert reader.torn_tail and len(reader.events) == 3


def test_damage_in_the_middle_is_refused_with_the_line(tmp_path):
    folder = record(tmp_path / "s")
    lines = (folder / "events.jsonl").read_text().splitlines()
    lines[1] = lines[1][:20]
    (folder / "events.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(CorruptRecord, match="events.jsonl:2"):
        SessionReader(folder)


def test_not_a_session_and_hostile_frame_paths_are_refused(tmp_path):
    with pytest.raises(CorruptRecord, match="no manifest"):
        SessionReader(tmp_path)
    reader = SessionReader(record(tmp_path / "s"))
    with pytest.raises(CorruptRecord, match="outside"):
        reader.image("../../etc/passwd")
    (tmp_path / "s" / "frames" / "000001.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(CorruptRecord, match="unreadable"):
        RecordedSource(SessionReader(tmp_path / "s")).read()


def test_a_stored_frame_that_is_a_symlink_loop_is_unreadable_not_a_traceback(tmp_path):
    """Path.resolve raised RuntimeError on the loop (OSError from Python 3.13), which
    `replay` let through as a traceback."""
    frame = record(tmp_path / "s") / "frames" / "000001.jpg"
    frame.unlink()
    frame.symlink_to(frame)
    with pytest.raises(CorruptRecord, match=r"frame unreadable: \S+/s/frames/000001.jpg: a symbolic link that loops"):
        RecordedSource(SessionReader(tmp_path / "s")).read()


def test_the_writer_writes_only_what_the_reader_takes(tmp_path):
    with SessionWriter(tmp_path / "s", Manifest(game="dicey21", seats=("x",))) as writer:
        with pytest.raises(ValueError, match="no event is of kind 'button'"):
            writer.log("button", "shake")
    assert SessionReader(tmp_path / "s").events == ()


def test_a_session_folder_is_never_overwritten(tmp_path):
    folder = record(tmp_path / "s")
    with pytest.raises(FileExistsError):
        SessionWriter(folder, Manifest(game="dicey21", seats=("x",)))


def test_sessions_started_in_the_same_second_get_folders_of_their_own(tmp_path):
    now = datetime(2026, 11, 22, 20, 15, 3)
    first, second, third = (new_session_folder(tmp_path / "sessions", now) for _ in range(3))
    assert [f.name for f in (first, second, third)] == ["20261122-201503", "20261122-201503-2", "20261122-201503-3"]
    for folder in (first, second, third):
        with SessionWriter(folder, Manifest(game="dicey21", seats=("x",))) as writer:
            writer.log("note", "started")
    assert [len(SessionReader(f).events) for f in (first, second, third)] == [1, 1, 1]


def test_a_sessions_folder_that_is_a_file_is_said_in_words(tmp_path):
    (tmp_path / "sessions").write_text("not a folder")
    with pytest.raises(TableError, match=r"sessions: cannot keep session recordings here \(File exists\)"):
        new_session_folder(tmp_path / "sessions", datetime(2026, 11, 22, 20, 15, 3))


def rewrite_line(folder, number, change):
    lines = (folder / "events.jsonl").read_bytes().split(b"\n")
    lines[number - 1] = change(lines[number - 1])
    (folder / "events.jsonl").write_bytes(b"\n".join(lines))


@pytest.mark.parametrize("change, words", [
    (lambda line: line[:10] + b"\xff" + line[11:], "events.jsonl:1: 'utf-8' codec"),
    (lambda line: line.replace(b'"path":"frames/000001.jpg"', b'"path":5'), "events.jsonl:2: a frame event needs"),
    (lambda line: line.replace(b'"data":{"path"', b'"data":null,"x":{"path"'), "events.jsonl:2: .*event has no field 'x'"),
    (lambda line: line.replace(b'"index":1', b'"index":"x"'), "events.jsonl:2: a frame event needs"),
    # one flipped bit in "input": replayed, the press would silently not happen
    (lambda line: line.replace(b'"kind":"frame"', b'"kind":"fRame"'), "events.jsonl:2: no event is of kind 'fRame'"),
    (lambda line: line.replace(b'"path":"frames/000001.jpg"', b'"path":"frames/\\u0000.jpg"'),
     "events.jsonl:2: a frame event needs"),  # was a bare ValueError from the file system at replay
])
def test_damaged_events_are_refused_with_file_and_line(tmp_path, change, words):
    folder = record(tmp_path / "s")
    rewrite_line(folder, 1 if "utf-8" in words else 2, change)
    with pytest.raises(CorruptRecord, match=words):
        SessionReader(folder)


@pytest.mark.parametrize("manifest, words", [
    (b'{"@type":"manifest","game":"dicey21","seats":["a"],"format":"2"}', "format must be int"),
    (b'{"@type":"manifest","game":"dicey21","seats":["a"],"format":null}', "format must be int"),
    (b'{"game":"dicey21"}', "not Manifest"),
    (b'{"@type":"manifest","game":"dicey\xff"}', "utf-8"),
])
def test_a_damaged_manifest_is_refused_naming_it(tmp_path, manifest, words):
    folder = record(tmp_path / "s")
    (folder / "manifest.json").write_bytes(manifest)
    with pytest.raises(CorruptRecord, match=f"manifest.json: .*{words}"):
        SessionReader(folder)


def test_a_character_cut_in_half_at_the_end_is_a_torn_line(tmp_path):
    folder = record(tmp_path / "s")
    with open(folder / "events.jsonl", "ab") as handle:
        handle.write('{"@type":"event","t":9,"kind":"note","data":"Zoë'.encode()[:-1])
    reader = SessionReader(folder)
    assert reader.torn_tail and len(reader.events) == 3
