"""Teaching the learned d10 reader (vision.teach with kind "d10"): a taught file names its
kind and is read back only for it, the taught reader reads d10s (values 0-9, never d6
dice), and a label no d10 shows is refused naming the photo, with nothing taught."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from table.reads import D10
from tabletop21.cli import main
from vision.teach import Example, Taught, TaughtError, _turns, read_taught, teach

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "d10-photos"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data/d10-photos is not beside the repository")


def _examples(names):
    labels = json.loads((SHARED / "labels.json").read_text())
    out = []
    for name in names:
        (d,) = labels[name]["d10"]
        out.append(Example(name, cv2.imread(str(SHARED / "images" / name)), ((d["value"], tuple(d["box"])),)))
    return out


def test_numerals_are_not_taught_in_mirror_image():
    crops = np.arange(2 * 3 * 4 * 4, dtype=np.float32).reshape(2, 3, 4, 4)
    views = _turns(crops, mirror=False).reshape(2, 8, 3, 4, 4)
    assert all(np.array_equal(views[0, k], views[0, k + 4]) for k in range(4))
    mirrored = _turns(crops, mirror=True).reshape(2, 8, 3, 4, 4)
    assert np.array_equal(mirrored[0, 4], crops[0, :, :, ::-1])


def test_a_d10_labelled_ten_is_refused_naming_the_photo():
    frame = np.full((200, 200, 3), 120, np.uint8)
    bad = [Example(f"p{i}.jpg", frame, ((3, (50.0, 50.0, 100.0, 100.0)),)) for i in range(6)]
    bad.append(Example("ten.jpg", frame, ((10, (50.0, 50.0, 100.0, 100.0)),)))
    with pytest.raises(TaughtError, match=r"ten\.jpg: a d10 is labelled 10, and a d10 shows 0 to 9"):
        teach("d10", bad)


@needs_shared
def test_a_taught_d10_reader_reads_d10s_and_its_file_keeps_its_kind(tmp_path):
    names = sorted(json.loads((SHARED / "labels.json").read_text()))
    taught = teach("d10", _examples(names[::28]))
    assert taught.kind == "d10" and taught.weights.shape[1] == 11
    again = Taught.from_json(taught.to_json())
    assert again.kind == "d10" and np.array_equal(again.weights, taught.weights)
    read = read_taught(cv2.imread(str(SHARED / "images" / names[5])), again)
    assert read.dice == () and all(isinstance(d, D10) and 0 <= d.value <= 9 for d in read.d10)
    assert all(u.kind == "d10" for u in read.unreadable)


@needs_shared
def test_teach_d10_from_a_folder_writes_a_file_the_reader_takes(tmp_path, capsys):
    labels = json.loads((SHARED / "labels.json").read_text())
    names = sorted(labels)[::30]
    folder = tmp_path / "mine"
    (folder / "images").mkdir(parents=True)
    for name in names:
        (folder / "images" / name).write_bytes((SHARED / "images" / name).read_bytes())
    (folder / "labels.json").write_text(json.dumps({n: labels[n] for n in names}))
    out = tmp_path / "taught-d10.json"
    assert main(["teach", "d10", str(folder), "-o", str(out)]) == 0
    assert "taught d10 from" in capsys.readouterr().out
    assert json.loads(out.read_text())["kind"] == "d10"
    assert main(["read", "--kinds", "d10", "--taught", str(out), str(folder / "images" / names[0])]) == 0


@needs_shared
def test_the_appliance_reads_d10s_with_a_taught_d10_file_and_dice_as_shipped(monkeypatch):
    """`[table] taught` naming a d10 file: the table's d10 reader is the taught one, and
    its dice reader (were the game to read dice too) stays the shipped one."""
    from tabletop21 import appliance
    from vision import read as vision_read

    names = sorted(json.loads((SHARED / "labels.json").read_text()))
    taught = teach("d10", _examples(names[::28]))
    used = []
    monkeypatch.setitem(vision_read.READERS, "dice", lambda frame, calibration=None: used.append("dice") or
                        vision_read.TableRead())
    reader = appliance.table_reader(("dice", "d10"), None, taught)
    frame = cv2.imread(str(SHARED / "images" / names[5]))
    read = reader(frame)
    assert used == ["dice"]
    assert read == read_taught(frame, taught)


def test_photos_showing_few_values_are_refused_before_anything_is_taught():
    frame = np.full((200, 200, 3), 120, np.uint8)
    few = [Example(f"p{i}.jpg", frame, ((i % 3, (50.0, 50.0, 100.0, 100.0)),)) for i in range(8)]
    with pytest.raises(TaughtError, match=r"show only 3 of the d10's values \(0, 1, 2\); roll again until at least 6"):
        teach("d10", few)
