"""`replay SESSION --correct`: each roll of dice a person confirms or corrects is kept
as a teaching example (the frame, each die's box and value) that `teach` reads."""

import json
from pathlib import Path

import pytest

from table.errors import TableError
from tabletop21.cli import main
from tabletop21.corrections import parse_values, settled_rolls
from tabletop21.evaluate import load_labels
from tabletop21.recording import SessionReader

SESSION = Path(__file__).resolve().parents[1] / "calibration_images" / "sessions" / "dice-blackjack"


def test_every_settled_roll_of_dice_is_offered_with_its_frame():
    rolls = list(settled_rolls(SessionReader(SESSION)))
    assert len(rolls) >= 4 and [r.number for r in rolls] == list(range(1, len(rolls) + 1))
    assert all((SESSION / r.frame).is_file() and len(r.boxes) == len(r.read) >= 1 for r in rolls)
    assert rolls[0].read == (4,)


@pytest.mark.parametrize("typed, words", [("7", "no die's value"), ("4 4", "type 1 value"), ("four", "no die's value")])
def test_what_is_no_die_value_is_said_in_words(typed, words):
    with pytest.raises(TableError, match=words):
        parse_values(typed, 1)


def test_a_confirmed_and_a_corrected_roll_are_kept_and_taught_from(tmp_path, monkeypatch, capsys):
    answers = iter(["", "9", "3", "s", "6 x"] + ["s"] * 50)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    folder = tmp_path / "teach-dice"
    assert main(["replay", str(SESSION), "--correct", "--into", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "no die's value" in out and f"3 rolls kept in {folder}" in out
    labels = load_labels(folder)
    assert len(labels) == 3 and all((folder / "images" / name).is_file() for name in labels)
    values = [[d["value"] for d in entry["dice"]] for entry in labels.values()]
    assert values == [[4], [3], [6]]  # as read; corrected from 1; one of two dice, the other not there
    again = iter(["s"] * 50)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(again))
    assert main(["replay", str(SESSION), "--correct", "--into", str(folder)]) == 0
    assert json.loads((folder / "labels.json").read_text()) == labels  # skipping keeps what was kept


def test_a_stop_keeps_the_rolls_answered(tmp_path, monkeypatch, capsys):
    answers = iter([""])

    def ask(prompt=""):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", ask)
    folder = tmp_path / "kept"
    assert main(["replay", str(SESSION), "--correct", "--into", str(folder)]) == 130
    assert f"the reads answered so far are kept in {folder}" in capsys.readouterr().out
    assert len(load_labels(folder)) == 1


def test_a_session_of_d10s_is_gone_through_and_kept_for_teach_d10(tmp_path, monkeypatch, capsys):
    import numpy as np

    from hardware.frames import Frame
    from table.driver import SettledRead
    from table.reads import D10, TableRead, Unreadable
    from tabletop21.recording import Manifest, SessionWriter

    folder = tmp_path / "night"
    read = TableRead(d10=(D10(7, (20.0, 20.0), (10.0, 10.0, 30.0, 30.0), 0.9),),
                     unreadable=(Unreadable("d10", (60.0, 20.0), "glare", (50.0, 10.0, 70.0, 30.0)),))
    with SessionWriter(folder, Manifest("blackjack-dice", ("Ann",))) as writer:
        writer.save_frame(Frame(np.full((48, 96, 3), 120, np.uint8), 1, 0.1))
        writer.log("input", SettledRead(read))
    (roll,) = settled_rolls(SessionReader(folder))
    assert roll.kind == "d10" and roll.read == (7, None)
    answers = iter(["", "7 0"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    into = tmp_path / "teach"
    assert main(["replay", str(folder), "--correct", "--into", str(into)]) == 0
    out = capsys.readouterr().out
    assert "a die was not read (?)" in out and f"1 roll kept in {into}: teach with `tabletop21 teach d10" in out
    (entry,) = load_labels(into).values()
    assert entry == {"d10": [{"value": 7, "box": [10.0, 10.0, 30.0, 30.0]}, {"value": 0, "box": [50.0, 10.0, 70.0, 30.0]}]}
