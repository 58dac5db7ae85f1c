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
    auto_bets(settings, seats, bankrolls, rng) -> {seat: Bets}   simple, always legal
    BETS_HELP: str                         how to type a bet, e.g. "ANTE [MATCH SPOTS..]"
    parse_bets(settings, text) -> Bets     a typed bet for terminal play; BadBet if malformed
    carry_over(final_state) -> dict        optional: keyword arguments for the next
                                           new_round (the shoe or pack goes on)
    auto_action(state, rng) -> Action      a simple strategy for every decision
"""

from importlib import import_module
from types import ModuleType

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
