"""The bundled sessions replay through today's readers, driver and engines with no
difference, and the demo renders every screen without a display."""

import re
from pathlib import Path

import pytest

from hardware.recording import SessionReader
from hardware.replay import replay_session
from table.cli import main

SESSIONS = Path(__file__).resolve().parents[1] / "calibration_images" / "sessions"
GAMES = ("dicey21", "dice-blackjack", "blackjack-dice", "domino21")


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
    first_roll = next(i for i, line in enumerate(events) if '"table.rules.dicey21:Roll"' in line)
    events[first_roll] = re.sub(r'"dice":\[(\d)', lambda m: f'"dice":[{int(m.group(1)) % 6 + 1}', events[first_roll], 1)
    (copy / "events.jsonl").write_text("\n".join(events) + "\n")
    assert main(["replay", str(copy), "--check", "--headless"]) == 1
    assert "DIFFERENCE" in capsys.readouterr().out


def test_demo_renders_every_screen_headless(tmp_path, capsys):
    assert main(["demo", "--headless", "--size", "800x480", "--screenshots", str(tmp_path)]) == 0
    shots = sorted(tmp_path.glob("*.png"))
    kinds = {path.stem.split("-")[-1] for path in shots}
    assert {"attract", "play", "reading", "results", "bets"} <= kinds
    assert len(shots) >= 10


def test_replay_reads_with_the_calibration_the_table_used(tmp_path):
    """A calibration whose play area leaves the die out: the live table saw no die, and
    a replay must read the same way, not the whole frame."""
    from hardware.appliance import Appliance, Table, table_reader
    from hardware.frames import Frame
    from hardware.recording import Manifest, SessionWriter
    from table.driver import Driver, Motion, Press, SettledRead
    from table.ledger import Ledger
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
    from hardware.appliance import Appliance
    from hardware.replay import table_for
    from table.store import BankrollStore

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
