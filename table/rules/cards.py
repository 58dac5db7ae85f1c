"""Playing cards shared by Dicey 21 and Blackjack with a changing bank.

Cards are typed in by people ("10h", "QS", "as") and read by the camera, so parsing
is strict: anything that is not one of the 52 cards is a BadValue, never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

from table.errors import BadValue

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")


@dataclass(frozen=True, order=True)
class Card:
    rank: str
    suit: str | None = None  # None where the game (or the camera) does not know it

    def __post_init__(self) -> None:
        if self.rank not in RANKS:
            raise BadValue(f"no card has rank {self.rank!r}; ranks are {' '.join(RANKS)}")
        if self.suit is not None and self.suit not in SUITS:
            raise BadValue(f"no suit {self.suit!r}; suits are C D H S")

    def __str__(self) -> str:
        return self.rank + (self.suit or "")

    @property
    def points(self) -> int:
        """Blackjack count with the ace as 1; games add the soft 10 themselves."""
        if self.rank == "A":
            return 1
        if self.rank in ("J", "Q", "K"):
            return 10
        return int(self.rank)


def parse_card(text: str, *, suit_required: bool = False) -> Card:
    """'10h', 'QS', 'a', 't' (ten) -> Card; anything else is a BadValue."""
    cleaned = text.strip().upper()
    if cleaned.startswith("T"):
        cleaned = "10" + cleaned[1:]
    if not cleaned:
        raise BadValue("no card given")
    suit = cleaned[-1] if cleaned[-1] in SUITS else None
    rank = cleaned[:-1] if suit else cleaned
    if suit_required and suit is None:
        raise BadValue(f"{text!r}: give the suit too (C, D, H or S), e.g. QS")
    if rank == "1":
        rank = "A"
    return Card(rank, suit)


def full_pack() -> tuple[Card, ...]:
    return tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
