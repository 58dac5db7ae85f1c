"""The one family of errors a caller must handle when a person or a camera feeds the
rules something impossible. Raising (rather than returning a flag) guarantees the
caller's state object is left untouched: engines build a new state or nothing."""


class TableError(ValueError):
    """Base of every error raised on bad input anywhere in table/."""


class IllegalAction(TableError):
    """An action that is not in legal_actions(state) right now."""


class BadBet(TableError):
    """A bet that breaks the table limits or is not covered by the bankroll."""


class BadValue(TableError):
    """A die, card or tile that cannot exist (a d6 showing 7, a card 'ZZ')."""
