"""Bankrolls that survive a crash or a power cut: SQLite in WAL mode, one file per
table, every change one transaction.

Bets are not taken from a bankroll when a round starts; chips move only when the
round's settlement is posted, in the same transaction that marks the round settled.
So after any crash the bankrolls are exactly those before the round, and the
unfinished round is either resumed from its last saved state or voided, which
returns every bet simply by never posting it. Voiding needs only the round's id, so
a round whose saved state a later build can no longer decode is still voided.

The file checks itself at every open (tabletop21.bankfile: SQLite's integrity check,
the books balanced against the opening chips and the settled rounds, and a seal over
all of it), keeps a rotating copy beside it after every settled round, and is restored
from that copy, in words, when it is found damaged, missing or empty. One table per
file: a second start on it is refused while the first holds it.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from table import serial
from table.errors import BadBet
from table.ledger import Ledger
from tabletop21 import bankfile
from tabletop21.bankfile import StoreError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    account TEXT PRIMARY KEY, chips INTEGER NOT NULL, credit INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS rounds (
    id INTEGER PRIMARY KEY, game TEXT NOT NULL, status TEXT NOT NULL
        CHECK (status IN ('open', 'settled', 'void')),
    started REAL NOT NULL, state TEXT NOT NULL, settlement TEXT);
CREATE UNIQUE INDEX IF NOT EXISTS one_open_round ON rounds(status) WHERE status = 'open';
"""


# Held while a copy is made in the background; a fork waits for it. A process forked
# while a copying thread held SQLite's own locks found them held for good, and hung.
_FORK_GATE = threading.Lock()
os.register_at_fork(before=_FORK_GATE.acquire, after_in_parent=_FORK_GATE.release,
                    after_in_child=_FORK_GATE.release)


@dataclass(frozen=True)
class OpenRound:
    round_id: int
    game: str
    saved: str | bytes  # the state as stored, decoded only on demand (see `state`); bytes when not UTF-8

    @property
    def state(self) -> Any:
        """The saved state; raises CorruptRecord when this build cannot decode it, which
        must never stop the round from being voided by its id."""
        return _loads(self.saved)


def _text(saved: bytes) -> str | bytes:
    """A saved state read as bytes (SQLite's text, undecoded: a byte that is not UTF-8
    stopped every start with sqlite3's OperationalError), as text where it is text."""
    try:
        return saved.decode("utf-8")
    except (UnicodeDecodeError, AttributeError):
        return saved


def _loads(saved: str | bytes) -> Any:
    if not isinstance(saved, str):
        raise serial.CorruptRecord("its saved state is not UTF-8 text (a damaged byte)")
    return serial.loads(saved)


class BankrollStore:
    def __init__(self, path: str | Path, *, new_table: bool = False, existed: str = "") -> None:
        """Open, check and lock the bankroll file. `existed`, when the caller knows a
        table was played here (its session recordings), turns a missing or empty file
        with no copy beside it from a new table into a refusal: the bankrolls are
        somewhere, and fresh ones would hide that. `new_table` starts fresh bankrolls
        where the file is missing, empty or damaged and no good copy is beside it (a
        good copy is restored all the same), a damaged file kept aside. What the open
        did that a person must hear (a restore, an old file sealed) is in `notices`."""
        self.path = Path(path)
        self.notices: list[str] = []
        self._key = None
        self._copying = threading.Lock()
        self._copier: threading.Thread | None = None
        self._copy_wanted = False
        self._void_restored: int | None = None
        if self.path.parent.is_dir() and not self.path.is_dir():
            why = bankfile.read_only(self.path)
            if why:
                raise StoreError(bankfile.read_only_words(self.path, why))
        made = not self.path.exists() and not self.path.is_symlink()  # locking it makes it, empty
        self._key = bankfile.lock(self.path)
        try:
            self._db = self._open(new_table, existed, made)
        except BaseException:
            if made and bankfile.is_missing(self.path) == "empty":
                with suppress(OSError):
                    self.path.unlink()  # a refused start leaves nothing it made
            bankfile.unlock(self._key)
            raise

    def _open(self, new_table: bool, existed: str, made: bool) -> sqlite3.Connection:
        gone = bankfile.is_missing(self.path)
        if gone:
            gone = "missing" if made else gone
            if Path(f"{self.path}-wal").exists():  # would be replayed onto whatever is put here
                bankfile.put_aside(self.path, ("-wal", "-shm"))
            found = bankfile.good_copy(self.path)
            if found:
                self._restore(found, f"was {gone}", None, None)
            elif existed and not new_table:
                raise StoreError(f"{self.path} is {gone}, but {existed} show a table played here: put the bankroll "
                                 "file back from a backup of your own, or start a new table with fresh bankrolls "
                                 "by `tabletop21 run --new-table`")
            return self._ready(self._connect())
        db = self._connect()
        checked = bankfile.check(db)
        if not checked.problem:
            return self._ready(db, checked)
        seen = _rounds_seen(db)
        db.close()
        found = bankfile.good_copy(self.path)
        if found is None and new_table:
            aside = bankfile.put_aside(self.path)
            self._relock()
            self.notices.append(f"{self.path} was damaged ({checked.problem}): kept as {aside.name}; a new table "
                                "starts with fresh bankrolls")
            return self._ready(self._connect())
        if found is None:
            raise StoreError(f"{self.path} is not a readable bankroll file ({checked.problem}), and no good copy of "
                             "it is beside it. Keep the file: restore it from a backup of your own, or start a new "
                             "table with fresh bankrolls by `tabletop21 run --new-table`, which keeps this file aside")
        try:
            aside = bankfile.put_aside(self.path)
        except OSError as err:
            raise StoreError(f"{self.path} is damaged ({checked.problem}) and could not be moved aside to restore "
                             f"its copy ({err.strerror or err}); check that its folder is writable") from None
        self._restore(found, f"was damaged ({checked.problem})", seen, aside)
        return self._ready(self._connect())

    def _connect(self) -> sqlite3.Connection:
        try:
            return sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.Error as err:
            raise StoreError(f"{self.path} cannot be opened as a bankroll file ({err}); "
                             "check that its folder exists and is writable") from None

    def _relock(self) -> None:
        """The lock moves to the file now at the path (a restored or new one)."""
        key = bankfile.lock(self.path)
        bankfile.unlock(self._key)
        self._key = key

    def _restore(self, found, what: str, seen: tuple[int, bool] | None, aside: Path | None) -> None:
        """The copy put in place of the file, and what that restored and lost in
        `notices`. `seen` is what the damaged file still showed: its latest closed
        round and whether a round was open in it (None when it showed nothing)."""
        copy, checked = found
        try:
            bankfile.restore(self.path, copy)
        except OSError as err:  # a full disk: the copy stays as it was, and so does what was set aside
            raise StoreError(f"{self.path} {what}, and restoring it from {copy.name} failed ({err.strerror or err}): "
                             f"{copy.name} is kept as it was{f', and the damaged file as {aside.name}' if aside else ''}"
                             "; free some space and start again") from None
        self._relock()
        if seen is None:
            lost = (f"anything played after round {checked.closed} is lost" if checked.closed
                    else "anything played since is lost")
        elif seen[0] > checked.closed:
            first, last = checked.closed + 1, seen[0]
            lost = (f"round{'s' if last > first else ''} {first}{f' to {last}' if last > first else ''}, settled "
                    "or voided in the damaged file, " + ("are" if last > first else "is") + " lost")
        else:
            lost = "no settled round is lost"
        in_play = checked.open is not None or (seen is not None and seen[1])
        self.notices.append(
            f"{self.path} {what}: restored from {bankfile.copy_words(copy, checked)}: bankrolls "
            f"{bankfile.bankrolls_words(checked.bankrolls)}; {lost}"
            + ("; the round that was in play is void: its bets never left the bankrolls" if in_play else "") + "."
            + (f" The damaged file is kept as {aside.name}." if aside else ""))
        self._void_restored = checked.open

    def _ready(self, db: sqlite3.Connection, checked: bankfile.Checked | None = None) -> sqlite3.Connection:
        """The checked (or new) file in WAL mode, its tables there, an old file sealed,
        and a copy beside it."""
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")  # a commit is on disk before we go on
            names = bankfile.tables(db)
            self._db = db
            if "seal" not in names:
                with self._transaction():
                    for statement in (_SCHEMA + bankfile.SEAL_SCHEMA).split(";"):
                        if statement.strip():
                            db.execute(statement)
                    self._open_accounts_as_they_stand()
                    bankfile.seal_afresh(db)
                if checked is not None and checked.bankrolls:
                    self.notices.append(f"{self.path} was written by an earlier tabletop21: its bankrolls "
                                        f"({bankfile.bankrolls_words(checked.bankrolls)}) are sealed as they stand "
                                        "and checked at every start from now on")
            self.ledger()  # damaged bankrolls are refused now, not half-way through a round
        except sqlite3.DatabaseError as err:
            db.close()
            raise StoreError(f"{self.path} is not a readable bankroll file ({err}); run `tabletop21 doctor`") from None
        except StoreError:
            db.close()
            raise
        if self._void_restored is not None:  # its saved state may be older than the table it was played at
            with self._transaction():
                db.execute("UPDATE rounds SET status = 'void' WHERE id = ? AND status = 'open'", (self._void_restored,))
                bankfile.reseal(db, closing=self._void_restored)
            self._void_restored = None
        if not bankfile.copy_path(self.path, bankfile.COPIES[0]).exists():
            self._keep_copy()
        return db

    def _open_accounts_as_they_stand(self) -> None:
        """An old file's opening chips: what each account holds less what the settled
        rounds moved to it (nothing before the seal can tell more)."""
        moved: dict[str, int] = {}
        for (text,) in self._db.execute("SELECT settlement FROM rounds WHERE status = 'settled'"):
            for account, chips in json.loads(text).items():
                moved[account] = moved.get(account, 0) + chips
        self._db.executemany("INSERT INTO opening VALUES (?, ?, ?)",
                             [(account, chips - moved.get(account, 0), credit) for account, chips, credit
                              in self._db.execute("SELECT account, chips, credit FROM accounts").fetchall()])

    def _keep_copy(self) -> None:
        """The copy beside the file, made now (at open)."""
        trouble = bankfile.keep_copy(self._db, self.path)
        if trouble:  # the file itself is whole: the table goes on, and says so where it was started
            print(f"tabletop21: warning: {trouble}", file=sys.stderr)

    def _copy_soon(self) -> None:
        """The copy made anew after a settled or voided round, in the background from a
        connection of its own (a committed snapshot, which WAL lets it read while the
        table writes): a long-played file takes a while to copy, and the camera loop
        must not wait for it. Requests while one is made are made once, after it."""
        with self._copying:
            self._copy_wanted = True
            if self._copier is not None:
                return
            self._copier = threading.Thread(target=self._copy_while_wanted, name="bankroll-copy", daemon=True)
            self._copier.start()

    def _copy_while_wanted(self) -> None:
        while True:
            with self._copying:
                if not self._copy_wanted:
                    self._copier = None
                    return
                self._copy_wanted = False
            try:
                with _FORK_GATE:
                    db = sqlite3.connect(self.path)
                    try:
                        trouble = bankfile.keep_copy(db, self.path)
                    finally:
                        db.close()
            except sqlite3.Error as err:
                trouble = f"no copy of {self.path} could be kept beside it ({err})"
            if trouble:
                print(f"tabletop21: warning: {trouble}", file=sys.stderr)

    def wait_for_copy(self) -> None:
        """Until the copy being made in the background is there (close waits too)."""
        with self._copying:
            copier = self._copier
        if copier is not None:
            copier.join()

    def close(self) -> None:
        self.wait_for_copy()
        self._db.close()
        bankfile.unlock(self._key)
        self._key = None

    def _transaction(self):
        return _Transaction(self)

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
            added = [(a, c, int(a in credit)) for a, c in ledger.balances if a not in known]
            self._db.executemany("INSERT INTO accounts VALUES (?, ?, ?)", added)
            self._db.executemany("INSERT INTO opening VALUES (?, ?, ?)", added)
            bankfile.reseal(self._db)
        if added:
            self._copy_soon()
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
            bankfile.reseal(self._db)
        if cursor.lastrowid is None:
            raise StoreError("the new round was not written: try again")
        return cursor.lastrowid

    def save_state(self, round_id: int, state: Any) -> None:
        with self._transaction():
            self._require_open(round_id)
            self._db.execute("UPDATE rounds SET state = ? WHERE id = ?", (serial.dumps(state), round_id))
            bankfile.reseal(self._db)

    def finish_round(self, round_id: int, settlement: Mapping[str, int], final_state: Any) -> Ledger:
        """Post the settlement and close the round in one transaction: both or neither."""
        with self._transaction():
            self._require_open(round_id)
            after = self.ledger().post(settlement)
            self._db.executemany("UPDATE accounts SET chips = ? WHERE account = ?",
                                 [(chips, account) for account, chips in after.balances])
            self._db.execute("UPDATE rounds SET status = 'settled', state = ?, settlement = ? WHERE id = ?",
                             (serial.dumps(final_state), serial.dumps(dict(settlement)), round_id))
            bankfile.reseal(self._db, closing=round_id)
        self._copy_soon()
        return after

    def void_round(self, round_id: int) -> None:
        with self._transaction():
            self._require_open(round_id)
            self._db.execute("UPDATE rounds SET status = 'void' WHERE id = ?", (round_id,))
            bankfile.reseal(self._db, closing=round_id)
        self._copy_soon()

    def last_settled(self) -> Any:
        """The final state of the latest settled round (None before the first), from
        which the next round carries on: who banks, the round number, the shoe. Raises
        CorruptRecord when this build cannot decode it."""
        row = self._db.execute("SELECT CAST(state AS BLOB) FROM rounds WHERE status = 'settled' "
                               "ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else _loads(_text(row[0]))

    def unfinished(self) -> OpenRound | None:
        row = self._db.execute("SELECT id, game, CAST(state AS BLOB) FROM rounds WHERE status = 'open'").fetchone()
        return None if row is None else OpenRound(row[0], row[1], _text(row[2]))

    def _require_open(self, round_id: int) -> None:
        row = self._db.execute("SELECT status FROM rounds WHERE id = ?", (round_id,)).fetchone()
        if row is None or row[0] != "open":
            raise StoreError(f"round {round_id} is not open (it is {row[0] if row else 'unknown'})")


def _rounds_seen(db: sqlite3.Connection) -> tuple[int, bool] | None:
    """The latest closed round a damaged file still shows, and whether it shows a
    round open; None when it shows nothing."""
    try:
        closed = db.execute("SELECT max(id) FROM rounds WHERE status != 'open'").fetchone()[0]
        is_open = db.execute("SELECT count(*) FROM rounds WHERE status = 'open'").fetchone()[0] > 0
    except sqlite3.Error:
        return None
    return (closed if isinstance(closed, int) else 0), bool(is_open)


class _Transaction:
    """One change, written whole or not at all. A write SQLite refuses (a full disk, an
    I/O error) is rolled back and said in words: the round in play stays as it was last
    saved, and the next start resumes it from there."""

    def __init__(self, store: BankrollStore) -> None:
        self._store = store
        self._db = store._db

    def __enter__(self) -> None:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise StoreError(self._words(err)) from None

    def __exit__(self, exc_type, exc, tb) -> Literal[False]:
        if exc_type is None:
            try:
                self._db.execute("COMMIT")
                return False
            except sqlite3.Error as err:
                exc = err
        with suppress(sqlite3.Error):
            self._db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise StoreError(self._words(exc)) from None
        return False

    def _words(self, err: sqlite3.Error) -> str:
        path = self._store.path
        if getattr(err, "sqlite_errorcode", None) == 13 or "full" in str(err):  # SQLITE_FULL
            return (f"the disk under {path} is full ({err}): nothing of this change was written, and the round in "
                    "play stays as it was last saved, to go on at the next start. Free some space (old session "
                    "recordings: set [table] keep_sessions_mb lower) and start again")
        return (f"{path} could not be written ({err}): nothing of this change was written, and the round in play "
                "stays as it was last saved; `tabletop21 doctor` checks the file")
