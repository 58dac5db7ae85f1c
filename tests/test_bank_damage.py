"""Seeded random damage over a real bankroll file made by the store (tools/bank_damage.py
runs hundreds): no traceback, no damaged file passed as ok, no chip count changed
without a message. Before the seal, 10 of 40 such cases ended `run` or `doctor` in a
traceback, and a changed byte set a seat from 120 chips to 29 without a word."""

import pytest

from tools import bank_damage


@pytest.mark.parametrize("seed", [11, 12])
def test_random_damage_is_restored_or_refused_in_words_never_passed(seed):
    counts = bank_damage.run(cases=25, seed=seed)
    assert counts.failed() == 0, counts.failures
    assert counts.outcomes["restored, said so"] > 0 and counts.cases == 25
