"""A game is one module and one registry line: a made-up sixth game, High Die (each
seat rolls one d6 against the house's die; higher wins even money, a tie goes to the
house), defined here as one module-like object and registered for the test alone,
is dealt by the round driver, drawn by the views and played by `play --auto`,
with no other edit anywhere."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import pytest

from table.driver import (
    CONFIRM,
    SHAKE,
    Driver,
    Motion,
    Press,
    SettledRead,
    need_of,
    step,
)
from table.errors import BadBet, IllegalAction, TableError
from table.game import Game, Layout
from table.games import GAMES, register, unregister
from table.ledger import Ledger
from table.pieces import Need, Piece, PieceKind, dice_values
from table.reads import Die, TableRead
from table.rules import CHANCE, HOUSE, TERMINAL
from table.rules.dice import parse_dice
from table.view import Hand, Item
from table.views import build_view
from tabletop21.cli import main


class high_die:  # stands in for a module: the whole game, engine and all
    GAME_ID = "high-die"
    DESCRIPTION = "High Die: each seat rolls one d6 against the house's; higher wins, a tie goes to the house"
    HOUSE_BANKED = True
    BETS_HELP = "STAKE (whole chips)"

    @dataclass(frozen=True)
    class Settings:
        min_bet: int = 1
        max_bet: int = 50

    @dataclass(frozen=True)
    class Bets:
        stake: int

    @dataclass(frozen=True)
    class Roll:
        value: int

    @dataclass(frozen=True)
    class State:
        stakes: tuple[tuple[str, int], ...]  # the seats that play, in order
        rolls: tuple[int, ...] = ()  # each seat's die, then the house's

    @staticmethod
    def check_bet(settings: Any, seat: str, bet: Any, chips: int) -> int:
        if not isinstance(bet, high_die.Bets) or not settings.min_bet <= bet.stake <= settings.max_bet:
            raise BadBet(f"{seat}: a stake is {settings.min_bet} to {settings.max_bet} chips")
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < bet.stake:
            raise BadBet(f"{seat}: a bankroll is a whole number of chips covering the stake")
        return bet.stake

    @staticmethod
    def new_round(settings: Any, seats: tuple[str, ...], bankrolls: Mapping[str, int], bets: Mapping[str, Any],
                  banker: str | None = None) -> Any:
        if not seats:
            raise TableError("High Die needs a seat")
        for seat, bet in bets.items():
            high_die.check_bet(settings, seat, bet, bankrolls[seat])
        return high_die.State(tuple((seat, bets[seat].stake) for seat in seats if seat in bets))

    @staticmethod
    def check_state(state: Any, bankrolls: Mapping[str, int] | None = None) -> tuple[str, ...]:
        return tuple(seat for seat, _ in state.stakes)

    @staticmethod
    def current_actor(state: Any) -> str:
        return CHANCE if len(state.rolls) <= len(state.stakes) and state.stakes else TERMINAL

    @staticmethod
    def legal_actions(state: Any) -> tuple[Any, ...]:
        return tuple(action for action, _ in high_die.chance_outcomes(state)) if high_die.current_actor(state) == CHANCE else ()

    @staticmethod
    def chance_outcomes(state: Any) -> tuple[tuple[Any, Fraction], ...]:
        if high_die.current_actor(state) != CHANCE:
            raise IllegalAction("no die is due")
        return tuple((high_die.Roll(value), Fraction(1, 6)) for value in range(1, 7))

    @staticmethod
    def apply(state: Any, action: Any) -> Any:
        if action not in high_die.legal_actions(state):
            raise IllegalAction(f"{action!r} is not due now")
        return replace(state, rolls=state.rolls + (action.value,))

    @staticmethod
    def is_terminal(state: Any) -> bool:
        return high_die.current_actor(state) == TERMINAL

    @staticmethod
    def settle(state: Any) -> dict[str, int]:
        if not state.stakes:
            return {}
        house = state.rolls[-1]
        net = {seat: stake if roll > house else -stake for (seat, stake), roll in zip(state.stakes, state.rolls)}
        return net | {HOUSE: -sum(net.values())}

    @staticmethod
    def next_banker(state: Any) -> str | None:
        return None

    @staticmethod
    def describe(state: Any) -> str:
        return " ".join(f"{seat}: {roll}" for (seat, _), roll in zip(state.stakes + ((HOUSE, 0),), state.rolls))

    @staticmethod
    def label(action: Any) -> str:
        return f"roll {action.value}"

    @staticmethod
    def outcome_of(state: Any, pieces: Sequence[Piece]) -> Any:
        return high_die.Roll(dice_values(pieces, 1)[0])

    @staticmethod
    def parse_outcome(state: Any, text: str) -> Any:
        return high_die.outcome_of(state, parse_dice(text, 1))

    @staticmethod
    def auto_bets(settings: Any, seats: tuple[str, ...], bankrolls: Mapping[str, int], rng: random.Random,
                  banker: str | None = None) -> dict[str, Any]:
        return {seat: high_die.Bets(settings.min_bet) for seat in seats if bankrolls.get(seat, 0) >= settings.min_bet}

    @staticmethod
    def parse_bets(settings: Any, text: str) -> Any:
        try:
            return high_die.Bets(int(text))
        except ValueError:
            raise BadBet(f"{text!r}: {high_die.BETS_HELP}") from None

    @staticmethod
    def carry_over(final_state: Any) -> dict[str, Any]:
        return {}

    @staticmethod
    def banker_for(settings: Any, seats: tuple[str, ...], bankrolls: Mapping[str, int], bets: Mapping[str, Any],
                   turn: str | None = None) -> str | None:
        return turn

    @staticmethod
    def auto_action(state: Any, rng: random.Random) -> Any:
        return rng.choice(high_die.legal_actions(state))

    @staticmethod
    def layout(state: Any) -> Layout:
        dice = {seat: (Hand((Item.die(roll),), "die", str(roll)),) for (seat, _), roll in zip(state.stakes, state.rolls)}
        house = state.rolls[len(state.stakes):]
        return dice, (Hand(tuple(Item.die(roll) for roll in house), "house die", ""),)


HIGH_DIE = Game(id="high-die", name="High Die", engine=high_die, pieces=(PieceKind.DIE,),
                need=lambda state: Need(PieceKind.DIE), layout=high_die.layout)


@pytest.fixture
def sixth_game():
    register(HIGH_DIE)  # the one registry line
    yield HIGH_DIE
    unregister(HIGH_DIE.id)


def die_read(value: int) -> TableRead:
    return TableRead(dice=(Die(value, (10.0, 5.0), (0, 0, 1, 1), 0.99),))


def test_the_driver_deals_and_settles_it_from_camera_reads(sixth_game):
    ledger = Ledger.open({"ann": 20, "bob": 20, HOUSE: 0}, credit=(HOUSE,))
    driver = step(Driver("high-die", ("ann", "bob"), bet=3, typed_kinds=()), Press(SHAKE), ledger)
    assert driver.phase == "roll" and need_of("high-die", driver.state) == Need(PieceKind.DIE)
    for value in (6, 2, 4):  # ann, bob, the house
        driver = step(driver, Press(SHAKE), ledger)
        driver = step(step(driver, Motion("rolling"), ledger), SettledRead(die_read(value)), ledger)
        assert not driver.message
    assert driver.phase == "results"
    assert dict(driver.settlement) == {"ann": 3, "bob": -3, HOUSE: 0}
    assert step(driver, Press(CONFIRM), ledger).phase == "bets"


def test_the_views_draw_every_screen_of_it(sixth_game):
    ledger = Ledger.open({"ann": 20, HOUSE: 0}, credit=(HOUSE,))
    driver = Driver("high-die", ("ann",), bet=3, typed_kinds=())
    assert build_view(driver, ledger).game_name == "High Die"
    driver = step(driver, Press(SHAKE), ledger)
    view = build_view(driver, ledger)
    assert view.screen == "play" and "Shake and roll 1 dice" in view.prompt.message
    for value in (5, 5):
        driver = step(step(step(driver, Press(SHAKE), ledger), Motion("rolling"), ledger),
                      SettledRead(die_read(value)), ledger)
    view = build_view(driver, ledger)
    assert view.screen == "results" and [(r.seat, r.outcome) for r in view.results] == [("ann", "LOSE")]
    assert view.seats[0].hands[0].total == "5" and view.paytables == ()


def test_play_auto_plays_it(sixth_game, capsys):
    assert main(["play", "high-die", "--auto", "--rounds", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "After 3 round(s), bankrolls:" in out


def test_it_is_gone_once_unregistered(sixth_game):
    assert "high-die" in GAMES
    unregister("high-die")
    assert "high-die" not in GAMES
    register(HIGH_DIE)  # for the fixture to take away
