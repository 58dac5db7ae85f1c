"""`tabletop21 odds GAME [--rule NAME=VALUE...] [--json]`: each game's exact figures;
the JSON keys are a stable interface for other tools."""

import inspect
import json

from table.errors import TableError
from table.games import game
from tabletop21.cli import rule_arg


def register(subparsers) -> None:
    parser = subparsers.add_parser("odds", help="exact odds, edges and strategy for a game")
    parser.add_argument("game", help="game id (see `tabletop21 games`)")
    parser.add_argument("--json", action="store_true", help='print {"game": ..., "figures": {...}}')
    parser.add_argument("--rule", type=rule_arg, action="append", default=[], metavar="NAME=VALUE",
                        help="figures under a house rule (repeatable; the games whose odds take settings)")
    parser.set_defaults(run=run)


def run(args) -> int:
    played = game(args.game)
    module = played.odds_module()
    settings = played.settings(dict(args.rule))
    if "settings" in inspect.signature(module.figures).parameters:
        figures = module.figures(settings)
    elif args.rule:
        raise TableError(f"the {args.game} figures are worked out for its default rules only")
    else:
        figures = module.figures()
    if args.json:
        print(json.dumps({"game": args.game, "figures": figures}, indent=1))
    else:
        print(module.report(figures))
    return 0
