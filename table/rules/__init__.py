"""The rules engines and what they share.

Each engine is a module of plain functions, the same in every one: `table.game.Engine`
lists them, and `table.games` is where each game (its engine among the rest) is
registered. This package holds the engines and the pieces they play with; CHANCE,
TERMINAL and HOUSE are the actor names every engine uses.
"""

from typing import Any

CHANCE = "chance"
TERMINAL = "terminal"
HOUSE = "house"


def no_carry_over(final_state: object) -> dict[str, Any]:
    """An engine's carry_over where nothing goes on to the next round."""
    return {}
