"""The Dicey 21 card shoe, kept as counts per rank.

Suits never decide anything in Dicey 21, so the shoe only remembers how many cards of
each rank are left. That is exactly what the chance outcomes need (the chance of the
next card is its rank's share of what remains) and it keeps a recorded round small.
The shoe travels from round to round inside the round state: `new_round` takes the
previous round's shoe and reshuffles only when the cut card has come out.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from table.errors import BadValue, IllegalAction
from table.rules.cards import RANKS, Card

PER_RANK_PER_DECK = 4


@dataclass(frozen=True)
class Shoe:
    """Cards left, per rank in RANKS order (A, 2, ..., 10, J, Q, K)."""

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.counts) != len(RANKS) or any(
            isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in self.counts
        ):
            raise BadValue(f"a shoe holds a whole number of cards of each of the 13 ranks, not {self.counts!r}")

    @staticmethod
    def fresh(decks: int) -> Shoe:
        return Shoe((PER_RANK_PER_DECK * decks,) * len(RANKS))

    @property
    def remaining(self) -> int:
        return sum(self.counts)

    def next_card_chances(self) -> tuple[tuple[Card, Fraction], ...]:
        """Each rank still in the shoe, as a suitless card, with its exact chance."""
        total = self.remaining
        if total == 0:
            raise IllegalAction("the shoe is empty")
        return tuple(
            (Card(rank), Fraction(count, total)) for rank, count in zip(RANKS, self.counts) if count
        )

    def without(self, card: Card) -> Shoe:
        """The shoe after `card` was dealt from it."""
        index = RANKS.index(card.rank)
        if self.counts[index] == 0:
            raise IllegalAction(f"no {card.rank} is left in the shoe")
        counts = list(self.counts)
        counts[index] -= 1
        return Shoe(tuple(counts))
