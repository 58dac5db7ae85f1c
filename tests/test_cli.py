"""The command line as a person uses it: through main(), reading what it prints."""

import io
import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from table.games import GAMES
from tabletop21.cli import main


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_the_five_ids(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == list(GAMES)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_auto_play_keeps_every_chip(capsys, game_id):
    code, out, _ = run(capsys, "play", game_id, "--auto", "--rounds", "30", "--seed", "5", "--players", "3", "--chips", "200")
    assert code == 0
    finals = {m[0]: int(m[1]) for m in re.findall(r"^\s+(\S+)\s+(-?\d+)$", out, re.M)}
    assert len([s for s in finals if s.startswith("seat")]) == 3
    assert sum(finals.values()) == 600
    assert "After" in out


@pytest.mark.parametrize("game_id, players", [("domino21", 1), ("dice-blackjack", 1), ("changing-bank", 15),
                                              ("dicey21", 6)])
def test_a_table_the_game_cannot_seat_is_told_before_any_round(capsys, game_id, players):
    """One seat at a player-banked game used to end at once with "not enough chips"."""
    code, out, err = run(capsys, "play", game_id, "--auto", "--rounds", "1", "--players", str(players))
    assert code == 2
    assert "the table seats" in err and "After" not in out


def test_auto_play_is_reproducible_from_its_seed(capsys):
    first = run(capsys, "play", "dicey21", "--auto", "--rounds", "20", "--seed", "9")[1]
    again = run(capsys, "play", "dicey21", "--auto", "--rounds", "20", "--seed", "9")[1]
    assert first == again


def test_manual_play_explains_bad_typing_and_asks_again(capsys, monkeypatch):
    typed = ["10", "", "7", "10h", "2", "5", "7 1 1", "2 2 2", "quit"]
    code, out, _ = run(capsys, "play", "dicey21", "--manual", "--players", "2",
                       stdin="\n".join(typed) + "\n", monkeypatch=monkeypatch)
    assert code == 0
    assert "! type a number from 1 to 2" in out
    assert "! a d6 shows 1 to 6, not 7" in out
    # 7 + 5 + 6 = 18: the ante of 10 pushes
    assert "Round 1:" in out and re.search(r"seat1\s+100\n", out) and re.search(r"house\s+0\n", out)


@pytest.mark.parametrize("argv", [("play", "poker", "--auto", "--rounds", "1"), ("odds", "poker")])
def test_unknown_game_is_a_clear_error(capsys, argv):
    code, _, err = run(capsys, *argv)
    one_error_line(code, err, "unknown game 'poker'", ", ".join(GAMES))


def test_odds_json_has_the_stable_keys(capsys):
    code, out, _ = run(capsys, "odds", "dice-blackjack", "--json")
    data = json.loads(out)
    assert code == 0 and data["game"] == "dice-blackjack"
    assert isinstance(data["figures"]["player_edge"], float) and data["figures"]["strategy"]


def one_error_line(code, err, *words):
    assert code == 2 and len(err.strip().splitlines()) == 1 and err.startswith("tabletop21: "), err
    for word in words:
        assert word in err, err


@pytest.mark.parametrize("labels, words", [
    ("", "labels.json: the file is empty"),
    ('{"a": [1,', "labels.json: not JSON"),
    ("[1, 2, 3]", "labels.json: expected {photo file name"),
    ('{"good.png": "six"}', "labels.json: good.png: expected {kind"),
    ('{"good.png": {"dice": [{"value": 3}]}}', "labels.json: good.png: dice object 1 needs a box"),
    ("{}", "labels.json: no labelled photos"),
    ('{"nothere.png": {"dice": []}}', "images/nothere.png: no such file"),
    ('{"text.png": {"dice": []}}', "images/text.png: not an image"),
    ('{"table.png": {"dice": []}}', "nothing labelled in any photo"),
])
def test_eval_of_a_bad_labels_file_or_photo_is_one_line(capsys, tmp_path, labels, words):
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "text.png").write_text("hello")
    cv2.imwrite(str(tmp_path / "images" / "table.png"), np.full((64, 64, 3), 90, np.uint8))
    (tmp_path / "labels.json").write_text(labels)
    code, out, err = run(capsys, "eval", str(tmp_path))
    one_error_line(code, err, str(tmp_path), words)
    assert out == ""


@pytest.fixture
def pictures(tmp_path):
    import cv2
    import numpy as np

    cv2.imwrite(str(tmp_path / "dot.png"), np.zeros((1, 1, 3), np.uint8))
    cv2.imwrite(str(tmp_path / "table.png"), np.full((64, 96, 3), 90, np.uint8))
    (tmp_path / "text.txt").write_text("hello")
    (tmp_path / "adir").mkdir()
    (tmp_path / "taken.json").mkdir()
    return tmp_path


@pytest.mark.parametrize("image, output, words", [
    ("dot.png", "cal.json", ["dot.png: too small for a frame of the table"]),
    ("adir", "cal.json", ["adir: a directory, not an image file"]),
    ("table.png", "nowhere/cal.json", ["nowhere/cal.json: cannot write the calibration (No such file"]),
    ("table.png", "taken.json", ["taken.json: cannot write the calibration (Is a directory)"]),
    ("table.png", "table.toml", ["table.toml: a calibration is saved as JSON; name the file .json"]),
])
def test_calibrate_errors_are_one_line(capsys, pictures, image, output, words):
    code, _, err = run(capsys, "calibrate", str(pictures / image), "-o", str(pictures / output))
    one_error_line(code, err, *words)


@pytest.mark.parametrize("image, words", [
    ("adir", "adir: error: a directory, not an image file"),
    ("text.txt", "text.txt: error: not an image OpenCV can decode"),
])
def test_read_names_a_bad_file_once(capsys, pictures, image, words):
    code, out, _ = run(capsys, "read", str(pictures / image))
    assert code == 1 and out.strip() == f"{pictures}/{words}"


@pytest.mark.parametrize("calibration, words", [
    ("text.txt", "text.txt: not JSON"),
    ("table.png", "table.png: not a calibration file"),
    ("adir", "adir: cannot read the calibration (Is a directory)"),
])
def test_read_names_a_bad_calibration_file(capsys, pictures, calibration, words):
    code, _, err = run(capsys, "read", "--calibration", str(pictures / calibration), str(pictures / "table.png"))
    one_error_line(code, err, words)


def test_read_summary_names_every_kind_read(capsys):
    """A photo of cards is not 'no dice': the line lists what the readers found."""
    photo = str(Path(__file__).resolve().parents[1] / "calibration_images" / "cards" / "images" / "cards_00.jpg")
    code, out, _ = run(capsys, "read", photo, "--kinds", "dice,cards")
    code_json, out_json, _ = run(capsys, "read", photo, "--kinds", "dice,cards", "--json")
    cards = [c["rank"] + (c["suit"] or "") for c in json.loads(out_json)[0]["cards"]]
    assert code == code_json == 0 and cards
    assert out.strip() == f"{photo}: cards {' '.join(cards)}"


def test_manual_play_asks_again_for_a_rank_the_shoe_has_run_out_of(capsys, monkeypatch):
    """A shoe carried on from earlier rounds with every ace dealt: a typed ace is a
    mistyped card, asked again, not the end of the session."""
    from table.games import engine
    from table.rules.dicey21_shoe import Shoe
    from tabletop21.cli.cmd_play import typed_outcome

    eng = engine("dicey21")
    state = eng.new_round(eng.Settings(), ("ann",), {"ann": 100, "house": 0}, {"ann": eng.Bets(5)},
                          shoe=Shoe((0,) + (24,) * 12))
    answers = iter(["A", "K"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert typed_outcome(eng, state) == eng.Deal(eng.Card("K"))
    assert "! every A of the shoe has been dealt" in capsys.readouterr().out


@pytest.mark.parametrize("size", ["abc", "0x0", "800x480x2"])
@pytest.mark.parametrize("command", ["replay", "demo"])
def test_a_bad_screen_size_is_the_only_line(capsys, monkeypatch, size, command):
    """Nothing before it either: not the demo's "No screen here" on a machine without one."""
    monkeypatch.setattr("tabletop21.cli.cmd_replay.has_screen", lambda: False)
    session = Path(__file__).resolve().parents[1] / "calibration_images" / "sessions" / "dicey21"
    argv = ["replay", str(session)] if command == "replay" else ["demo"]
    code, out, err = run(capsys, *argv, "--size", size)
    one_error_line(code, err, f"--size {size!r}")
    assert out == ""


def test_play_and_odds_take_house_rules_by_name(capsys):
    code, out, _ = run(capsys, "odds", "blackjack-dice", "--rule", "banker_one=eleven", "--json")
    assert code == 0 and json.loads(out)["figures"]["banker_one"] == "eleven"
    code, _, err = run(capsys, "play", "blackjack-dice", "--auto", "--rounds", "1", "--rule", "banker_one=sometimes")
    one_error_line(code, err, "banker_one is one of choose, eleven, not 'sometimes'")
    code, _, err = run(capsys, "odds", "domino21", "--rule", "bank_over=refunds")
    one_error_line(code, err, "default rules only")


def test_read_of_a_file_that_cannot_be_opened_is_an_error_entry_not_a_crash(capsys, pictures, monkeypatch):
    import numpy as np

    real = np.fromfile

    def denied(path, *args, **kwargs):
        if str(path).endswith("locked.png"):
            raise PermissionError(13, "Permission denied")
        return real(path, *args, **kwargs)

    (pictures / "locked.png").write_bytes((pictures / "table.png").read_bytes())
    monkeypatch.setattr(np, "fromfile", denied)
    code, out, _ = run(capsys, "read", "--json", "--kinds", "dice", str(pictures / "table.png"),
                       str(pictures / "locked.png"))
    entries = json.loads(out)
    assert code == 1 and [("error" in e) for e in entries] == [False, True]
    assert "cannot be read (Permission denied)" in entries[1]["error"]


@pytest.mark.parametrize("text, words", [
    ('{"@type":"calibration","frame_size":[96,64],"area":[],"die_px":null}',
     "bad.json: record does not decode: the play area needs at least 3 corners"),
    ('{"@type":"calibration","frame_size":[96,64],"area":[[0,0],[95,0],[95,63]],"die_px":1e9}',
     "bad.json: record does not decode: a die face is between"),
])
def test_read_refuses_a_calibration_that_makes_no_sense_in_one_line(capsys, pictures, text, words):
    (pictures / "bad.json").write_text(text)
    code, out, err = run(capsys, "read", "--calibration", str(pictures / "bad.json"), str(pictures / "table.png"))
    one_error_line(code, err, words)
    assert out == ""


def test_calibrate_refuses_a_die_size_that_does_not_fit_the_frame_in_one_line(capsys, pictures):
    code, _, err = run(capsys, "calibrate", str(pictures / "table.png"), "-o", str(pictures / "cal.json"),
                       "--die-px", "50")
    one_error_line(code, err, "--die-px 50: a die face is between", "in a 96x64 frame")
    assert not (pictures / "cal.json").exists()


def test_calibrate_says_why_the_die_size_is_unknown(capsys, tmp_path):
    import cv2
    import numpy as np

    rng = np.random.default_rng(0)
    grainy = np.clip(np.full((240, 320, 3), 120.0) + rng.normal(0, 40, (240, 320, 3)), 0, 255).astype(np.uint8)
    cv2.imwrite(str(tmp_path / "grainy.png"), grainy)
    code, out, _ = run(capsys, "calibrate", str(tmp_path / "grainy.png"), "-o", str(tmp_path / "cal.json"))
    assert code == 0 and "die face not measured (the dice reader refused the view: the picture is too grainy" in out
    assert "--die-px N sets it" in out


def test_calibrate_refuses_a_long_narrow_strip_in_one_line(capsys, tmp_path):
    import cv2
    import numpy as np

    cv2.imwrite(str(tmp_path / "strip.png"), np.full((16, 3000, 3), 90, np.uint8))
    code, _, err = run(capsys, "calibrate", str(tmp_path / "strip.png"), "-o", str(tmp_path / "cal.json"))
    one_error_line(code, err, "strip.png: too small for a frame of the table", "3000x16", "times as long")


def test_read_with_a_calibration_of_another_frame_size_is_an_error_entry_for_that_image(capsys, pictures):
    from vision.calibration import Calibration

    Calibration((640, 640), ((0.0, 0.0), (639.0, 0.0), (639.0, 639.0)), 30.0).save(pictures / "cal.json")
    code, out, _ = run(capsys, "read", "--json", "--calibration", str(pictures / "cal.json"), str(pictures / "table.png"))
    (entry,) = json.loads(out)
    assert code == 1 and entry["file"] == str(pictures / "table.png")
    assert "made on 640x640 frames, this one is 96x64" in entry["error"]


def test_eval_says_what_is_missing_and_draws_its_worst_photos_without_being_told_where(capsys, tmp_path, monkeypatch):
    code, _, err = run(capsys, "eval", str(tmp_path / "nowhere"))
    one_error_line(code, err, "nowhere: no such folder")
    code, _, err = run(capsys, "eval", str(tmp_path))
    one_error_line(code, err, "no labels.json in this folder")
    monkeypatch.chdir(tmp_path)
    fixtures = Path(__file__).resolve().parents[1] / "calibration_images" / "dice"
    code, out, _ = run(capsys, "eval", str(fixtures), "--show", "1")
    assert code == 0 and "drawn in eval-show/" in out and len(list((tmp_path / "eval-show").glob("*.png"))) == 1


def test_read_says_why_a_piece_is_unreadable(capsys, tmp_path):
    cv2.imwrite(str(tmp_path / "grey.png"), np.full((200, 200, 3), 128, np.uint8))
    code, out, _ = run(capsys, "read", str(tmp_path / "grey.png"))
    assert code == 0 and "unreadable (" in out and ": " in out.split("unreadable (")[1]


def test_calibrate_takes_its_frame_from_the_camera_and_saves_where_the_settings_say(capsys, tmp_path):
    """A Pi has no photo of its table to hand: the frame comes from the configured camera
    (here a recorded session), and an empty table is calibrated without a die size."""
    from hardware.frames import Frame
    from tabletop21.recording import Manifest, SessionWriter

    with SessionWriter(tmp_path / "session", Manifest("dicey21", ("a",))) as writer:
        frame = np.full((480, 640, 3), (60, 110, 60), np.uint8)
        frame[40:440, 60:580] = (40, 120, 40)
        writer.save_frame(Frame(frame, 1, 0.0))
    settings = tmp_path / "table.toml"
    settings.write_text(f'[table]\ncalibration = "{tmp_path}/cal.json"\n[camera]\nsource = "{tmp_path}/session"\n')
    code, out, _ = run(capsys, "calibrate", "--config", str(settings))
    assert code == 0 and f"saved {tmp_path}/cal.json" in out and "die face not measured" in out
    assert (tmp_path / "cal.json").is_file()


def test_a_typed_queen_is_a_card_not_the_end_and_rounds_are_counted_from_one(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", "dicey21", "--manual", "--rounds", "1", "--seed", "1",
                       stdin="5\n5\nQ\nquit\n", monkeypatch=monkeypatch)
    assert code == 0 and "After 0 round(s)" in out
    assert "no card has rank" not in out.split("what came out?")[1].split("\n")[0]
    with pytest.raises(SystemExit) as stopped:
        main(["play", "dicey21", "--auto", "--rounds", "-1"])
    assert stopped.value.code == 2 and "1 or more" in capsys.readouterr().err


def test_auto_play_says_what_each_round_dealt(capsys):
    code, out, _ = run(capsys, "play", "dice-blackjack", "--auto", "--rounds", "2", "--seed", "3")
    rounds = [line for line in out.splitlines() if line.startswith("Round ")]
    assert code == 0 and len(rounds) == 2 and all(line.split(": ", 1)[1] for line in rounds)
    assert len(out.splitlines()) > 2 * len(rounds) + 2  # each round's pieces are described
