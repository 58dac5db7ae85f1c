"""`tabletop21 run` end to end on a recorded session as its camera: settings file,
bankroll store, recording, display; and a crash-left round must be resumed or voided."""

from pathlib import Path

from table.cli import main
from table.store import BankrollStore

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


def test_a_round_left_open_must_be_resumed_or_voided(tmp_path, capsys):
    config = settings(tmp_path)
    store = BankrollStore(tmp_path / "bank.sqlite")
    store.open_table({"Ann": 100, "Ben": 100})
    store.begin_round("dice-blackjack", {"half": "done"})
    store.close()
    assert main(["run", "--config", str(config), "--frames", "1"]) == 2
    assert "--resume to finish it or --void" in capsys.readouterr().err
    assert main(["run", "--config", str(config), "--frames", "1", "--void"]) == 0
    assert BankrollStore(tmp_path / "bank.sqlite").unfinished() is None
