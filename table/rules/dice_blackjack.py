"""Dice Blackjack (James Yates, ChessandPoker.com): two d6 each against a dealer.

The first roll counts double; every later roll may be counted whole or by either die,
so a hand only busts when all three choices pass 21. The dealer is tied to 17 but gets
to dodge a losing 17-or-more and to take a tie, which is why the dealer's choices are
actions here rather than fixed play. Several players are allowed: each plays a
heads-up duel against the one dealer, in seat order, exactly as the two-person game.

The pure helpers (first_count, hit_options, dealer_options, dealer_may_stand, ...)
are the rules; the odds module imports them instead of restating them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from random import Random
from typing import Any

from table.errors import TableError
from table.pieces import Piece
from table.rules import CHANCE, TERMINAL, no_carry_over
from table.rules import dice_hands as shared
from table.rules.dice_hands import Bets, Hit, Limits, Roll, RollOff, Stand, Table

GAME_ID = "dice-blackjack"
DESCRIPTION = "Two d6 against a dealer: first roll doubled, then count both dice or either one; two pairs pay 2:1"
HOUSE_BANKED = False
BETS_HELP = shared.BETS_HELP
SIDES = 6
TARGET = 21
DEALER_STANDS = 17



@dataclass(frozen=True)
class Settings(Limits):
    """blackjack_pays: stakes won on two pairs in a row (the seed: double the bet).
    blackjack_even_if_bust: a second pair is Blackjack even when every way of counting
    it passes 21 (the seed names no exception, so True)."""

    blackjack_pays: int = 2
    blackjack_even_if_bust: bool = True

    def __post_init__(self) -> None:
        super().__post_init__()
        shared.check_blackjack_pays(self.blackjack_pays)


@dataclass(frozen=True)
class Use:
    """Count these dice of the roll just made: both, or one of them."""

    dice: tuple[int, ...]


@dataclass(frozen=True)
class Hand:
    rolls: tuple[tuple[int, ...], ...] = ()
    used: tuple[tuple[int, ...], ...] = ()
    total: int = 0
    end: str = ""  # "" while playing, then "stand", "bust" or "blackjack"


@dataclass(frozen=True)
class Duel:
    player: str
    stake: int
    player_hand: Hand = Hand()
    dealer_hand: Hand = Hand()


@dataclass(frozen=True)
class State:
    settings: Settings
    table: Table
    roll_off: RollOff | None
    duels: tuple[Duel, ...]
    turn: int = 0
    step: str = "roll"  # "roll" (dice due), "decide" (hit/stand), "use" (count a roll), "done"
    pending: tuple[int, ...] = ()  # the roll waiting to be counted in step "use"


# --- the rules as pure functions over totals (shared with table/odds) -------------


def first_count(dice: tuple[int, ...]) -> int:
    """The first roll of a hand counts double."""
    return 2 * sum(dice)


def hit_options(total: int, dice: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """(dice used, new total) for each way of counting a later roll that stays at 21
    or under: both dice, or either one. Empty means bust."""
    low, high = sorted(dice)
    ways = ((low, high), (high,), (low,)) if low != high else ((low, high), (low,))
    return tuple((used, total + sum(used)) for used in ways if total + sum(used) <= TARGET)


def is_blackjack(first: tuple[int, ...], second: tuple[int, ...], settings: Settings) -> bool:
    """A pair on the first roll (6-6 already bust) then a pair on the next one."""
    if first[0] != first[1] or second[0] != second[1] or first_count(first) > TARGET:
        return False
    return settings.blackjack_even_if_bust or bool(hit_options(first_count(first), second))


def dealer_options(total: int, dice: tuple[int, ...], player_total: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The ways the dealer may count a roll. A dealer who can reach 17 or more must,
    unless one of those 17-or-more counts would lose to the player: then any count is
    allowed (the seed's escape from a losing 17). A count that ties is always allowed."""
    options = hit_options(total, dice)
    high = [option for option in options if option[1] >= DEALER_STANDS]
    if not high or any(new < player_total for _, new in high):
        return options
    return tuple(o for o in options if o[1] >= DEALER_STANDS or o[1] == player_total)


def dealer_must_stand(total: int) -> bool:
    return total >= DEALER_STANDS


def dealer_may_stand(total: int, player_total: int) -> bool:
    """Below 17 the dealer stands only to take a tie."""
    return dealer_must_stand(total) or total == player_total


def compare(player_total: int, dealer_total: int) -> int:
    """Stakes the player wins when neither side busted or hit Blackjack."""
    return (player_total > dealer_total) - (player_total < dealer_total)


def duel_units(duel: Duel, settings: Settings) -> int:
    player, dealer = duel.player_hand, duel.dealer_hand
    if player.end == "blackjack":
        return settings.blackjack_pays
    if player.end == "bust":
        return -1
    if dealer.end == "bust":
        return 1
    return compare(player.total, dealer.total)


# --- the contract -----------------------------------------------------------------


def new_round(settings: Settings, seats: tuple[str, ...], bankrolls: Mapping[str, int], bets: Mapping[str, Bets], banker: str | None = None) -> State:
    """With no dealer named, the seats roll one die each and the highest deals."""
    table = shared.open_table(settings, seats, bankrolls, bets, banker, shared.most_won(settings))
    if banker is None:
        return State(settings, table, shared.start_roll_off(table, settings), ())
    return _seat_duels(State(settings, table, None, ()))


def check_state(state: State, bankrolls: Mapping[str, int] | None = None) -> tuple[str, ...]:
    return shared.check_saved_table(state.table, state.roll_off, tuple(duel.player for duel in state.duels),
                                    bankrolls)


def _seat_duels(state: State) -> State:
    table = state.table
    duels = tuple(Duel(seat, table.stake(seat)) for seat in table.players())
    return _next_duel(replace(state, roll_off=None, duels=duels, turn=-1))


def _next_duel(state: State) -> State:
    turn = state.turn + 1
    step = "roll" if turn < len(state.duels) else "done"
    return replace(state, turn=turn, step=step, pending=())


def _duel(state: State) -> Duel:
    return state.duels[state.turn]


def _dealer_turn(state: State) -> bool:
    return _duel(state).player_hand.end != ""


def _with_hand(state: State, hand: Hand, step: str, pending: tuple[int, ...] = ()) -> State:
    duel = _duel(state)
    duel = replace(duel, dealer_hand=hand) if _dealer_turn(state) else replace(duel, player_hand=hand)
    duels = state.duels[: state.turn] + (duel,) + state.duels[state.turn + 1 :]
    return replace(state, duels=duels, step=step, pending=pending)


def current_actor(state: State) -> str:
    if state.step == "done":
        return TERMINAL
    if state.step == "roll":
        return CHANCE
    return state.table.dealer if _dealer_turn(state) else _duel(state).player


def dice_due(state: State) -> int:
    """How many dice the roll due is (one each in the first-banker roll-off)."""
    return 1 if state.roll_off else 2


def chance_outcomes(state: State) -> tuple[tuple[Roll, Fraction], ...]:
    return shared.rolls_due(current_actor(state), dice_due(state), SIDES)


def legal_actions(state: State) -> tuple[Any, ...]:
    return shared.legal_moves(current_actor(state), dice_due(state), SIDES, lambda: _decisions(state))


def _decisions(state: State) -> tuple[Any, ...]:
    if state.step == "use":
        return tuple(Use(used) for used, _ in _count_options(state, state.pending))
    return (Hit(), Stand())


def _count_options(state: State, dice: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The ways whoever is rolling may count `dice`: the dealer is the more restricted."""
    total = _hand(state).total
    if _dealer_turn(state):
        return dealer_options(total, dice, _duel(state).player_hand.total)
    return hit_options(total, dice)


def _hand(state: State) -> Hand:
    duel = _duel(state)
    return duel.dealer_hand if _dealer_turn(state) else duel.player_hand


def apply(state: State, action: object) -> State:
    rolled = shared.routed_roll(state, action, current_actor(state), dice_due(state), SIDES, legal_actions,
                                _after_roll_off, _after_roll)
    if rolled is not None:
        return rolled
    hand = _hand(state)
    if isinstance(action, Use):
        total = hand.total + sum(action.dice)
        return _after_count(state, replace(hand, used=hand.used + (action.dice,), total=total))
    if isinstance(action, Stand):
        return _end_hand(state, replace(hand, end="stand"))
    return _with_hand(state, hand, "roll")


def _after_roll_off(state: State, value: int) -> State:
    result = shared.add_roll_off(state.roll_off, value, rank=lambda face: face)
    if isinstance(result, RollOff):
        return replace(state, roll_off=result)
    return _seat_duels(replace(state, table=replace(state.table, banker=result)))


def _after_roll(state: State, dice: tuple[int, ...]) -> State:
    hand = _hand(state)
    rolled = replace(hand, rolls=hand.rolls + (dice,))
    if not hand.rolls:
        return _after_count(state, replace(rolled, used=(dice,), total=first_count(dice)))
    if not _dealer_turn(state) and len(hand.rolls) == 1 and is_blackjack(hand.rolls[0], dice, state.settings):
        return _end_hand(state, replace(rolled, end="blackjack"))
    options = _count_options(state, dice)
    if not options:
        return _end_hand(state, replace(rolled, end="bust"))
    if len(options) == 1:
        used, total = options[0]
        return _after_count(state, replace(rolled, used=rolled.used + (used,), total=total))
    return _with_hand(state, rolled, "use", pending=dice)


def _after_count(state: State, hand: Hand) -> State:
    """What a new total forces: bust, a forced stand, a forced roll, or a choice."""
    if hand.total > TARGET:
        return _end_hand(state, replace(hand, end="bust"))
    if not _dealer_turn(state):
        return _end_hand(state, replace(hand, end="stand")) if hand.total == TARGET else _with_hand(state, hand, "decide")
    if dealer_must_stand(hand.total):
        return _end_hand(state, replace(hand, end="stand"))
    if dealer_may_stand(hand.total, _duel(state).player_hand.total):
        return _with_hand(state, hand, "decide")
    return _with_hand(state, hand, "roll")


def _end_hand(state: State, hand: Hand) -> State:
    dealer = _dealer_turn(state)
    state = _with_hand(state, hand, "roll")
    if dealer or hand.end != "stand":
        return _next_duel(state)
    return state  # the dealer now rolls against this player's total


def is_terminal(state: State) -> bool:
    return state.step == "done"


def settle(state: State) -> dict[str, int]:
    if not is_terminal(state):
        raise TableError("the round is not over yet")
    units = {duel.player: duel_units(duel, state.settings) for duel in state.duels}
    return shared.settle_with_banker(state.table, state.settings, units)


def next_banker(state: State) -> str | None:
    """Whoever wins deals next: the first player in seat order who beat the dealer,
    otherwise the dealer keeps the dice. Whoever's turn that is passes the dice on,
    round the table, when left with no chips, or under "refuse" with too few to cover
    the smallest bet from each of the others."""
    if not is_terminal(state):
        return None
    winner = next((duel.player for duel in state.duels if duel_units(duel, state.settings) > 0), state.table.dealer)
    return shared.next_bank(state.settings, state.table, settle(state), winner, inclusive=True)


check_bet = shared.check_bet
banker_for = shared.banker_for
carry_over = no_carry_over


def _hand_text(hand: Hand) -> str:
    parts = []
    for number, (roll, used) in enumerate(zip(hand.rolls, hand.used + ((),) * len(hand.rolls))):
        shown = "-".join(map(str, roll))
        if number == 0:
            parts.append(f"{shown} doubled")
        elif used:
            parts.append(f"{shown} using {'+'.join(map(str, used))}")
        else:
            parts.append(shown)
    state_word = {"": "", "stand": " stands", "bust": " BUST", "blackjack": " BLACKJACK"}[hand.end]
    return (", ".join(parts) or "no roll yet") + f" = {hand.total}{state_word}"


def describe(state: State) -> str:
    if state.roll_off:
        return shared.roll_off_text(state.roll_off, state.table, state.settings, "the highest die deals")
    table = state.table
    lines = [f"Dealer: {table.banker} [{table.bankroll(table.dealer)} chips]"]
    for number, duel in enumerate(state.duels):
        head = f"{duel.player} (bet {duel.stake} of {table.bankroll(duel.player)} chips)"
        if number > state.turn:
            lines.append(f"{head}: waiting")
            continue
        lines.append(f"{head}: {_hand_text(duel.player_hand)}")
        if duel.dealer_hand.rolls:
            lines.append(f"  dealer: {_hand_text(duel.dealer_hand)}")
        if state.step == "done" or number < state.turn:
            lines.append(f"  {_result_text(duel, state.settings)}")
    if state.step == "use":
        ways = ", ".join(f"{'both' if len(used) == 2 else f'the {used[0]}'} make{'s' * (len(used) == 1)} {total}"
                         for used, total in _count_options(state, state.pending))
        lines.append(f"Rolled {'-'.join(map(str, state.pending))}: count both dice or one of them ({ways})")
    elif state.step == "decide" and _dealer_turn(state) and not dealer_must_stand(_hand(state).total):
        lines.append("The dealer is below 17 but ties the player, so may stand on the tie or roll on")
    elif current_actor(state) == CHANCE:
        roller = f"the dealer {table.banker}" if _dealer_turn(state) else _duel(state).player
        lines.append(shared.dice_due_text(roller, dice_due(state), SIDES))
    if is_terminal(state):
        lines.append("Settled: " + ", ".join(f"{a} {n:+d}" for a, n in settle(state).items()))
    return "\n".join(lines)


def _result_text(duel: Duel, settings: Settings) -> str:
    """Who took the duel and why, in the stakes the pay table owes (a short dealer may pay less)."""
    units = duel_units(duel, settings)
    player, dealer = duel.player_hand, duel.dealer_hand
    owed = f"{abs(units) * duel.stake} chip(s)"
    if player.end == "blackjack":
        return f"{duel.player} wins {owed}: Blackjack, two pairs in a row, pays {settings.blackjack_pays}x"
    if player.end == "bust":
        return f"{duel.player} loses {owed}: bust, every way of counting passes 21"
    if dealer.end == "bust":
        return f"{duel.player} wins {owed}: the dealer bust"
    if units == 0:
        return f"tie at {player.total}: no chips change hands"
    winner = f"{duel.player} wins" if units > 0 else f"{duel.player} loses"
    return f"{winner} {owed}: {player.total} against the dealer's {dealer.total}"


def label(action: object) -> str:
    if isinstance(action, Use):
        return "use both" if len(action.dice) == 2 else f"use {action.dice[0]}"
    return shared.label(action)


def outcome_of(state: State, pieces: Sequence[Piece]) -> Roll:
    return shared.roll_of(current_actor(state), pieces, dice_due(state), SIDES)


def parse_outcome(state: State, text: str) -> Roll:
    return shared.typed_roll(current_actor(state), text, dice_due(state), SIDES)


auto_bets = shared.auto_stakes
parse_bets = shared.parse_stake


def auto_action(state: State, rng: Random) -> object:
    """Simple table play: a player hits below 16 and counts the highest safe total;
    the dealer counts the highest total allowed and takes any tie."""
    if current_actor(state) in (CHANCE, TERMINAL):
        return shared.sample(chance_outcomes(state), rng)  # refuses once the round is over
    legal = legal_actions(state)
    if state.step == "use":
        return max(legal, key=lambda use: sum(use.dice))
    if _dealer_turn(state):
        return Stand()
    return Hit() if _hand(state).total < 16 else Stand()
