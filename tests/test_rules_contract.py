"""Every engine, through its public contract only: random legal play over thousands
of rounds keeps the chips constant, refuses anything outside legal_actions, never
touches the state it was given, and always ends the round."""

from __future__ import annotations

import dataclasses
import inspect
import random
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table import serial
from table.errors import BadBet, IllegalAction, TableError
from table.game import Engine
from table.games import GAMES as REGISTRY
from table.games import engine, game
from table.ledger import MOST_CHIPS, Ledger
from table.round_play import checked_apply, play_round, sample_chance
from table.rules import CHANCE, HOUSE, TERMINAL

GAMES = sorted(REGISTRY)
SEATS = ("ann", "bob", "cat", "dan")
START = 1_000


def open_table(eng, seats=SEATS, chips=START):
    bankrolls = {seat: chips for seat in seats}
    if eng.HOUSE_BANKED:
        bankrolls[HOUSE] = 0
    return Ledger.open(bankrolls, credit=(HOUSE,) if eng.HOUSE_BANKED else ())


@dataclass(frozen=True)
class NotAnAction:
    """Something no engine can have among its legal actions."""

    note: str = "bogus"


def contract_members() -> list[str]:
    """Every member table.game.Engine names (what mypy checks each engine module
    against where its Game is made), so this test and the protocol cannot drift."""
    return sorted({*Engine.__annotations__, *(name for name in vars(Engine) if not name.startswith("_"))})


@pytest.mark.parametrize("game_id", GAMES)
def test_module_has_the_whole_contract(game_id):
    eng = engine(game_id)
    assert len(contract_members()) > 20
    for name in contract_members():
        assert hasattr(eng, name), f"{game_id} lacks {name}"
        protocol_member = getattr(Engine, name, None)
        if inspect.isfunction(protocol_member):
            wanted = len(inspect.signature(protocol_member).parameters) - 1  # without self
            taken = inspect.signature(getattr(eng, name)).parameters.values()
            assert len(taken) >= wanted, f"{game_id}.{name} takes fewer arguments than the contract gives"
    assert eng.GAME_ID == game_id and game(game_id).id == game_id
    assert eng.DESCRIPTION and "\n" not in eng.DESCRIPTION


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_random_play_conserves_chips_and_ends(game_id, seed, players):
    eng = engine(game_id)
    rng = random.Random(seed)
    seats = SEATS[:players]
    ledger = open_table(eng, seats)
    start_total = ledger.total
    banker, carry = None, {}
    for _ in range(40):
        playing = {s: c for s, c in ledger.as_dict().items() if s != HOUSE}
        if sum(1 for c in playing.values() if c > 0) < 2:
            break
        bets = eng.auto_bets(eng.Settings(), seats, ledger.as_dict(), rng)
        result = play_round(
            eng, eng.Settings(), seats, ledger, bets,
            choose=lambda state: rng.choice(eng.legal_actions(state)), rng=rng, banker=banker, carry=carry,
        )
        assert eng.is_terminal(result.final_state)
        assert sum(result.settlement.values()) == 0
        ledger, banker, carry = result.ledger, result.next_banker, result.carry
        assert ledger.total == start_total
        assert all(c >= 0 for a, c in ledger.as_dict().items() if a != HOUSE)


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_illegal_actions_are_refused_and_change_nothing(game_id, seed):
    eng = engine(game_id)
    rng = random.Random(seed)
    ledger = open_table(eng)
    state = eng.new_round(eng.Settings(), SEATS, ledger.as_dict(), eng.auto_bets(eng.Settings(), SEATS, ledger.as_dict(), rng))
    seen = []
    while eng.current_actor(state) != TERMINAL:
        assert set(eng.check_state(state)) <= set(SEATS), "every state a round passes through is consistent"
        seen.append(state)
        snapshot = serial.dumps(state)
        legal = eng.legal_actions(state)
        assert legal, f"{game_id}: no legal action but not terminal"
        assert len(set(legal)) == len(legal), f"{game_id}: duplicate legal actions"
        with pytest.raises(IllegalAction):
            eng.apply(state, NotAnAction())
        for junk in _junk_actions(legal):
            with pytest.raises(TableError):
                eng.apply(state, junk)
        strangers = [a for s in seen for a in eng.legal_actions(s) if a not in legal]
        if strangers:
            with pytest.raises(TableError):
                eng.apply(state, rng.choice(strangers))
        assert serial.dumps(state) == snapshot, f"{game_id}: a refused action changed the state"
        if eng.current_actor(state) == CHANCE:
            outcomes = eng.chance_outcomes(state)
            assert sum((p for _, p in outcomes), Fraction(0)) == 1
            assert [a for a, _ in outcomes] == list(legal)
            action = sample_chance(eng, state, rng)
        else:
            action = eng.auto_action(state, rng)
        state = checked_apply(eng, state, action)
        assert len(seen) < 5_000
    assert eng.is_terminal(state)


def _junk_actions(legal):
    """Each kind of action due now, with a list or a dict where its die, card or tile
    goes (a caller's slip, or a hand-written script): an error in words, not a
    TypeError from hashing it."""
    for kind in {type(action) for action in legal}:
        fields = dataclasses.fields(kind)
        for junk in ([[3]], {"pips": 3}) if fields else ():
            try:
                yield kind(*[junk] * len(fields))
            except TableError:  # refused as it was made: as good
                continue


@pytest.mark.parametrize("game_id", GAMES)
def test_states_and_actions_survive_a_recording(game_id):
    eng = engine(game_id)
    rng = random.Random(7)
    ledger = open_table(eng)
    state = eng.new_round(eng.Settings(), SEATS, ledger.as_dict(), eng.auto_bets(eng.Settings(), SEATS, ledger.as_dict(), rng))
    while not eng.is_terminal(state):
        assert serial.loads(serial.dumps(state)) == state
        action = sample_chance(eng, state, rng) if eng.current_actor(state) == CHANCE else eng.auto_action(state, rng)
        assert serial.loads(serial.dumps(action)) == action
        state = checked_apply(eng, state, action)
    assert serial.loads(serial.dumps(state)) == state
    assert isinstance(eng.describe(state), str) and eng.describe(state)


@pytest.mark.parametrize("game_id", GAMES)
def test_bet_over_the_bankroll_is_refused(game_id):
    eng = engine(game_id)
    rng = random.Random(3)
    rich = open_table(eng, chips=START)
    bets = eng.auto_bets(eng.Settings(), SEATS, rich.as_dict(), rng)
    broke = {seat: (0 if seat in bets else chips) for seat, chips in rich.as_dict().items()}
    with pytest.raises(TableError):
        eng.new_round(eng.Settings(), SEATS, broke, bets)


@pytest.mark.parametrize("game_id", GAMES)
def test_check_bet_refuses_exactly_the_bankrolls_a_round_refuses(game_id):
    """check_bet is how a table seats out one short bankroll and deals the rest, so it
    must agree with new_round on where a seat's chips stop covering its bet."""
    eng = engine(game_id)
    ledger = open_table(eng)
    seat, bet = next(iter(eng.auto_bets(eng.Settings(), SEATS[1:], ledger.as_dict(), random.Random(3)).items()))
    verdicts = []
    for chips in range(120):
        bankrolls = ledger.as_dict() | {seat: chips}
        try:
            eng.check_bet(eng.Settings(), seat, bet, chips)
            covered = True
        except BadBet:
            covered = False
        try:
            eng.new_round(eng.Settings(), SEATS, bankrolls, {seat: bet}, banker=SEATS[0])
            dealt = True
        except BadBet:
            dealt = False
        assert covered == dealt, f"{game_id}: {chips} chips for {bet}: check_bet {covered}, new_round {dealt}"
        verdicts.append(covered)
    assert verdicts[0] is False and verdicts[-1] is True, "the bet should need some chips, and fewer than 120"


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("table, error", [
    ({"bankrolls": {"ann": "lots"}}, BadBet),
    ({"bankrolls": {"ann": 2.5}}, BadBet),
    ({"bankrolls": {"ann": -1}}, BadBet),
    ({"bankrolls": {"ann": True}}, BadBet),
    ({"bankrolls": {"ann": None}}, BadBet),  # a seat with no bankroll at all
    ({"bankrolls": {"ann": MOST_CHIPS + 1}}, BadBet),  # more than the bankroll file holds
    ({"bets": {3: "bet", "zed": "bet"}}, BadBet),  # strangers whose names do not sort together
    ({"seats": SEATS + (7,)}, TableError),
    ({"seats": SEATS + ("",)}, TableError),
    ({"seats": SEATS + ("ann",)}, TableError),
    ({"seats": 5}, TableError),
])
def test_a_bad_table_is_refused_the_same_way_by_every_engine(game_id, table, error):
    """new_round checks seats, bankrolls and strangers' bets in one shared place
    (table.rules.seating), so no engine takes a bankroll another refuses, and none
    answers a bad table with a TypeError."""
    eng = engine(game_id)
    seats = table.get("seats", SEATS)
    bankrolls = open_table(eng).as_dict() | {seat: START for seat in (seats if isinstance(seats, tuple) else ())}
    bankrolls |= table.get("bankrolls", {})
    bets = eng.auto_bets(eng.Settings(), SEATS[1:], open_table(eng).as_dict(), random.Random(5))
    bets |= table.get("bets", {})
    with pytest.raises(error):
        eng.new_round(eng.Settings(), seats, bankrolls, bets, banker=SEATS[0])


@pytest.mark.parametrize("game_id", GAMES)
def test_no_seat_takes_the_name_of_the_house(game_id):
    """A seat called "house" in a house-banked game shared the house's chips, and the
    settlement (one entry for both) no longer summed to zero."""
    eng = engine(game_id)
    seats = (HOUSE,) + SEATS[1:]
    bankrolls = {seat: START for seat in seats}
    bets = eng.auto_bets(eng.Settings(), seats, bankrolls, random.Random(4))
    if not eng.HOUSE_BANKED:  # there a seat may have any name
        assert eng.new_round(eng.Settings(), seats, bankrolls, bets, banker=HOUSE)
        return
    with pytest.raises(TableError, match="house's account"):
        eng.new_round(eng.Settings(), seats, bankrolls, bets)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("chips", [None, "lots", 2.5, 1e9, True, -1, MOST_CHIPS + 1])
def test_check_bet_refuses_chips_that_are_not_a_bankroll(game_id, chips):
    """check_bet is called on its own (the driver seats out whoever it refuses), so it
    checks the chips it is given as new_round does: not a TypeError, nor a bet held
    in 2.5 chips."""
    eng = engine(game_id)
    seat, bet = next(iter(eng.auto_bets(eng.Settings(), SEATS[1:], open_table(eng).as_dict(), random.Random(3)).items()))
    with pytest.raises(BadBet, match="a bankroll is a whole number"):
        eng.check_bet(eng.Settings(), seat, bet, chips)


# House rules that change who may bet what: every auto_bets must keep to them.
HOUSE_RULES = {
    "dicey21": [{}, {"match_alone": True, "min_ante": 5, "max_ante": 5}, {"max_seats": 3, "max_match_wagers": 0}],
    "dice-blackjack": [{}, {"short_banker": "refuse"}, {"short_banker": "refuse", "blackjack_pays": 0},
                       {"short_banker": "refuse", "blackjack_pays": 5, "min_bet": 3, "max_bet": 9}],
    "blackjack-dice": [{}, {"short_banker": "refuse"}, {"short_banker": "refuse", "blackjack_pays": 3, "min_bet": 2}],
    "domino21": [{}, {"match": "stake-squared", "min_price": 2}, {"max_players": 2},
                 {"bank_cover": "seat-order", "max_players": 1, "min_price": 3, "max_price": 4}],
    "changing-bank": [{}, {"min_bet": 4, "max_bet": 4}],
}


@pytest.mark.parametrize("game_id, rules", [(g, r) for g in GAMES for r in HOUSE_RULES[g]])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_auto_bets_only_proposes_bets_the_round_takes(game_id, rules, data):
    """`play --auto` deals whatever auto_bets proposes, so a bet new_round refuses (a
    short banker under "refuse", more players than the table seats) stopped the
    session with a traceback. Bankrolls run from none to rich, a poor banker included;
    after the first round the last round's next_banker is named, so the banker may be
    anyone, broke or not (house-banked games ignore him)."""
    eng = engine(game_id)
    settings_ = game(game_id).settings(rules)
    seats = SEATS[:data.draw(st.integers(1 if eng.HOUSE_BANKED else 2, min(len(SEATS), getattr(settings_, "max_seats", 9))))]
    chips = st.one_of(st.integers(0, 12), st.integers(0, 400), st.integers(0, 10**6))
    bankrolls = {seat: data.draw(chips, label=seat) for seat in seats}
    if eng.HOUSE_BANKED:
        bankrolls[HOUSE] = 0
    banker = data.draw(st.one_of(st.none(), st.sampled_from(seats)), label="banker")
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    try:
        bets = eng.auto_bets(settings_, seats, bankrolls, rng, banker=banker)
    except TableError:
        return  # a clear refusal: no legal bets at this table
    eng.new_round(settings_, seats, bankrolls, bets, banker=banker)


def states_of_a_round(eng, seed=11):
    """Every state of one round dealt without a banker (a roll-off first, where the
    game has one), so every place a state keeps a seat's name comes up."""
    rng = random.Random(seed)
    ledger = open_table(eng)
    state = eng.new_round(eng.Settings(), SEATS, ledger.as_dict(), eng.auto_bets(eng.Settings(), SEATS, ledger.as_dict(), rng))
    states = [state]
    while not eng.is_terminal(state):
        action = sample_chance(eng, state, rng) if eng.current_actor(state) == CHANCE else eng.auto_action(state, rng)
        state = checked_apply(eng, state, action)
        states.append(state)
    return states


@pytest.mark.parametrize("game_id", GAMES)
def test_a_saved_state_that_names_a_stranger_is_refused(game_id):
    """A saved round decodes field by field, so a damaged or hand-edited bankroll file
    could hold stakes from "zed", or a roll-off he wins; played on, its settlement
    named him and the ledger refused it, so the round could never close. Each single
    place a seat's name stands, renamed, must be refused."""
    eng = engine(game_id)
    renamed = 0
    for state in states_of_a_round(eng)[::7]:
        assert "bob" in eng.check_state(state)
        text = serial.dumps(state)
        for at in [n for n in range(len(text)) if text.startswith('"bob"', n)]:
            damaged = serial.loads(text[:at] + '"zed"' + text[at + len('"bob"'):])
            with pytest.raises(TableError):
                eng.check_state(damaged)
            renamed += 1
    assert renamed >= 4


STAKED = {  # a state with bob's stake (or the first hand's) changed
    "dicey21": lambda s, x: dataclasses.replace(s, hands=(dataclasses.replace(s.hands[0], ante=x),) + s.hands[1:]),
    "dice-blackjack": lambda s, x: dataclasses.replace(s, table=dataclasses.replace(s.table, stakes=(("bob", x),))),
    "blackjack-dice": lambda s, x: dataclasses.replace(s, table=dataclasses.replace(s.table, stakes=(("bob", x),))),
    "domino21": lambda s, x: dataclasses.replace(s, hands=(dataclasses.replace(s.hands[0], price=x),) + s.hands[1:]),
    "changing-bank": lambda s, x: dataclasses.replace(s, stakes=(("bob", x),)),
}


@pytest.mark.parametrize("game_id", GAMES)
def test_a_saved_state_with_a_stake_that_is_not_whole_chips_is_refused(game_id):
    """A recording refuses 2.5 or True where chips go, but not -5."""
    eng = engine(game_id)
    state = states_of_a_round(eng)[0]
    assert eng.check_state(STAKED[game_id](state, 1))
    for damaged in (serial.loads(serial.dumps(STAKED[game_id](state, -5))), STAKED[game_id](state, 2.5),
                    STAKED[game_id](state, True)):
        with pytest.raises(TableError, match="whole chips"):
            eng.check_state(damaged)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_saved_state_dealt_with_other_bankrolls_than_the_tables_is_refused(game_id):
    """A round is dealt from the table's bankrolls and no chip moves until it settles,
    so a saved state holding other ones (hand-edited, or stale against the bankroll
    file) would settle against chips the seats do not have; the ledger then refused
    the settlement and the round could never close. Every state of a round, checked
    against the bankrolls it was dealt from, is carried on."""
    eng = engine(game_id)
    held = open_table(eng).as_dict()
    for state in states_of_a_round(eng):
        assert "bob" in eng.check_state(state, bankrolls=held)
        for changed in ({**held, "bob": START - 1}, {**held, "bob": START + 1},
                        {seat: chips for seat, chips in held.items() if seat != "bob"}):
            with pytest.raises(TableError, match="bob"):
                eng.check_state(state, bankrolls=changed)
