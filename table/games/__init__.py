"""The one registry of games: each game is a `table.game.Game` made in its own module
here, and listed once below. A new game is one module (its engine, layout and the
rest, or an engine module beside it) and one line in GAMES_AT_START.

    from table.games import game
    game("dicey21").engine.new_round(...)
"""

from __future__ import annotations

from table.errors import TableError
from table.game import Engine, Game
from table.games import blackjack_dice, changing_bank, dice_blackjack, dicey21, domino21

GAMES_AT_START: tuple[Game, ...] = (
    dicey21.GAME,
    dice_blackjack.GAME,
    blackjack_dice.GAME,
    domino21.GAME,
    changing_bank.GAME,
)

GAMES: dict[str, Game] = {}


def register(new: Game) -> None:
    """Add a game; its id must be new and must be its engine's GAME_ID."""
    if new.id in GAMES:
        raise ValueError(f"a game {new.id!r} is registered already")
    if new.engine.GAME_ID != new.id:
        raise ValueError(f"game {new.id!r} has the engine of {new.engine.GAME_ID!r}")
    GAMES[new.id] = new


def unregister(game_id: str) -> None:
    GAMES.pop(game_id, None)


def game(game_id: str) -> Game:
    """The game with this id, or a TableError naming the games there are."""
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):
        raise TableError(f"unknown game {game_id!r}; the games are: {', '.join(GAMES)}") from None


def engine(game_id: str) -> Engine:
    return game(game_id).engine


for _game in GAMES_AT_START:
    register(_game)
