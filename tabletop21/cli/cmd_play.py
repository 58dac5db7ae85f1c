"""`tabletop21 play GAME`: the whole game in a terminal, for tables without a camera
yet. The computer rolls and deals unless --manual, where people type what the real
dice, cards and tiles show; --auto plays every decision with the engine's simple
strategy, as a smoke test and a demo."""

from __future__ import annotations

import argparse
import random
import sys

from table.errors import BadBet, TableError
from table.games import game
from table.ledger import Ledger
from table.round_play import play_round
from table.rules import HOUSE
from tabletop21.cli import rule_arg


def register(subparsers) -> None:
    parser = subparsers.add_parser("play", help="play a game in the terminal")
    parser.add_argument("game", help="game id (see `tabletop21 games`)")
    parser.add_argument("--players", type=int, default=2, help="seats at the table (default 2)")
    parser.add_argument("--chips", type=int, default=100, help="starting bankroll per seat")
    parser.add_argument("--manual", action="store_true", help="type the dice, cards and tiles yourself")
    parser.add_argument("--auto", action="store_true", help="every decision by the built-in strategy")
    parser.add_argument("--rounds", type=_rounds, default=None, help="rounds to play (default: until you quit)")
    parser.add_argument("--seed", type=int, default=None, help="seed for computer dice and --auto")
    parser.add_argument("--rule", type=rule_arg, action="append", default=[], metavar="NAME=VALUE",
                        help="a house rule over the game's default (repeatable; see docs/rules.md)")
    parser.set_defaults(run=run)


def _rounds(text: str) -> int:
    try:
        rounds = int(text)
    except ValueError:
        rounds = 0
    if rounds < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: the number of rounds is a whole number, 1 or more")
    return rounds


QUIT_WORDS = ("quit", "exit")  # not "q": Q is a queen when cards are typed


class Quit(Exception):
    """The person typed quit (or ended the input): end the session cleanly with
    bankrolls shown."""


def ask(prompt: str) -> str:
    try:
        text = input(prompt)
    except EOFError:
        raise Quit from None
    if text.strip().lower() in QUIT_WORDS:
        raise Quit
    return text


def ask_until_valid(prompt: str, parse):
    """Bad typing is explained and asked again: nothing half-applied ever happens."""
    while True:
        try:
            return parse(ask(prompt))
        except TableError as err:
            print(f"  ! {err}")


def choose_action(eng, state):
    actions = eng.legal_actions(state)
    print(eng.describe(state))
    for number, action in enumerate(actions, 1):
        print(f"  {number}) {eng.label(action)}")

    def parse(text: str):
        text = text.strip()
        if text.isdigit() and 1 <= int(text) <= len(actions):
            return actions[int(text) - 1]
        matches = [a for a in actions if eng.label(a).lower() == text.lower()]
        if len(matches) == 1:
            return matches[0]
        raise TableError(f"type a number from 1 to {len(actions)}")

    return ask_until_valid(f"{eng.current_actor(state)}> ", parse)


def run(args) -> int:
    chosen = game(args.game)
    eng = chosen.engine
    if args.players < 1 or args.chips < 1:
        raise TableError("--players and --chips must be at least 1")
    rng = random.Random(args.seed)
    settings = chosen.settings(dict(args.rule))
    seats = tuple(f"seat{n}" for n in range(1, args.players + 1))
    bankrolls = {seat: args.chips for seat in seats}
    if eng.HOUSE_BANKED:
        bankrolls[HOUSE] = 0
    # A round with no bets checks the seats alone, so a table the game cannot seat is
    # told as such (one seat at a player-banked game read "not enough chips").
    eng.new_round(settings, seats, bankrolls, {})
    ledger = Ledger.open(bankrolls, credit=(HOUSE,) if eng.HOUSE_BANKED else ())
    banker = None
    carry: dict = {}
    played = 0
    try:
        while args.rounds is None or played < args.rounds:
            if sum(1 for s in seats if ledger.balance(s) > 0) < (1 if eng.HOUSE_BANKED else 2):
                print("Not enough chips left at the table to play on.")
                break
            if args.auto:
                bets = eng.auto_bets(settings, seats, ledger.as_dict(), rng, banker=banker)
                if not bets:
                    print("Nobody can place a bet the table can cover: the session ends.")
                    break
            else:
                bets = ask_bets(eng, settings, seats, ledger, banker, carry)
            try:
                result = play_round(
                    eng, settings, seats, ledger, bets,
                    choose=(lambda s: eng.auto_action(s, rng)) if args.auto else (lambda s: choose_action(eng, s)),
                    rng=rng,
                    banker=banker,
                    chance=(lambda s: typed_outcome(eng, s)) if args.manual else None,
                    carry=carry,
                )
            except BadBet as err:
                if args.auto:
                    raise
                print(f"  ! {err}")
                continue
            played += 1
            ledger, banker, carry = result.ledger, result.next_banker, result.carry
            print(eng.describe(result.final_state))
            moved = ", ".join(f"{a} {d:+d}" for a, d in result.settlement.items() if d)
            print(f"Round {played}: {moved or 'every bet pushed, no chips moved'}")
    except Quit:
        print()
    print_bankrolls(ledger, played)
    return 0


def ask_bets(eng, settings, seats, ledger, banker, carry):
    """Each bet is checked against the table the moment it is typed, so a bet over the
    bankroll is sent back to the seat that typed it instead of voiding everyone's bets."""
    print(f"Bets ({eng.BETS_HELP}); empty to sit out, quit to stop.")
    if banker is not None:
        print(f"{banker} banks this round and does not bet.")
    elif not eng.HOUSE_BANKED:
        print("The banker is picked when the round starts (a bet from the seat that banks is void).")
    bets = {}
    for seat in seats:
        if seat == banker or ledger.balance(seat) <= 0:
            continue

        def parse(text: str, seat=seat):
            if not text.strip():
                return None
            bet = eng.parse_bets(settings, text)
            check_bet(eng, settings, seats, ledger, banker, carry, {**bets, seat: bet})
            return bet

        bet = ask_until_valid(f"{seat} ({ledger.balance(seat)} chips) bets: ", parse)
        if bet is not None:
            bets[seat] = bet
    return bets


def check_bet(eng, settings, seats, ledger, banker, carry, bets) -> None:
    """Opening a trial round is the one check that knows every limit of the game; only a
    BadBet counts here, since anything else (too few players yet) is not this seat's doing."""
    try:
        eng.new_round(settings, seats, ledger.as_dict(), bets, banker=banker, **carry)
    except BadBet:
        raise
    except TableError:
        pass


def typed_outcome(eng, state):
    print(eng.describe(state))
    return ask_until_valid("what came out? ", lambda text: eng.parse_outcome(state, text))


def print_bankrolls(ledger: Ledger, played: int) -> None:
    print(f"After {played} round(s), bankrolls:")
    for account, chips in ledger.balances:
        print(f"  {account:10s} {chips:6d}")
    sys.stdout.flush()
