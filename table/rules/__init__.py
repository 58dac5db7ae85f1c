"""The five rules engines and the contract they share.

Each engine is a module exposing the same plain functions (modelled on OpenSpiel's
State: whose turn it is, the legal actions, apply, chance outcomes with exact
probabilities). States and actions are frozen dataclasses, so `apply` returns a new
state and a rejected action can never leave a half-changed one behind.

Module-level API of every engine (see tests/test_rules_contract.py, which runs it on
all five):

    GAME_ID: str, DESCRIPTION: str (one line), Settings (frozen dataclass, defaults)
    HOUSE_BANKED: bool   True when HOUSE (with unlimited credit) banks every round
    Bets (frozen dataclass): what one seat stakes before the round starts
    new_round(settings, seats, bankrolls, bets, banker=None) -> State
        seats: ordered names of everyone at the table, banker included;
        banker: one of seats for player-banked games (None = the engine decides,
        e.g. by a first-banker chance phase; house-banked games ignore it and use
        HOUSE); bankrolls: {account: chips} for every seat (and HOUSE where the
        house banks); bets: {seat: Bets} for the seats that bet this round (a seat
        left out sits the round out). Raises BadBet if a bet is outside the limits
        or not covered by the bankroll.
    check_bet(settings, seat, bet, chips)  one seat's bet on its own: BadBet unless it
        is within the limits and `chips` cover all the round can ask of the seat
        before it decides anything (its stakes, two tiles, a dealer's natural); so a
        table can seat out whoever cannot cover it and deal the others
    check_state(state, bankrolls=None) -> tuple[str]   the seats a saved state is a
        round of, or a TableError when it names anyone else, holds a stake that is not
        whole chips, 0 or more, or (given the table's bankrolls now) was dealt with
        other bankrolls than those (a damaged, hand-edited or stale bankroll file),
        before it is carried on
    current_actor(state) -> str            a seat/banker name, CHANCE, or TERMINAL
    legal_actions(state) -> tuple[Action]  finite; for CHANCE, every possible outcome
    chance_outcomes(state) -> tuple[(Action, Fraction)]   only when actor is CHANCE
    apply(state, action) -> State          raises IllegalAction / BadValue
    is_terminal(state) -> bool
    settle(state) -> dict[str, int]        net chips per account, sums to zero
    next_banker(state) -> str | None       who banks/deals the next round, if anyone
    describe(state) -> str                 a few lines of text for a terminal
    label(action) -> str                   short words for an action ("hit", "stand")
    parse_outcome(state, text) -> Action   a typed die/card/tile for --manual play
    auto_bets(settings, seats, bankrolls, rng, banker=None) -> {seat: Bets}   simple
        bets that new_round(..., banker=banker) takes under any house rules, the banker
        named or not ({} when none can be)
    BETS_HELP: str                         how to type a bet, e.g. "ANTE [MATCH SPOTS..]"
    parse_bets(settings, text) -> Bets     a typed bet for terminal play; BadBet if malformed
    carry_over(final_state) -> dict        optional: keyword arguments for the next
                                           new_round (the shoe or pack goes on)
    banker_for(settings, seats, bankrolls, bets, turn=None) -> str | None   optional,
        for games whose bank must cover the bets: who banks a round with these bets
        when it is `turn`'s turn to bank (next_banker's answer): `turn`, or when its
        chips cannot cover them the next seat round the table that can (`turn` then
        plays with its bet); BadBet when no seat can. The round driver deals to it
    auto_action(state, rng) -> Action      a simple strategy for every decision
"""

import dataclasses
from importlib import import_module
from types import ModuleType
from typing import Mapping

from table.errors import TableError

CHANCE = "chance"
TERMINAL = "terminal"
HOUSE = "house"

GAME_MODULES = {
    "dicey21": "table.rules.dicey21",
    "dice-blackjack": "table.rules.dice_blackjack",
    "blackjack-dice": "table.rules.blackjack_dice",
    "domino21": "table.rules.domino21",
    "changing-bank": "table.rules.changing_bank",
}


def carry_over(module: ModuleType, final_state: object) -> dict:
    """What a finished round hands to the next one (a shoe, a pack); most games: nothing."""
    hand_on = getattr(module, "carry_over", None)
    return dict(hand_on(final_state)) if hand_on else {}


def engine(game_id: str) -> ModuleType:
    """Engines are imported on demand so one broken game cannot stop the others."""
    if game_id not in GAME_MODULES:
        raise TableError(f"unknown game {game_id!r}; the games are: {', '.join(GAME_MODULES)}")
    return import_module(GAME_MODULES[game_id])


def game_settings(game_id: str, rules: Mapping[str, object]) -> object:
    """The game's Settings with house rules (by field name, as a settings file's
    `[rules]` table or `tabletop21 play --rule name=value` gives them) over the
    defaults. Typed text ("yes", "7") is read as the field's type, so every source goes
    through this one check; an unknown name or a wrong value is a TableError naming
    what the game accepts."""
    defaults = engine(game_id).Settings()
    known = [field.name for field in dataclasses.fields(defaults)]
    chosen = {}
    for name, value in rules.items():
        if name not in known:
            raise TableError(f"{game_id} has no rule {name!r}; its rules are: {', '.join(known)}")
        chosen[name] = _rule_value(name, value, getattr(defaults, name))
    try:
        return dataclasses.replace(defaults, **chosen)
    except TableError as err:
        raise TableError(f"{game_id} rules: {err}") from err


_WORDS = {True: ("yes", "true", "on"), False: ("no", "false", "off")}
_KINDS = {bool: "yes or no", int: "a whole number", str: "a word"}


def _rule_value(name: str, value: object, default: object) -> object:
    kind = type(default)
    if isinstance(value, str) and kind is not str:
        text = value.strip().lower()
        if kind is bool:
            value = next((flag for flag, words in _WORDS.items() if text in words), value)
        elif text.lstrip("-").isdigit():
            value = int(text)
    if type(value) is not kind:  # bool is not taken for int, nor 1 for yes
        raise TableError(f"rule {name} is {_KINDS.get(kind, kind.__name__)} (default {default!r}), not {value!r}")
    return value
