"""The bundled sessions replay through today's readers, driver and engines with no
difference, and the demo renders every screen without a display."""

import re
from pathlib import Path

import pytest

from table.serial import CorruptRecord
from tabletop21.cli import main
from tabletop21.recording import SessionReader
from tabletop21.replay import replay_session

SESSIONS = Path(__file__).resolve().parents[1] / "calibration_images" / "sessions"
GAMES = ("dicey21", "dice-blackjack", "blackjack-dice", "domino21", "changing-bank")


@pytest.mark.parametrize("game", GAMES)
def test_bundled_session_rereads_and_resettles_identically(game):
    folder = SESSIONS / game
    reader = SessionReader(folder)
    assert reader.manifest.game == game and not reader.torn_tail
    assert reader.of_kind("settlement"), "the session holds at least one settled round"
    assert replay_session(folder, check=True) is None


def test_replay_check_command_exits_nonzero_on_a_difference(tmp_path, capsys):
    import shutil

    copy = tmp_path / "dicey21"
    shutil.copytree(SESSIONS / "dicey21", copy)
    events = (copy / "events.jsonl").read_text().splitlines()
    first_roll = next(i for i, line in enumerate(events) if '"dicey21.roll"' in line)
    events[first_roll] = re.sub(r'"dice":\[(\d)', lambda m: f'"dice":[{int(m.group(1)) % 6 + 1}', events[first_roll], count=1)
    (copy / "events.jsonl").write_text("\n".join(events) + "\n")
    assert main(["replay", str(copy), "--check", "--headless"]) == 1
    assert "DIFFERENCE" in capsys.readouterr().out


def test_demo_renders_every_screen_headless(tmp_path, capsys):
    assert main(["demo", "--headless", "--size", "800x480", "--screenshots", str(tmp_path)]) == 0
    shots = sorted(tmp_path.glob("*.png"))
    kinds = {path.stem.split("-")[-1] for path in shots}
    assert {"attract", "play", "reading", "results", "bets"} <= kinds
    assert len(shots) >= 10


def test_demo_headless_without_a_folder_draws_every_screen_to_demo_screens_and_says_where(
        tmp_path, monkeypatch, capsys):
    """It drew nothing and said nothing, though its help promised PNG files."""
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--headless"]) == 0
    shots = sorted((tmp_path / "demo-screens").glob("*.png"))
    assert len(shots) >= 10 and f"{len(shots)} screens written to demo-screens" in capsys.readouterr().out


def test_screenshots_are_written_with_or_without_headless(tmp_path, capsys):
    """Without --headless the folder was ignored (and never made) for a window."""
    assert main(["replay", str(SESSIONS / "dice-blackjack"), "--speed", "0", "--screenshots",
                 str(tmp_path / "new" / "shots")]) == 0
    shots = sorted((tmp_path / "new" / "shots").glob("*.png"))
    assert shots and f"{len(shots)} screens written to {tmp_path / 'new' / 'shots'}" in capsys.readouterr().out


@pytest.mark.parametrize("command", (["replay", str(SESSIONS / "dicey21")], ["demo"]))
@pytest.mark.parametrize("where", ("taken", "taken/shots"))
def test_screenshots_where_no_folder_can_be_are_said_in_one_line(tmp_path, capsys, command, where):
    """A file in the way stopped the command with FileExistsError or NotADirectoryError."""
    (tmp_path / "taken").write_text("a file")
    assert main([*command, "--headless", "--screenshots", str(tmp_path / where)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and f"{tmp_path / where}: cannot keep screenshots here" in err, err
    assert (tmp_path / "taken").read_text() == "a file"


def test_replay_reads_with_the_calibration_the_table_used(tmp_path):
    """A calibration whose play area leaves the die out: the live table saw no die, and
    a replay must read the same way, not the whole frame."""
    from hardware.frames import Frame
    from table.driver import Driver, Motion, Press, SettledRead
    from table.ledger import Ledger
    from tabletop21.appliance import Appliance, Table, table_reader
    from tabletop21.recording import Manifest, SessionWriter
    from vision.calibration import Calibration
    from vision.image_io import load_bgr

    image = load_bgr(SESSIONS / "dice-blackjack" / "frames" / "000013.jpg")
    height, width = image.shape[:2]
    calibration = Calibration((width, height), ((0.0, 0.0), (float(width), 0.0), (float(width), 300.0), (0.0, 300.0)))
    driver = Driver("dice-blackjack", ("Ann", "Ben"), bet=5, typed_kinds=())
    bankrolls = {"Ann": 100, "Ben": 100}
    recorder = SessionWriter(tmp_path / "s", Manifest("dice-blackjack", ("Ann", "Ben"), settings={
        "bet": 5, "typed_kinds": [], "bankrolls": bankrolls, "driver": driver, "readers": ["dice"],
        "calibration": calibration}))
    appliance = Appliance(Table(driver, Ledger.open(bankrolls)), None, None, table_reader(("dice",), calibration),
                          recorder=recorder)
    for event in (Press("shake"), Press("shake"), Motion("rolling")):
        appliance.feed(event)
    stored = recorder.save_frame(Frame(image, 1, 1.0))
    appliance.feed(SettledRead(appliance.read(stored)))
    recorder.close()
    assert "0 seen" in appliance.table.driver.message
    assert replay_session(tmp_path / "s", check=True) is None


@pytest.mark.parametrize("game", GAMES)
def test_every_state_the_store_saves_during_a_bundled_session_loads_back_equal(game, tmp_path):
    """The decoder checks each field's type: no real round state may trip it."""
    from tabletop21.appliance import Appliance
    from tabletop21.replay import table_for
    from tabletop21.store import BankrollStore

    reader = SessionReader(SESSIONS / game)
    table = table_for(reader)
    store = BankrollStore(tmp_path / "bank.sqlite")
    table.ledger = store.open_table(table.ledger.as_dict(), table.ledger.credit)
    appliance = Appliance(table, None, None, None, store=store)
    loaded = 0
    for event in reader.of_kind("input"):
        appliance.feed(event.data)
        pending = store.unfinished()
        if pending is not None:
            assert pending.state == appliance.table.driver
            loaded += 1
    store.close()
    assert loaded > 5


def test_replay_check_warns_that_a_cut_recording_was_replayed_only_in_part(tmp_path, capsys):
    import shutil

    copy = tmp_path / "cut"
    shutil.copytree(SESSIONS / "dice-blackjack", copy)
    whole = (copy / "events.jsonl").read_bytes()
    (copy / "events.jsonl").write_bytes(whole[:len(whole) // 2])
    kept = whole[:len(whole) // 2].count(b"\n")
    assert main(["replay", str(copy), "--check", "--headless"]) == 0
    said = capsys.readouterr()
    assert f"cut short (a stop while it was written) and is left out; replaying the {kept} events" in said.err
    assert "no difference" in said.out


def cut_after(tmp_path, lines: int, change=lambda line: line):
    """The dice-blackjack session as a power cut after `lines` lines leaves it: the
    next line half written, the last one kept passed through `change`."""
    import shutil

    copy = tmp_path / "cut"
    shutil.copytree(SESSIONS / "dice-blackjack", copy)
    events = (copy / "events.jsonl").read_text().splitlines()
    kept = events[:lines - 1] + [change(events[lines - 1])]
    (copy / "events.jsonl").write_text("\n".join(kept) + "\n" + events[lines][:60])
    return copy


# 9: a read's input line, not its action; 166: a read's action, not the settlement after it.
@pytest.mark.parametrize("lines, what", [(9, '"kind":"input"'), (166, '"kind":"action"')])
@pytest.mark.parametrize("check", ([], ["--check"]))
def test_a_recording_cut_mid_round_is_said_and_is_no_difference(tmp_path, capsys, lines, what, check):
    """It was "the action differs, recorded: None" (or the settlement), exit 1."""
    from tabletop21.replay import CutShort

    copy = cut_after(tmp_path, lines)
    assert what in (copy / "events.jsonl").read_text().splitlines()[lines - 1]
    assert main(["replay", str(copy), "--headless", *check]) == 0
    out = capsys.readouterr().out
    assert "the recording ends mid-round (cut short)" in out and "DIFFERENCE" not in out
    assert isinstance(replay_session(copy, check=bool(check)), CutShort)


def test_a_difference_in_the_last_round_a_cut_left_whole_is_still_one(tmp_path, capsys):
    copy = cut_after(tmp_path, 10, lambda line: line.replace('"dice":[4]', '"dice":[3]'))
    assert main(["replay", str(copy), "--headless"]) == 1
    assert "DIFFERENCE" in capsys.readouterr().out
    difference = replay_session(copy)
    assert difference.what == "action" and difference.recorded.dice == (3,) and difference.today.dice == (4,)


@pytest.mark.parametrize("settings, words", [
    ([1], "settings are not a table"),
    ({"driver": {"@type": "need", "kind": "dice"}, "bankrolls": {"Ann": 1}}, "driver is not a round driver"),
    ({"bet": 5, "bankrolls": {"Ann": 1, "Ben": 1}, "calibration": [0, 0]}, "calibration is not a calibration"),
    # Was "no account 'Ben' at this table", which named neither the recording nor the manifest.
    ({"bet": 5, "bankrolls": {"Ann": 100}}, "manifest lacks the table set-up: no bankroll for seat 'Ben'"),
])
def test_a_manifest_without_a_usable_table_is_refused_in_words(tmp_path, capsys, settings, words):
    import json
    import shutil

    copy = tmp_path / "s"
    shutil.copytree(SESSIONS / "dice-blackjack", copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["settings"] = settings
    (copy / "manifest.json").write_text(json.dumps(manifest))
    assert main(["replay", str(copy), "--check", "--headless"]) == 2
    assert words in capsys.readouterr().err


def test_an_input_the_driver_does_not_take_is_refused(tmp_path):
    import shutil

    copy = tmp_path / "s"
    shutil.copytree(SESSIONS / "dice-blackjack", copy)
    events = (copy / "events.jsonl").read_text()
    (copy / "events.jsonl").write_text(events.replace('{"@type":"press","button":"shake"}',
                                                      '{"button":"shake"}', 1))
    with pytest.raises(CorruptRecord, match="not an input the driver takes"):
        replay_session(copy)


def test_a_manifest_without_a_driver_replays_under_its_house_rules(tmp_path):
    """A table limit under the recorded bet of 5: every seat sits out, so the recorded
    round cannot replay as it was."""
    import json
    import shutil

    from tabletop21.replay import table_for

    copy = tmp_path / "s"
    shutil.copytree(SESSIONS / "dice-blackjack", copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["settings"]["rules"] = {"max_bet": 4}
    (copy / "manifest.json").write_text(json.dumps(manifest))
    assert table_for(SessionReader(copy)).driver.settings.max_bet == 4
    assert replay_session(copy) is not None


@pytest.mark.parametrize("speed", ["-1", "nan", "inf", "fast"])
def test_a_speed_playback_cannot_keep_is_refused_in_words(speed, capsys):
    """-1 and nan played as fast as possible without a word, as 0 does."""
    with pytest.raises(SystemExit) as stopped:
        main(["replay", str(SESSIONS / "dice-blackjack"), "--speed", speed])
    assert stopped.value.code == 2
    assert "a speed is a number, 0 (as fast as possible) or more" in capsys.readouterr().err


@pytest.mark.parametrize("no_window", (["--headless"], ["--screenshots", "shots"]))
def test_step_without_a_window_is_refused_rather_than_ignored(capsys, no_window):
    assert main(["replay", str(SESSIONS / "dice-blackjack"), "--step", *no_window]) == 2
    assert "--step waits for a key at every step, which needs a window" in capsys.readouterr().err


def test_the_demo_holds_each_screen_long_enough_to_read_whatever_the_recorded_clock():
    """The bundled sessions run at machine speed; paced by their clock alone the window
    showed "Reading 3 dice..." and closed. Measured on the playback clock, not slept."""
    from tabletop21.cli import build_parser
    from tabletop21.playback import HOLDS, hold_before_next
    from tabletop21.recording import SessionReader
    from tabletop21.replay import replay_session

    shown: list = []
    replay_session(SessionReader(SESSIONS / "dicey21"), show=lambda view, frame, t: shown.append((view, t)))
    waits = [hold_before_next(before[0], after[0], after[1] - before[1], 1.0) for before, after in zip(shown, shown[1:])]
    changes = [(before[0].screen, wait) for before, after, wait in zip(shown, shown[1:], waits) if after[0] != before[0]]
    results = [wait for screen, wait in changes if screen == "results"]
    assert results and min(results) >= HOLDS["results"] >= 3
    assert all(wait >= 1.0 for _, wait in changes)
    assert sum(waits) > 30  # about a minute of demo, where the recorded clock gave well under a second
    assert hold_before_next(shown[0][0], shown[-1][0], 0.01, 2.0) == HOLDS[shown[0][0].screen] / 2
    assert hold_before_next(shown[0][0], shown[-1][0], 0.01, 0) == 0
    assert build_parser().parse_args(["demo", "--step"]).step


def test_a_difference_is_said_in_the_pieces_words():
    """It printed the raw records with their '@type' entries."""
    from table.reads import Die, TableRead
    from tabletop21.replay import Difference

    def dice(*values):
        return TableRead(dice=tuple(Die(v, (10.0 * i, 0.0), (10.0 * i - 5, -5.0, 10.0 * i + 5, 5.0), 0.9)
                                    for i, v in enumerate(values)))

    read = Difference(41, "read", dice(2, 5), dice(2, 6), "dice-blackjack", 3, 2)
    assert str(read) == "round 3, read 2: recorded 2 5, read now 2 6 (event 41)"
    paid = Difference(50, "settlement", {"Ann": 5, "Ben": -5}, {"Ann": -5, "Ben": 5}, "dice-blackjack", 3)
    assert str(paid) == "round 3: the settlement recorded was Ann +5, Ben -5, today it is Ann -5, Ben +5 (event 50)"
    assert "@type" not in str(paid) and "@type" not in str(read)


@pytest.mark.parametrize("events", [b"", b"\n\n", b'{"@type":"event","t":0.1'])
def test_replay_check_of_a_session_with_no_event_is_an_error(tmp_path, capsys, events):
    """An empty events.jsonl passed `replay --check` with exit 0, nothing checked."""
    import shutil

    copy = tmp_path / "empty"
    shutil.copytree(SESSIONS / "dice-blackjack", copy)
    (copy / "events.jsonl").write_bytes(events)
    assert main(["replay", str(copy), "--check", "--headless"]) == 2
    assert "events.jsonl holds no event" in capsys.readouterr().err
