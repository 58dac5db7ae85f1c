"""Who may sit down to a round: the one check every engine's new_round makes first.

Every engine takes the same table (seats, bankrolls, bets, banker) from the same
callers, so the table is checked here once rather than in four copies, which drift
apart (letting a bad bankroll or seat through to fail later, far from its cause).
What really differs between games is a keyword: how many seats the game
takes, and which error a bad seat list is (BadBet or TableError, as each engine has
always raised). A bankroll or a stranger's bet is always a BadBet. The order in which
a bank goes round the table is here too, for the same reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeGuard

from table.errors import BadBet, TableError
from table.ledger import MOST_CHIPS


def check_table(
    seats: Any,
    bankrolls: Mapping[str, int],
    bets: Mapping[str, object],
    banker: str | None = None,
    *,
    min_seats: int = 0,
    max_seats: int | None = None,
    seat_error: type[TableError] = TableError,
    reserved: tuple[str, ...] = (),
) -> tuple[str, ...]:
    """The seats as a tuple, or an error that changes nothing: names that are
    non-empty text, each once, min_seats..max_seats of them, none of them `reserved`
    (a house-banked game's HOUSE account, whose chips a seat of that name would
    share, so its settlement could not add up); the banker (if named)
    one of them; a whole bankroll of 0 or more chips for every seat; no bet from a
    seat that is not at the table."""
    try:
        names: tuple[str, ...] = tuple(seats)
    except TypeError:
        raise seat_error(f"the seats are a list of names, not {seats!r}") from None
    if not all(isinstance(seat, str) and seat for seat in names):
        raise seat_error(f"every seat is a name, not {names!r}")
    taken = [seat for seat in names if seat in reserved]
    if taken:
        raise seat_error(f"{taken[0]!r} is the house's account in this game, not a seat: give the seat another name")
    if len(set(names)) != len(names) or len(names) < min_seats or (max_seats is not None and len(names) > max_seats):
        raise seat_error(f"the table seats {_how_many(min_seats, max_seats)} players, each once, not "
                         f"{', '.join(names) or 'nobody'}")
    if banker is not None and banker not in names:
        raise seat_error(f"the banker {banker!r} is not one of the seats {', '.join(names)}")
    for seat in names:
        check_bankroll(seat, bankrolls.get(seat))
    strangers = sorted(map(str, set(bets) - set(names)))
    if strangers:
        raise BadBet(f"bets from seats not at the table: {', '.join(strangers)}")
    return names


def check_saved(
    seats: Any,
    bankrolls: tuple[tuple[str, int], ...],
    banker: str | None = None,
    *,
    named: Iterable[str] = (),
    stakes: Iterable[tuple[str, object]] = (),
    held: Mapping[str, int] | None = None,
    **limits: Any,
) -> tuple[str, ...]:
    """The seats of a saved round (each engine's check_state), or an error: its table as
    check_table finds one, every other name it keeps (a bankroll's, a stake's, a hand's,
    a roller's) one of its seats, every stake whole chips, 0 or more, and, given the
    chips the table `held` (the bankroll file's), every bankroll the round was dealt
    with one of them: no chip moves before a round settles, so a round is dealt from
    exactly the bankrolls it finds again when carried on. A saved state decodes field
    by field, so a damaged, hand-edited or stale one could name a stranger, stake -5
    or count chips a seat does not have; played on, its settlement would name the
    stranger or overdraw, the ledger would refuse it, and the round could never close."""
    at_table = check_table(seats, dict(bankrolls), {}, banker, **limits)
    strangers = [name for name in (*(account for account, _ in bankrolls), *named) if name not in at_table]
    if strangers:
        raise TableError(f"the round names {strangers[0]!r}, who is not one of its seats ({', '.join(at_table)})")
    for account, chips in bankrolls:
        if held is not None and held.get(account) != chips:
            raise TableError(f"the round was dealt with {account} holding {chips} chips, but the bankroll file "
                             f"holds {held.get(account, 'no account of that name')}")
    for seat, stake in stakes:
        if not _whole_chips(stake):
            raise BadBet(f"{seat}: a stake is whole chips, 0 or more, not {stake!r}")
    return at_table


def check_bankroll(seat: str, chips: object) -> int:
    """One seat's chips, or BadBet: a whole number, 0 or more (None: no bankroll at
    all), and no more than a bankroll file holds, so a table too rich to record is
    refused before its round, not at the settlement. Each engine's check_bet starts
    here, since it is also called on its own."""
    if not _whole_chips(chips):
        raise BadBet(f"{seat}: a bankroll is a whole number of chips, 0 to {MOST_CHIPS}, not {chips!r}")
    return chips


def _whole_chips(chips: object) -> TypeGuard[int]:
    """A count of chips a bankroll file can hold: an int (True is not one), 0 to MOST_CHIPS."""
    return not isinstance(chips, bool) and isinstance(chips, int) and 0 <= chips <= MOST_CHIPS


def _how_many(low: int, high: int | None) -> str:
    if high is None:
        return f"{low} or more"
    return f"up to {high}" if low <= 1 else f"{low} to {high}"


def round_the_table(seats: tuple[str, ...], start: str, *, inclusive: bool = False) -> tuple[str, ...]:
    """Every seat once, in the order a bank travels round the table from `start`:
    `start` first when `inclusive` (its turn, if it can take it), otherwise the seats
    after it and `start` itself last (it keeps the bank only when nobody else can).
    The one rotation the player-banked games share, so it cannot drift between them."""
    at = seats.index(start)
    return seats[at:] + seats[:at] if inclusive else seats[at + 1:] + seats[:at + 1]
