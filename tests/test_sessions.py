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
