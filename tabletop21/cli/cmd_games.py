"""`tabletop21 games`: the game ids a person can pass to every other command."""

from table.rules import GAME_MODULES, engine


def register(subparsers) -> None:
    parser = subparsers.add_parser("games", help="list the five games")
    parser.set_defaults(run=run)


def run(args) -> int:
    for game_id in GAME_MODULES:
        print(f"{game_id:15s} {engine(game_id).DESCRIPTION}")
    return 0
