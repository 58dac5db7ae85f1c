"""Bankrolls that survive a crash or a power cut: SQLite in WAL mode, one file per
table, every change one transaction.

Bets are not taken from a bankroll when a round starts; chips move only when the
round's settlement is posted, in the same transaction that marks the round settled.
So after any crash the bankrolls are exactly those before the round, and the
unfinished round is either resumed from its last saved state or voided, which
returns every bet simply by never posting it.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from table import serial
from table.errors import TableError
from table.ledger import Ledger

_SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    account TEXT PRIMARY KEY, chips INTEGER NOT NULL, credit INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS rounds (
    id INTEGER PRIMARY KEY, game TEXT NOT NULL, status TEXT NOT NULL
        CHECK (status IN ('open', 'settled', 'void')),
    started REAL NOT NULL, state TEXT NOT NULL, settlement TEXT);
CREATE UNIQUE INDEX IF NOT EXISTS one_open_round ON rounds(status) WHERE status = 'open';
"""


class StoreError(TableError):
    """The bankroll file is not in a state this operation allows."""


@dataclass(frozen=True)
class OpenRound:
    round_id: int
    game: str
    state: Any


class BankrollStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._db = sqlite3.connect(self.path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # a commit is on disk before we go on
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def _transaction(self):
        return _Transaction(self._db)

    def open_table(self, bankrolls: Mapping[str, int], credit: tuple[str, ...] = ()) -> Ledger:
        """Seat the players once; an existing table keeps its bankrolls."""
        ledger = Ledger.open(bankrolls, credit)
        with self._transaction():
            if self._db.execute("SELECT COUNT(*) FROM accounts").fetchone()[0] == 0:
                self._db.executemany("INSERT INTO accounts VALUES (?, ?, ?)",
                                     [(a, c, int(a in credit)) for a, c in ledger.balances])
        return self.ledger()

    def ledger(self) -> Ledger:
        rows = self._db.execute("SELECT account, chips, credit FROM accounts ORDER BY rowid").fetchall()
        return Ledger(tuple((a, c) for a, c, _ in rows), tuple(a for a, _, cr in rows if cr))

    def begin_round(self, game: str, state: Any) -> int:
        if self.unfinished() is not None:
            raise StoreError("a round is still open: resume or void it first")
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO rounds (game, status, started, state) VALUES (?, 'open', ?, ?)",
                (game, time.time(), serial.dumps(state)))
        return int(cursor.lastrowid)

    def save_state(self, round_id: int, state: Any) -> None:
        with self._transaction():
            self._require_open(round_id)
            self._db.execute("UPDATE rounds SET state = ? WHERE id = ?", (serial.dumps(state), round_id))

    def finish_round(self, round_id: int, settlement: Mapping[str, int], final_state: Any) -> Ledger:
        """Post the settlement and close the round in one transaction: both or neither."""
        with self._transaction():
            self._require_open(round_id)
            after = self.ledger().post(settlement)
            self._db.executemany("UPDATE accounts SET chips = ? WHERE account = ?",
                                 [(chips, account) for account, chips in after.balances])
            self._db.execute("UPDATE rounds SET status = 'settled', state = ?, settlement = ? WHERE id = ?",
                             (serial.dumps(final_state), serial.dumps(dict(settlement)), round_id))
        return after

    def void_round(self, round_id: int) -> None:
        with self._transaction():
            self._require_open(round_id)
            self._db.execute("UPDATE rounds SET status = 'void' WHERE id = ?", (round_id,))

    def unfinished(self) -> OpenRound | None:
        row = self._db.execute("SELECT id, game, state FROM rounds WHERE status = 'open'").fetchone()
        return None if row is None else OpenRound(row[0], row[1], serial.loads(row[2]))

    def _require_open(self, round_id: int) -> None:
        row = self._db.execute("SELECT status FROM rounds WHERE id = ?", (round_id,)).fetchone()
        if row is None or row[0] != "open":
            raise StoreError(f"round {round_id} is not open (it is {row[0] if row else 'unknown'})")


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb) -> None:
        self._db.execute("ROLLBACK" if exc_type else "COMMIT")
