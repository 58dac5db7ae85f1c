"""Seeded random damage over a real bankroll file, opened as `run` and `doctor` open it.

    python -m tools.bank_damage [--cases 400] [--seed 1]

A bankroll file is made by the store itself (seats opened, rounds of Dice Blackjack
dealt, settled and one left open, a copy kept beside it as the table keeps one), and
each case damages a fresh copy of it: random bytes changed, a burst overwritten, a
page zeroed, the file cut short, deleted or emptied, or an edit by hand (chips added,
an account or a round deleted, an invalid UTF-8 byte in a saved round, a settlement
changed); with the copy beside it intact, gone, or damaged too. Then `doctor`'s check
and a start (open, then resume, void or the plain choice) are run on it and counted:

- traceback: anything raised but the table's own errors, which are said in one line;
- passed as ok: doctor said ok, or a start opened the file without a word, while what
  the file holds (accounts, opening chips, rounds, seal) differs from what was made;
- chips changed without a message: a start opened it without a word, and the
  bankrolls are not those that were made.

tests/test_bank_damage.py runs a few dozen cases; the counts must all be 0.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sqlite3
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

if __package__ in (None, ""):  # run as a script from the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from table.driver import Driver, Press, step  # noqa: E402
from table.errors import TableError  # noqa: E402
from tabletop21.appliance import reopen_round  # noqa: E402
from tabletop21.doctor import check_bankroll_file  # noqa: E402
from tabletop21.store import BankrollStore  # noqa: E402

SEATS = ("Ann", "Ben")
EXISTED = "2 session recordings in /home/pi/tabletop21/sessions"  # a table that records, as every real one does
KINDS = ("bytes", "burst", "page", "truncate", "delete", "empty", "chips", "drop-account", "drop-round", "utf8",
         "settlement")
COPIES = ("intact", "gone", "damaged")


def table() -> Driver:
    return Driver("dice-blackjack", SEATS, bet=5)


def make_bank(folder: Path, rounds: int = 6, seed: int = 0) -> Path:
    """A bankroll file as the table writes it: its rounds settled through the store,
    the last one left open, a copy beside it."""
    rng = random.Random(seed)
    path = folder / "bank.sqlite"
    store = BankrollStore(path)
    try:
        ledger = store.open_table({seat: 100 for seat in SEATS})
        for n in range(rounds):
            dealt = step(table(), Press("shake"), ledger)
            round_id = store.begin_round("dice-blackjack", dealt)
            store.save_state(round_id, dealt)
            if n == rounds - 1:
                break  # left open, as a stop leaves it
            chips = rng.randint(1, 10)
            winner, loser = rng.sample(SEATS, 2)
            ledger = store.finish_round(round_id, {winner: chips, loser: -chips}, dealt)
    finally:
        store.close()
    return path


def snapshot(path: Path):
    """What the file holds, read as leniently as SQLite allows; None when it cannot be read."""
    try:
        db = sqlite3.connect(f"file:{quote(str(path))}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error:
        return None
    db.text_factory = bytes
    try:
        return tuple(tuple(db.execute(f"SELECT * FROM {name} ORDER BY 1").fetchall())
                     for name in ("accounts", "opening", "rounds", "seal"))
    except sqlite3.Error:
        return None
    finally:
        db.close()


def bankrolls_of(path: Path):
    held = snapshot(path)
    return None if held is None else {a.decode(errors="replace"): c for a, c, _ in held[0]}


def damage(path: Path, kind: str, rng: random.Random) -> None:
    data = bytearray(path.read_bytes())
    if kind == "bytes":
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif kind == "burst":
        at, length = rng.randrange(len(data)), rng.randint(16, 600)
        data[at:at + length] = rng.randbytes(min(length, len(data) - at))
    elif kind == "page":
        page = rng.randrange(len(data) // 4096)
        data[page * 4096:(page + 1) * 4096] = bytes(4096)
    elif kind == "truncate":
        del data[rng.randrange(len(data)):]
    elif kind == "delete":
        path.unlink()
        return
    elif kind == "empty":
        data = bytearray()
    else:
        db = sqlite3.connect(path)
        if kind == "chips":
            db.execute("UPDATE accounts SET chips = chips + ? WHERE account = ?",
                       (rng.choice((1, 7, 1000, -3)), rng.choice(SEATS)))
        elif kind == "drop-account":
            db.execute("DELETE FROM accounts WHERE account = ?", (rng.choice(SEATS),))
        elif kind == "drop-round":
            db.execute("DELETE FROM rounds WHERE id = ?", (rng.randint(1, 6),))
        elif kind == "utf8":
            db.execute("UPDATE rounds SET state = CAST(substr(CAST(state AS BLOB), 1, ?) || X'FF' "
                       "|| substr(CAST(state AS BLOB), ?) AS TEXT) WHERE id = ?",
                       (at := rng.randint(1, 40), at + 2, rng.randint(1, 6)))
        elif kind == "settlement":
            db.execute("UPDATE rounds SET settlement = ? WHERE id = ?",
                       ('{"Ann":-3,"Ben":3}', rng.randint(1, 5)))
        db.commit()
        db.close()
        return
    path.write_bytes(bytes(data))


@dataclass
class Counts:
    cases: int = 0
    tracebacks: int = 0
    passed_as_ok: int = 0  # doctor said ok, or a start opened without a word, a file not as made
    chips_changed_silently: int = 0
    outcomes: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)

    def failed(self) -> int:
        return self.tracebacks + self.passed_as_ok + self.chips_changed_silently

    def traceback(self, label: str, what: str, err: Exception) -> None:
        self.tracebacks += 1
        self.failures.append(f"{label}: {what} raised {type(err).__name__}: {err}")


def one_case(made: Path, work: Path, rng: random.Random, counts: Counts) -> None:
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(made, work)
    path = work / "bank.sqlite"
    kind, copies = rng.choice(KINDS), rng.choice(COPIES)
    damage(path, kind, rng)
    copy = work / "bank.sqlite.copy"
    if copies == "gone":
        for each in work.glob("bank.sqlite.copy*"):
            each.unlink()
    elif copies == "damaged":
        (work / "bank.sqlite.copy.1").unlink(missing_ok=True)
        damage(copy, rng.choice(("bytes", "burst", "chips", "truncate")), rng)
    label = f"{kind}/{copies}"
    counts.cases += 1
    made_content, made_bankrolls = snapshot(made / "bank.sqlite"), bankrolls_of(made / "bank.sqlite")
    damaged = snapshot(path) if path.exists() else None
    try:
        finding = check_bankroll_file(path, EXISTED)
    except Exception as err:  # noqa: BLE001 - what is counted
        counts.traceback(label, "doctor", err)
        finding = None
    if finding is not None and finding.ok and damaged != made_content:
        counts.passed_as_ok += 1
        counts.failures.append(f"{label}: doctor said ok: {finding.says}")
    choice = rng.choice(("auto", "resume", "void"))
    try:
        store = BankrollStore(path, existed=EXISTED)
    except TableError:
        counts.outcomes[f"refused in words (copy {copies})"] += 1
        return
    except Exception as err:  # noqa: BLE001
        counts.traceback(label, "open", err)
        return
    try:
        bankrolls = store.ledger().as_dict()
        said = list(store.notices)
        opened = snapshot(path)
        try:
            reopen_round(store, table(), choice)
        except TableError:
            pass
    except Exception as err:  # noqa: BLE001
        counts.traceback(label, choice, err)
        return
    finally:
        store.close()
    if said:
        counts.outcomes["restored, said so"] += 1
        return
    if bankrolls != made_bankrolls:
        counts.chips_changed_silently += 1
        counts.failures.append(f"{label}: opened without a word with {bankrolls}, made with {made_bankrolls}")
    elif opened != made_content:
        counts.passed_as_ok += 1
        counts.failures.append(f"{label}: opened without a word, its content not as made")
    else:
        counts.outcomes["opened, nothing that counts changed"] += 1


def run(cases: int, seed: int) -> Counts:
    rng = random.Random(seed)
    counts = Counts()
    with tempfile.TemporaryDirectory() as tmp:
        made = Path(tmp) / "made"
        made.mkdir()
        make_bank(made, seed=seed)
        for _ in range(cases):
            one_case(made, Path(tmp) / "case", rng, counts)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    counts = run(args.cases, args.seed)
    print(f"{counts.cases} damaged bankroll files (seed {args.seed}):")
    print(f"  tracebacks: {counts.tracebacks}")
    print(f"  damaged files passed as ok: {counts.passed_as_ok}")
    print(f"  chip counts changed without a message: {counts.chips_changed_silently}")
    for outcome, n in sorted(counts.outcomes.items()):
        print(f"  {outcome}: {n}")
    for failure in counts.failures[:20]:
        print(f"  FAILED {failure}")
    return 1 if counts.failed() else 0


if __name__ == "__main__":
    sys.exit(main())
