"""Exact odds and strategy, one module per game; a game's odds are found through its
Game (table.games: `game(game_id).odds_module()`), which imports them when first asked.

Each module offers figures() -> dict, report(figures) -> str and
action_values(state) -> {action: expected chips} (table.game.Odds); all of them are
computed from the engine's own payout and hand-value functions, never from a second
copy of the rules.
"""
