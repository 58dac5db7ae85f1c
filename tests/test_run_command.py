"""`tabletop21 run` end to end on a recorded session as its camera: settings file,
bankroll store, recording, display; a round a stop left open is resumed when the
table can carry it on, else voided with its bets back, and said so."""

from pathlib import Path

import numpy as np
import pytest

from table.driver import Driver, Press, step
from table.games import game
from tabletop21 import bankfile
from tabletop21.cli import main
from tabletop21.recording import SessionReader
from tabletop21.store import BankrollStore
from vision.calibration import Calibration

SESSION = Path(__file__).resolve().parents[1] / "calibration_images" / "sessions" / "dice-blackjack"


def settings(tmp_path) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(f'[table]\ngame = "dice-blackjack"\nseats = ["Ann", "Ben"]\nstore = "{tmp_path}/bank.sqlite"\n'
                    f'sessions = "{tmp_path}/sessions"\n[camera]\nsource = "{SESSION}"\n')
    return path


def test_run_opens_the_table_records_and_reports_its_loop(tmp_path, capsys):
    assert main(["run", "--config", str(settings(tmp_path)), "--frames", "30"]) == 0
    out = capsys.readouterr().out
    assert "display:" in out and "ms mean" in out
    recorded = list((tmp_path / "sessions").iterdir())
    assert len(recorded) == 1 and (recorded[0] / "manifest.json").is_file()
    assert BankrollStore(tmp_path / "bank.sqlite").ledger().as_dict() == {"Ann": 100, "Ben": 100}


def test_run_on_a_recorded_session_ends_at_its_last_frame(tmp_path, capsys):
    """The end of the recording was a lost camera: it was opened again and played
    from its first frame, for as many frames as were asked."""
    frames = len(SessionReader(SESSION).of_kind("frame"))
    assert main(["run", "--config", str(settings(tmp_path)), "--frames", str(3 * frames)]) == 0
    out = capsys.readouterr().out
    assert f"the recording in {SESSION} has no more frames: the run ends." in out
    assert f"mean over {frames} frames" in out


def open_round(tmp_path, state):
    store = BankrollStore(tmp_path / "bank.sqlite")
    ledger = store.open_table({"Ann": 100, "Ben": 100})
    if isinstance(state, Driver):  # a real round, dealt as the table dealt it
        state = step(state, Press("shake"), ledger)
    store.begin_round(getattr(state, "game", "dice-blackjack"), state)
    store.close()


def still_open(tmp_path):
    store = BankrollStore(tmp_path / "bank.sqlite")
    try:
        return store.unfinished(), store.ledger().as_dict()
    finally:
        store.close()


def sessions_recorded(tmp_path):
    folder = tmp_path / "sessions"
    return sorted(folder.iterdir()) if folder.is_dir() else []


def recorded(tmp_path):
    session = max((tmp_path / "sessions").iterdir())
    return SessionReader(session)


def test_a_plain_start_resumes_a_round_its_table_can_carry_on(tmp_path, capsys):
    open_round(tmp_path, Driver("dice-blackjack", ("Ann", "Ben"), bet=5))  # as the settings describe
    assert main(["run", "--config", str(settings(tmp_path)), "--frames", "1"]) == 0
    assert "resumes here" in capsys.readouterr().out
    pending, bankrolls = still_open(tmp_path)
    assert pending is not None and bankrolls == {"Ann": 100, "Ben": 100}
    session = recorded(tmp_path)
    assert session.manifest.settings["driver"] == pending.state and pending.state.round_no == 1
    assert [e.data for e in session.of_kind("note")] == ["Round 1, left open by a stop, resumes here."]


def test_a_plain_start_voids_a_round_of_another_table_and_says_so(tmp_path, capsys):
    open_round(tmp_path, Driver("domino21", ("Ann", "Ben"), bet=5, typed_kinds=()))
    assert main(["run", "--config", str(settings(tmp_path)), "--frames", "1"]) == 0
    said = capsys.readouterr().out
    assert "voided (it was played with game 'domino21' and the settings now say 'dice-blackjack')" in said
    assert "every bet went back" in said
    assert still_open(tmp_path) == (None, {"Ann": 100, "Ben": 100})
    assert "every bet went back" in recorded(tmp_path).of_kind("note")[0].data


def test_a_start_between_rounds_deals_on_with_the_banker_the_rules_chose(tmp_path, capsys):
    """The next round of Dice Blackjack is dealt by the last one's winner, not by a new
    roll-off; at seats the settings changed, the table starts afresh and says so."""
    from tests.test_appliance import settle_a_round

    settled = settle_a_round(tmp_path / "bank.sqlite", "dice-blackjack", seed=3, seats=("Ann", "Ben"))
    assert settled.banker in ("Ann", "Ben")
    assert main(["run", "--config", str(settings(tmp_path)), "--frames", "1"]) == 0
    driver = recorded(tmp_path).manifest.settings["driver"]
    assert (driver.banker, driver.round_no) == (settled.banker, 1) and "afresh" not in capsys.readouterr().out
    config = settings(tmp_path)
    config.write_text(config.read_text().replace('["Ann", "Ben"]', '["Ann", "Ben", "Cy"]'))
    assert main(["run", "--config", str(config), "--frames", "1"]) == 0
    assert "The table starts afresh, with a new banker, shoe or pack: the last round settled here was played " \
           "with seats ('Ann', 'Ben') and the settings now say ('Ann', 'Ben', 'Cy')." in capsys.readouterr().out
    session = recorded(tmp_path)
    assert session.manifest.settings["driver"].banker is None and "afresh" in session.of_kind("note")[0].data


@pytest.mark.parametrize("state, why", [
    (Driver("domino21", ("Ann", "Ben"), bet=5), "played with game 'domino21'"),
    (Driver("dice-blackjack", ("Ann", "Cy"), bet=5), "played with seats ('Ann', 'Cy')"),
    (Driver("dice-blackjack", ("Ann", "Ben"), bet=5, rules=(("max_bet", 50),)),
     "played with rules {'max_bet': 50} and the settings now say {}"),
    ({"half": "done"}, "not a round of this appliance"),
])
def test_resume_refuses_a_round_it_cannot_carry_on_and_says_how_to_void_it(tmp_path, capsys, state, why):
    open_round(tmp_path, state)
    config = str(settings(tmp_path))
    assert main(["run", "--config", config, "--frames", "1", "--resume"]) == 2
    err = capsys.readouterr().err
    assert why in err and "--void" in err
    assert still_open(tmp_path)[0] is not None and sessions_recorded(tmp_path) == []
    assert main(["run", "--config", config, "--frames", "1", "--void"]) == 0
    assert still_open(tmp_path) == (None, {"Ann": 100, "Ben": 100})


def with_rules(tmp_path) -> Path:
    config = settings(tmp_path)
    config.write_text(config.read_text() + '[rules]\nmax_bet = 50\nshort_banker = "refuse"\n')
    return config


def test_the_house_rules_of_the_settings_deal_the_rounds_and_void_a_round_under_others(tmp_path, capsys):
    open_round(tmp_path, Driver("dice-blackjack", ("Ann", "Ben"), bet=5, rules=(("max_bet", 50),)))
    assert main(["run", "--config", str(with_rules(tmp_path)), "--frames", "1"]) == 0
    assert "voided (it was played with rules {'max_bet': 50} and the settings now say {'max_bet': 50, " \
           "'short_banker': 'refuse'})" in capsys.readouterr().out
    recorded_driver = recorded(tmp_path).manifest.settings["driver"]
    assert recorded_driver.settings == game("dice-blackjack").settings({"max_bet": 50, "short_banker": "refuse"})


def test_a_round_dealt_under_the_house_rules_the_settings_choose_is_resumed(tmp_path, capsys):
    open_round(tmp_path, Driver("dice-blackjack", ("Ann", "Ben"), bet=5,
                                rules=(("max_bet", 50), ("short_banker", "refuse"))))
    assert main(["run", "--config", str(with_rules(tmp_path)), "--frames", "1"]) == 0
    assert "resumes here" in capsys.readouterr().out


def test_house_rules_written_in_another_order_are_the_same_table(tmp_path, capsys):
    open_round(tmp_path, Driver("dice-blackjack", ("Ann", "Ben"), bet=5,
                                rules=(("short_banker", "refuse"), ("max_bet", 50))))
    assert main(["run", "--config", str(with_rules(tmp_path)), "--frames", "1"]) == 0
    assert "resumes here" in capsys.readouterr().out
    assert still_open(tmp_path)[0] is not None


@pytest.mark.parametrize("state, damage, refused, voided", [
    ({"half": "done"}, "'{\"@type\":\"table.driver:OldDriver\"}'", "unknown record type 'table.driver:OldDriver'",
     "no longer loads"),
    # Decodes, but no engine made it: a roll-off turned into a hit with no hand to hit
    # stopped run with an IndexError, at every start, since the round stayed open.
    (Driver("dice-blackjack", ("Ann", "Ben"), bet=5), "replace(state, '\"step\":\"roll\"', '\"step\":\"hit\"')",
     "not a round the rules can carry on (IndexError", "not a round the rules can carry on"),
    # Decodes and plays on, to a settlement the ledger refuses for naming a stranger, so
    # the round could never close: a stake from Zed; a roll-off only Zed rolls in, and wins.
    (Driver("dice-blackjack", ("Ann", "Ben"), bet=5), "replace(state, '[\"Ben\",5]', '[\"Zed\",5]')",
     "(TableError: the round names 'Zed', who is not one of its seats (Ann, Ben))", "the round names 'Zed'"),
    (Driver("dice-blackjack", ("Ann", "Ben"), bet=5), "replace(state, '\"rollers\":[\"Ann\",\"Ben\"]', "
     "'\"rollers\":[\"Zed\"]')", "(TableError: the round names 'Zed', who is not one of its seats (Ann, Ben))",
     "the round names 'Zed'"),
    # Every part of the round agrees on Zed, but the table seats Ben.
    (Driver("dice-blackjack", ("Ann", "Ben"), bet=5),
     "replace(replace(replace(state, 'dice_hands.table\",\"seats\":[\"Ann\",\"Ben\"]', 'dice_hands.table\",\"seats\":[\"Ann\",\"Zed\"]'), "
     "'\"rollers\":[\"Ann\",\"Ben\"]', '\"rollers\":[\"Ann\",\"Zed\"]'), '\"Ben\",', '\"Zed\",')",
     "its saved state is a round played by Zed, who is not at this table", "a round played by Zed"),
    # Dealt, by its own account, from chips the bankroll file never gave Ann: played
    # on, it settles against them, and the ledger refuses what takes chips she lacks.
    (Driver("dice-blackjack", ("Ann", "Ben"), bet=5), "replace(state, '[\"Ann\",100]', '[\"Ann\",500]')",
     "(TableError: the round was dealt with Ann holding 500 chips, but the bankroll file holds 100)",
     "the round was dealt with Ann holding 500 chips"),
    # The driver's own phase, damaged: a phase word no driver has stops it decoding;
    # one that does not fit the round asked the wrong question of the engine (a
    # choice where dice are due) or dealt no round; and a round not under way (its
    # bets or results phase) started the next round while it stayed open, which the
    # store refused at every press.
    (Driver("dice-blackjack", ("Ann", "Ben"), bet=5), "replace(state, '\"phase\":\"roll\"', '\"phase\":\"shuffling\"')",
     "driver: phase must be one of 'bets', 'decide', 'roll', 'reading', 'typed', 'dealing', 'results', "
     "not 'shuffling'", "no longer loads"),
    (Driver("dice-blackjack", ("Ann", "Ben"), bet=5), "replace(state, '\"phase\":\"roll\"', '\"phase\":\"results\"')",
     "(TableError: phase 'results' does not fit its round, which is at 'roll' or 'reading')",
     "phase 'results' does not fit"),
    (Driver("dice-blackjack", ("Ann", "Ben"), bet=5), "replace(state, '\"phase\":\"roll\"', '\"phase\":\"decide\"')",
     "(TableError: phase 'decide' does not fit its round, which is at 'roll' or 'reading')",
     "phase 'decide' does not fit"),
    (Driver("dice-blackjack", ("Ann", "Ben"), bet=5), "replace(state, '\"phase\":\"roll\"', '\"phase\":\"bets\"')",
     "(TableError: phase 'bets' holds a round already dealt)", "phase 'bets' holds a round"),
    (Driver("dice-blackjack", ("Ann", "Ben"), bet=5), "json_set(state, '$.state', json('null'))",
     "(TableError: phase 'roll' has no round dealt)", "phase 'roll' has no round"),
    (Driver("dice-blackjack", ("Ann", "Ben"), bet=5),
     "json_set(json_set(state, '$.state', json('null')), '$.phase', 'bets')",
     "its saved state is no round under way (it is at its bets)", "no round under way"),
])
def test_a_saved_round_that_cannot_go_on_is_voided_not_a_locked_table(tmp_path, capsys, state, damage, refused, voided):
    open_round(tmp_path, state)
    store = BankrollStore(tmp_path / "bank.sqlite")
    store._db.execute(f"UPDATE rounds SET state = {damage}")
    bankfile.reseal(store._db)  # written so by another build, sealed: not damage, which the seal would restore
    store.close()
    config = str(settings(tmp_path))
    assert main(["run", "--config", config, "--frames", "1", "--resume"]) == 2
    assert refused in capsys.readouterr().err
    assert main(["run", "--config", config, "--frames", "1"]) == 0
    assert voided in capsys.readouterr().out
    assert still_open(tmp_path) == (None, {"Ann": 100, "Ben": 100})


def test_a_display_that_cannot_start_is_said_in_words_and_nothing_is_left_open(tmp_path, monkeypatch, capsys):
    import pygame

    def no_screen(*args, **kwargs):
        raise pygame.error("kmsdrm not available")

    monkeypatch.setattr(pygame.display, "set_mode", no_screen)
    assert main(["run", "--config", str(settings(tmp_path))]) == 2
    assert "the display did not start (kmsdrm not available)" in capsys.readouterr().err
    assert not (tmp_path / "sessions").exists() and not (tmp_path / "bank.sqlite").exists()


def test_the_camera_is_opened_once_and_closed_when_the_run_ends(tmp_path, monkeypatch):
    """run opens the camera at its start, to stop there if it does not open; the loop
    reads that same camera rather than opening it again."""
    import tabletop21.devices

    events = []
    real = tabletop21.devices.open_source

    class Tracked:
        def __init__(self, config):
            events.append("opened")
            self.inner = real(config)

        def read(self):
            return self.inner.read()

        def close(self):
            events.append("closed")
            self.inner.close()

    monkeypatch.setattr(tabletop21.devices, "open_source", Tracked)
    assert main(["run", "--config", str(settings(tmp_path)), "--frames", "3"]) == 0
    assert events == ["opened", "closed"]


def test_the_calibration_in_use_is_recorded_for_replays(tmp_path):
    calibration = Calibration((640, 640), ((0.0, 0.0), (640.0, 0.0), (640.0, 300.0), (0.0, 300.0)), 40.0)
    calibration.save(tmp_path / "cal.json")
    config = settings(tmp_path)
    config.write_text(config.read_text().replace("[camera]", f'calibration = "{tmp_path}/cal.json"\n[camera]'))
    assert main(["run", "--config", str(config), "--frames", "1"]) == 0
    assert recorded(tmp_path).manifest.settings["calibration"] == calibration


@pytest.mark.parametrize("content, words", [
    (b"\xff\xfe\x00binary", "cal.json: not a calibration file (not text)"),
    (b"garbage", "cal.json: not JSON"),
    (b'{"@type":"calibration","frame_size":[640,640],"area":[],"die_px":null}',
     "cal.json: record does not decode: the play area needs at least 3 corners"),
])
def test_a_bad_calibration_is_one_line_and_starts_nothing(tmp_path, capsys, content, words):
    (tmp_path / "cal.json").write_bytes(content)
    config = settings(tmp_path)
    config.write_text(config.read_text().replace("[camera]", f'calibration = "{tmp_path}/cal.json"\n[camera]'))
    assert main(["run", "--config", str(config), "--frames", "1"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and words in err and "tabletop21 calibrate" in err, err
    assert not (tmp_path / "sessions").exists() and not (tmp_path / "bank.sqlite").exists()


def test_the_settle_detector_watches_only_the_play_area(tmp_path, monkeypatch):
    """Without the calibration an arm moving outside the play area kept the table
    "rolling" for ever, and the round waited for a read that never came."""
    import vision.settle

    made = []

    class Watched(vision.settle.SettleDetector):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(vision.settle, "SettleDetector", Watched)
    calibration = Calibration((640, 640), ((0.0, 0.0), (640.0, 0.0), (640.0, 300.0), (0.0, 300.0)), 40.0)
    calibration.save(tmp_path / "cal.json")
    config = settings(tmp_path)
    config.write_text(config.read_text().replace("[camera]", f'calibration = "{tmp_path}/cal.json"\n[camera]'))
    assert main(["run", "--config", str(config), "--frames", "1"]) == 0
    assert [detector.calibration for detector in made] == [calibration]


def test_a_calibration_for_another_camera_size_is_refused_before_anything_opens(tmp_path, capsys):
    Calibration((640, 480), ((0.0, 0.0), (639.0, 0.0), (639.0, 479.0)), 30.0).save(tmp_path / "cal.json")
    config = settings(tmp_path)
    config.write_text(config.read_text().replace(f'source = "{SESSION}"', 'source = "webcam"\nwidth = 1280\nheight = 720')
                      .replace("[camera]", f'calibration = "{tmp_path}/cal.json"\n[camera]'))
    assert main(["run", "--config", str(config), "--frames", "1"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert "cal.json does not fit the camera's 1280x720 frames" in err and "made on 640x480 frames" in err
    assert not (tmp_path / "sessions").exists() and not (tmp_path / "bank.sqlite").exists()


class _PinsInUse:
    def __init__(self, **pins):
        from hardware.controls import GpioUnavailable

        raise GpioUnavailable("the GPIO pins cannot be used (GPIOPinInUse: pin 17 is in use)")


@pytest.mark.parametrize("change, words", [
    (lambda text, tmp: text.replace(f"{tmp}/sessions", f"{tmp}/taken"), "cannot keep session recordings here"),
    (lambda text, tmp: text.replace(str(SESSION), f"{tmp}/no-session"), "no manifest.json"),
    (lambda text, tmp: text + "[gpio]\nenabled = true\n", "pin 17 is in use"),
])
def test_a_setting_or_device_that_fails_stops_run_before_a_round_left_open_is_voided(
        tmp_path, capsys, monkeypatch, change, words):
    """These failures came after the round was voided, so a round that fixing the
    setting would have let the next start resume was lost."""
    import tabletop21.devices

    monkeypatch.setattr(tabletop21.devices, "GpioControls", _PinsInUse)
    (tmp_path / "taken").write_text("a file, not a folder")
    open_round(tmp_path, Driver("domino21", ("Ann", "Ben"), bet=5, typed_kinds=()))  # a plain start voids it
    config = settings(tmp_path)
    config.write_text(change(config.read_text(), tmp_path))
    assert main(["run", "--config", str(config), "--frames", "1"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and words in err, err
    assert still_open(tmp_path)[0] is not None
    assert sessions_recorded(tmp_path) == [], "a run that stopped at its start records no session"


@pytest.mark.parametrize("sessions", ["sessions", "new/deeper/sessions"])
@pytest.mark.parametrize("store, words", [
    ("a-folder", "cannot be opened as a bankroll file"),
    ("not-a-database", "is not a readable bankroll file"),
    # Was a FileExistsError traceback: a file stands where the store's folder goes.
    ("not-a-database/bank.sqlite", "not-a-database: cannot keep the bankroll file here (File exists)"),
])
def test_a_run_stopped_by_its_bankroll_file_leaves_no_folder_it_made(tmp_path, capsys, sessions, store, words):
    """The session folder was removed, but the sessions folder made for it (and any
    folder above it made on the way) stayed behind, empty."""
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "not-a-database").write_text("chips: lots")
    config = settings(tmp_path)
    config.write_text(config.read_text().replace(f"{tmp_path}/bank.sqlite", f"{tmp_path}/{store}")
                      .replace(f"{tmp_path}/sessions", f"{tmp_path}/{sessions}"))
    before = sorted(tmp_path.iterdir())
    assert main(["run", "--config", str(config), "--frames", "1"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and words in err, err
    assert sorted(tmp_path.iterdir()) == before


def test_a_sessions_folder_that_was_there_stays_when_a_run_stops_at_its_start(tmp_path, capsys):
    (tmp_path / "sessions").mkdir()
    config = settings(tmp_path)
    config.write_text(config.read_text().replace(f"{tmp_path}/bank.sqlite", f"{tmp_path}"))
    assert main(["run", "--config", str(config), "--frames", "1"]) == 2
    assert "cannot be opened as a bankroll file" in capsys.readouterr().err
    assert (tmp_path / "sessions").is_dir() and sessions_recorded(tmp_path) == []


def test_a_camera_that_does_not_open_at_the_start_is_a_lost_camera_tried_again(tmp_path, monkeypatch, capsys):
    """The table's screen is where a person looks: a camera missing at the start says
    "Camera lost" there and is tried again, as mid-run, and the round left open is
    carried on, not stopped with only a log line while the screen stays blank."""
    import cv2

    class Unplugged:
        opens = 0

        def __init__(self, device):
            Unplugged.opens += 1

        def isOpened(self):
            return False

        def release(self):
            pass

    monkeypatch.setattr(cv2, "VideoCapture", Unplugged)
    open_round(tmp_path, Driver("dice-blackjack", ("Ann", "Ben"), bet=5))  # as the settings describe
    config = settings(tmp_path)
    config.write_text(config.read_text().replace(f'source = "{SESSION}"', 'source = "webcam"\ndevice = 3'))
    assert main(["run", "--config", str(config), "--frames", "3"]) == 0
    captured = capsys.readouterr()
    assert "the camera did not open (cannot open camera 3" in captured.err
    assert "resumes here" in captured.out and Unplugged.opens >= 2, "tried again from the loop"
    assert still_open(tmp_path)[0] is not None, "the round waits for the camera"


def test_a_camera_library_failing_mid_run_is_a_lost_camera_not_a_crash(tmp_path, monkeypatch, capsys):
    """cv2.error from VideoCapture.read ended run with a traceback; now the screen
    says the camera is lost and the loop goes on, to reopen it."""
    import cv2

    class Unplugged:
        reads = 0

        def __init__(self, device):
            pass

        def isOpened(self):
            return True

        def set(self, prop, value):
            return True

        def read(self):
            Unplugged.reads += 1
            if Unplugged.reads > 2:
                raise cv2.error("OpenCV(4.9.0) cap_v4l.cpp:1: error: (-2:Unspecified error) device gone")
            return True, np.zeros((48, 64, 3), np.uint8)

        def release(self):
            pass

    monkeypatch.setattr(cv2, "VideoCapture", Unplugged)
    config = settings(tmp_path)
    config.write_text(config.read_text().replace(f'source = "{SESSION}"', 'source = "webcam"'))
    assert main(["run", "--config", str(config), "--frames", "4"]) == 0
    assert Unplugged.reads >= 3 and "over 4 frames" in capsys.readouterr().out


def test_the_loop_keeps_its_timings_in_bounded_memory():
    from tabletop21.cli.cmd_run import LoopTimes

    times = LoopTimes()
    for n in range(LoopTimes.RECENT + 500):
        times.add(0.001 * (n % 10))
    assert times.count == LoopTimes.RECENT + 500 and len(times.recent) == LoopTimes.RECENT
    assert f"over {LoopTimes.RECENT + 500} frames" in str(times) and "ms p95" in str(times)


def test_a_short_night_keeps_every_chip_and_its_files_closed():
    """The night benchmark's own loop, a few rounds: the figures it prints are measured
    on the real store and recording, and chips are neither made nor lost."""
    from tabletop21.bench.night import night

    said: list[str] = []
    start, end = night(rounds=8, say=said.append)
    assert start["chips"] == end["chips"] == 4000 and end["disk_mb"] > start["disk_mb"]
    assert end["open_files"] <= start["open_files"] + 4 and len(said) == 9


def test_what_stopped_the_table_is_said_on_its_screen():
    """A full card ended run with a line in the terminal, which at a table nobody sees."""
    from table.ledger import Ledger
    from tabletop21.appliance import Appliance, Table
    from tabletop21.cli.cmd_run import stopped_screen
    from tabletop21.recording import RecordingError

    class Screen:
        def __init__(self):
            self.shown = []

        def show(self, view, frame):
            self.shown.append(view)

        def poll(self):
            return ["next"]

    screen = Screen()
    appliance = Appliance(Table(Driver("dice-blackjack", ("Ann", "Ben"), bet=5), Ledger.open({"Ann": 100, "Ben": 100})),
                          None, None, None)
    stopped_screen(screen, appliance, RecordingError("the disk under /x is full (No space left on device)"))
    view = screen.shown[0]
    assert view.screen == "error" and view.error.title == "The table stopped"
    assert "memory card is full" in view.error.todo and "No space left" in view.error.detail
