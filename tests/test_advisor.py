"""The advisor ranks every legal move by its game's expected chips."""

from __future__ import annotations

import random

import pytest

from table import serial
from table.advisor import Advice, advise
from table.errors import TableError
from table.games import GAMES, engine
from table.rules import CHANCE, TERMINAL
from table.rules import changing_bank as cb
from table.rules.cards import parse_card


def changing_bank_state(*texts):
    state = cb.new_round(cb.Settings(), ("ann", "bob"), {"ann": 100, "bob": 100}, {"bob": cb.Bets(3)}, banker="ann")
    for text in ("2C",) + texts:
        state = cb.apply(state, cb.Draw(parse_card(text)))
    return state


def test_advice_ranks_every_legal_move_best_first():
    state = changing_bank_state("10H", "9S", "6H", "6D")  # bob 16 against a face-up 6
    advice = advise("changing-bank", state)
    moves = [move for move, _ in advice.values]
    assert sorted(moves, key=repr) == sorted(cb.legal_actions(state), key=repr)
    evs = [ev for _, ev in advice.values]
    assert evs == sorted(evs, reverse=True)
    assert advice.recommended == moves[0] == cb.STAND  # 16 stands against a dealer's 6
    assert serial.loads(serial.dumps(advice)) == advice


def test_advice_hits_a_hard_12_against_a_ten_and_splits_eights_against_a_six():
    assert advise("changing-bank", changing_bank_state("10H", "9S", "2H", "KD")).recommended == cb.HIT
    assert advise("changing-bank", changing_bank_state("8H", "9S", "8D", "6D")).recommended == cb.SPLIT


def test_no_advice_when_nothing_is_to_be_decided():
    with pytest.raises(TableError, match="chance"):
        advise("changing-bank", changing_bank_state("10H"))
    over = changing_bank_state("AH", "AS", "QH", "KS")
    assert cb.current_actor(over) == TERMINAL
    with pytest.raises(TableError, match="over"):
        advise("changing-bank", over)
    with pytest.raises(TableError, match="unknown game"):
        advise("poker", over)


@pytest.mark.parametrize("game_id", sorted(set(GAMES) - {"changing-bank"}))
def test_other_games_get_ranked_advice(game_id):
    eng = engine(game_id)
    rng = random.Random(1)
    seats = ("ann", "bob", "cat")
    bankrolls = {seat: 1_000 for seat in seats}
    if eng.HOUSE_BANKED:
        bankrolls["house"] = 0
    state = eng.new_round(eng.Settings(), seats, bankrolls, eng.auto_bets(eng.Settings(), seats, bankrolls, rng))
    while eng.current_actor(state) == CHANCE:
        outcomes = eng.legal_actions(state)
        state = eng.apply(state, outcomes[rng.randrange(len(outcomes))])
    if eng.current_actor(state) == TERMINAL:
        pytest.skip(f"{game_id}: this round ended before any decision")
    advice = advise(game_id, state)
    assert isinstance(advice, Advice) and advice.recommended in eng.legal_actions(state)
    evs = [ev for _, ev in advice.values]
    assert evs == sorted(evs, reverse=True)
