"""Exact odds and strategy, one module per game, named like its rules engine.

Each module offers figures() -> dict, report(figures) -> str and
action_values(state) -> {action: expected chips}; all of them are computed from the
engine's own payout and hand-value functions, never from a second copy of the rules.
"""

from importlib import import_module
from types import ModuleType

from table.rules import GAME_MODULES, engine


def odds_module(game_id: str) -> ModuleType:
    engine(game_id)  # a clear error for an unknown game id
    return import_module(GAME_MODULES[game_id].replace("table.rules.", "table.odds.", 1))
