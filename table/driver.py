"""The round driver: turns button presses, the camera's settled reads and typed
entries into rules-engine actions, one event at a time.

It is pure (events in, a new Driver out) so the appliance, the demo and a replay all
run the very same decisions, and a recorded session re-settles identically. It asks
the engine what is legal, waits for the shaker and for a settled table, and refuses
a read that is unreadable or that contradicts the game (two dice seen where three
are due), asking for a re-roll instead of guessing.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal, get_args

from table.errors import TableError
from table.game import Game
from table.games import game as game_of
from table.ledger import Ledger
from table.pieces import Need, Piece, PieceKind
from table.reads import TableRead
from table.rules import CHANCE, HOUSE, TERMINAL
from table.rules.cards import Card
from table.rules.tiles import Tile

# The words as type hints, so a recording that names another is refused as it loads.
Button = Literal["shake", "next", "confirm"]
MotionWord = Literal["rolling", "hand", "settled", "empty"]  # what vision.settle reports
Phase = Literal["bets", "decide", "roll", "reading", "typed", "dealing", "results"]
BUTTONS = SHAKE, NEXT, CONFIRM = get_args(Button)
MOTIONS = get_args(MotionWord)
PHASES = get_args(Phase)
BETS_ARE_SET = ("change a bet at the table (NEXT to the seat, hold NEXT to step its bet) or in the settings file "
                "([table] bet and [table.bets])")


@dataclass(frozen=True)
class Press:
    button: Button  # from GPIO, keys or touch


@dataclass(frozen=True)
class Motion:
    status: MotionWord  # the settle detector's word


@dataclass(frozen=True)
class SettledRead:
    read: TableRead


@dataclass(frozen=True)
class Typed:
    text: str  # what a person typed for a card, a d10 or a tile


@dataclass(frozen=True)
class Dealt:
    """A card or d10 the table dealt or rolled itself, from its own shoe, pack or die
    (`deal`): the chance outcome as the engine has it, recorded so a replay deals the
    same."""

    outcome: Any


@dataclass(frozen=True)
class Driver:
    game: str
    seats: tuple[str, ...]
    bet: int
    seat_bets: tuple[tuple[str, str], ...] = ()  # a seat's own bet, typed as the game's BETS_HELP says
    typed_kinds: tuple[PieceKind, ...] = (PieceKind.CARD, PieceKind.D10)  # kinds entered by hand, not read
    dealt_kinds: tuple[PieceKind, ...] = ()  # kinds the table deals or rolls itself and shows on screen
    # House rules by name, as earlier versions recorded them: read into `settings` as
    # the driver is made, and then left empty.
    rules: tuple[tuple[str, Any], ...] = ()
    phase: Phase = "bets"
    round_no: int = 0
    state: Any = None  # the rules engine's state during a round
    banker: str | None = None
    highlight: int = 0
    message: str = ""
    seen: tuple[str, ...] = ()  # cards and tiles already on the table this round
    sitting_out: tuple[tuple[str, str], ...] = ()  # (seat, why) for seats whose chips could not cover the round
    moved: bool = False  # the camera saw motion since the driver started waiting
    settlement: tuple[tuple[str, int], ...] = ()
    carry: tuple[tuple[str, Any], ...] = ()  # handed from a finished round to the next (shoe, pack)
    applied: tuple[Any, ...] = field(default=(), compare=False)  # actions of the last step
    settings: Any = None  # the game's Settings: its house rules (None: the defaults, or `rules`)

    def __post_init__(self) -> None:
        """Typed kinds become PieceKinds ("card" stays "card" when recorded), and
        the house rules the game's Settings, once: from `rules` where a driver
        recorded by an earlier version names them, else the defaults."""
        object.__setattr__(self, "typed_kinds", tuple(PieceKind(kind) for kind in self.typed_kinds))
        object.__setattr__(self, "dealt_kinds", tuple(PieceKind(kind) for kind in self.dealt_kinds))
        played = game_of(self.game)
        if self.rules or self.settings is None:
            object.__setattr__(self, "settings", played.settings(dict(self.rules)))
            object.__setattr__(self, "rules", ())
        elif not isinstance(self.settings, played.engine.Settings):
            raise TableError(f"{type(self.settings).__name__} are not the house rules of {self.game}")

    @property
    def played(self) -> Game:
        return game_of(self.game)


def press(word: str) -> Press:
    """A button's word (from GPIO, a key or a touch) as the event; TableError for a word
    no button sends."""
    for button in BUTTONS:
        if word == button:
            return Press(button)
    raise TableError(f"not a button: {word!r} (the buttons are {', '.join(BUTTONS)})")


def motion(word: str) -> Motion:
    """The settle detector's word as the event; TableError for a word it never says."""
    for status in MOTIONS:
        if word == status:
            return Motion(status)
    raise TableError(f"not a motion word: {word!r} (they are {', '.join(MOTIONS)})")


def need_of(game_id: str, state: Any) -> Need:
    """What the chance step due in `state` is made of, as its game says."""
    return game_of(game_id).need(state)


def start(driver: Driver, ledger: Ledger) -> Driver:
    """Every seat places its own bet (or the table's standard one) if its chips cover all
    the round can ask of it; a seat that cannot sits this round out, so one short
    bankroll never stops the others. The seat whose turn it is banks, unless the game
    passes the bank on because its chips cannot cover these bets (the engine's
    banker_for): then it plays with its own bet. Raises TableError, changing nothing,
    when nobody is left to play or nobody can bank."""
    eng = driver.played.engine
    settings = driver.settings
    bets, sitting_out = {}, []
    for seat in driver.seats:
        if not bet_text(driver, seat).strip():
            sitting_out.append((seat, "sits this round out"))
            continue
        try:
            bet = eng.parse_bets(settings, bet_text(driver, seat))
            eng.check_bet(settings, seat, bet, ledger.balance(seat))
            bets[seat] = bet
        except TableError as err:
            sitting_out.append((seat, str(err).removeprefix(f"{seat}: ")))
    try:
        banker = eng.banker_for(settings, driver.seats, ledger.as_dict(), bets, driver.banker)
    except TableError as err:
        raise TableError(f"No round: {err}; {BETS_ARE_SET}") from None
    if banker is not None:
        bets.pop(banker, None)  # the banker does not bet, and need not afford one
    sitting_out = [(seat, reason) for seat, reason in sitting_out if seat != banker]
    why = "; ".join(f"{seat}: {reason}" for seat, reason in sitting_out)
    if not bets:
        raise TableError(f"No round: no seat can cover its bet ({why})")
    state = eng.new_round(settings, driver.seats, ledger.as_dict(), bets, banker=banker, **dict(driver.carry))
    if eng.current_actor(state) == TERMINAL:
        raise TableError(f"No round: too few seats can play ({why or 'nobody bet'})")
    return advance(replace(driver, state=state, banker=banker, round_no=driver.round_no + 1, seen=(),
                            settlement=(), sitting_out=tuple(sitting_out), message="", applied=()))


def check_driver(driver: Driver) -> None:
    """TableError unless the phase fits the round: none dealt at the bets, a finished
    one at the results, and in between the phase `step` would have reached (a roll
    being read is still the roll), with a choice highlighted that is on offer. A saved
    driver decodes field by field, so a damaged one could offer a choice where the
    dice are due, whose confirm would apply a guessed outcome, highlight a choice
    past the last, which stopped the table at its confirm, or sit at its results with
    the round half played."""
    if driver.phase not in PHASES:
        raise TableError(f"phase {driver.phase!r} is not one of {', '.join(PHASES)}")
    if driver.state is None:
        if driver.phase != "bets":
            raise TableError(f"phase {driver.phase!r} has no round dealt")
        if not 0 <= driver.highlight <= len(driver.seats):
            raise TableError(f"highlight {driver.highlight!r} is not the deal or one of the {len(driver.seats)} seats")
        return
    if driver.phase == "bets":
        raise TableError("phase 'bets' holds a round already dealt")
    fits = advance(driver).phase
    allowed = (fits, "reading") if fits == "roll" else (fits,)
    if driver.phase not in allowed:
        raise TableError(f"phase {driver.phase!r} does not fit its round, which is at "
                         + " or ".join(map(repr, allowed)))
    choices = len(driver.played.engine.legal_actions(driver.state)) if driver.phase == "decide" else 1
    if not 0 <= driver.highlight < choices:
        raise TableError(f"highlight {driver.highlight!r} is not one of the {choices} choices on offer")


def bet_text(driver: Driver, seat: str) -> str:
    """A seat's bet as typed ("10", "5 3:2"); "" sits the seat out."""
    return dict(driver.seat_bets).get(seat, str(driver.bet))


# The bets a seat steps through at the table, as multiples of the table's bet; 0 sits
# the seat out. Holding NEXT on a seat takes the next one.
BET_STEPS = (1, 2, 3, 5, 10, 0)


def next_bet(driver: Driver, seat: str) -> str:
    """The seat's bet one step up BET_STEPS from where it is (a typed amount off the
    steps goes to the first above it), keeping what follows the first amount (Dicey
    21's MATCH wagers)."""
    words = bet_text(driver, seat).split()
    now = int(words[0]) if words and words[0].isdigit() else 0
    steps = [step * driver.bet for step in BET_STEPS]
    later = [amount for amount in steps[:-1] if amount > now]
    chosen = later[0] if now and later else 0 if now else steps[0]
    return " ".join([str(chosen), *words[1:]]) if chosen else ""


def _at_the_bets(driver: Driver, button: str, ledger: Ledger) -> Driver:
    """SHAKE deals; NEXT moves between the deal (highlight 0) and each seat; holding
    NEXT deals from the deal, or on a seat steps its bet (`next_bet`). The bets stay
    for the next round: the same again is one press."""
    if button == NEXT:
        return replace(driver, highlight=(driver.highlight + 1) % (len(driver.seats) + 1), message="")
    if button == CONFIRM and driver.highlight:
        seat = driver.seats[driver.highlight - 1]
        bets = dict(driver.seat_bets) | {seat: next_bet(driver, seat)}
        return replace(driver, seat_bets=tuple(bets.items()), message="")
    try:
        return replace(start(driver, ledger), highlight=0)
    except TableError as err:  # nobody can cover a bet, the banker cannot cover the players...
        return replace(driver, message=str(err))


def step(driver: Driver, event: Any, ledger: Ledger) -> Driver:
    """One event. Errors in what the table supplied become a message, never a crash;
    an event no table can send is a caller's slip, refused in words (TableError)."""
    _check_event(event)
    driver = replace(driver, applied=())
    if driver.phase == "bets":
        return _at_the_bets(driver, event.button, ledger) if isinstance(event, Press) else driver
    if driver.phase == "results":
        return replace(driver, phase="bets", state=None, message="") if isinstance(event, Press) else driver
    if isinstance(event, Motion):
        moving = event.status in ("rolling", "hand")
        return replace(driver, moved=driver.moved or moving)
    if driver.phase == "decide" and isinstance(event, Press):
        return _decide(driver, event.button)
    if driver.phase == "roll" and event == Press(SHAKE):
        return replace(driver, phase="reading", moved=False, message="")
    if driver.phase == "reading" and isinstance(event, SettledRead) and driver.moved:
        return _from_read(driver, event.read)
    if driver.phase == "typed" and isinstance(event, Typed):
        return _outcome(driver, lambda: driver.played.engine.parse_outcome(driver.state, event.text))
    if driver.phase == "dealing" and isinstance(event, Dealt):
        if event.outcome not in driver.played.engine.legal_actions(driver.state):
            raise TableError(f"not a card or die this round can be dealt: {event.outcome!r}")
        return _apply(driver, event.outcome)
    return driver


def deal(driver: Driver, rng: random.Random) -> Dealt:
    """The next card or d10 drawn by the table itself, with the engine's own odds (a
    shoe's or pack's cards as they are left, a fair die); TableError when the driver is
    not waiting for one."""
    if driver.phase != "dealing":
        raise TableError(f"nothing to deal: the round is at {driver.phase!r}")
    outcomes = driver.played.engine.chance_outcomes(driver.state)
    actions = [action for action, _ in outcomes]
    weights = [float(chance) for _, chance in outcomes]
    return Dealt(rng.choices(actions, weights)[0])


def _check_event(event: Any) -> None:
    """Checked before any phase looks: the decide phase takes every button but NEXT
    as CONFIRM, and typed text and reads are taken apart as text and TableRead."""
    if (isinstance(event, Press) and event.button not in BUTTONS
            or isinstance(event, Motion) and event.status not in MOTIONS
            or isinstance(event, Typed) and not isinstance(event.text, str)
            or isinstance(event, SettledRead) and not isinstance(event.read, TableRead)):
        raise TableError(f"not an event the table can send: {event!r}")


def _decide(driver: Driver, button: str) -> Driver:
    actions = driver.played.engine.legal_actions(driver.state)
    if button == NEXT:
        return replace(driver, highlight=(driver.highlight + 1) % len(actions))
    return _apply(driver, actions[driver.highlight])


def _from_read(driver: Driver, read: TableRead) -> Driver:
    """The pieces a settled read shows, as the engine's typed outcome: dice left to
    right, or the one card or tile new on the table."""
    need = need_of(driver.game, driver.state)
    if read.unreadable:
        worst = read.unreadable[0]
        return _reroll(driver, f"a {worst.kind} could not be read ({worst.reason})")
    pieces: tuple[Piece, ...]
    if need.kind.rolled:
        found = [(d.center, d.value) for d in (read.dice if need.kind == PieceKind.DIE else read.d10)]
        if len(found) != need.count:
            return _reroll(driver, f"{need.count} {need.kind} expected, {len(found)} seen")
        pieces = tuple(value for _, value in sorted(found, key=lambda die: die[0]))
        stays: tuple[str, ...] = ()  # a roll is picked up again; only cards and tiles stay in view
    else:
        new, why = _the_new_one(driver.seen, read, need.kind)
        if why or new is None:
            return _reroll(driver, why)
        pieces, stays = (new[1],), (new[0],)
    return _outcome(driver, lambda: driver.played.engine.outcome_of(driver.state, pieces), stays)


def _on_table(read: TableRead, kind: PieceKind) -> list[tuple[str, Piece]]:
    """The cards or tiles face up, each with the words the driver keeps it by in
    `seen` ("7H", "7" where the suit was not read, "2-5")."""
    if kind == PieceKind.CARD:
        return [(f"{c.rank}{c.suit or ''}", Card(c.rank, c.suit)) for c in read.cards]
    return [("-".join(map(str, sorted(t.halves))), Tile(*t.halves)) for t in read.dominoes]


def _the_new_one(seen: tuple[str, ...], read: TableRead,
                 kind: PieceKind) -> tuple[tuple[str, Piece] | None, str]:
    """The one card or tile added since the last read, or why the read is no answer.

    Counted as multisets: a six-deck shoe holds six 7H and a suitless read is only the
    rank, so a second identical card is new. Every piece already seen must still be
    there, face up or among the face-down ones; otherwise a misread old piece could
    pass for the new one."""
    pieces = dict(_on_table(read, kind))
    on_table = Counter(name for name, _ in _on_table(read, kind))
    face_down = sum(1 for piece in read.face_down if piece.kind == kind.read_name)
    gone = Counter(seen) - on_table
    new = on_table - Counter(seen)
    if sum(gone.values()) > face_down:
        return None, f"{' '.join(sorted(gone.elements()))} not seen (every {kind} dealt so far stays in view)"
    if sum(new.values()) != 1:
        return None, f"one new {kind} expected, {sum(new.values())} seen"
    name = next(iter(new))
    return (name, pieces[name]), ""


def _outcome(driver: Driver, make: Callable[[], Any], stays: tuple[str, ...] = ()) -> Driver:
    try:
        action = make()
        return _apply(driver, action, seen=stays)
    except TableError as err:
        return _reroll(driver, str(err))


def _reroll(driver: Driver, why: str) -> Driver:
    """Ask the table again; the round state is untouched, so nothing is guessed."""
    if driver.phase == "typed":
        return replace(driver, message=f"{why}; type it again")
    if need_of(driver.game, driver.state).kind.rolled:
        return replace(driver, phase="roll", moved=False, message=f"Re-roll: {why}; press SHAKE and roll again")
    return replace(driver, moved=False, message=f"Show it again: {why}")


def _apply(driver: Driver, action: Any, seen: tuple[str, ...] = ()) -> Driver:
    state = driver.played.engine.apply(driver.state, action)
    moved = replace(driver, state=state, highlight=0, message="", seen=driver.seen + seen, applied=(action,))
    return advance(moved)


def advance(driver: Driver) -> Driver:
    eng = driver.played.engine
    actor = eng.current_actor(driver.state)
    if actor == TERMINAL:
        settlement = eng.settle(driver.state)
        return replace(driver, phase="results", banker=eng.next_banker(driver.state),
                       settlement=tuple(settlement.items()), carry=tuple(eng.carry_over(driver.state).items()))
    if actor != CHANCE:
        return replace(driver, phase="decide")
    need = need_of(driver.game, driver.state)
    if need.kind in driver.dealt_kinds:
        return replace(driver, phase="dealing")
    if need.kind in driver.typed_kinds:
        return replace(driver, phase="typed")
    return replace(driver, phase="roll" if need.kind.rolled else "reading", moved=False)


def lit_leds(driver: Driver) -> frozenset[str]:
    if driver.message and driver.phase in ("bets", "roll", "reading", "typed"):
        return frozenset({"error"})
    if driver.phase == "reading":
        return frozenset({"reading"})
    if driver.phase == "results":
        net = [chips for seat, chips in driver.settlement if seat in driver.seats and seat != driver.banker]
        return frozenset({"win"} if any(chips > 0 for chips in net) else {"lose"})
    return frozenset({"ready"})


def house_account(game_id: str) -> tuple[str, ...]:
    return (HOUSE,) if game_of(game_id).engine.HOUSE_BANKED else ()
