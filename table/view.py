"""What one screen of the table display shows, as plain frozen data.

The round driver fills a `TableView` from its own state and hands it to display/;
the display draws it and decides nothing about the game. Keeping the screen as data
(rather than calls into pygame) means a session recording can replay exactly what
the players saw, and the display can be tested without any rules engine running.

The view is game-agnostic: every hand is a row of `Item`s of four kinds (die, d10,
tile, card), so one drawing routine per kind serves all five games. The camera frame
itself travels separately (a numpy array passed to the renderer) so views stay small
enough to record every frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from table.errors import BadValue
from table.pieces import PieceKind
from table.rules.cards import Card
from table.rules.dice import check_die

if TYPE_CHECKING:
    from table.reads import TableRead

SCREEN_KINDS = ("attract", "bets", "play", "reading", "results", "paytable", "stats", "error")
ITEM_KINDS = tuple(kind.item for kind in PieceKind)  # "die", "d10", "tile", "card"
TILE_PIPS = 6  # a double-six set: each half shows 0..6 pips

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Item:
    """One die, d10, domino tile or card in a hand, possibly face down.

    Only the fields of its kind are set; checked on creation so an impossible item
    (a d6 showing 7, a card "1Z") fails where it was made, not later inside a draw.
    """

    kind: str
    value: int | None = None  # die 1..6, d10 0..9
    halves: tuple[int, int] | None = None  # tile pips, top half first
    rank: str | None = None  # card rank as in table.rules.cards.RANKS
    suit: str | None = None  # C D H S, or None where the game ignores suits
    face_up: bool = True

    def __post_init__(self) -> None:
        if self.kind not in ITEM_KINDS:
            raise BadValue(f"item kind {self.kind!r} is not one of {', '.join(ITEM_KINDS)}")
        if not self.face_up:
            return
        if self.kind in ("die", "d10"):
            check_die(self.value, 10 if self.kind == "d10" else 6)
        elif self.kind == "tile":
            if self.halves is None or len(self.halves) != 2:
                raise BadValue(f"a face-up tile needs two halves, not {self.halves!r}")
            for pips in self.halves:
                if isinstance(pips, bool) or not isinstance(pips, int) or not 0 <= pips <= TILE_PIPS:
                    raise BadValue(f"a tile half shows 0 to {TILE_PIPS} pips, not {pips!r}")
        elif self.rank is None:
            raise BadValue("a face-up card needs a rank")
        else:
            Card(self.rank, self.suit)

    @classmethod
    def die(cls, value: int) -> Item:
        return cls("die", value=value)

    @classmethod
    def d10(cls, value: int) -> Item:
        return cls("d10", value=value)

    @classmethod
    def tile(cls, top: int, bottom: int) -> Item:
        return cls("tile", halves=(top, bottom))

    @classmethod
    def card(cls, rank: str, suit: str | None = None) -> Item:
        return cls("card", rank=rank, suit=suit)

    @classmethod
    def back(cls, kind: str) -> Item:
        """A tile or card lying face down (or a die still under the cup)."""
        return cls(kind, face_up=False)


@dataclass(frozen=True)
class Hand:
    items: tuple[Item, ...] = ()
    label: str = ""  # "hand", "split 2", "community dice"
    total: str = ""  # as the game counts it: "17", "7 or 17", "BUST 23"


@dataclass(frozen=True)
class Bet:
    label: str  # "ANTE", "MATCH 4", "stake"
    chips: int


@dataclass(frozen=True)
class Seat:
    name: str
    bankroll: int
    bets: tuple[Bet, ...] = ()
    hands: tuple[Hand, ...] = ()
    status: str = ""  # "stands", "BUST", "thinking"
    is_turn: bool = False
    role: str = ""  # "banker", "dealer" or "" for a player


@dataclass(frozen=True)
class Prompt:
    """What the two physical buttons do right now; an empty label means the button
    does nothing in this state and is drawn dimmed."""

    shake: str = ""  # "roll dice", "reveal"
    next: str = ""  # "stand", "confirm"
    message: str = ""  # one line for the table: "Ana: hit or stand?"


@dataclass(frozen=True)
class Overlay:
    """One object the vision read found, in the camera frame's own pixels."""

    box: Box
    label: str
    unreadable: bool = False
    reason: str = ""


@dataclass(frozen=True)
class CameraView:
    frame_ref: str  # which frame the overlays belong to (recording index, timestamp)
    frame_size: tuple[int, int]  # (width, height) of that frame in pixels
    overlays: tuple[Overlay, ...] = ()
    rolling: bool = False  # the dice are still moving: nothing is read yet
    hand: bool = False  # a hand or the cup is over the table: nothing is read until it is clear


@dataclass(frozen=True)
class PayLine:
    """One bet's own result: "ANTE 5", "WIN", +5."""

    bet: str
    outcome: str  # "WIN", "LOSE", "PUSH"
    chips: int

    def __str__(self) -> str:
        return f"{self.bet} {self.outcome.lower()} {self.chips:+d}" if self.chips else f"{self.bet} {self.outcome.lower()}"


@dataclass(frozen=True)
class SeatResult:
    seat: str
    net: int  # chips won (+) or lost (-) this round
    outcome: str  # "WIN", "LOSE", "PUSH", "BUST", "BLACKJACK"
    detail: str = ""  # "21 pays 2:1"
    lines: tuple[PayLine, ...] = ()  # each bet with its own result, where a seat has several


@dataclass(frozen=True)
class PayRow:
    hand: str
    pays: str


@dataclass(frozen=True)
class PayTable:
    title: str
    rows: tuple[PayRow, ...]


@dataclass(frozen=True)
class AdvisorLine:
    action: str
    ev: float  # expected net chips per chip staked


@dataclass(frozen=True)
class Advisor:
    seat: str
    lines: tuple[AdvisorLine, ...]
    visible: bool = False


@dataclass(frozen=True)
class SeatHistory:
    seat: str
    bankrolls: tuple[int, ...]  # after each round, starting bankroll first


@dataclass(frozen=True)
class Stats:
    rounds: int
    histories: tuple[SeatHistory, ...]
    facts: tuple[str, ...] = ()  # "Biggest win: Ana +40"


@dataclass(frozen=True)
class ErrorInfo:
    title: str  # "Camera lost"
    todo: str  # what a person at the table should do about it
    detail: str = ""


@dataclass(frozen=True)
class TableView:
    """Everything one screen shows. Which optional parts matter depends on `screen`."""

    game_id: str
    game_name: str
    screen: str
    round_no: int = 0
    seats: tuple[Seat, ...] = ()
    shared: tuple[Hand, ...] = ()  # community dice, the dealer's up card, the boneyard
    prompt: Prompt = Prompt()
    camera: CameraView | None = None
    results: tuple[SeatResult, ...] = ()
    paytables: tuple[PayTable, ...] = ()
    advisor: Advisor | None = None
    stats: Stats | None = None
    error: ErrorInfo | None = None
    leds: tuple[str, ...] = ()  # lit status lamps, drawn on screen where the table has no LEDs

    def __post_init__(self) -> None:
        if self.screen not in SCREEN_KINDS:
            raise BadValue(f"screen {self.screen!r} is not one of {', '.join(SCREEN_KINDS)}")
        if self.screen == "error" and self.error is None:
            raise BadValue("an error screen needs an ErrorInfo saying what to do")
        if self.screen == "stats" and self.stats is None:
            raise BadValue("a stats screen needs the session Stats")


def overlays_from_read(read: TableRead) -> tuple[Overlay, ...]:
    """Turn a vision TableRead into overlays, so the round driver need not know how
    each read kind is labelled on screen. Unreadable objects without a box get a
    small square around their centre so they can still be marked."""
    overlays = [Overlay(d.box, f"die {d.value}") for d in read.dice]
    overlays += [Overlay(d.box, f"d10 {d.value}") for d in read.d10]
    overlays += [Overlay(t.box, f"tile {t.halves[0]}|{t.halves[1]}") for t in read.dominoes]
    overlays += [Overlay(c.box, f"card {c.rank}{c.suit or ''}") for c in read.cards]
    overlays += [Overlay(f.box, f"{f.kind} face down") for f in read.face_down]
    for u in read.unreadable:
        x, y = u.center
        box = u.box if u.box is not None else (x - 20, y - 20, x + 20, y + 20)
        overlays.append(Overlay(box, f"{u.kind} ?", unreadable=True, reason=u.reason))
    return tuple(overlays)
