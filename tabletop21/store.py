"""Bankrolls that survive a crash or a power cut: SQLite in WAL mode, one file per
table, every change one transaction.

Bets are not taken from a bankroll when a round starts; chips move only when the
round's settlement is posted, in the same transaction that marks the round settled.
So after any crash the bankrolls are exactly those before the round, and the
unfinished round is either resumed from its last saved state or voided, which
returns every bet simply by never posting it. Voiding needs only the round's id, so
a round whose saved state a later build can no longer decode is still voided.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from table import serial
from table.errors import BadBet, TableError
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
    saved: str  # the state as stored, decoded only on demand (see `state`)

    @property
    def state(self) -> Any:
        """The saved state; raises CorruptRecord when this build cannot decode it, which
        must never stop the round from being voided by its id."""
        return serial.loads(self.saved)


class BankrollStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.Error as err:
            raise StoreError(f"{self.path} cannot be opened as a bankroll file ({err}); "
                             "check that its folder exists and is writable") from None
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")  # a commit is on disk before we go on
            self._db.executescript(_SCHEMA)
            self.ledger()  # damaged bankrolls are refused now, not half-way through a round
        except sqlite3.DatabaseError as err:
            self._db.close()
            raise StoreError(f"{self.path} is not a readable bankroll file ({err}); "
                             "move it aside to start a new table, or restore a copy") from None
        except StoreError:
            self._db.close()
            raise

    def close(self) -> None:
        self._db.close()

    def _transaction(self):
        return _Transaction(self._db)

    def open_table(self, bankrolls: Mapping[str, int], credit: tuple[str, ...] = ()) -> Ledger:
        """Seat the players; an account already in the file keeps its bankroll, and one
        the settings add (a new seat, the house of a house-banked game) is opened as a
        new table would open it, so every round the settings can play can be posted."""
        ledger = Ledger.open(bankrolls, credit)
        with self._transaction():
            known = dict(self._db.execute("SELECT account, credit FROM accounts").fetchall())
            players = sorted(a for a in credit if known.get(a) == 0)
            if players:
                raise StoreError(f"{self.path}: {', '.join(players)} is a player's bankroll here, not the "
                                 "house's; give this game its own [table] store file")
            self._db.executemany("INSERT INTO accounts VALUES (?, ?, ?)",
                                 [(a, c, int(a in credit)) for a, c in ledger.balances if a not in known])
        return self.ledger()

    def ledger(self) -> Ledger:
        """The stored bankrolls, checked as a new table's would be: a hand-edited or
        damaged file is refused in words rather than posting onto nonsense."""
        rows = self._db.execute("SELECT account, chips, credit FROM accounts ORDER BY rowid").fetchall()
        if any(not isinstance(a, str) or cr not in (0, 1) for a, _, cr in rows):
            raise StoreError(f"{self.path}: the stored accounts are damaged: {rows}")
        try:
            return Ledger.open({a: c for a, c, _ in rows}, tuple(a for a, _, cr in rows if cr))
        except BadBet as err:
            raise StoreError(f"{self.path}: the stored bankrolls are damaged: {err}") from None

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

    def last_settled(self) -> Any:
        """The final state of the latest settled round (None before the first), from
        which the next round carries on: who banks, the round number, the shoe. Raises
        CorruptRecord when this build cannot decode it."""
        row = self._db.execute("SELECT state FROM rounds WHERE status = 'settled' ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else serial.loads(row[0])

    def unfinished(self) -> OpenRound | None:
        row = self._db.execute("SELECT id, game, state FROM rounds WHERE status = 'open'").fetchone()
        return None if row is None else OpenRound(*row)

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
