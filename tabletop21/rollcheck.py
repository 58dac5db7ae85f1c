"""Confirming or correcting the dice (or domino tiles, or cards) of one read, with the
table's buttons, touch or keyboard.

The pure part of teaching at the table (`tabletop21 teach dice` without a folder) and
of correcting a round from its results screen: the pieces the camera read, which one is
selected, what value each is given. No I/O: each step returns a new RollCheck, and
`confirm` hands back the values to keep (tabletop21.corrections.keep_example saves
them). A piece the reader did not find can be added where the person touches the
picture (`add`). The screen shows it (display.teach) and tabletop21.teaching wires it.

A domino tile's value is its two halves, (low, high), one of the 28 tiles of a
double-six set. SHAKE steps through `proposed` first (at the table: the tiles of the
set not shown yet), then every other tile; a picture of one set shows each tile once,
so two tiles given the same halves are not kept.

A card's value is its rank and suit, ("10", "H"), one of the 52 cards of a deck
(tabletop21.corrections.DECK), shown and typed as 10H. Cards go as tiles do: SHAKE steps
through the deck's cards not shown yet first, and a picture of one deck cannot give two
cards the same rank and suit.

On a touchscreen the selected piece's value is also picked from targets under the
picture (`choices`, `pick`): a die's value (d10: 0-9) or "no die" in one touch; a card's
rank and suit, and a tile's two halves, in two (either part first, the value changing
once both are touched). Each target is marked: the selected piece's value, values of
the set still to show (`proposed`), values only other pieces of this picture have."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, replace
from typing import TypeGuard

from table.errors import TableError
from table.reads import Box, TableRead
from table.rules.cards import RANKS, SUITS
from tabletop21.corrections import (
    FACES,
    ONE_OF_EACH,
    PIECE_WORDS,
    REFUSED,
    Value,
    found_values,
    is_value,
    message_nouns,
    no_value,
    parse_values,
    unsure,
    value_text,
)

NO_DIE = "no die"  # a box the reader found where the person says there is no piece
UNREAD = None  # a piece the reader could not read: the person gives its value
# What a piece is given: a value, NO_DIE, or UNREAD ("?") until the person says.
Given = Value | str | None
UNREAD_SIDE = 40.0  # px: the box drawn round an unreadable die the reader gave no box
# An added die's side, with no other die in the roll to size it and no calibration's die
# size: this fraction of the frame's short side.
ADDED_SIDE = 1 / 12
TILE_SIDES = 2.0  # a domino tile is this many die sides long (an added tile's square, with no tile to size it)
CARD_SIDES = 4.0  # a card is about this many die sides long (an added card's square, with no card to size it)
ON_A_DIE = 0.5  # an added square lying this much (of its area) or more on a die is a touch on that die

# What the value picker offers (`RollCheck.choices`, `RollCheck.pick`), in rows: a die's
# faces; a tile's half, touched twice; a card's rank, then its suit. Each row is drawn as
# it stands here, whatever is still to show: a target never moves under a finger.
HALVES = tuple(str(half) for half in range(7))
PARTS: dict[str, tuple[tuple[str, ...], ...]] = {"dice": (tuple("123456"),), "d10": (tuple("0123456789"),),
                                                 "dominoes": (HALVES,), "cards": (RANKS, SUITS)}
# The kinds whose value the picker takes in two touches (a tile's two halves, a card's rank
# and suit); a die's face is one touch.
TWO_TOUCHES = ("dominoes", "cards")
PICK_NONE = "none"  # the picker's target for "no die" ("no tile", "no card"), at the end of the last row
# How a picker target is marked: the selected piece's value (or the part touched first);
# leading to a value of the set still to show; leading only to values other pieces of
# this picture are given already.
ON, NEW, USED = "on", "new", "used"


@dataclass(frozen=True)
class RollCheck:
    """The dice of one read, top to bottom and left to right, as the person has them
    now. SHAKE (`cycle`) steps the selected die's value through the kind's faces and
    "no die"; NEXT (`next`) selects the next die, round to the first after the last;
    a tap on a die (`tap`) selects it, or cycles it when it is selected; a touch on the
    picture where there is no die (`add`) adds one there; a touch on the value picker
    under the picture (`pick`, its targets `choices`) gives the selected die a value;
    holding NEXT (`confirm`) keeps the roll once every die has a value or is "no die"."""

    kind: str  # "dice" (d6), "d10", "dominoes" or "cards"
    boxes: tuple[Box, ...]
    values: tuple[Given, ...]
    read: tuple[Value | None, ...]  # each box's value as the camera read it; None: unreadable (or added)
    selected: int = 0
    message: str = ""  # what the last step could not do, in words ("" when it did)
    # Which dice the person added where the reader found none; () when none were.
    added: tuple[bool, ...] = ()
    frame_size: tuple[int, int] | None = None  # (width, height) of the picture the boxes are in
    die_side: float | None = None  # px: an added die's side when no other die gives one (the calibration's)
    # Values SHAKE offers first, in this order (the set's tiles, the deck's cards not shown yet); () none.
    proposed: tuple[Value, ...] = ()
    # The first part of a value being picked by touch for the selected piece (a card's rank or
    # suit, a tile's half, as PARTS has them); "" when none is.
    pending: str = ""

    def __post_init__(self) -> None:
        if self.kind not in FACES:
            raise TableError(f"only {' and '.join(FACES)} can be checked, not {self.kind}")
        if not len(self.boxes) == len(self.values) == len(self.read):
            raise TableError(f"{len(self.boxes)} dice with {len(self.values)} values and {len(self.read)} reads")
        if not self.added:
            object.__setattr__(self, "added", (False,) * len(self.boxes))
        if len(self.added) != len(self.boxes):
            raise TableError(f"{len(self.boxes)} dice, {len(self.added)} of them said to be added or not")
        for value in (*self.values, *self.read):
            if value not in (NO_DIE, UNREAD) and not self._face(value):
                raise TableError(f"{no_value(repr(value), self.kind)}: {PIECE_WORDS[self.kind]}")
        if not all(self._face(value) for value in self.proposed):
            raise TableError(f"{self.proposed!r} are not all values a {self.one} shows: {PIECE_WORDS[self.kind]}")
        if self.boxes and not 0 <= self.selected < len(self.boxes):
            raise TableError(f"{self.one} {self.selected + 1} is not one of the {len(self.boxes)} {self.many}")
        if self.pending and (self.kind not in TWO_TOUCHES or
                             not any(self.pending in row for row in PARTS[self.kind])):
            raise TableError(f"{self.pending!r} is no part of a {self.one}'s value to pick")

    @classmethod
    def of_read(cls, kind: str, read: TableRead, frame_size: tuple[int, int] | None = None,
                die_side: float | None = None, proposed: tuple[Value, ...] = ()) -> RollCheck:
        """The pieces of `kind` in a read, as it read them: each read piece with its value,
        each unreadable one (a box round its centre where the reader gave none) unread.
        `frame_size` and `die_side` are for the pieces the person adds (`add`);
        `proposed`, the values SHAKE offers first."""
        places: list[tuple[Box, Value | None]] = list(found_values(read, kind)) if kind in REFUSED else []
        places += [(box, None) for box in unsure(read, kind)]  # a card read without its suit: asked for
        refused = [u for u in read.unreadable if u.kind == REFUSED.get(kind)]
        sides = [box[2] - box[0] for box, _ in places] + [u.box[2] - u.box[0] for u in refused if u.box is not None]
        half = (statistics.median(sides) if sides else UNREAD_SIDE) / 2
        for u in refused:
            x, y = u.center
            places.append((u.box if u.box is not None else (x - half, y - half, x + half, y + half), None))
        places.sort(key=lambda place: (place[0][1], place[0][0]))
        boxes = tuple((float(b[0]), float(b[1]), float(b[2]), float(b[3])) for b, _ in places)
        reads = tuple(value for _, value in places)
        return cls(kind, boxes, reads, reads, frame_size=frame_size, die_side=die_side, proposed=proposed)

    @property
    def faces(self) -> tuple[Value, ...]:
        return FACES[self.kind]

    @property
    def one(self) -> str:
        """What one piece is called in the messages ("die"; a d10 is a die too; "tile", "card")."""
        return message_nouns(self.kind)[0]

    @property
    def many(self) -> str:
        return message_nouns(self.kind)[1]

    def _face(self, value: object) -> TypeGuard[Value]:
        return is_value(value, self.kind)

    def next(self) -> RollCheck:
        """The next die selected; after the last, the first again."""
        if not self.boxes:
            return replace(self, message=self._none_found())
        return replace(self, selected=(self.selected + 1) % len(self.boxes), message="", pending="")

    def _none_found(self) -> str:
        return f"no {self.one} was found in this picture"

    def order(self) -> tuple[Given, ...]:
        """The values SHAKE steps the selected piece through: the proposed ones, then every
        other face, then "no die"; where a picture shows each value once (dominoes, cards),
        none given to another piece of this picture."""
        others = ({value for n, value in enumerate(self.values) if n != self.selected}
                  if self.kind in ONE_OF_EACH else set())
        lead = tuple(value for value in self.proposed if value not in others)
        return (*lead, *(face for face in self.faces if face not in lead and face not in others), NO_DIE)

    def cycle(self) -> RollCheck:
        """The selected piece's next value (`order`): an unread piece starts at its first,
        the last face is followed by "no die", and "no die" by the first again."""
        if not self.boxes:
            return replace(self, message=self._none_found())
        now = self.values[self.selected]
        order = self.order()
        after = order[0] if now is UNREAD or now not in order else order[(order.index(now) + 1) % len(order)]
        return self._given(self.selected, after)

    def tap(self, index: int) -> RollCheck:
        """A touch on piece `index`: selects it, or cycles its value when it is selected."""
        if not 0 <= index < len(self.boxes):
            return replace(self, message=f"{self.one} {index + 1} is not one of the {len(self.boxes)} {self.many}")
        if index == self.selected:
            return self.cycle()
        return replace(self, selected=index, message="", pending="")

    def add(self, point: tuple[float, float]) -> RollCheck:
        """A die the reader did not find, at `point` (the boxes' pixels), given no value
        yet ("?") and selected, so SHAKE or a tap gives its value as for a found die. Its
        box is a square centred there (moved inside the picture at its edge), as big as
        the median of the roll's dice not said to be no die; with none, `die_side` (the
        calibration's die), else ADDED_SIDE of the picture's short side. A point whose
        square would lie mostly on a die already there touches that die (`tap`); one off
        the picture adds nothing and says so."""
        x, y = point
        width, height = self.frame_size or (math.inf, math.inf)
        if not (math.isfinite(x) and math.isfinite(y) and 0 <= x <= width and 0 <= y <= height):
            return replace(self, message=f"({x:g}, {y:g}) is not in the picture: no {self.one} added")
        side = self._added_side()
        half = side / 2
        x0 = min(max(0.0, x - half), width - side) if side <= width else 0.0
        y0 = min(max(0.0, y - half), height - side) if side <= height else 0.0
        box = (x0, y0, min(x0 + side, width), min(y0 + side, height))
        area = (box[2] - box[0]) * (box[3] - box[1])
        under = [(_overlap(box, other), n) for n, other in enumerate(self.boxes)]
        most = max(under, default=(0.0, -1))
        if area > 0 and most[0] >= ON_A_DIE * area:
            return self.tap(most[1])
        at = next((n for n, other in enumerate(self.boxes) if (other[1], other[0]) > (box[1], box[0])),
                  len(self.boxes))

        def put(items: tuple, item: object) -> tuple:
            return (*items[:at], item, *items[at:])

        return replace(self, boxes=put(self.boxes, box), values=put(self.values, UNREAD), read=put(self.read, None),
                       added=put(self.added, True), selected=at, pending="",
                       message=f"{self.one.capitalize()} {at + 1} added: press SHAKE (or touch it again) to give "
                               "its value")

    def _added_side(self) -> float:
        """An added piece's square: a die's mean side; a tile's (a card's) long side, so
        the square holds it whichever way it lies (a die's side twice, four times for a
        card, with no tile or card to size it)."""
        tile = self.kind in ("dominoes", "cards")
        sides = [max(box[2] - box[0], box[3] - box[1]) if tile else (box[2] - box[0] + box[3] - box[1]) / 2
                 for box, value in zip(self.boxes, self.values)
                 if value != NO_DIE and all(math.isfinite(edge) for edge in box)]
        if sides:
            return float(statistics.median(sides))
        scale = CARD_SIDES if self.kind == "cards" else TILE_SIDES if tile else 1.0
        if self.die_side is not None and self.die_side > 0:
            return float(self.die_side) * scale
        if self.frame_size is not None and min(self.frame_size) > 0:
            return min(self.frame_size) * ADDED_SIDE * scale
        return UNREAD_SIDE * scale

    def set_value(self, index: int, value: Given) -> RollCheck:
        """Piece `index` given `value` (a face of the kind, or NO_DIE); anything else is a
        TableError in words and changes nothing."""
        if not 0 <= index < len(self.boxes):
            raise TableError(f"{self.one} {index + 1} is not one of the {len(self.boxes)} {self.many}")
        if value != NO_DIE and not self._face(value):
            raise TableError(f"{no_value(repr(value), self.kind)}: {PIECE_WORDS[self.kind]} (or no {self.one} "
                             "there)")
        return self._given(index, value)

    def typed(self, text: str) -> RollCheck:
        """Values typed at the keyboard: one for the selected die (which then passes to
        the next), or one for each die in order; x is no die. `add X Y` adds a die at
        (X, Y) of the picture's pixels (`add`). A value no die shows, or the wrong
        count, is the message and changes nothing."""
        words = text.replace(",", " ").split()
        if words and words[0].lower() == "add":
            try:
                x, y = (float(word) for word in words[1:])
            except ValueError:
                return replace(self, message=f"type add X Y: where the {self.one} is, in the picture's pixels")
            return self.add((x, y))
        if not self.boxes:
            return replace(self, message=self._none_found())
        count = 1 if len(words) == 1 and len(self.boxes) != 1 else len(self.boxes)
        try:
            given = parse_values(text, count, self.kind)
        except TableError as err:
            return replace(self, message=str(err))
        if count == 1 and len(self.boxes) > 1:
            return replace(self._given(self.selected, NO_DIE if given[0] is None else given[0]).next(), message="")
        return replace(self, values=tuple(NO_DIE if v is None else v for v in given), message="", pending="")

    def confirm(self) -> tuple[RollCheck, tuple[Value | None, ...] | None]:
        """The values to keep, one for each box of the check it returns (None: no piece
        there), or None with the reason as the message: a piece not given a value yet,
        no piece at all, or (dominoes, cards) two pieces given the same value. A piece the
        person added and then said is no piece is dropped. A part picked by touch and not
        completed is let go."""
        return replace(self, pending="")._confirm()

    def _confirm(self) -> tuple[RollCheck, tuple[Value | None, ...] | None]:
        unread = [n for n, value in enumerate(self.values, start=1) if value is UNREAD]
        if unread:
            which = ", ".join(map(str, unread))
            return replace(self, selected=unread[0] - 1,
                           message=f"{self.one} {which} {'was' if len(unread) == 1 else 'were'} not read: press "
                                   f"SHAKE to give its value (or no {self.one})"), None
        kept = tuple(value if self._face(value) else None for value in self.values)
        if all(value is None for value in kept):
            again = f"lay out {self.many} again" if self.kind in ONE_OF_EACH else "roll again"
            return replace(self, message=f"no {self.one} to keep in this picture: {again}"), None
        twice = self._twice(kept)
        if twice:
            first, second, value = twice
            return replace(self, selected=second,
                           message=f"{self.many} {first + 1} and {second + 1} are both {value_text(value)}: a "
                                   f"{ONE_OF_EACH[self.kind]} has each {self.one} once; change one"), None
        left = [n for n, (value, added) in enumerate(zip(self.values, self.added)) if not (added and value == NO_DIE)]
        if len(left) == len(self.boxes):
            return replace(self, message=""), kept
        dropped = replace(self, boxes=tuple(self.boxes[n] for n in left), values=tuple(self.values[n] for n in left),
                          read=tuple(self.read[n] for n in left), added=tuple(self.added[n] for n in left),
                          selected=0, message="")
        return dropped, tuple(kept[n] for n in left)

    @property
    def changed(self) -> tuple[bool, ...]:
        """Which dice the person gave another value than the camera read."""
        return tuple(value != (UNREAD if read is None else read) for value, read in zip(self.values, self.read))

    def _twice(self, kept: tuple[Value | None, ...]) -> tuple[int, int, Value] | None:
        """The first two pieces given one value, and it, where the kind shows each value
        once."""
        if self.kind not in ONE_OF_EACH:
            return None
        seen: dict[Value, int] = {}
        for n, value in enumerate(kept):
            if value is None:
                continue
            if value in seen:
                return seen[value], n, value
            seen[value] = n
        return None

    def labels(self) -> tuple[str, ...]:
        """Each piece's value as the screen says it: the value ("4", a tile "3-5", a card
        "10H"), "?" or "no die" ("no tile", "no card")."""
        return tuple("?" if value is UNREAD else f"no {self.one}" if value == NO_DIE else
                     value_text(value) if self._face(value) else str(value) for value in self.values)

    def _given(self, index: int, value: Given) -> RollCheck:
        values = list(self.values)
        values[index] = value
        return replace(self, values=tuple(values), message="", pending="")

    # --- the value picker (touch) -----------------------------------------------------------------------------

    def pick(self, part: str) -> RollCheck:
        """A touch on the picker's target `part` (PARTS, or PICK_NONE) for the selected
        piece. A die's value, and PICK_NONE, are given at once. A card's rank or suit, or
        a tile's half, touched first is kept as `pending` (the value stays as it is); the
        second gives the value: the other of rank and suit (another rank, or suit, takes
        the first one's place), or the tile's other half (the same half again: the
        double). Anything else is the message and changes nothing."""
        if not self.boxes:
            return replace(self, message=self._none_found())
        if part == PICK_NONE:
            return self._given(self.selected, NO_DIE)
        if not any(part in row for row in PARTS[self.kind]):
            return replace(self, message=f"{part!r} is no part of a {self.one}'s value")
        if self.kind not in TWO_TOUCHES:
            return self._picked(int(part))
        if self.kind == "dominoes":
            if not self.pending:
                return replace(self, pending=part, message=f"Half {part}: now touch the tile's other half ({part} "
                                                           f"again for the double {part}-{part})")
            low, high = sorted((int(self.pending), int(part)))
            return self._picked((low, high))
        rank = part if part in RANKS else self.pending if self.pending in RANKS else None
        suit = part if part in SUITS else self.pending if self.pending in SUITS else None
        if rank is None or suit is None:
            return replace(self, pending=part, message=f"{part}: now touch the card's {'suit' if suit is None else 'rank'}")
        return self._picked((rank, suit))

    def _picked(self, value: Value) -> RollCheck:
        """The selected piece given a value picked by touch; where another piece of this
        picture has it too (a set, a deck: each once), the message says so."""
        picked = self._given(self.selected, value)
        twin = next((n for n, given in enumerate(self.values) if n != self.selected and given == value), None)
        if twin is None or self.kind not in ONE_OF_EACH:
            return picked
        first, second = sorted((twin, self.selected))
        return replace(picked, message=f"{self.many} {first + 1} and {second + 1} are both {value_text(value)}: a "
                                       f"{ONE_OF_EACH[self.kind]} has each {self.one} once; change one")

    def choices(self) -> tuple[tuple[tuple[str, str, str], ...], ...]:
        """What the picker shows for the selected piece: rows of (part, label, mark), as
        PARTS has them, PICK_NONE ("no card") ending the last row; () when there is no
        piece. A mark is ON (the selected piece's value, or the part touched first), NEW
        (the target leads to a value of the set still to show, `proposed`, that no other
        piece of this picture has), USED (it leads only to values other pieces of this
        picture have), or ""."""
        if not self.boxes:
            return ()
        others = ({value for n, value in enumerate(self.values) if n != self.selected}
                  if self.kind in ONE_OF_EACH else set())
        new = set(self.proposed) - others
        now = self.values[self.selected]
        on = {self.pending} if self.pending else set(self._parts_of(now)) if self._face(now) else set()
        rows = []
        for row in PARTS[self.kind]:
            marked = []
            for part in row:
                leads = self._leads(part)
                mark = (ON if part in on else NEW if leads & new else
                        USED if others and leads <= others else "")
                marked.append((part, part, mark))
            rows.append(marked)
        rows[-1].append((PICK_NONE, f"no {self.one}", ON if now == NO_DIE else ""))
        return tuple(tuple(row) for row in rows)

    def _parts_of(self, value: Value) -> tuple[str, ...]:
        """A value as the picker's parts: a die's "4", a tile's halves, a card's rank and suit."""
        return tuple(str(part) for part in value) if isinstance(value, tuple) else (str(value),)

    def _leads(self, part: str) -> set[Value]:
        """The values a touch on `part` can give now, with `pending` as it is."""
        if self.kind not in TWO_TOUCHES:
            return {int(part)}
        if self.kind == "dominoes":
            half = int(part)
            if self.pending:
                other = int(self.pending)
                return {(min(half, other), max(half, other))}
            return {(min(half, other), max(half, other)) for other in range(7)}
        if part in RANKS:
            return {(part, self.pending)} if self.pending in SUITS else {(part, suit) for suit in SUITS}
        return {(self.pending, part)} if self.pending in RANKS else {(rank, part) for rank in RANKS}


def _overlap(one: Box, other: Box) -> float:
    """The area two boxes share (0 where they do not meet, or a box has no place)."""
    width = min(one[2], other[2]) - max(one[0], other[0])
    height = min(one[3], other[3]) - max(one[1], other[1])
    return width * height if width > 0 and height > 0 else 0.0
