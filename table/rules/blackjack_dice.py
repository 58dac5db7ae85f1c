"""Blackjack Dice: 21 with ten-sided dice against a banker who rotates round the table.

Each hand starts with two d10 and adds one die per hit; the 0 face is ten and a 1 is
one or eleven. Because dice never run out like a deck, every draw has the same odds,
which keeps the game (and its exact odds) a small walk over totals. Players' 1s are
counted at whichever value is best when they stand: a player is never forced to stop,
so choosing 1 or 11 earlier could only lose options. The banker, forced to stop at 17,
is different: under the "choose" house rule a banker holding a 1 that makes 17 to 21
may count it as 1 and draw on, and that choice is an action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from random import Random
from typing import Any

from table.errors import BadValue, TableError
from table.pieces import Piece
from table.rules import CHANCE, TERMINAL, no_carry_over
from table.rules import dice_hands as shared
from table.rules.dice import check_die
from table.rules.dice_hands import Bets, Hit, Limits, Roll, RollOff, Stand, Table

GAME_ID = "blackjack-dice"
DESCRIPTION = "Two d10 then one per hit against a rotating banker who draws to 17; 0 is ten, 1 is one or eleven"
HOUSE_BANKED = False
BETS_HELP = shared.BETS_HELP
SIDES = 10
TARGET = 21
BANKER_STANDS = 17
BANKER_CHOOSES = "choose"  # house rule (a): the banker counts a 1 as 1 or 11
ONE_IS_ELEVEN = "eleven"  # house rule (b): the banker's 1 is 11 whenever that is 21 or under
BANKER_ONE_RULES = (BANKER_CHOOSES, ONE_IS_ELEVEN)



@dataclass(frozen=True)
class Settings(Limits):
    """banker_one: the house rule for the banker's 1 (see BANKER_ONE_RULES).
    blackjack_pays: stakes won by a two-dice 21 (the seed gives no bonus: even money)."""

    banker_one: str = BANKER_CHOOSES
    blackjack_pays: int = 1

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.banker_one not in BANKER_ONE_RULES:
            raise BadValue(f"banker_one is one of {', '.join(BANKER_ONE_RULES)}, not {self.banker_one!r}")
        shared.check_blackjack_pays(self.blackjack_pays)


@dataclass(frozen=True)
class Hand:
    dice: tuple[int, ...] = ()
    end: str = ""  # "" while playing, then "stand", "bust" or "blackjack"


@dataclass(frozen=True)
class State:
    settings: Settings
    table: Table
    roll_off: RollOff | None
    players: tuple[str, ...] = ()
    hands: tuple[Hand, ...] = ()
    banker_hand: Hand = Hand()
    turn: int = 0  # index into players; len(players) is the banker's turn
    step: str = "roll"  # "roll" (dice due), "decide" (hit or stand), "done"


# --- the rules as pure functions over totals (shared with table/odds) -------------


def points(face: int) -> int:
    return 10 if face == 0 else face


def count(dice: tuple[int, ...]) -> tuple[int, bool]:
    """(total with every 1 as one, whether there is a 1 that could be eleven)."""
    return sum(points(face) for face in dice), 1 in dice


def best_total(hard: int, has_one: bool) -> int:
    """Only one 1 can ever be eleven: two would pass 21."""
    return hard + 10 if has_one and hard + 10 <= TARGET else hard


def hand_total(dice: tuple[int, ...]) -> int:
    return best_total(*count(dice))


def is_blackjack(dice: tuple[int, ...]) -> bool:
    """21 with the first two dice: a 0 and a 1."""
    return len(dice) == 2 and hand_total(dice) == TARGET


def banker_play(hard: int, has_one: bool, banker_one: str) -> str:
    """"stand", "hit" or "either" for a banker who has not busted."""
    if hard >= BANKER_STANDS:
        return "stand"
    if best_total(hard, has_one) < BANKER_STANDS:
        return "hit"
    return "either" if banker_one == BANKER_CHOOSES else "stand"


def compare(player_total: int, banker_total: int) -> int:
    """Stakes won by a player who stood: the banker takes ties and busts to pay all."""
    return 1 if banker_total > TARGET or player_total > banker_total else -1


def hand_units(hand: Hand, banker_hand: Hand, settings: Settings) -> int:
    if hand.end == "blackjack":
        return settings.blackjack_pays
    if hand.end == "bust":
        return -1
    return compare(hand_total(hand.dice), hand_total(banker_hand.dice))


def first_banker(rolls: Mapping[str, int]) -> str | None:
    """The seat with the lowest single d10 banks first (0 counts as ten, like in play);
    None when the lowest is tied, and those seats roll again."""
    for value in rolls.values():
        check_die(value, SIDES)
    lowest = shared.leaders(rolls, rank=lambda face: -points(face))
    return lowest[0] if len(lowest) == 1 else None


# --- the contract -----------------------------------------------------------------


def new_round(settings: Settings, seats: tuple[str, ...], bankrolls: Mapping[str, int], bets: Mapping[str, Bets], banker: str | None = None) -> State:
    """With no banker named, the seats roll one d10 each and the lowest banks."""
    table = shared.open_table(settings, seats, bankrolls, bets, banker, shared.most_won(settings))
    if banker is None:
        return State(settings, table, shared.start_roll_off(table, settings))
    return _deal(State(settings, table, None))


def check_state(state: State, bankrolls: Mapping[str, int] | None = None) -> tuple[str, ...]:
    return shared.check_saved_table(state.table, state.roll_off, state.players, bankrolls)


def _deal(state: State) -> State:
    players = state.table.players()
    state = replace(state, roll_off=None, players=players, hands=tuple(Hand() for _ in players), turn=-1)
    return _next_turn(state)


def _next_turn(state: State) -> State:
    turn = state.turn + 1
    if turn < len(state.players):
        return replace(state, turn=turn, step="roll")
    waiting = any(hand.end == "stand" for hand in state.hands)
    return replace(state, turn=len(state.players), step="roll" if waiting else "done")


def _banker_turn(state: State) -> bool:
    return state.turn == len(state.players)


def _hand(state: State) -> Hand:
    return state.banker_hand if _banker_turn(state) else state.hands[state.turn]


def _with_hand(state: State, hand: Hand, step: str) -> State:
    if _banker_turn(state):
        return replace(state, banker_hand=hand, step=step)
    hands = state.hands[: state.turn] + (hand,) + state.hands[state.turn + 1 :]
    return replace(state, hands=hands, step=step)


def current_actor(state: State) -> str:
    if state.step == "done":
        return TERMINAL
    if state.step == "roll":
        return CHANCE
    return state.table.dealer if _banker_turn(state) else state.players[state.turn]


def dice_due(state: State) -> int:
    """How many dice the roll due is (one each in the first-banker roll-off)."""
    return 1 if state.roll_off or _hand(state).dice else 2


def chance_outcomes(state: State) -> tuple[tuple[Roll, Fraction], ...]:
    return shared.rolls_due(current_actor(state), dice_due(state), SIDES)


def legal_actions(state: State) -> tuple[Any, ...]:
    return shared.legal_moves(current_actor(state), dice_due(state), SIDES, lambda: (Hit(), Stand()))


def apply(state: State, action: object) -> State:
    rolled = shared.routed_roll(state, action, current_actor(state), dice_due(state), SIDES, legal_actions,
                                _after_roll_off, _after_roll)
    if rolled is not None:
        return rolled
    hand = _hand(state)
    if isinstance(action, Stand):
        return _end_hand(state, replace(hand, end="stand"))
    return _with_hand(state, hand, "roll")


def _after_roll_off(state: State, value: int) -> State:
    result = shared.add_roll_off(state.roll_off, value, rank=lambda face: -points(face))
    if isinstance(result, RollOff):
        return replace(state, roll_off=result)
    return _deal(replace(state, table=replace(state.table, banker=result)))


def _after_roll(state: State, dice: tuple[int, ...]) -> State:
    hand = replace(_hand(state), dice=_hand(state).dice + dice)
    hard, has_one = count(hand.dice)
    if hard > TARGET:
        return _end_hand(state, replace(hand, end="bust"))
    if _banker_turn(state):
        play = banker_play(hard, has_one, state.settings.banker_one)
        if play == "stand":
            return _end_hand(state, replace(hand, end="stand"))
        return _with_hand(state, hand, "roll" if play == "hit" else "decide")
    if is_blackjack(hand.dice):
        return _end_hand(state, replace(hand, end="blackjack"))
    if best_total(hard, has_one) == TARGET:
        return _end_hand(state, replace(hand, end="stand"))
    return _with_hand(state, hand, "decide")


def _end_hand(state: State, hand: Hand) -> State:
    state = _with_hand(state, hand, "roll")
    return replace(state, step="done") if _banker_turn(state) else _next_turn(state)


def is_terminal(state: State) -> bool:
    return state.step == "done"


def settle(state: State) -> dict[str, int]:
    if not is_terminal(state):
        raise TableError("the round is not over yet")
    units = {seat: hand_units(hand, state.banker_hand, state.settings) for seat, hand in zip(state.players, state.hands)}
    return shared.settle_with_banker(state.table, state.settings, units)


def next_banker(state: State) -> str | None:
    """The bank passes to the next seat round the table that still has chips (and,
    under "refuse", could cover the smallest bet from each of the others)."""
    if not is_terminal(state):
        return None
    return shared.next_bank(state.settings, state.table, settle(state), state.table.dealer)


check_bet = shared.check_bet
banker_for = shared.banker_for
carry_over = no_carry_over


def _hand_text(hand: Hand) -> str:
    if not hand.dice:
        return "no dice yet"
    word = {"": "", "stand": " stands", "bust": " BUST", "blackjack": " BLACKJACK"}[hand.end]
    return " ".join(map(str, hand.dice)) + f" = {hand_total(hand.dice)}{word}"


def describe(state: State) -> str:
    if state.roll_off:
        return shared.roll_off_text(state.roll_off, state.table, state.settings, "the lowest d10 banks, 0 counting ten")
    table = state.table
    lines = [f"Banker: {table.banker} [{table.bankroll(table.dealer)} chips]"]
    for number, (seat, hand) in enumerate(zip(state.players, state.hands)):
        result = f" -> {_result_text(state, hand)}" if is_terminal(state) else ""
        waiting = number > state.turn
        head = f"{seat} (bet {table.stake(seat)} of {table.bankroll(seat)} chips)"
        lines.append(f"{head}: {'waiting' if waiting else _hand_text(hand)}{result}")
    if _banker_turn(state) and (state.banker_hand.dice or not is_terminal(state)):
        lines.append(f"banker {table.banker}: {_hand_text(state.banker_hand)}")
    if state.step == "decide" and _banker_turn(state):
        hard = count(state.banker_hand.dice)[0]
        lines.append(f"The banker's 1 may count eleven ({hard + 10}, stand) or one ({hard}, hit and roll on)")
    elif current_actor(state) == CHANCE:
        roller = f"the banker {table.banker}" if _banker_turn(state) else state.players[state.turn]
        lines.append(shared.dice_due_text(roller, dice_due(state), SIDES))
    if is_terminal(state):
        lines.append("Settled: " + ", ".join(f"{a} {n:+d}" for a, n in settle(state).items()))
    return "\n".join(lines)


def _result_text(state: State, hand: Hand) -> str:
    """Who won and why, so a player can check the banker's arithmetic."""
    if hand.end == "blackjack":
        return f"wins: Blackjack (21 with two dice) pays {state.settings.blackjack_pays}x"
    if hand.end == "bust":
        return "loses: bust, over 21"
    banker = hand_total(state.banker_hand.dice)
    if banker > TARGET:
        return "wins: the banker bust"
    mine = hand_total(hand.dice)
    if mine == banker:
        return f"loses: {mine} ties the banker, and ties go to the banker"
    return f"{'wins' if mine > banker else 'loses'}: {mine} against the banker's {banker}"


label = shared.label


def outcome_of(state: State, pieces: Sequence[Piece]) -> Roll:
    return shared.roll_of(current_actor(state), pieces, dice_due(state), SIDES)


def parse_outcome(state: State, text: str) -> Roll:
    return shared.typed_roll(current_actor(state), text, dice_due(state), SIDES)


auto_bets = shared.auto_stakes
parse_bets = shared.parse_stake


def auto_action(state: State, rng: Random) -> object:
    """Simple table play: a player hits below 17; a banker with a choice stands."""
    if current_actor(state) in (CHANCE, TERMINAL):
        return shared.sample(chance_outcomes(state), rng)  # refuses once the round is over
    if _banker_turn(state):
        return Stand()
    return Hit() if hand_total(_hand(state).dice) < 17 else Stand()
