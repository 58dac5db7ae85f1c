"""The chip ledger: every bankroll at the table across rounds.

A settlement is posted whole or not at all, and only if it moves chips between
accounts (sums to zero) without driving a player below zero. That is the one place
where "never creates or loses a chip" is enforced, whatever an engine returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from table.errors import BadBet, TableError

MOST_CHIPS = 2**63 - 1  # SQLite's INTEGER, either way: no bankroll file holds more


class LedgerError(TableError):
    """A settlement the ledger refuses: it would create, lose or overdraw chips; or a
    ledger opened without a plain list of the accounts that may overdraw."""


@dataclass(frozen=True)
class Ledger:
    balances: tuple[tuple[str, int], ...]
    credit: tuple[str, ...] = ()  # accounts that may go below zero (the house's float)

    @staticmethod
    def open(bankrolls: Mapping[str, int], credit: tuple[str, ...] = ()) -> Ledger:
        # Names are matched with `in`, so a bare "house" would give any part of the word credit.
        if not isinstance(credit, (tuple, list)) or not all(isinstance(a, str) and a for a in credit):
            raise LedgerError(f"credit is a tuple of account names (who may run a float), not {credit!r}")
        for account, chips in bankrolls.items():
            if not isinstance(account, str) or not account:
                raise BadBet(f"an account is a name, not {account!r}")
            if isinstance(chips, bool) or not isinstance(chips, int):
                raise BadBet(f"{account}: a bankroll is a whole number of chips, not {chips!r}")
            if chips < 0 and account not in credit:
                raise BadBet(f"{account}: a bankroll cannot start below zero ({chips})")
            if abs(chips) > MOST_CHIPS:
                raise BadBet(f"{account}: {chips} is more chips than a bankroll file holds (at most {MOST_CHIPS})")
        return Ledger(tuple(bankrolls.items()), tuple(credit))

    def as_dict(self) -> dict[str, int]:
        return dict(self.balances)

    def balance(self, account: str) -> int:
        try:
            return self.as_dict()[account]
        except KeyError:
            raise LedgerError(f"no account {account!r} at this table") from None

    @property
    def total(self) -> int:
        return sum(chips for _, chips in self.balances)

    def post(self, settlement: Mapping[str, int]) -> Ledger:
        """Apply one round's net results; refuse the whole round if anything is off."""
        balances = self.as_dict()
        unknown = sorted(map(repr, set(settlement) - set(balances)))
        if unknown:
            raise LedgerError(f"settlement names accounts not at the table: {', '.join(unknown)}")
        if any(isinstance(v, bool) or not isinstance(v, int) for v in settlement.values()):
            raise LedgerError(f"settlement must be whole chips: {dict(settlement)}")
        if sum(settlement.values()) != 0:
            raise LedgerError(f"settlement does not balance (sums to {sum(settlement.values())}): {dict(settlement)}")
        for account, delta in settlement.items():
            balances[account] += delta
            if balances[account] < 0 and account not in self.credit:
                raise LedgerError(f"{account} would go to {balances[account]} chips: settlement refused")
            if abs(balances[account]) > MOST_CHIPS:
                raise LedgerError(f"{account} would go to {balances[account]}, more chips than a bankroll file "
                                  f"holds (at most {MOST_CHIPS}): settlement refused")
        return Ledger(tuple(balances.items()), self.credit)
