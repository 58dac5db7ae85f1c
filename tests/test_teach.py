"""Teaching the learned d6 reader the owner's dice (vision/teach.py, `tabletop21 teach`):
a taught file is small, names its models and is refused with others; bad teaching
input is one line naming the file and teaches nothing; on real photos of one table,
teaching from 20 of them reads more of the others right."""

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from table.reads import TableRead
from tabletop21.cli import main
from tests.conftest import SHARED
from vision.dice_net import read_dice_net
from vision.teach import Example, Taught, TaughtError, match, read_taught, teach, teach_dice

LAYOUTS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
           4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
           6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def drawn(values, shift=0) -> tuple[np.ndarray, tuple]:
    """Green felt with white dice drawn on it, and their labels as (value, box)."""
    frame = np.zeros((480, 640, 3), np.uint8)
    frame[:] = (40, 110, 30)
    dice = []
    for i, value in enumerate(values):
        cx, cy, half = 90 + 120 * i, 200 + 60 * ((i + shift) % 2), 30
        cv2.rectangle(frame, (cx - half, cy - half), (cx + half, cy + half), (235, 235, 235), -1)
        for dx, dy in LAYOUTS[value]:
            cv2.circle(frame, (cx + dx * 16, cy + dy * 16), 6, (20, 20, 20), -1)
        dice.append((value, (float(cx - half), float(cy - half), float(cx + half), float(cy + half))))
    return frame, tuple(dice)


def drawn_examples() -> list[Example]:
    rolls = [(1, 2, 3, 4, 5), (6, 5, 4, 3, 2), (2, 4, 6, 1, 3), (5, 3, 1, 6, 4)]
    return [Example(f"roll{i}.png", *drawn(values, i)) for i, values in enumerate(rolls)]


@pytest.fixture(scope="module")
def taught() -> Taught:
    return teach_dice(drawn_examples())


def test_a_taught_reader_reads_its_own_kind_of_dice_and_survives_its_file(taught):
    frame, dice = drawn((3, 6, 1, 5, 2), 1)
    read = read_taught(frame, taught)
    assert isinstance(read, TableRead) and read.d10 == () and read.cards == ()
    got = match([d.center for d in read.dice], [box for _, box in dice])
    right = sum(j is not None and read.dice[i].value == dice[j][0] for i, j in enumerate(got))
    assert right >= 4, f"{right} of 5 drawn dice read right after teaching: {read}"
    again = Taught.from_json(taught.to_json())
    assert read_taught(frame, again) == read
    assert len(taught.to_json()) < 32_000 and taught.taught_on["photos"] == 4 and taught.taught_on["dice"] == 20


def test_a_taught_file_is_refused_with_other_models_or_damaged(taught):
    data = json.loads(taught.to_json())
    cases = {
        "not JSON": "{oops",
        "another kind of file": json.dumps({"dice": []}),
        "a later version": json.dumps({**data, "version": 99}),
        "another kind": json.dumps({**data, "kind": "chess"}),
        "a dice file said to teach cards": json.dumps({**data, "kind": "cards"}),
        "other models": json.dumps({**data, "model": "0123456789abcdef"}),
        "a number gone": json.dumps({k: v for k, v in data.items() if k != "bias"}),
        "weights cut short": json.dumps({**data, "weights": data["weights"][:-1]}),
        "a threshold out of range": json.dumps({**data, "head_threshold": 1.5}),
    }
    said = {}
    for case, text in cases.items():
        with pytest.raises(TaughtError) as refused:
            Taught.from_json(text)
        said[case] = str(refused.value)
        assert "\n" not in said[case] and "Traceback" not in said[case]
    assert "other reader models" in said["other models"] and "teach again" in said["other models"]
    assert "version 99" in said["a later version"]
    assert "only dice, d10, dominoes, cards can be taught" in said["another kind"]
    assert "other reader models" in said["a dice file said to teach cards"]


def test_teaching_needs_real_dice_labels():
    frame, _ = drawn((1, 2, 3))
    with pytest.raises(TaughtError, match="roll.png: a die is labelled 7, and a d6 shows 1 to 6"):
        teach_dice([Example("roll.png", frame, ((7, (10.0, 10.0, 50.0, 50.0)),))])
    with pytest.raises(TaughtError, match="too few labelled dice"):
        teach_dice([Example("roll.png", frame, ((1, (60.0, 170.0, 120.0, 230.0)),))])
    with pytest.raises(TaughtError, match="no labelled photos"):
        teach_dice([])


def _folder(tmp_path: Path, examples: list[Example]) -> Path:
    folder = tmp_path / "mine"
    (folder / "images").mkdir(parents=True)
    labels = {}
    for ex in examples:
        cv2.imwrite(str(folder / "images" / ex.name), ex.frame)
        labels[ex.name] = {"dice": [{"value": v, "box": list(box)} for v, box in ex.dice]}
    (folder / "labels.json").write_text(json.dumps(labels))
    return folder


def test_teach_writes_a_file_that_read_and_eval_use_and_forget_removes(tmp_path, capsys):
    folder = _folder(tmp_path, drawn_examples())
    out = tmp_path / "taught.json"
    assert main(["teach", "dice", str(folder), "-o", str(out)]) == 0
    assert "taught dice from 4 photos (20 dice)" in capsys.readouterr().out
    assert json.loads(out.read_text())["taught_on"]["folder"] == "mine"
    assert main(["read", "--taught", str(out), "--kinds", "dice", str(folder / "images" / "roll0.png")]) == 0
    assert "roll0.png: dice" in capsys.readouterr().out
    assert main(["eval", str(folder), "--taught", str(out)]) == 0
    assert "value right" in capsys.readouterr().out
    not_taught = tmp_path / "notes.json"
    not_taught.write_text("{}")
    assert main(["teach", "dice", "--forget", str(not_taught)]) == 2
    assert "is not a taught-reader file" in capsys.readouterr().err and not_taught.exists()
    assert main(["teach", "dice", "--forget", str(out)]) == 0
    assert not out.exists() and "the shipped dice reader reads" in capsys.readouterr().out
    assert main(["read", "--taught", str(out), str(folder / "images" / "roll0.png")]) == 2
    assert "no such taught-reader file" in capsys.readouterr().err


@pytest.mark.parametrize("spoil, words", [
    (lambda folder: (folder / "images" / "roll2.png").write_bytes(b"not a picture"),
     "roll2.png: not an image OpenCV can decode; nothing was taught"),
    (lambda folder: (folder / "labels.json").write_text(
        (folder / "labels.json").read_text().replace('"value": 6', '"value": 7', 1)),
     "dice object"),
    (lambda folder: (folder / "images" / "roll1.png").unlink(), "roll1.png: no such file"),
])
def test_bad_teaching_input_is_one_line_naming_the_file_and_teaches_nothing(tmp_path, capsys, spoil, words):
    folder = _folder(tmp_path, drawn_examples())
    spoil(folder)
    out = tmp_path / "taught.json"
    assert main(["teach", "dice", str(folder), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1 and not out.exists()
    assert not list(tmp_path.glob("*.part"))


def test_a_kind_no_reader_knows_is_refused_in_plain_words(capsys):
    with pytest.raises(SystemExit):
        main(["teach", "chess", "somewhere", "-o", "x.json"])
    assert "invalid choice: 'chess'" in capsys.readouterr().err
    with pytest.raises(TaughtError, match="only dice, d10, dominoes, cards can be taught today, not chess"):
        teach("chess", [])


def test_without_teaching_the_learned_reader_is_unchanged(taught):
    frame, _ = drawn((4, 4, 2, 6, 1))
    before = read_dice_net(frame)
    read_taught(frame, taught)
    assert read_dice_net(frame) == before


AWS = SHARED / "data" / "dice-aws"


@pytest.mark.skipif(not (AWS / "labels.json").is_file(), reason=f"real phone photos not found at {AWS} "
                    "(../shared is absent)")
def test_teaching_from_20_phone_photos_reads_the_others_with_fewer_wrong_values():
    """dice-aws, 20 photos taught (one per photo group), 40 others of other groups
    scored, with the shipped networks, which were trained on 85% of dice-aws: teaching
    reads fewer dice wrong and more photos whole, and about as many right. Measured: 284
    of 327 right, 6 wrong, 20 photos whole taught, against 288, 8, 17 shipped (the 8-bit
    networks with 7-bit weights and the closer look at small dice; before them the shipped
    reader read 228 right here and teaching 260). What teaching gains on a table the
    networks never saw is in docs/teach.md."""
    from tools.dice_net.data import load_photos
    from tools.dice_net.evaluate import Tally
    from tools.dice_net.teach_bench import pick

    os.environ.setdefault("OMP_NUM_THREADS", "1")
    teach, rest = pick(load_photos(AWS.parent, ["dice-aws"]), 20, 0)
    taught = teach_dice([Example(p.path.name, p.load(), tuple((d["value"], tuple(d["box"])) for d in p.dice))
                         for p in teach])
    plain, tt = Tally(), Tally()
    for p in rest[:40]:
        frame = p.load()
        plain.add(read_dice_net(frame), p.dice)
        tt.add(read_taught(frame, taught), p.dice)
    rows = (plain.row("shipped"), tt.row("taught"))
    assert tt.wrong < plain.wrong and tt.perfect > plain.perfect, rows
    assert tt.right >= plain.right - 0.03 * tt.dice, rows
    assert tt.phantom <= plain.phantom + 0.02 * tt.dice, rows


def _taught_settings(tmp_path: Path, taught_file: Path) -> Path:
    from tests.test_run_command import settings

    path = settings(tmp_path)
    path.write_text(path.read_text().replace("[camera]", f'taught = "{taught_file}"\n[camera]'))
    return path


def test_run_reads_with_the_settings_taught_file_and_replay_checks_with_the_same(tmp_path, taught, capsys):
    taught_file = tmp_path / "taught-dice.json"
    taught_file.write_text(taught.to_json())
    config = str(_taught_settings(tmp_path, taught_file))
    assert main(["doctor", "--config", config]) in (0, 1)
    assert f"[ok] taught reader: {taught_file} reads the dice: taught on 4 photos (20 dice)" in capsys.readouterr().out
    assert main(["run", "--config", config, "--frames", "40"]) == 0
    capsys.readouterr()
    (session,) = (tmp_path / "sessions").iterdir()
    manifest = json.loads((session / "manifest.json").read_text())
    from tabletop21.taught import file_hash

    assert json.dumps(manifest).count(file_hash(taught_file)) == 1
    assert main(["replay", str(session), "--check", "--headless"]) == 0
    taught_file.write_text(taught_file.read_text().replace('"photos":4', '"photos":5'))
    assert main(["replay", str(session), "--check", "--headless"]) == 2
    err = capsys.readouterr().err
    assert "was read with the taught dice reader" in err and "which is changed" in err


def test_a_taught_file_that_cannot_be_used_stops_run_and_doctor_says_so(tmp_path, capsys):
    broken = tmp_path / "taught-dice.json"
    broken.write_text('{"format": "tabletop21 taught reader", "version": 1, "kind": "dice", "model": "old"}')
    config = str(_taught_settings(tmp_path, broken))
    assert main(["run", "--config", config, "--frames", "5"]) == 2
    err = capsys.readouterr().err.strip()
    assert "was taught for other reader models" in err and "[table] taught" in err and len(err.splitlines()) == 1
    assert main(["doctor", "--config", config]) == 1
    assert "[PROBLEM] taught reader:" in capsys.readouterr().out


def test_a_big_phone_photo_is_taught_from_shrunk_with_its_boxes(tmp_path, capsys):
    """Four rolls drawn at 640x480 and enlarged to 4000x3000, as a phone takes them."""
    examples = [Example(ex.name, cv2.resize(ex.frame, (4000, 3000)),
                        tuple((v, tuple(c * 6.25 for c in box)) for v, box in ex.dice)) for ex in drawn_examples()]
    folder = _folder(tmp_path, examples)
    from tabletop21.taught import examples_from_folder

    loaded = examples_from_folder("dice", folder)
    assert all(max(ex.frame.shape[:2]) == 1600 for ex in loaded)
    assert loaded[0].dice[0][1] == pytest.approx(tuple(c * 2.5 for c in drawn_examples()[0].dice[0][1]))
    assert main(["teach", "dice", str(folder), "-o", str(tmp_path / "t.json")]) == 0


def test_a_taught_reader_at_a_calibrated_table_reads_only_the_play_area(taught):
    from vision.calibration import Calibration, FrameMismatch
    from vision.read import OTHER_READERS, taught_reader

    frame, dice = drawn((3, 6, 1, 5, 2), 1)  # dice at x = 90, 210, 330, 450, 570
    left = Calibration((640, 480), ((0.0, 0.0), (345.0, 0.0), (345.0, 480.0), (0.0, 480.0)))
    for reader in (taught_reader(taught), OTHER_READERS["dice-net"]):
        whole, kept = reader(frame), reader(frame, left)
        assert any(d.center[0] > 400 for d in whole.dice), whole
        assert kept.dice and all(d.center[0] < 300 for d in kept.dice), kept
        assert all(u.center[0] < 345 for u in kept.unreadable), kept
        assert any("across the edge of the play area" in u.reason for u in kept.unreadable), kept
        with pytest.raises(FrameMismatch):
            reader(frame[:400], left)


@pytest.mark.skipif(not (SHARED / "data" / "dice-d6-photos").is_dir(),
                    reason="../shared/data/dice-d6-photos is not beside the repository")
def test_at_the_table_a_taught_file_reads_with_the_hand_built_reader_too(taught):
    from tabletop21.evaluate import evaluate, summary
    from vision.read import taught_reader

    photos = SHARED / "data" / "dice-d6-photos"
    names = sorted(json.loads((photos / "labels.json").read_text()))[::25]
    alone = summary(evaluate(photos, lambda f, c=None: read_taught(f, taught), names))["kinds"]["dice"]
    table = summary(evaluate(photos, taught_reader(taught), names))["kinds"]["dice"]
    assert table["value_right_pct"] >= 95 and table["value_right"] > alone["value_right"], (alone, table)
