"""`tabletop21 odds GAME [--json]`: each game's exact figures; the JSON keys are a
stable interface for other tools."""

import json

from table.odds import odds_module


def register(subparsers) -> None:
    parser = subparsers.add_parser("odds", help="exact odds, edges and strategy for a game")
    parser.add_argument("game", help="game id (see `tabletop21 games`)")
    parser.add_argument("--json", action="store_true", help='print {"game": ..., "figures": {...}}')
    parser.set_defaults(run=run)


def run(args) -> int:
    module = odds_module(args.game)
    figures = module.figures()
    if args.json:
        print(json.dumps({"game": args.game, "figures": figures}, indent=1))
    else:
        print(module.report(figures))
    return 0
