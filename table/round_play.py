"""Playing whole rounds of any engine through its public contract.

Shared by `tabletop21 play`, the property tests and the odds simulations, so every
one of them exercises exactly the path the appliance uses: bets, legal actions,
chance outcomes, settle, and the ledger posting.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from table.errors import IllegalAction
from table.game import Engine
from table.ledger import Ledger
from table.rules import CHANCE, TERMINAL

MAX_STEPS = 10_000  # far beyond any real round; a loop longer than this is a bug

Chooser = Callable[[Any], Any]


@dataclass(frozen=True)
class RoundResult:
    final_state: Any
    settlement: dict[str, int]
    ledger: Ledger
    next_banker: str | None
    steps: int
    carry: dict[str, Any]  # keyword arguments for the next round's new_round (shoe, pack)


def sample_chance(engine: Engine, state: Any, rng: random.Random) -> Any:
    """Draw one chance outcome with its exact probability, from an injected rng."""
    outcomes = engine.chance_outcomes(state)
    total = sum((p for _, p in outcomes), Fraction(0))
    if total != 1:
        raise AssertionError(f"{engine.GAME_ID}: chance probabilities sum to {total}, not 1")
    point = Fraction(rng.randrange(10**12), 10**12)
    running = Fraction(0)
    for action, probability in outcomes:
        running += probability
        if point < running:
            return action
    return outcomes[-1][0]


def checked_apply(engine: Engine, state: Any, action: Any) -> Any:
    """Apply only what the engine itself lists as legal, whatever the engine's own checks."""
    if action not in engine.legal_actions(state):
        raise IllegalAction(f"{engine.GAME_ID}: {action!r} is not legal now")
    return engine.apply(state, action)


def play_round(
    engine: Engine,
    settings: Any,
    seats: tuple[str, ...],
    ledger: Ledger,
    bets: Mapping[str, Any],
    choose: Chooser,
    rng: random.Random,
    banker: str | None = None,
    chance: Chooser | None = None,
    carry: Mapping[str, Any] | None = None,
) -> RoundResult:
    """One round from bets to posted settlement; `chance` overrides the dice/cards
    (a person typing them, or the camera), otherwise they come from `rng`."""
    state = engine.new_round(settings, seats, ledger.as_dict(), bets, banker=banker, **(carry or {}))
    steps = 0
    while engine.current_actor(state) != TERMINAL:
        steps += 1
        if steps > MAX_STEPS:
            raise AssertionError(f"{engine.GAME_ID}: round did not end in {MAX_STEPS} steps")
        if engine.current_actor(state) == CHANCE:
            action = chance(state) if chance else sample_chance(engine, state, rng)
        else:
            action = choose(state)
        state = checked_apply(engine, state, action)
    settlement = engine.settle(state)
    return RoundResult(state, settlement, ledger.post(settlement), engine.next_banker(state), steps,
                       engine.carry_over(state))

