"""Bankrolls in SQLite: settlement and round closing are one transaction, and an
open round can be resumed or voided after a crash."""

import pytest

from table.ledger import LedgerError
from table.store import BankrollStore, StoreError


@pytest.fixture
def store(tmp_path):
    store = BankrollStore(tmp_path / "bank.sqlite")
    store.open_table({"ann": 100, "bob": 100, "house": 0}, credit=("house",))
    yield store
    store.close()


def test_settled_round_moves_chips_and_survives_reopening(store):
    round_id = store.begin_round("dicey21", {"step": 0})
    store.save_state(round_id, {"step": 1})
    store.finish_round(round_id, {"ann": 10, "bob": -5, "house": -5}, {"step": 2})
    reopened = BankrollStore(store.path)
    assert reopened.ledger().as_dict() == {"ann": 110, "bob": 95, "house": -5}
    assert reopened.unfinished() is None
    assert reopened._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    reopened.close()


def test_an_open_round_can_be_resumed_or_voided_with_bets_untouched(store):
    round_id = store.begin_round("dicey21", {"step": 0})
    store.save_state(round_id, {"step": 3})
    reopened = BankrollStore(store.path)
    pending = reopened.unfinished()
    assert pending.round_id == round_id and pending.state == {"step": 3}
    with pytest.raises(StoreError, match="still open"):
        reopened.begin_round("dicey21", {})
    reopened.void_round(round_id)
    assert reopened.unfinished() is None
    assert reopened.ledger().as_dict() == {"ann": 100, "bob": 100, "house": 0}
    with pytest.raises(StoreError, match="not open"):
        reopened.finish_round(round_id, {"ann": 1, "bob": -1}, {})
    reopened.close()


def test_a_refused_settlement_leaves_everything_as_it_was(store):
    round_id = store.begin_round("dicey21", {"step": 0})
    with pytest.raises(LedgerError):
        store.finish_round(round_id, {"ann": 500, "bob": -500}, {"step": 9})
    assert store.ledger().as_dict() == {"ann": 100, "bob": 100, "house": 0}
    assert store.unfinished().state == {"step": 0}


def test_opening_an_existing_table_keeps_its_bankrolls(store):
    round_id = store.begin_round("dicey21", {})
    store.finish_round(round_id, {"ann": -7, "house": 7}, {})
    assert store.open_table({"ann": 100, "bob": 100, "house": 0}, ("house",)).balance("ann") == 93
