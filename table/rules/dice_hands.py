"""What Dice Blackjack and Blackjack Dice have in common: rolls as chance actions, a
player who banks for the others, and the roll-off that picks the first banker.

Both games are played at a home table where one of the people covers everyone else's
bets with their own chips. Keeping the betting, covering and paying rules here means the
two engines cannot drift apart on how a short banker pays, which is the part of a
player-banked game people argue about most.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial
from random import Random
from typing import Any, Protocol, TypeVar

from table.errors import BadBet, BadValue, IllegalAction
from table.pieces import Piece, dice_values
from table.rules import CHANCE, TERMINAL
from table.rules.dice import check_die, parse_dice
from table.rules.seating import (
    check_bankroll,
    check_saved,
    check_table,
    round_the_table,
)

SEAT_ORDER = "seat-order"
REFUSE = "refuse"
SHORT_BANKER_RULES = (SEAT_ORDER, REFUSE)


@dataclass(frozen=True)
class Bets:
    """A seat's stake for the round, in whole chips."""

    stake: int


@dataclass(frozen=True)
class Roll:
    """Dice that came out, as the camera sees them: a set, so order never matters."""

    dice: tuple[int, ...]

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "dice", tuple(sorted(self.dice)))
        except TypeError:
            raise BadValue(f"dice are whole numbers, not {self.dice!r}") from None


@dataclass(frozen=True)
class Hit:
    """Roll again."""


@dataclass(frozen=True)
class Stand:
    """Keep the total as it is."""


@dataclass(frozen=True)
class Limits:
    """Table limits shared by both games; each game's Settings adds its own rules.

    short_banker: what happens when the banker's chips cannot pay every winner.
    "seat-order" (default): the banker collects from the losers first, then pays the
    winners in seat order until the chips run out (the custom at a home table, and it
    never refuses a bet). "refuse": a seat banks only if its chips could pay every
    other player at the best payout at once. new_round refuses bets a named banker
    could not cover; the first-banker roll-off leaves out the seats that could not;
    banker_for and next_banker pass the bank over them to the next seat round the
    table that could.
    """

    min_bet: int = 1
    max_bet: int = 100
    short_banker: str = SEAT_ORDER

    def __post_init__(self) -> None:
        if not (isinstance(self.min_bet, int) and isinstance(self.max_bet, int)) or not 1 <= self.min_bet <= self.max_bet:
            raise BadValue(f"bet limits must be whole chips with 1 <= min <= max, not {self.min_bet}..{self.max_bet}")
        if self.short_banker not in SHORT_BANKER_RULES:
            raise BadValue(f"short_banker is one of {', '.join(SHORT_BANKER_RULES)}, not {self.short_banker!r}")


class LimitRules(Protocol):
    """What Limits holds, as both games' Settings do."""

    @property
    def min_bet(self) -> int: ...

    @property
    def max_bet(self) -> int: ...

    @property
    def short_banker(self) -> str: ...


class DiceRules(LimitRules, Protocol):
    """Both games' Settings: the Limits and what a Blackjack pays."""

    @property
    def blackjack_pays(self) -> int: ...


class RollingState(Protocol):
    @property
    def roll_off(self) -> RollOff | None: ...


S = TypeVar("S")
R = TypeVar("R", bound=RollingState)


def most_won(settings: DiceRules) -> int:
    """The most one stake can win under either game's Settings: a Blackjack's pay, or
    a plain win's one stake when a Blackjack pays less (even 0, which must not let a
    "refuse" banker cover nothing)."""
    return max(1, settings.blackjack_pays)


def check_blackjack_pays(pays: object) -> None:
    """A Blackjack pays whole stakes, none or more: a negative payout would take a
    winner's chips, more than the one stake check_bet made sure the player holds."""
    if isinstance(pays, bool) or not isinstance(pays, int) or pays < 0:
        raise BadValue(f"blackjack_pays is a whole number of stakes, 0 or more, not {pays!r}")


@dataclass(frozen=True)
class Table:
    """Who sits where, with what, and who bet; the banker may still be unknown while
    the first-banker roll-off is under way."""

    seats: tuple[str, ...]
    bankrolls: tuple[tuple[str, int], ...]
    stakes: tuple[tuple[str, int], ...]
    banker: str | None = None

    def bankroll(self, account: str) -> int:
        return dict(self.bankrolls)[account]

    @property
    def dealer(self) -> str:
        """The banker, once the roll-off has found one."""
        if self.banker is None:
            raise IllegalAction("nobody banks yet: the roll-off for the first banker is still on")
        return self.banker

    def players(self) -> tuple[str, ...]:
        """Everyone who bet, in seat order, except the banker (whose bet is not taken)."""
        return tuple(seat for seat, _ in self.stakes if seat != self.banker)

    def stake(self, seat: str) -> int:
        return dict(self.stakes)[seat]


def open_table(
    limits: LimitRules,
    seats: tuple[str, ...],
    bankrolls: Mapping[str, int],
    bets: Mapping[str, Bets],
    banker: str | None,
    best_payout: int,
) -> Table:
    """Check every bet before the round starts, so a round never stops half-way on a
    bet; `best_payout` is the most one unit of stake can win (for the "refuse" rule:
    a named banker must cover the others' bets, and with none named some seat must)."""
    seats = check_table(seats, bankrolls, bets, banker, min_seats=2, seat_error=BadBet)
    stakes = tuple((seat, check_bet(limits, seat, bets[seat], bankrolls[seat]))
                   for seat in seats if seat in bets and seat != banker)
    table = Table(seats, tuple((seat, bankrolls[seat]) for seat in seats), stakes, banker)
    if limits.short_banker == REFUSE:
        if banker is not None:
            _check_cover(table, banker, best_payout)
        elif not bank_candidates(table, limits, best_payout):
            raise BadBet(_nobody_can_bank(table, best_payout))
    return table


def check_saved_table(table: Table, roll_off: RollOff | None, players: tuple[str, ...],
                      bankrolls: Mapping[str, int] | None) -> tuple[str, ...]:
    """Both games' check_state: the table as open_table left it, and the roll-off's
    rollers and the players dealt in among its seats."""
    return check_saved(table.seats, table.bankrolls, table.banker, min_seats=2, stakes=table.stakes, held=bankrolls,
                       named=(*(seat for seat, _ in table.stakes), *(roll_off.rollers if roll_off else ()), *players))


def check_bet(limits: LimitRules, seat: str, bet: object, chips: int) -> int:
    """The stake of one seat's bet, or BadBet: within the limits and held in chips
    (a stake is all a player can lose; the banker's cover is open_table's concern)."""
    stake = getattr(bet, "stake", None)
    if isinstance(stake, bool) or not isinstance(stake, int):
        raise BadBet(f"{seat}: a stake is a whole number of chips, not {stake!r}")
    if not limits.min_bet <= stake <= limits.max_bet:
        raise BadBet(f"{seat}: the table takes bets of {limits.min_bet} to {limits.max_bet} chips, not {stake}")
    if stake > check_bankroll(seat, chips):
        raise BadBet(f"{seat}: a bet of {stake} is more than the {chips} chips held")
    return stake


def _owed(table: Table, seat: str, best_payout: int) -> int:
    """The most `seat` could owe as banker: every other stake won at the best payout."""
    return best_payout * sum(stake for other, stake in table.stakes if other != seat)


def _check_cover(table: Table, banker: str, best_payout: int) -> None:
    worst = _owed(table, banker, best_payout)
    if worst > table.bankroll(banker):
        raise BadBet(f"{banker} banks with {table.bankroll(banker)} chips but could owe {worst}: bet less")


def _nobody_can_bank(table: Table, best_payout: int) -> str:
    """Why no seat may bank, in the chips each one holds and could owe."""
    short = ", ".join(f"{seat} holds {table.bankroll(seat)} chips but could owe {_owed(table, seat, best_payout)}"
                      for seat in seats_with_chips(table))
    return f"nobody can bank these bets: the banker must be able to pay every other player at once ({short})"


def settle_with_banker(table: Table, limits: LimitRules, units: Mapping[str, int]) -> dict[str, int]:
    """Net chips for every seat from each player's result in stakes (+2, +1, 0, -1).

    The banker takes the losers' chips first and pays winners in seat order from
    bankroll plus takings, so the banker can never be driven below zero.
    """
    assert table.banker is not None
    net = {seat: 0 for seat in table.seats}
    owed = {seat: units[seat] * table.stake(seat) for seat in table.players()}
    funds = table.bankroll(table.banker)
    for seat, amount in owed.items():
        if amount < 0:
            net[seat] = amount
            funds -= amount
    for seat, amount in owed.items():
        if amount > 0:
            net[seat] = min(amount, funds)
            funds -= net[seat]
    net[table.banker] = -sum(net.values())
    return net


def faces(sides: int) -> range:
    """The faces a die can show: d6 1..6, d10 0..9."""
    return range(0, 10) if sides == 10 else range(1, sides + 1)


def chance_rolls(count: int, sides: int) -> tuple[tuple[Roll, Fraction], ...]:
    """Every set of `count` dice that can come out, with its exact probability."""
    outcomes = []
    for dice in combinations_with_replacement(faces(sides), count):
        orders = factorial(count)
        for repeats in Counter(dice).values():
            orders //= factorial(repeats)
        outcomes.append((Roll(dice), Fraction(orders, sides**count)))
    return tuple(outcomes)


def require_dice_due(actor: str) -> None:
    if actor != CHANCE:
        raise IllegalAction(f"no dice are due: it is {actor}'s move")


def typed_roll(actor: str, text: str, count: int, sides: int) -> Roll:
    """What a person typed for the dice, for --manual play."""
    require_dice_due(actor)
    return roll_of(actor, parse_dice(text, count, sides), count, sides)


def roll_of(actor: str, pieces: Sequence[Piece], count: int, sides: int) -> Roll:
    """The dice that came out, as the camera or a person gives them."""
    require_dice_due(actor)
    return Roll(dice_values(pieces, count, sides))


def rolls_due(actor: str, count: int, sides: int) -> tuple[tuple[Roll, Fraction], ...]:
    """The chance outcomes when dice are due, or a clear error when someone must move."""
    require_dice_due(actor)
    return chance_rolls(count, sides)


def legal_moves(actor: str, count: int, sides: int, decisions: Callable[[], tuple[Any, ...]]) -> tuple[Any, ...]:
    """Every roll when dice are due, nothing once the round is over, else `decisions()`."""
    if actor == TERMINAL:
        return ()
    if actor == CHANCE:
        return tuple(action for action, _ in chance_rolls(count, sides))
    return decisions()


def routed_roll(state: R, action: object, actor: str, count: int, sides: int,
                legal_actions: Callable[[R], tuple[Any, ...]], after_roll_off: Callable[[R, int], R],
                after_roll: Callable[[R, tuple[int, ...]], R]) -> R | None:
    """The start both engines' apply shares: when dice are due the checked roll goes to
    the first-banker roll-off (one die) or to the hand waiting for it, and the new state
    is returned; otherwise `action` must be a legal decision, and None leaves applying
    it to the engine."""
    if actor == TERMINAL:
        raise IllegalAction("the round is over")
    if actor == CHANCE:
        roll = check_roll(action, count, sides)
        return after_roll_off(state, roll.dice[0]) if state.roll_off else after_roll(state, roll.dice)
    if action not in legal_actions(state):
        raise IllegalAction(f"{action!r} is not a legal move for {actor} now")
    return None


def check_roll(action: object, count: int, sides: int) -> Roll:
    """A roll of the right number of real die faces, or a clear error."""
    if not isinstance(action, Roll):
        raise IllegalAction(f"the dice are rolling: expected {count} d{sides}, not {action!r}")
    if len(action.dice) != count:
        raise BadValue(f"expected {count} d{sides}, got {len(action.dice)}: {action.dice}")
    for value in action.dice:
        check_die(value, sides)
    return action


def leaders(rolls: Mapping[str, int], rank: Callable[[int], int]) -> tuple[str, ...]:
    """The seats whose roll ranks best (highest `rank`), in the order given."""
    best = max(rank(value) for value in rolls.values())
    return tuple(seat for seat, value in rolls.items() if rank(value) == best)


@dataclass(frozen=True)
class RollOff:
    """Each of `rollers` throws one die in turn; a tie for best throws again alone."""

    rollers: tuple[str, ...]
    rolls: tuple[int, ...] = ()

    def roller(self) -> str:
        return self.rollers[len(self.rolls)]


def seats_with_chips(table: Table) -> tuple[str, ...]:
    """Seats with no chips cannot bank (unless nobody has any)."""
    return tuple(seat for seat in table.seats if table.bankroll(seat) > 0) or table.seats


def bank_candidates(table: Table, limits: LimitRules, best_payout: int) -> tuple[str, ...]:
    """The seats that may bank against the table's stakes, in seat order: those with
    chips, and under "refuse" only those whose chips could pay every other stake at
    the best payout at once (empty when nobody's could)."""
    seats = seats_with_chips(table)
    if limits.short_banker != REFUSE:
        return seats
    return tuple(seat for seat in seats if _owed(table, seat, best_payout) <= table.bankroll(seat))


def banker_for(settings: DiceRules, seats: tuple[str, ...], bankrolls: Mapping[str, int], bets: Mapping[str, Bets],
               turn: str | None = None) -> str | None:
    """Who banks a round with these bets when it is `turn`'s turn (whom next_banker
    named; None leaves it to new_round's roll-off): `turn` itself, unless under
    "refuse" its chips could not pay every other bet at once; then the next seat round
    the table whose chips could, and `turn` plays with its own bet. Every bet is
    checked as new_round checks it (the bank's bet too, as it may end up playing);
    BadBet, saying what each seat holds and could owe, when no seat can bank."""
    check_table(seats, bankrolls, bets, turn, min_seats=2, seat_error=BadBet)
    table = open_table(settings, seats, bankrolls, bets, None, most_won(settings))
    if turn is None:
        return None
    able = bank_candidates(table, settings, most_won(settings))
    return next(seat for seat in round_the_table(table.seats, turn, inclusive=True) if seat in able)


def start_roll_off(table: Table, settings: DiceRules) -> RollOff:
    return RollOff(bank_candidates(table, settings, most_won(settings)))


def add_roll_off(roll_off: RollOff | None, value: int, rank: Callable[[int], int]) -> RollOff | str:
    """The next roll-off after one more die: the winner's name once decided."""
    if roll_off is None:
        raise IllegalAction("no roll-off for the first banker is on")
    rolls = roll_off.rolls + (value,)
    if len(rolls) < len(roll_off.rollers):
        return RollOff(roll_off.rollers, rolls)
    best = leaders(dict(zip(roll_off.rollers, rolls)), rank)
    return best[0] if len(best) == 1 else RollOff(best)


def roll_off_text(roll_off: RollOff, table: Table, settings: DiceRules, rule: str) -> str:
    """The first-banker roll-off in words, saying so when it is a tie being rolled
    again, and who does not roll because their chips could not cover the others' bets."""
    done = ", ".join(f"{seat} {value}" for seat, value in zip(roll_off.rollers, roll_off.rolls))
    candidates = bank_candidates(table, settings, most_won(settings))
    short = [seat for seat in seats_with_chips(table) if seat not in candidates]
    left_out = f"{' and '.join(short)} cannot cover the others' bets, so not rolling. " if short else ""
    again = roll_off.rollers != candidates
    heading = f"{' and '.join(roll_off.rollers)} tied, so they roll again. " if again else ""
    return (f"Who banks: {rule}. {left_out}{heading}Rolled: {done or 'none yet'}; "
            f"{roll_off.roller()} rolls one die (type it like '4').")


def dice_due_text(roller: str, count: int, sides: int) -> str:
    """What a person at the table should throw next, and how to type it in --manual."""
    example = "3 5" if count == 2 else "3"
    return f"next: {roller} rolls {'one die' if count == 1 else f'{count} dice'} (d{sides}; type it like '{example}')"


def auto_stakes(settings: DiceRules, seats: tuple[str, ...], bankrolls: Mapping[str, int], rng: Random,
                banker: str | None = None) -> dict[str, Bets]:
    """Everyone with chips bets a small random stake they can afford; the engine drops
    the banker's bet, so this need not know who banks. Under "refuse" that is why every
    seat that could end up banking (every seat with chips, or the named banker alone,
    broke or not) must still cover all the other stakes: each stake stays within what
    every such seat has left to cover, so the round neither refuses the bets nor
    passes anyone over for the bank."""
    table = Table(tuple(seats), tuple((seat, bankrolls.get(seat, 0)) for seat in seats), ())
    left = {}  # stakes each possible banker can still cover
    if settings.short_banker == REFUSE:
        left = {seat: table.bankroll(seat) // most_won(settings)
                for seat in (seats_with_chips(table) if banker is None else (banker,))}
    bets = {}
    for seat in seats:
        top = min(settings.max_bet, table.bankroll(seat), settings.min_bet * 5,
                  *(cover for bank, cover in left.items() if bank != seat))
        if top >= settings.min_bet:
            bets[seat] = Bets(rng.randint(settings.min_bet, top))
            for bank in left:
                if bank != seat:
                    left[bank] -= bets[seat].stake
    return bets


BETS_HELP = "STAKE (whole chips)"


def parse_stake(limits: LimitRules, text: str) -> Bets:
    try:
        stake = int(text.strip())
    except ValueError:
        raise BadBet(f"{text!r}: type the stake as a whole number of chips") from None
    if not limits.min_bet <= stake <= limits.max_bet:
        raise BadBet(f"the table takes bets of {limits.min_bet} to {limits.max_bet} chips, not {stake}")
    return Bets(stake)


def next_bank(settings: DiceRules, table: Table, net: Mapping[str, int], turn: str, *, inclusive: bool = False) -> str:
    """Who banks next, going round the table from `turn` (the seats after it and
    `turn` last, or `turn` first when `inclusive`): the first seat that still has
    chips after `net`, and under "refuse" whose chips could also pay the smallest bet
    from every other seat holding one. The bets themselves are placed later, so
    banker_for checks them when they are. When no seat could, the bank moves as it
    would without "refuse", and the next round says that nobody can bank."""
    chips = {seat: table.bankroll(seat) + net.get(seat, 0) for seat in table.seats}
    smallest = tuple((seat, settings.min_bet) for seat in table.seats if chips[seat] >= settings.min_bet)
    after = Table(table.seats, tuple(chips.items()), smallest)
    able = bank_candidates(after, settings, most_won(settings)) or seats_with_chips(after)
    return next(seat for seat in round_the_table(table.seats, turn, inclusive=inclusive) if seat in able)


def sample(outcomes: tuple[tuple[S, Fraction], ...], rng: Random) -> S:
    """One chance outcome drawn with its exact probability from the caller's rng."""
    point = Fraction(rng.randrange(10**9), 10**9)
    for action, probability in outcomes:
        point -= probability
        if point < 0:
            return action
    return outcomes[-1][0]


def label(action: object) -> str:
    """Words for the actions both games share."""
    if isinstance(action, Roll):
        return "roll " + " ".join(map(str, action.dice))
    return "hit" if isinstance(action, Hit) else "stand" if isinstance(action, Stand) else repr(action)
