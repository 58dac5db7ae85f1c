"""`tabletop21 games`: the game ids a person can pass to every other command."""

from table.games import GAMES


def register(subparsers) -> None:
    parser = subparsers.add_parser("games", help="list the five games")
    parser.set_defaults(run=run)


def run(args) -> int:
    for game_id, game in GAMES.items():
        print(f"{game_id:15s} {game.description}")
    return 0
