"""The bankroll file checks itself, as a gaming machine checks its critical memory.

Three checks at every open (and by `doctor`), each in words when it fails:

- SQLite's own `PRAGMA integrity_check` (pages, records, indexes);
- the books balance: every account holds its opening chips (table `opening`, written
  with the account) plus what the settled rounds' settlements moved to it;
- the seal (table `seal`): a SHA-256 chain over every closed round, in order, and a
  digest over that chain, the accounts, the opening chips and the open round. Every
  change the store makes reseals in its own transaction, so a changed byte anywhere
  in them (a chip count, a saved round, a settlement, an invalid UTF-8 byte) or a row
  deleted is found. The seal has no secret: it finds damage and edits by hand, not a
  person who recomputes it on purpose.

Beside the file a rotating copy is kept (FILE.copy, and the one before as FILE.copy.1),
made with SQLite's backup API after every settled or voided round and when accounts
are opened. A damaged file, or one gone missing or empty while a copy is there, is
restored from the newest copy that passes the same checks, the damaged file kept
aside, with what was restored and what was lost said in words.

One table per bankroll file: the file is locked (flock) while a store has it open;
a second start is refused naming the process that holds it.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import shutil
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from table.errors import TableError

COPIES = (".copy", ".copy.1")  # newest first
ROUND_COLUMNS = ("id", "game", "status", "started", "state", "settlement")
SEAL_SCHEMA = """
CREATE TABLE IF NOT EXISTS opening (
    account TEXT PRIMARY KEY, chips INTEGER NOT NULL, credit INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS seal (
    one INTEGER PRIMARY KEY CHECK (one = 1), closed_rounds INTEGER NOT NULL, chain TEXT NOT NULL,
    head TEXT NOT NULL);
"""
_START = "0" * 64


class StoreError(TableError):
    """The bankroll file is not in a state this operation allows; the words say what to do."""


BankFileError = StoreError


# --- the seal -------------------------------------------------------------------------

def typed_rows(db: sqlite3.Connection, table: str, columns: tuple[str, ...], where: str = "",
               args: tuple = ()) -> list[tuple]:
    """Rows with each value's storage class beside it, text as bytes: what the seal is
    computed over, so a byte that is not UTF-8 is counted, not a decoding error."""
    selected = ", ".join(f"typeof({c}), {c}" for c in columns)
    factory = db.text_factory
    db.text_factory = bytes
    try:
        return db.execute(f"SELECT {selected} FROM {table} {where}", args).fetchall()
    finally:
        db.text_factory = factory


def link(chain: str, row: tuple) -> str:
    return hashlib.sha256((chain + repr(row)).encode()).hexdigest()


def closed_chain(db: sqlite3.Connection) -> tuple[int, str]:
    chain, count = _START, 0
    for row in typed_rows(db, "rounds", ROUND_COLUMNS, "WHERE status != 'open' ORDER BY id"):
        chain, count = link(chain, row), count + 1
    return count, chain


def head(db: sqlite3.Connection, count: int, chain: str) -> str:
    parts = (count, chain,
             typed_rows(db, "accounts", ("account", "chips", "credit"), "ORDER BY account"),
             typed_rows(db, "opening", ("account", "chips", "credit"), "ORDER BY account"),
             typed_rows(db, "rounds", ROUND_COLUMNS, "WHERE status = 'open' ORDER BY id"))
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def reseal(db: sqlite3.Connection, closing: int | None = None) -> None:
    """Called inside the transaction that changed the file; `closing` is the id of a
    round it settled or voided, which joins the chain."""
    count, chain = db.execute("SELECT closed_rounds, chain FROM seal WHERE one = 1").fetchone()
    if closing is not None:
        chain, count = link(chain, typed_rows(db, "rounds", ROUND_COLUMNS, "WHERE id = ?", (closing,))[0]), count + 1
    db.execute("UPDATE seal SET closed_rounds = ?, chain = ?, head = ? WHERE one = 1",
               (count, chain, head(db, count, chain)))


def seal_afresh(db: sqlite3.Connection) -> None:
    count, chain = closed_chain(db)
    db.execute("INSERT OR REPLACE INTO seal VALUES (1, ?, ?, ?)", (count, chain, head(db, count, chain)))


# --- the checks -----------------------------------------------------------------------

@dataclass(frozen=True)
class Checked:
    problem: str  # '' when the file passed every check
    old: bool = False  # written before the seal: checked as far as it can be, sealed at open
    bankrolls: dict | None = None
    rounds: int = 0  # how many rounds it holds
    closed: int = 0  # the id of the latest settled or voided round (0: none)
    open: int | None = None  # the id of the round left open, if one is
    last_closed: float | None = None  # when the latest closed round started


def tables(db: sqlite3.Connection) -> set[str]:
    return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def check(db: sqlite3.Connection) -> Checked:
    """Everything the file holds, checked; never raises for what the file holds."""
    try:
        return _check(db)
    except (sqlite3.Error, ValueError, TypeError, KeyError, OverflowError, RecursionError) as err:
        return Checked(f"it does not read as a bankroll file ({type(err).__name__}: {err})")


def _check(db: sqlite3.Connection) -> Checked:
    found = db.execute("PRAGMA integrity_check").fetchall()
    if found != [("ok",)]:
        return Checked(f"SQLite's integrity check fails: {found[0][0]}")
    names = tables(db)
    if not {"accounts", "rounds"} <= names:
        return Checked("it holds no accounts and rounds tables")
    old = "seal" not in names
    if old and "opening" in names:
        return Checked("its seal table is missing")
    accounts = typed_rows(db, "accounts", ("account", "chips", "credit"), "ORDER BY rowid")
    rounds = typed_rows(db, "rounds", ROUND_COLUMNS, "ORDER BY id")
    for row in rounds:
        for i, name in enumerate(ROUND_COLUMNS):
            # A saved state is read as bytes: one that is not UTF-8 is a state this build
            # cannot decode, and its round is voided by its id (or the table starts afresh
            # from it), the bankrolls kept. A byte changed after it was sealed is the seal's
            # to find; an old file has neither seal nor copy, and keeps its bankrolls so.
            if name == "state":
                continue
            if row[2 * i] == b"text" and not _utf8(row[2 * i + 1]):
                return Checked(f"round {row[1]}'s {name} is not text (a damaged byte)")
    bankrolls: dict[str, int] = {}
    credit = set()
    for kind, account, chips_kind, chips, credit_kind, is_credit in accounts:
        if kind != b"text" or not _utf8(account) or not account or chips_kind != b"integer" \
                or credit_kind != b"integer" or is_credit not in (0, 1):
            return Checked(f"an account is damaged: {_short((account, chips, is_credit))}")
        name = account.decode()
        if chips < 0 and not is_credit:
            return Checked(f"{name} holds {chips} chips, below zero")
        bankrolls[name] = chips
        if is_credit:
            credit.add(name)
    statuses = [row[5] for row in rounds]
    if any(status not in (b"open", b"settled", b"void") for status in statuses) or statuses.count(b"open") > 1:
        return Checked("a round's status is damaged")
    moved: dict[str, int] = {}
    for row in rounds:
        if row[5] != b"settled":
            continue
        try:
            settlement = json.loads(row[11].decode()) if row[10] == b"text" else None
        except (ValueError, UnicodeDecodeError):
            settlement = None
        if not isinstance(settlement, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in settlement.values()) \
                or sum(settlement.values()) != 0:
            return Checked(f"round {row[1]}'s settlement is damaged")
        for account, chips in settlement.items():
            moved[account] = moved.get(account, 0) + chips
    facts: dict[str, Any] = dict(rounds=len(rounds), closed=max((row[1] for row in rounds if row[5] != b"open"),
                                                                default=0),
                                 open=next((row[1] for row in rounds if row[5] == b"open"), None))
    closed = [row for row in rounds if row[5] != b"open"]
    last_closed = closed[-1][7] if closed else None
    if old:
        return Checked("", old=True, bankrolls=bankrolls, last_closed=last_closed, **facts)
    opening: dict[str, tuple] = {}
    for kind, account, chips_kind, chips, _credit_kind, is_credit in typed_rows(
            db, "opening", ("account", "chips", "credit")):
        if kind != b"text" or chips_kind != b"integer" or not _utf8(account):
            return Checked(f"the opening chips are damaged: {_short((account, chips))}")
        opening[account.decode()] = (chips, is_credit)
    missing = sorted(set(opening) - set(bankrolls))
    if missing:
        return Checked(f"the account of {', '.join(missing)} is gone")
    for name, chips in bankrolls.items():
        if name not in opening:
            return Checked(f"{name}'s account has no opening chips (an account added by hand)")
        start, was_credit = opening[name]
        if was_credit != (name in credit):
            return Checked(f"{name}'s account changed between a player's and the house's")
        if chips != start + moved.get(name, 0):
            return Checked(f"{name} holds {chips} chips, but opened with {start} and the settled rounds "
                           f"moved {moved.get(name, 0):+d}: {chips - start - moved.get(name, 0):+d} chips "
                           "came from nowhere")
    strangers = sorted(set(moved) - set(bankrolls))
    if strangers:
        return Checked(f"a settled round moved chips of {', '.join(strangers)}, who has no account")
    seal = db.execute("SELECT closed_rounds, chain, head FROM seal").fetchall()
    if len(seal) != 1:
        return Checked("its seal is missing")
    count, chain = closed_chain(db)
    if tuple(seal[0]) != (count, chain, head(db, count, chain)):
        return Checked("its contents do not match their seal (a changed byte, or an edit by hand)")
    return Checked("", bankrolls=bankrolls, last_closed=last_closed, **facts)


def _utf8(value) -> bool:
    try:
        value.decode("utf-8")
    except (UnicodeDecodeError, AttributeError):
        return False
    return True


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def check_file(path: Path) -> Checked:
    """`path` checked without writing to it or beside it (a copy, or for `doctor`)."""
    for mode in ("ro", "ro&immutable=1"):  # a WAL file wants its -shm; a read-only folder has none
        try:
            db = sqlite3.connect(f"file:{quote(str(path))}?mode={mode}", uri=True)
        except sqlite3.Error as err:
            result = Checked(f"it cannot be opened ({err})")
            continue
        try:
            result = check(db)
        finally:
            db.close()
        if "unable to open" not in result.problem and "readonly" not in result.problem:
            break
    return result


# --- where it lives -------------------------------------------------------------------

def is_missing(path: Path) -> str:
    """'missing' or 'empty' when the file holds no table, '' when it is there."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return "missing"
    except OSError:  # no permission to look: opening it says so in words
        return ""
    return "empty" if size == 0 else ""


def read_only(path: Path) -> str:
    """Why the file cannot be written ('' when it can): checked before SQLite tries,
    which says only 'attempt to write a readonly database' or 'unable to open'."""
    folder = path.parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return "it is on a read-only mount"
    except OSError:
        return ""
    if path.exists() and not os.access(path, os.W_OK):
        return "the file is read-only"
    if not os.access(folder, os.W_OK):
        return f"its folder {folder} is read-only"
    return ""


def read_only_words(path: Path, why: str) -> str:
    return (f"{path}: the bankroll file cannot be written ({why}), and the table writes it after every round. "
            "Its bankrolls are kept as they are: make it writable again (remount it read-write, e.g. "
            "`sudo mount -o remount,rw /`, or fix its permissions), or copy it to a writable place and "
            "point [table] store at the copy")


# --- one table per file ---------------------------------------------------------------

_HELD: dict[tuple[int, int], list] = {}  # (device, inode) -> [fd, how many stores hold it]


def lock(path: Path) -> tuple[int, int]:
    """Hold `path` (made if need be) for this process: flock, on the file itself so that
    no lock file is left beside it. A second store in this process shares the hold."""
    for _ in range(10):
        try:  # looked up before opening: closing a second descriptor of a file SQLite has open drops its locks
            stat = os.stat(path)
        except FileNotFoundError:
            pass
        except OSError as err:
            raise BankFileError(f"{path} cannot be opened as a bankroll file ({err.strerror or err}); "
                                "check that its folder exists and is writable") from None
        else:
            if (stat.st_dev, stat.st_ino) in _HELD:
                _HELD[(stat.st_dev, stat.st_ino)][1] += 1
                return (stat.st_dev, stat.st_ino)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as err:
            raise BankFileError(f"{path} cannot be opened as a bankroll file ({err.strerror or err}); "
                                "check that its folder exists and is writable") from None
        stat = os.fstat(fd)
        key = (stat.st_dev, stat.st_ino)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            os.close(fd)
            if err.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise BankFileError(f"{path} cannot be locked ({err.strerror or err})") from None
            raise BankFileError(in_use(path, key)) from None
        try:
            now = os.stat(path)
        except FileNotFoundError:
            now = None
        if now is not None and (now.st_dev, now.st_ino) == key:
            _HELD[key] = [fd, 1]
            return key
        os.close(fd)  # replaced while we waited (a restore): lock the file now there
    raise BankFileError(f"{path} keeps being replaced while it is opened: is another program writing it?")


def unlock(key: tuple[int, int] | None) -> None:
    held = None if key is None else _HELD.get(key)
    if key is None or held is None:
        return
    held[1] -= 1
    if held[1] <= 0:
        os.close(held[0])
        del _HELD[key]


def holder(key: tuple[int, int]) -> int | None:
    """The process holding a flock on the file (Linux's /proc/locks), or None."""
    device, inode = key
    wanted = f"{os.major(device):02x}:{os.minor(device):02x}:{inode}"
    try:
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        parts = line.split()
        if len(parts) >= 6 and parts[1] == "FLOCK" and parts[5] == wanted and parts[4].isdigit():
            return int(parts[4])
    return None


def in_use(path: Path, key: tuple[int, int]) -> str:
    pid = holder(key)
    who = f"process {pid}" if pid else "another process"
    return (f"{path} is in use by another table ({who}): one table per bankroll file. Stop that one first "
            f"(`systemctl stop tabletop21`{f', or kill {pid}' if pid else ''}), or give this table its own "
            "[table] store")


def held_by(path: Path) -> int | None:
    """Who holds the file now (for `doctor`), without taking it."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return holder((stat.st_dev, stat.st_ino))


# --- copies ---------------------------------------------------------------------------

def copy_path(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def keep_copy(db: sqlite3.Connection, path: Path) -> str:
    """FILE.copy made anew from `db` (the one before it kept as FILE.copy.1); '' or why
    it could not be made (a full disk): the file itself is fine, so the table goes on."""
    newest, older = copy_path(path, COPIES[0]), copy_path(path, COPIES[1])
    tmp = copy_path(path, ".copy.tmp")
    try:
        with suppress_missing():
            tmp.unlink()
        target = sqlite3.connect(tmp)
        try:
            db.backup(target)
        finally:
            target.close()
        _fsync(tmp)
        if newest.exists():
            os.replace(newest, older)
        os.replace(tmp, newest)
        _fsync_folder(path.parent)
    except (OSError, sqlite3.Error) as err:
        with suppress_missing():
            tmp.unlink()
        return f"no copy of {path} could be kept beside it ({err})"
    return ""


class suppress_missing:
    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        return exc_type is not None and issubclass(exc_type, (FileNotFoundError,))


def good_copy(path: Path) -> tuple[Path, Checked] | None:
    for suffix in COPIES:
        copy = copy_path(path, suffix)
        if copy.is_file() and copy.stat().st_size:
            checked = check_file(copy)
            if not checked.problem and not checked.old:
                return copy, checked
    return None


def put_aside(path: Path, parts: tuple[str, ...] = ("", "-wal", "-shm")) -> Path:
    """The damaged file (and its WAL) moved to FILE.damaged-WHEN, never deleted."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    for suffix in parts:
        part = Path(str(path) + suffix)
        if part.exists():
            os.replace(part, Path(str(aside) + suffix))
    return aside


def restore(path: Path, copy: Path) -> None:
    tmp = copy_path(path, ".restoring")
    try:
        shutil.copyfile(copy, tmp)
        _fsync(tmp)
        os.replace(tmp, path)
    except BaseException:  # no half-written file is left
        with suppress_missing():
            tmp.unlink()
        raise
    _fsync_folder(path.parent)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_folder(folder: Path) -> None:
    try:
        _fsync(folder)
    except OSError:
        pass


def copy_words(copy: Path, checked: Checked) -> str:
    """'bank.sqlite.copy, its copy after round 4 (a round started ...)'."""
    after = f"after round {checked.closed}" if checked.closed else "made before any round"
    return f"{copy.name}, its copy {after}{when(checked.last_closed)}"


def when(started: float | None) -> str:
    return "" if started is None else time.strftime(" (a round started %Y-%m-%d %H:%M)", time.localtime(started))


def bankrolls_words(bankrolls: dict | None) -> str:
    return ", ".join(f"{name} {chips}" for name, chips in (bankrolls or {}).items()) or "no accounts yet"
