"""Files written before records had stable tags (their "@type" was a module path such
as "table.driver:Press" or "vision.types:Die") still load: a session recorded then
replays and checks, and a bankroll file with a round left open resumes it."""

from __future__ import annotations

import shutil
from pathlib import Path

from table import serial
from table.driver import Driver, Typed, step
from table.rules.cards import Card
from tabletop21.cli import main
from tabletop21.store import BankrollStore

OLD = Path(__file__).resolve().parent / "old_format"


def test_an_old_format_session_replays_and_checks(capsys):
    assert "table.driver:Press" in (OLD / "dicey21-session" / "events.jsonl").read_text()
    assert main(["replay", str(OLD / "dicey21-session"), "--check", "--headless"]) == 0
    assert "DIFFERENCE" not in capsys.readouterr().out


def test_an_old_format_bankroll_file_resumes_its_open_round(tmp_path):
    path = tmp_path / "bank.sqlite"
    shutil.copy(OLD / "bank-open-round.sqlite", path)
    store = BankrollStore(path)
    try:
        left_open = store.unfinished()
        assert left_open is not None and '"@type":"table.driver:Driver"' in left_open.saved
        driver = left_open.state
        assert isinstance(driver, Driver) and driver.phase == "typed" and driver.round_no == 1
        dealt = step(driver, Typed("7H"), store.ledger())
        assert dealt.applied and dealt.seen == () and dealt.state != driver.state
        assert store.ledger().as_dict() == {"Ann": 100, "Ben": 100, "house": 0}
    finally:
        store.close()


def test_records_are_written_under_their_tags_and_read_under_old_names():
    assert serial.dumps(Card("7", "H")) == '{"@type":"card","rank":"7","suit":"H"}'
    assert serial.loads('{"@type":"table.rules.cards:Card","rank":"7","suit":"H"}') == Card("7", "H")
