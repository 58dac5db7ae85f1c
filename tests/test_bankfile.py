"""The bankroll file checks itself (SQLite's integrity check, the books balanced, the
seal), keeps a copy beside it, is restored from it in words, is held by one table at a
time, and says what a read-only mount or a full disk means without a traceback."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop21 import bankfile, doctor
from tabletop21.cli import main
from tabletop21.store import BankrollStore, StoreError
from tests.test_run_command import settings

OLD = Path(__file__).resolve().parent / "old_format"


def played(path: Path) -> dict:
    """Ann wins 20 in a settled round; a second round is left open (a stop)."""
    store = BankrollStore(path)
    store.open_table({"Ann": 100, "Ben": 100, "house": 0}, ("house",))
    round_id = store.begin_round("dicey21", {"step": 1})
    store.finish_round(round_id, {"Ann": 20, "house": -20}, {"step": 2})
    store.wait_for_copy()  # the copy beside it is the one made after round 1, before round 2 began
    store.save_state(store.begin_round("dicey21", {"step": 3}), {"step": 4})
    bankrolls = store.ledger().as_dict()
    store.close()
    return bankrolls


def edit(path: Path, sql: str, *args) -> None:
    db = sqlite3.connect(path)
    db.execute(sql, args)
    db.commit()
    db.close()


def no_copies(path: Path) -> None:
    for copy in path.parent.glob(path.name + ".copy*"):
        copy.unlink()


DAMAGE = {
    "deleted": lambda path: path.unlink(),
    "emptied": lambda path: path.write_bytes(b""),
    "an account row deleted": lambda path: edit(path, "DELETE FROM accounts WHERE account = 'Ben'"),
    "chips +1000 typed in": lambda path: edit(path, "UPDATE accounts SET chips = chips + 1000 WHERE account = 'Ann'"),
    "an invalid UTF-8 byte in a saved round": lambda path: edit(
        path, "UPDATE rounds SET state = CAST(X'7B2273746570223AFF7D' AS TEXT) WHERE id = (SELECT max(id) FROM rounds)"),
    "a settlement changed": lambda path: edit(path, "UPDATE rounds SET settlement = '{\"Ann\":40,\"house\":-40}'"),
}


@pytest.mark.parametrize("how", DAMAGE)
def test_a_damaged_or_missing_file_is_restored_from_its_copy_in_words(tmp_path, how):
    path = tmp_path / "bank.sqlite"
    bankrolls = played(path)
    DAMAGE[how](path)
    store = BankrollStore(path)
    try:
        assert store.ledger().as_dict() == bankrolls == {"Ann": 120, "Ben": 100, "house": -20}
        said = " ".join(store.notices)
        assert "restored from bank.sqlite.copy, its copy after round 1" in said and "Ann 120, Ben 100" in said
        # the round in play is void: its bets never left. Only a file that still shows it can say it was there
        assert store.unfinished() is None
        if how in ("deleted", "emptied"):
            assert "the round that was in play" not in said
        else:
            assert "the round that was in play is void" in said
            assert "no settled round is lost" in said and "kept as bank.sqlite.damaged-" in said
            assert list(tmp_path.glob("bank.sqlite.damaged-*"))
    finally:
        store.close()
    reopened = BankrollStore(path)
    assert reopened.notices == [] and reopened.ledger().as_dict() == bankrolls
    reopened.close()


@pytest.mark.parametrize("how", [h for h in DAMAGE if h not in ("deleted", "emptied")])
def test_a_damaged_file_without_a_copy_is_refused_in_one_line_that_keeps_it(tmp_path, how):
    path = tmp_path / "bank.sqlite"
    played(path)
    DAMAGE[how](path)
    no_copies(path)
    before = path.read_bytes()
    with pytest.raises(StoreError) as refused:
        BankrollStore(path)
    said = str(refused.value)
    assert "is not a readable bankroll file" in said and "no good copy" in said and "Keep the file" in said
    assert "\n" not in said and path.read_bytes() == before
    finding = doctor.check_bankroll_file(path)
    assert not finding.ok and "no good copy" in finding.says and "--new-table" in finding.fix
    fresh = BankrollStore(path, new_table=True)
    assert fresh.ledger().as_dict() == {} and "a new table starts" in fresh.notices[0]
    fresh.close()
    assert [p.read_bytes() for p in tmp_path.glob("bank.sqlite.damaged-*")] == [before]


def test_the_issues_utf8_byte_stops_no_start_plain_resume_or_void(tmp_path, capsys):
    """Every start ended in `sqlite3.OperationalError: Could not decode to UTF-8 column 'state'`."""
    config = str(settings(tmp_path))
    played(tmp_path / "bank.sqlite")
    for choice in ([], ["--resume"], ["--void"]):
        DAMAGE["an invalid UTF-8 byte in a saved round"](tmp_path / "bank.sqlite")
        assert main(["run", "--config", config, "--frames", "1", *choice]) == 0
        assert "restored from bank.sqlite.copy" in capsys.readouterr().out
    no_copies(tmp_path / "bank.sqlite")
    DAMAGE["an invalid UTF-8 byte in a saved round"](tmp_path / "bank.sqlite")
    for choice in ([], ["--resume"], ["--void"]):
        assert main(["run", "--config", config, "--frames", "1", *choice]) == 2
        err = capsys.readouterr().err
        assert "do not match their seal" in err and len(err.strip().splitlines()) == 1
    assert main(["doctor", "--config", config]) == 1
    assert "[PROBLEM] bankrolls:" in capsys.readouterr().out


def test_a_missing_file_where_recordings_show_a_table_is_refused_not_a_fresh_table(tmp_path, capsys):
    """A deleted file became a fresh table: a seat's 120 chips became 100."""
    config = str(settings(tmp_path))
    assert main(["run", "--config", config, "--frames", "1"]) == 0
    (tmp_path / "bank.sqlite").unlink()
    no_copies(tmp_path / "bank.sqlite")
    capsys.readouterr()
    assert main(["run", "--config", config, "--frames", "1"]) == 2
    err = capsys.readouterr().err
    assert "bank.sqlite is missing, but 1 session recording in" in err and "--new-table" in err
    assert not (tmp_path / "bank.sqlite").exists()
    assert main(["doctor", "--config", config]) == 1
    assert "is missing, but 1 session recording" in capsys.readouterr().out
    assert main(["run", "--config", config, "--frames", "1", "--new-table"]) == 0
    assert BankrollStore(tmp_path / "bank.sqlite").ledger().as_dict() == {"Ann": 100, "Ben": 100}


def test_doctor_says_what_run_will_restore_and_passes_a_sound_file(tmp_path):
    path = tmp_path / "bank.sqlite"
    played(path)
    sound = doctor.check_bankroll_file(path)
    assert sound.ok and "check out (Ann 120, Ben 100, house -20; 2 rounds)" in sound.says
    edit(path, "UPDATE accounts SET chips = chips + 1000 WHERE account = 'Ann'")
    damaged = doctor.check_bankroll_file(path)
    assert not damaged.ok and "1000 chips came from nowhere" in damaged.says
    assert "`tabletop21 run` restores it from bank.sqlite.copy, its copy after round 1" in damaged.says
    assert BankrollStore(path).ledger().as_dict()["Ann"] == 120


def test_an_old_file_is_sealed_on_open_and_checked_from_then_on(tmp_path):
    path = tmp_path / "bank.sqlite"
    shutil.copy(OLD / "bank-open-round.sqlite", path)
    assert doctor.check_bankroll_file(path).ok
    store = BankrollStore(path)
    assert "written by an earlier tabletop21" in store.notices[0] and store.unfinished() is not None
    store.close()
    assert {"opening", "seal"} <= {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")}
    edit(path, "UPDATE accounts SET chips = 1100 WHERE account = 'Ann'")
    no_copies(path)
    with pytest.raises(StoreError, match="Ann holds 1100 chips, but opened with 100"):
        BankrollStore(path)


HOLDER = """
import sys, time
from tabletop21.store import BankrollStore
store = BankrollStore(sys.argv[1])
print("held", flush=True)
time.sleep(30)
"""


def test_a_second_table_on_one_file_is_refused_naming_the_process_that_holds_it(tmp_path, capsys):
    """The second appliance resumed the first one's live round, or voided it."""
    path = tmp_path / "bank.sqlite"
    played(path)
    first = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdout=subprocess.PIPE, text=True,
                             cwd=Path(__file__).resolve().parents[1])
    try:
        assert first.stdout.readline().strip() == "held"
        with pytest.raises(StoreError, match=rf"in use by another table \(process {first.pid}\): one table per"):
            BankrollStore(path)
        finding = doctor.check_bankroll_file(path)
        assert finding.ok and f"the table running now (process {first.pid}) has it open" in finding.says
        config = settings(tmp_path)
        assert main(["run", "--config", str(config), "--frames", "1", "--void"]) == 2
        assert f"process {first.pid}" in capsys.readouterr().err
    finally:
        first.kill()
        first.wait()
    store = BankrollStore(path)  # the first one gone, the file is free again, its open round still there
    assert store.unfinished() is not None
    store.close()


def test_a_read_only_file_is_said_to_be_read_only_never_moved_aside(tmp_path, monkeypatch):
    """'not a readable bankroll file ... move it aside to start a new table': following
    that advice threw the bankrolls away."""
    path = tmp_path / "bank.sqlite"
    played(path)
    before = path.read_bytes()

    class ReadOnly:
        f_flag = os.ST_RDONLY

    monkeypatch.setattr(bankfile.os, "statvfs", lambda folder: ReadOnly())
    with pytest.raises(StoreError) as refused:
        BankrollStore(path)
    said = str(refused.value)
    assert "cannot be written (it is on a read-only mount)" in said and "Its bankrolls are kept" in said
    assert "move it aside" not in said and "not a readable" not in said
    finding = doctor.check_bankroll_file(path)
    assert not finding.ok and finding.says.startswith(f"the bankrolls in {path} check out")
    assert "read-only mount" in finding.says and "move" not in finding.says
    assert path.read_bytes() == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes a read-only file")
def test_a_read_only_folder_is_said_to_be_read_only(tmp_path):
    path = tmp_path / "bank.sqlite"
    played(path)
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(StoreError, match="is read-only.*Its bankrolls are kept"):
            BankrollStore(path)
    finally:
        tmp_path.chmod(0o755)


def test_a_full_disk_is_said_in_words_and_the_round_in_play_stays_whole(tmp_path):
    path = tmp_path / "bank.sqlite"
    played(path)
    store = BankrollStore(path)
    pending = store.unfinished()
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StoreError, match=r"the disk under .* is full .* the round in play stays as it was last saved"):
        store.save_state(pending.round_id, {"step": "x" * 200_000})
    with pytest.raises(StoreError, match="is full"):
        store.finish_round(pending.round_id, {"Ann": 5, "Ben": -5}, {"step": "y" * 200_000})
    store.close()
    reopened = BankrollStore(path)
    assert reopened.notices == [] and reopened.unfinished() == pending
    assert reopened.ledger().as_dict() == {"Ann": 120, "Ben": 100, "house": -20}
    reopened.close()


def test_a_copy_that_cannot_be_made_is_a_warning_not_a_stop(tmp_path, monkeypatch, capsys):
    path = tmp_path / "bank.sqlite"
    played(path)
    store = BankrollStore(path)

    def full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(bankfile.os, "replace", full)
    round_id = store.unfinished().round_id
    assert store.finish_round(round_id, {"Ann": 5, "Ben": -5}, {}).as_dict()["Ann"] == 125
    store.wait_for_copy()  # made in the background: the camera loop does not wait for it
    assert "warning: no copy of" in capsys.readouterr().err
    assert not list(tmp_path.glob("*.tmp"))
    store.close()


def test_an_old_file_with_a_byte_that_is_not_utf8_in_its_open_round_voids_it_keeping_the_bankrolls(tmp_path):
    """An old file has no copy to restore from: the round is voided by its id, as any
    round this build cannot decode, and the bankrolls are kept. Every start (plain,
    --resume, --void) stopped with `Could not decode to UTF-8 column 'state'`."""
    from table.driver import Driver
    from tabletop21.appliance import reopen_round

    path = tmp_path / "bank.sqlite"
    shutil.copy(OLD / "bank-open-round.sqlite", path)
    edit(path, "UPDATE rounds SET state = CAST(X'7B22FF22' AS TEXT)")
    store = BankrollStore(path)
    assert "written by an earlier tabletop21" in store.notices[0]
    table = Driver("dice-blackjack", ("Ann", "Ben"), bet=5)
    with pytest.raises(StoreError, match="its saved state is not UTF-8 text \\(a damaged byte\\)"):
        reopen_round(store, table, "resume")
    assert "The round left open by a stop was voided" in reopen_round(store, table, "auto").notice
    store.close()
    store = BankrollStore(path)
    assert store.notices == [] and store.unfinished() is None
    assert store.ledger().as_dict() == {"Ann": 100, "Ben": 100, "house": 0}
    store.close()


def test_a_restore_the_full_disk_refuses_is_said_and_leaves_the_copy(tmp_path, monkeypatch):
    path = tmp_path / "bank.sqlite"
    played(path)
    DAMAGE["chips +1000 typed in"](path)
    copy = (tmp_path / "bank.sqlite.copy").read_bytes()

    def full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(bankfile.shutil, "copyfile", full)
    with pytest.raises(StoreError, match=r"restoring it from bank.sqlite.copy failed \(No space left on device\): "
                                         r"bank.sqlite.copy is kept as it was, and the damaged file as "):
        BankrollStore(path)
    monkeypatch.undo()
    assert (tmp_path / "bank.sqlite.copy").read_bytes() == copy
    store = BankrollStore(path)  # space again: restored now
    assert store.ledger().as_dict()["Ann"] == 120 and "was missing: restored" in store.notices[0]
    store.close()


def test_a_restore_from_an_older_copy_names_the_rounds_it_lost(tmp_path):
    path = tmp_path / "bank.sqlite"
    played(path)
    older = (tmp_path / "bank.sqlite.copy").read_bytes()
    store = BankrollStore(path)
    store.finish_round(store.unfinished().round_id, {"Ben": 10, "house": -10}, {"step": 5})
    store.begin_round("dicey21", {"step": 6})
    store.close()
    (tmp_path / "bank.sqlite.copy").write_bytes(older)  # a stop came before the newer copies were made
    (tmp_path / "bank.sqlite.copy.1").unlink()
    DAMAGE["chips +1000 typed in"](path)
    store = BankrollStore(path)
    said = store.notices[0]
    assert "its copy after round 1" in said and "round 2, settled or voided in the damaged file, is lost" in said
    assert store.ledger().as_dict() == {"Ann": 120, "Ben": 100, "house": -20}
    store.close()
