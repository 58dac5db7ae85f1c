"""Advice for whoever must decide: every legal move with its expected chips, best
first. The numbers come from each game's odds module (its Game's `odds`), imported
only when asked for, so a game without odds yet cannot break the others."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from table.errors import TableError
from table.games import game
from table.rules import CHANCE, TERMINAL


@dataclass(frozen=True)
class Advice:
    values: tuple[tuple[Any, float], ...]  # (action, expected chips), best first
    recommended: Any


def advise(game_id: str, state: Any) -> Advice:
    """Raises TableError for an unknown game or when no decision is pending."""
    played = game(game_id)
    actor = played.engine.current_actor(state)
    if actor in (CHANCE, TERMINAL):
        raise TableError(f"no decision to advise on: the {'round is over' if actor == TERMINAL else 'next move is chance'}")
    values = played.odds_module().action_values(state)
    if not values:
        raise TableError(f"{game_id}: no legal move to advise on")
    ranked = tuple(sorted(values.items(), key=lambda pair: -pair[1]))  # stable: ties keep the engine's order
    return Advice(values=ranked, recommended=ranked[0][0])
