"""`tabletop21 bench TARGET`: speed and memory figures, printed, never asserted by
unit tests (timings on a shared machine are measurements, not pass/fail facts)."""

from importlib import import_module

TARGETS = {
    "odds": "table.odds.bench",
    "dice": "vision.bench",
    "dominoes": "vision.dominoes.bench",
    "cards": "vision.cards.bench",
    "display": "display.bench",
}


def register(subparsers) -> None:
    parser = subparsers.add_parser("bench", help="print speed figures (odds, dice, dominoes, cards, display)")
    parser.add_argument("target", choices=sorted(TARGETS) + ["all"])
    parser.set_defaults(run=run)


def run(args) -> int:
    for name in TARGETS if args.target == "all" else [args.target]:
        print(f"== {name}")
        import_module(TARGETS[name]).run(args)
    return 0
