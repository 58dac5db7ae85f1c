"""`tabletop21 bench TARGET`: speed and memory figures, printed, never asserted by
unit tests (timings on a shared machine are measurements, not pass/fail facts)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any


def _odds(args: argparse.Namespace) -> None:
    from tabletop21.bench import odds

    odds.run(args)


def _dice(args: argparse.Namespace) -> None:
    from tabletop21.bench import dice

    dice.run(args)


def _dominoes(args: argparse.Namespace) -> None:
    from tabletop21.bench import dominoes

    dominoes.run(args)


def _cards(args: argparse.Namespace) -> None:
    from tabletop21.bench import cards

    cards.run(args)


def _night(args: argparse.Namespace) -> None:
    from tabletop21.bench import night

    night.run(args)


def _display(args: argparse.Namespace) -> None:
    from tabletop21.bench import display

    display.run(args)


TARGETS: dict[str, Callable[[argparse.Namespace], None]] = {
    "odds": _odds, "dice": _dice, "dominoes": _dominoes, "cards": _cards, "display": _display, "night": _night,
}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("bench", help="print speed figures (odds, dice, dominoes, cards, display) or a night's resources (night)")
    parser.add_argument("target", choices=sorted(TARGETS) + ["all"])
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for name in TARGETS if args.target == "all" else [args.target]:
        print(f"== {name}")
        TARGETS[name](args)
    return 0
