import pytest
from hypothesis import given
from hypothesis import strategies as st

from table import serial
from table.errors import BadBet
from table.ledger import MOST_CHIPS, Ledger, LedgerError


def test_settlement_moves_chips_without_creating_any():
    ledger = Ledger.open({"ann": 100, "bob": 50, "house": 0}, credit=("house",))
    after = ledger.post({"ann": -30, "bob": 20, "house": 10})
    assert after.as_dict() == {"ann": 70, "bob": 70, "house": 10}
    assert after.total == ledger.total == 150


@pytest.mark.parametrize(
    "settlement, words",
    [
        ({"ann": 10}, "does not balance"),
        ({"ann": -10, "zed": 10}, "not at the table"),
        ({"ann": -10, "zed": 5, 3: 5}, "not at the table: 'zed', 3"),
        ({"ann": -101, "bob": 101}, "ann would go to -1"),
        ({"ann": 1.5, "bob": -1.5}, "whole chips"),
    ],
)
def test_bad_settlements_are_refused_whole(settlement, words):
    ledger = Ledger.open({"ann": 100, "bob": 50})
    with pytest.raises(LedgerError, match=words):
        ledger.post(settlement)
    assert ledger.as_dict() == {"ann": 100, "bob": 50}


def test_the_house_may_run_a_float_players_may_not():
    ledger = Ledger.open({"ann": 10, "house": 0}, credit=("house",))
    assert ledger.post({"ann": 500, "house": -500}).balance("house") == -500
    with pytest.raises(BadBet):
        Ledger.open({"ann": -1})


@pytest.mark.parametrize("credit", ["house", "h", None, 5, ("house", 3), ("",)])
def test_who_may_run_a_float_is_a_tuple_of_names(credit):
    """A bare "house" worked by accident ("house" in "house"), and let an account "h"
    run a float too, since its name is a part of the word; None was a TypeError."""
    with pytest.raises(LedgerError, match="credit is a tuple of account names"):
        Ledger.open({"h": -5, "house": -5, "ann": 1}, credit=credit)


@pytest.mark.parametrize("bankrolls", [{"ann": MOST_CHIPS + 1}, {"house": -MOST_CHIPS - 1}])
def test_a_bankroll_past_what_the_bankroll_file_holds_is_refused(bankrolls):
    with pytest.raises(BadBet, match="more chips than a bankroll file holds"):
        Ledger.open(bankrolls, credit=("house",))
    assert Ledger.open({"ann": MOST_CHIPS, "house": -MOST_CHIPS}, credit=("house",)).total == 0


@pytest.mark.parametrize("bankrolls", [{"ann": MOST_CHIPS - 1, "house": 0}, {"ann": 0, "house": 1 - MOST_CHIPS}])
def test_a_settlement_past_what_the_bankroll_file_holds_is_refused(bankrolls):
    """A player's winnings or the house's float past SQLite's INTEGER."""
    ledger = Ledger.open(bankrolls, credit=("house",))
    assert ledger.post({"ann": 1, "house": -1})  # up to the limit
    with pytest.raises(LedgerError, match="more chips than a bankroll file holds"):
        ledger.post({"ann": 2, "house": -2})


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(1, 40)), max_size=60))
def test_any_sequence_of_transfers_keeps_the_total(transfers):
    names = ["a", "b", "c", "d"]
    ledger = Ledger.open({name: 100 for name in names})
    for src, dst, chips in transfers:
        if src == dst:
            continue
        try:
            ledger = ledger.post({names[src]: -chips, names[dst]: chips})
        except LedgerError:
            pass
        assert ledger.total == 400
        assert min(ledger.as_dict().values()) >= 0


def test_a_ledger_survives_a_recording():
    ledger = Ledger.open({"ann": 7, "house": -3}, credit=("house",))
    assert serial.loads(serial.dumps(ledger)) == ledger
