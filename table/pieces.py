"""The pieces a game puts on the table, spelled once.

A piece kind has one name in the core (the value below, which recordings and
bankroll files already hold: a driver's typed kinds are "card" and "d10") and a few
names elsewhere, each given here rather than written out where it is used: the
camera reader that finds it (vision.read.READERS), the name a read gives a refused
or face-down one (table.reads), and the kind of item the display draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from table.errors import BadValue
from table.rules.cards import Card
from table.rules.dice import check_die
from table.rules.tiles import Tile

# One piece as the camera or a person gives it: a die's value, a card, a tile.
Piece = int | Card | Tile
_One = TypeVar("_One", Card, Tile)


class PieceKind(StrEnum):
    DIE = "dice"
    D10 = "d10"
    TILE = "tile"
    CARD = "card"

    @property
    def reader(self) -> str:
        """The camera reader for this piece ([input] in the settings file uses these names)."""
        return _READERS[self]

    @property
    def read_name(self) -> str:
        """What a TableRead calls one of these (an Unreadable's or a FaceDown's kind)."""
        return _READ_NAMES[self]

    @property
    def item(self) -> str:
        """The table.view Item kind that draws one."""
        return _ITEMS[self]

    @property
    def rolled(self) -> bool:
        """Dice are picked up and rolled again; tiles and cards stay where they were dealt."""
        return self in (PieceKind.DIE, PieceKind.D10)


_READERS = {PieceKind.DIE: "dice", PieceKind.D10: "d10", PieceKind.TILE: "dominoes", PieceKind.CARD: "cards"}
_READ_NAMES = {PieceKind.DIE: "die", PieceKind.D10: "d10", PieceKind.TILE: "domino", PieceKind.CARD: "card"}
_ITEMS = {PieceKind.DIE: "die", PieceKind.D10: "d10", PieceKind.TILE: "tile", PieceKind.CARD: "card"}


def kind_of_reader(reader: str) -> PieceKind:
    """The piece a camera reader's name stands for ("cards" -> CARD)."""
    for kind, name in _READERS.items():
        if name == reader:
            return kind
    raise ValueError(f"no piece is read by {reader!r}; the readers are {', '.join(_READERS.values())}")


@dataclass(frozen=True)
class Need:
    """What the next chance event is made of on the real table."""

    kind: PieceKind
    count: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", PieceKind(self.kind))


def dice_values(pieces: Sequence[Piece], count: int, sides: int = 6) -> tuple[int, ...]:
    """`count` die values, each one a d`sides` can show, or a BadValue."""
    if len(pieces) != count:
        raise BadValue(f"expected {count} dice, got {len(pieces)}")
    return tuple(check_die(piece, sides) for piece in pieces)


def the_one(pieces: Sequence[Piece], kind: type[_One]) -> _One:
    """The one card or tile dealt, or a BadValue."""
    if len(pieces) != 1 or not isinstance(pieces[0], kind):
        raise BadValue(f"one {kind.__name__.lower()} is due, not {' '.join(map(str, pieces)) or 'none'}")
    return pieces[0]
