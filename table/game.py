"""What a game is: its rules engine, the pieces its chance steps need, its house
rules, how its hands are laid out on the screen, its pay table and its odds, in one
`Game` object. The games themselves are listed once, in table.games.

An engine is a module of plain functions (modelled on OpenSpiel's State: whose turn
it is, the legal actions, apply, chance outcomes with exact probabilities); `Engine`
says which, and mypy checks every engine module against it where a Game is made.
States and actions are frozen dataclasses, so `apply` returns a new state and a
rejected action can never leave a half-changed one behind.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from random import Random
from typing import Any, Protocol

from table.errors import TableError
from table.pieces import Need, Piece, PieceKind
from table.view import Hand, PayLine, PayTable

# Each seat's hands as drawn, and the hands shared by the table (community dice).
Layout = tuple[dict[str, tuple[Hand, ...]], tuple[Hand, ...]]


class Engine(Protocol):
    """The module-level API of every rules engine (tests/test_rules_contract.py runs it
    on all of them). States, actions, Settings and Bets are the engine's own frozen
    dataclasses, hence Any here."""

    GAME_ID: str
    DESCRIPTION: str  # one line
    HOUSE_BANKED: bool  # True when HOUSE (with unlimited credit) banks every round
    BETS_HELP: str  # how to type a bet, e.g. "ANTE [MATCH SPOTS..]"

    @property
    def Settings(self) -> type[Any]:
        """The house rules: a frozen dataclass whose defaults are the standard table."""

    @property
    def State(self) -> type[Any]:
        """A round's state."""

    def new_round(self, settings: Any, seats: tuple[str, ...], bankrolls: Mapping[str, int],
                  bets: Mapping[str, Any], /, banker: str | None = None) -> Any:
        """seats: ordered names of everyone at the table, banker included; banker: one
        of seats for player-banked games (None = the engine decides, e.g. by a
        first-banker chance phase; house-banked games ignore it and use HOUSE);
        bankrolls: {account: chips} for every seat (and HOUSE where the house banks);
        bets: {seat: Bets} for the seats that bet this round (a seat left out sits the
        round out). Raises BadBet if a bet is outside the limits or not covered by the
        bankroll. What carry_over handed on comes as keyword arguments."""

    def check_bet(self, settings: Any, seat: str, bet: Any, chips: int, /) -> object:
        """One seat's bet on its own: BadBet unless it is within the limits and `chips`
        cover all the round can ask of the seat before it decides anything (its stakes,
        two tiles, a dealer's natural); so a table can seat out whoever cannot cover it
        and deal the others."""

    def check_state(self, state: Any, /, bankrolls: Mapping[str, int] | None = None) -> tuple[str, ...]:
        """The seats a saved state is a round of, or a TableError when it names anyone
        else, holds a stake that is not whole chips, 0 or more, or (given the table's
        bankrolls now) was dealt with other bankrolls than those."""

    def current_actor(self, state: Any, /) -> str:
        """A seat/banker name, CHANCE, or TERMINAL."""

    def legal_actions(self, state: Any, /) -> tuple[Any, ...]:
        """Finite; for CHANCE, every possible outcome."""

    def chance_outcomes(self, state: Any, /) -> tuple[tuple[Any, Fraction], ...]:
        """Only when the actor is CHANCE."""

    def apply(self, state: Any, action: Any, /) -> Any:
        """The next state; raises IllegalAction / BadValue."""

    def is_terminal(self, state: Any, /) -> bool: ...

    def settle(self, state: Any, /) -> dict[str, int]:
        """Net chips per account, summing to zero."""

    def next_banker(self, state: Any, /) -> str | None:
        """Who banks/deals the next round, if anyone."""

    def describe(self, state: Any, /) -> str:
        """A few lines of text."""

    def label(self, action: Any, /) -> str:
        """Short words for an action ("hit", "stand")."""

    def outcome_of(self, state: Any, pieces: Sequence[Piece], /) -> Any:
        """The chance outcome the pieces that came out make (die values left to right,
        or the one card or tile dealt); BadValue / IllegalAction when they cannot be."""

    def parse_outcome(self, state: Any, text: str, /) -> Any:
        """What a person typed for the dice, card or tile (--manual play, typed kinds)."""

    def auto_bets(self, settings: Any, seats: tuple[str, ...], bankrolls: Mapping[str, int], rng: Random, /,
                  banker: str | None = None) -> dict[str, Any]:
        """Simple bets that new_round(..., banker=banker) takes under any house rules
        ({} when none can be)."""

    def parse_bets(self, settings: Any, text: str, /) -> Any:
        """A typed bet; BadBet if malformed."""

    def carry_over(self, final_state: Any, /) -> dict[str, Any]:
        """Keyword arguments for the next new_round (the shoe or pack goes on); {} for none."""

    def banker_for(self, settings: Any, seats: tuple[str, ...], bankrolls: Mapping[str, int],
                   bets: Mapping[str, Any], turn: str | None = None, /) -> str | None:
        """Who banks a round with these bets when it is `turn`'s turn to bank: `turn`,
        or for games whose bank must cover the bets, when its chips cannot, the next
        seat round the table that can (`turn` then plays with its bet); BadBet when no
        seat can."""

    def auto_action(self, state: Any, rng: Random, /) -> Any:
        """A simple strategy for every decision (and a chance outcome drawn from rng)."""


class Odds(Protocol):
    """A game's exact odds and strategy, computed from its engine's own functions."""

    @property
    def figures(self) -> Callable[..., dict[str, Any]]:
        """figures() or figures(settings) -> the figures as plain data."""

    def report(self, figures: dict[str, Any]) -> str: ...

    def action_values(self, state: Any) -> Mapping[Any, float]:
        """{action: expected chips} for whoever decides."""


def _no_pay_tables(settings: Any) -> tuple[PayTable, ...]:
    return ()


@dataclass(frozen=True)
class Game:
    """Everything the table knows about one game. `need` says what the chance step
    due in a state is made of; `layout` draws a state's hands; `pay_tables` is the
    pay table shown between rounds under the house rules in force; `odds` imports the
    game's odds module when first asked; `public_label` names an action on the shared
    screen where the engine's own label would give away what a seat keeps hidden."""

    id: str
    name: str
    engine: Engine
    pieces: tuple[PieceKind, ...]  # everything the game puts on the table
    need: Callable[[Any], Need]
    layout: Callable[[Any], Layout]
    odds: Callable[[], Odds] | None = None
    pay_tables: Callable[[Any], tuple[PayTable, ...]] = _no_pay_tables
    public_label: Callable[[Any, Any], str] | None = None
    # Each of a seat's bets with its own result, and the seat's outcome word ("BUST"),
    # for a finished round (None from it for a seat that sat out); no pay_lines: one stake, its result the net.
    pay_lines: Callable[[Any, str], tuple[str, tuple[PayLine, ...]] | None] | None = None

    @property
    def description(self) -> str:
        return self.engine.DESCRIPTION

    @property
    def settings_type(self) -> type[Any]:
        return self.engine.Settings

    def settings(self, rules: Mapping[str, object] | None = None) -> Any:
        """The game's Settings with house rules (by field name, as a settings file's
        `[rules]` table or `tabletop21 play --rule name=value` gives them) over the
        defaults. Typed text ("yes", "7") is read as the field's type, so every source
        goes through this one check; an unknown name or a wrong value is a TableError
        naming what the game accepts."""
        defaults = self.engine.Settings()
        known = [field.name for field in dataclasses.fields(defaults)]
        chosen = {}
        for name, value in (rules or {}).items():
            if name not in known:
                raise TableError(f"{self.id} has no rule {name!r}; its rules are: {', '.join(known)}")
            chosen[name] = _rule_value(name, value, getattr(defaults, name))
        try:
            return dataclasses.replace(defaults, **chosen)
        except TableError as err:
            raise TableError(f"{self.id} rules: {err}") from err

    def house_rules(self, settings: Any) -> dict[str, object]:
        """The rules `settings` sets other than the game's defaults, by name (what a
        settings file's [rules] table would say)."""
        defaults = self.engine.Settings()
        return {field.name: getattr(settings, field.name) for field in dataclasses.fields(defaults)
                if getattr(settings, field.name) != getattr(defaults, field.name)}

    def label_for_table(self, state: Any, action: Any) -> str:
        """Words for an action on the shared screen."""
        return self.public_label(state, action) if self.public_label else self.engine.label(action)

    def odds_module(self) -> Odds:
        if self.odds is None:
            raise TableError(f"{self.id} has no odds yet")
        return self.odds()


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
