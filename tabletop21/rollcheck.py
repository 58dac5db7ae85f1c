"""Confirming or correcting the dice of one read, with the table's buttons or touch.

The pure part of teaching at the table (`tabletop21 teach dice` without a folder) and
of correcting a round from its results screen: the dice the camera read, which one is
selected, what value each is given. No I/O: each step returns a new RollCheck, and
`confirm` hands back the values to keep (tabletop21.corrections.keep_example saves
them). The screen shows it (display.teach) and tabletop21.teaching wires it."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace

from table.errors import TableError
from table.reads import Box, TableRead
from tabletop21.corrections import FACES, PIECE_WORDS, parse_values

NO_DIE = "no die"  # a box the reader found where the person says there is no die
UNREAD = None  # a die the reader could not read: the person gives its value
# What a die is given: a value, NO_DIE, or UNREAD ("?") until the person says.
Given = int | str | None
UNREAD_SIDE = 40.0  # px: the box drawn round an unreadable die the reader gave no box


@dataclass(frozen=True)
class RollCheck:
    """The dice of one read, top to bottom and left to right, as the person has them
    now. SHAKE (`cycle`) steps the selected die's value through the kind's faces and
    "no die"; NEXT (`next`) selects the next die, round to the first after the last;
    a tap on a die (`tap`) selects it, or cycles it when it is selected; holding NEXT
    (`confirm`) keeps the roll once every die has a value or is "no die"."""

    kind: str  # "dice" (d6) or "d10"
    boxes: tuple[Box, ...]
    values: tuple[Given, ...]
    read: tuple[int | None, ...]  # each box's value as the camera read it; None: unreadable
    selected: int = 0
    message: str = ""  # what the last step could not do, in words ("" when it did)

    def __post_init__(self) -> None:
        if self.kind not in FACES:
            raise TableError(f"only {' and '.join(FACES)} can be checked, not {self.kind}")
        if not len(self.boxes) == len(self.values) == len(self.read):
            raise TableError(f"{len(self.boxes)} dice with {len(self.values)} values and {len(self.read)} reads")
        for value in (*self.values, *self.read):
            if value not in (NO_DIE, UNREAD) and not self._face(value):
                raise TableError(f"{value!r} is no die's value: {PIECE_WORDS[self.kind]}")
        if self.boxes and not 0 <= self.selected < len(self.boxes):
            raise TableError(f"die {self.selected + 1} is not one of the {len(self.boxes)} dice")

    @classmethod
    def of_read(cls, kind: str, read: TableRead) -> RollCheck:
        """The dice of `kind` in a read, as it read them: each read die with its value,
        each unreadable one (a box round its centre where the reader gave none) unread."""
        found = read.dice if kind == "dice" else read.d10 if kind == "d10" else ()
        places: list[tuple[Box, int | None]] = [(die.box, die.value) for die in found]
        refused = [u for u in read.unreadable if u.kind == ("die" if kind == "dice" else kind)]
        sides = [box[2] - box[0] for box, _ in places] + [u.box[2] - u.box[0] for u in refused if u.box is not None]
        half = (statistics.median(sides) if sides else UNREAD_SIDE) / 2
        for u in refused:
            x, y = u.center
            places.append((u.box if u.box is not None else (x - half, y - half, x + half, y + half), None))
        places.sort(key=lambda place: (place[0][1], place[0][0]))
        boxes = tuple((float(b[0]), float(b[1]), float(b[2]), float(b[3])) for b, _ in places)
        reads = tuple(value for _, value in places)
        return cls(kind, boxes, reads, reads)

    @property
    def faces(self) -> tuple[int, ...]:
        return FACES[self.kind]

    def _face(self, value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value in self.faces

    def next(self) -> RollCheck:
        """The next die selected; after the last, the first again."""
        if not self.boxes:
            return replace(self, message="no die was found in this picture")
        return replace(self, selected=(self.selected + 1) % len(self.boxes), message="")

    def cycle(self) -> RollCheck:
        """The selected die's next value: an unread die starts at the kind's first face,
        the last face is followed by "no die", and "no die" by the first face again."""
        if not self.boxes:
            return replace(self, message="no die was found in this picture")
        now = self.values[self.selected]
        order: tuple[Given, ...] = (*self.faces, NO_DIE)
        after = self.faces[0] if now is UNREAD else order[(order.index(now) + 1) % len(order)]
        return self._given(self.selected, after)

    def tap(self, index: int) -> RollCheck:
        """A touch on die `index`: selects it, or cycles its value when it is selected."""
        if not 0 <= index < len(self.boxes):
            return replace(self, message=f"die {index + 1} is not one of the {len(self.boxes)} dice")
        if index == self.selected:
            return self.cycle()
        return replace(self, selected=index, message="")

    def set_value(self, index: int, value: Given) -> RollCheck:
        """Die `index` given `value` (a face of the kind, or NO_DIE); anything else is a
        TableError in words and changes nothing."""
        if not 0 <= index < len(self.boxes):
            raise TableError(f"die {index + 1} is not one of the {len(self.boxes)} dice")
        if value != NO_DIE and not self._face(value):
            raise TableError(f"{value!r} is no die's value: {PIECE_WORDS[self.kind]} (or no die there)")
        return self._given(index, value)

    def typed(self, text: str) -> RollCheck:
        """Values typed at the keyboard: one for the selected die (which then passes to
        the next), or one for each die in order; x is no die. A value no die shows, or
        the wrong count, is the message and changes nothing."""
        if not self.boxes:
            return replace(self, message="no die was found in this picture")
        words = text.replace(",", " ").split()
        count = 1 if len(words) == 1 and len(self.boxes) != 1 else len(self.boxes)
        try:
            given = parse_values(text, count, self.kind)
        except TableError as err:
            return replace(self, message=str(err))
        if count == 1 and len(self.boxes) > 1:
            return replace(self._given(self.selected, NO_DIE if given[0] is None else given[0]).next(), message="")
        return replace(self, values=tuple(NO_DIE if v is None else v for v in given), message="")

    def confirm(self) -> tuple[RollCheck, tuple[int | None, ...] | None]:
        """The values to keep, one for each box (None: no die there), or None with the
        reason as the message: a die not given a value yet, or no die at all."""
        unread = [n for n, value in enumerate(self.values, start=1) if value is UNREAD]
        if unread:
            which = ", ".join(map(str, unread))
            return replace(self, selected=unread[0] - 1,
                           message=f"die {which} {'was' if len(unread) == 1 else 'were'} not read: press SHAKE to "
                                   "give its value (or no die)"), None
        kept = tuple(value if isinstance(value, int) else None for value in self.values)
        if all(value is None for value in kept):
            return replace(self, message="no die to keep in this picture: roll again"), None
        return replace(self, message=""), kept

    @property
    def changed(self) -> tuple[bool, ...]:
        """Which dice the person gave another value than the camera read."""
        return tuple(value != (UNREAD if read is None else read) for value, read in zip(self.values, self.read))

    def labels(self) -> tuple[str, ...]:
        """Each die's value as the screen says it: the value, "?" or "no die"."""
        return tuple("?" if value is UNREAD else str(value) for value in self.values)

    def _given(self, index: int, value: Given) -> RollCheck:
        values = list(self.values)
        values[index] = value
        return replace(self, values=tuple(values), message="")
