"""The appliance loop: camera frame -> settle detector -> vision read -> round driver
-> rules engine -> display, once per frame, with every step recorded and every chip
persisted.

The driver is pure; this loop does the I/O around it. Everything fed to the driver
is written to the session as an "input" event before it is applied, so a replay
that feeds the same inputs to the same driver re-creates the session exactly, and
`replay --check` can show where today's code would differ.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from hardware.frames import CameraLost, Frame, FrameSource
from table.advisor import Advice, advise
from table.driver import (
    CONFIRM,
    NEXT,
    SHAKE,
    Driver,
    Motion,
    SettledRead,
    Typed,
    check_driver,
    deal,
    lit_leds,
    motion,
    press,
    start,
    step,
)
from table.errors import TableError
from table.games import game
from table.ledger import Ledger
from table.pieces import PieceKind
from table.reads import TableRead
from table.serial import CorruptRecord
from table.view import CameraView, ErrorInfo, SeatHistory, Stats, TableView, overlays_from_read
from table.views import build_view
from tabletop21.heap import hand_back
from tabletop21.recording import SessionWriter
from tabletop21.rollcheck import RollCheck
from tabletop21.settings import LED_NAMES
from tabletop21.store import BankrollStore, OpenRound, StoreError
from tabletop21.teaching import Correction, Corrections, read_kind, touch_check
from vision.image_io import NotAnImage

if TYPE_CHECKING:
    from display.teach import CheckScreen


def reader_kinds(game_id: str, typed_kinds: tuple[PieceKind, ...]) -> tuple[str, ...]:
    """Only the readers this game needs run on its frames: faster, and a domino's
    pips are never offered to the dice reader at a domino table."""
    return tuple(piece.reader for piece in game(game_id).pieces if piece not in typed_kinds)


def table_reader(kinds: tuple[str, ...], calibration=None, taught=None,
                 learned: tuple[str, ...] = ()) -> Callable[[np.ndarray], TableRead]:
    """The readers of these kinds on one calibration; the kinds in `learned` read by
    their learned reader ("<kind>-net"); with a taught reader (vision.teach), that one
    reads its kind (dice, d10 or dominoes)."""
    from vision.read import OTHER_READERS, READERS, read_table, taught_reader

    chosen = {kind: OTHER_READERS[f"{kind}-net"] if kind in learned else READERS[kind] for kind in kinds}
    if taught is not None and taught.kind in chosen:
        chosen[taught.kind] = taught_reader(taught)
    return lambda image: read_table(image, calibration, readers=chosen)


class SettleReport(Protocol):
    @property
    def state(self) -> str: ...  # "rolling", "hand", "settled" or "empty" (vision.settle.SettleState)


class Recorder(Protocol):
    """Where the loop's inputs, actions and read frames go: a session recording, or a
    replay's collector."""

    def log(self, kind: str, data: Any = None, t: float | None = None) -> object: ...


class Settle(Protocol):
    def update(self, frame_bgr: np.ndarray, /) -> SettleReport: ...


class Controls(Protocol):
    def poll(self) -> list[str]: ...

    def show(self, lit) -> None: ...


HISTORY_ROUNDS = 500  # bankroll points per seat kept for the stats chart: the latest rounds


@dataclass
class Table:
    """The mutable bits the loop carries between frames (the driver itself is immutable)."""

    driver: Driver
    ledger: Ledger
    round_id: int | None = None
    motion: str = ""
    read: TableRead | None = None
    read_frame: tuple[int, tuple[int, int]] | None = None
    shown_frame: tuple[int, tuple[int, int]] | None = None  # the frame on screen now
    read_is_current: bool = False  # nothing has moved since `read` was taken
    history: dict[str, list[int]] = field(default_factory=dict)
    camera_error: str = ""


class Appliance:
    def __init__(self, table: Table, source: FrameSource | None, settle: Settle | None,
                 read: Callable[[np.ndarray], TableRead] | None,
                 store: BankrollStore | None = None, recorder: Recorder | None = None,
                 controls: Controls | None = None, advisor: bool = False, notice: str = "",
                 rng: random.Random | None = None, corrections: Corrections | None = None) -> None:
        self.table = table
        self.source = source
        self.settle = settle
        self.read = read
        self.store = store
        self.recorder = recorder
        self.rng = rng or random.SystemRandom()  # the table's own shoe, pack and d10 (`[input] ... = "dealt"`)
        self.controls = controls
        self.advisor = advisor
        self.clock = 0.0  # the latest frame's time, for screens that take turns
        self._advice: tuple[Any, Advice] | None = None  # worked out once per decision
        self.notice = notice  # what became of a round left open, shown until the table moves on
        # A round's dice (or d10s) said to be read wrong on its results screen are kept for
        # teaching here; None: the results screen offers no correction (replays, demos).
        self.corrections = corrections
        self.correction: Correction | None = None  # the correction on screen now
        self._read_image: tuple[int, np.ndarray] | None = None  # the round and picture of the last read
        if recorder and notice:
            recorder.log("note", notice)
        for seat in table.driver.seats:
            table.history.setdefault(seat, [table.ledger.balance(seat)])

    def tick(self, presses: Sequence[str] = (), typed: Sequence[str] = (),
             touched: Sequence[str] = ()) -> tuple[TableView, np.ndarray | None]:
        """One frame of the loop; returns what the display should show now (while
        `correction` is set, the display shows that instead: `correction_screen`).

        While the camera is lost the screen shows that, not the round, so buttons and
        typed entries are dropped, not fed: a SHAKE dealt a round, and a hold confirmed
        a choice, that nobody could see. `touched` are taps off the screen's buttons
        (display.Display.touched): on the results screen one opens the correction, as
        holding NEXT does."""
        names = [*(self.controls.poll() if self.controls else []), *presses]
        typed = list(typed)
        camera: list[Any] = []
        image = None
        if self.source is None or self.settle is None or self.read is None:
            raise RuntimeError("an appliance without a camera, settle detector and reader is fed events, not ticked")
        try:
            frame = self.source.read()
        except CameraLost as err:
            self.table.camera_error = str(err)
        else:
            self.clock = frame.time
            image = frame.image
            try:
                camera = self._from_camera(frame)
                self.table.camera_error = ""
            except NotAnImage as err:  # e.g. a webcam giving another size than the calibration's
                self.table.camera_error = f"the camera's picture cannot be read: {err}"
        if self.correction is not None or (self._correctable() and not self.table.camera_error):
            names, typed = self._correcting(names, typed, touched)
        people: list[Any] = [press(name) for name in names] + [Typed(text) for text in typed]
        for event in ([] if self.table.camera_error else people) + camera:
            self.feed(event)
            while self.table.driver.phase == "dealing":  # recorded as an input: a replay deals the same
                self.feed(deal(self.table.driver, self.rng))
        if self.controls:
            self.controls.show(self.lit())
        return self.view(), image

    def lit(self) -> frozenset[str]:
        return frozenset({"error"}) if self.table.camera_error else lit_leds(self.table.driver)

    def _from_camera(self, frame: Frame) -> list[Any]:
        if self.settle is None or self.read is None:
            raise RuntimeError("an appliance without a settle detector and a reader is fed events, not frames")
        status = self.settle.update(frame.image).state
        self.table.shown_frame = (frame.index, (frame.image.shape[1], frame.image.shape[0]))
        events: list[Any] = []
        if status != self.table.motion:
            self.table.motion = status
            events.append(motion(status))
        # Read once the table has settled after the motion the driver is waiting for.
        if status == "settled" and self.table.driver.phase == "reading" and self.table.driver.moved:
            # A recording keeps the frame read, and the reader reads the very pixels kept (JPEG).
            image = self.recorder.save_frame(frame) if isinstance(self.recorder, SessionWriter) else frame.image
            read = self.read(image)
            hand_back()  # the read's freed buffers, before the wait for the next roll
            self.table.read_frame = (frame.index, (frame.image.shape[1], frame.image.shape[0]))
            if self.corrections is not None:  # kept for a correction from the results screen
                self._read_image = (self.table.driver.round_no, image)
            events.append(SettledRead(read))
        return events

    def feed(self, event: Any) -> None:
        """Record the input, step the driver, and persist whatever it changed. A read is
        kept for the screen until the camera sees motion: then its boxes are no longer
        where the pieces are."""
        if self.recorder:
            self.recorder.log("input", event)
        if isinstance(event, SettledRead):
            self.table.read, self.table.read_is_current = event.read, True
        elif isinstance(event, Motion) and event.status in ("rolling", "hand"):
            self.table.read_is_current = False
        before = self.table.driver
        after = self.table.driver = step(before, event, self.table.ledger)
        if after != before:
            self.notice = ""
        if after.round_no != before.round_no:
            self._round_started(after)
        for action in after.applied:
            if self.recorder:
                self.recorder.log("action", action)
        if after.phase == "results" and before.phase != "results":
            self._round_finished(after)
        elif self.store and self.table.round_id is not None and after != before:
            self.store.save_state(self.table.round_id, after)

    def _round_started(self, driver: Driver) -> None:
        if self.store:
            self.table.round_id = self.store.begin_round(driver.game, driver)
        if self.recorder:
            self.recorder.log("round", {"round": driver.round_no, "bankrolls": self.table.ledger.as_dict()})

    def _round_finished(self, driver: Driver) -> None:
        settlement = dict(driver.settlement)
        if self.store and self.table.round_id is not None:
            self.table.ledger = self.store.finish_round(self.table.round_id, settlement, driver)
            self.table.round_id = None
        else:
            self.table.ledger = self.table.ledger.post(settlement)
        for seat in driver.seats:
            kept = self.table.history.setdefault(seat, [])
            kept.append(self.table.ledger.balance(seat))
            del kept[:-HISTORY_ROUNDS]  # a night of play keeps a flat footprint
        if self.recorder:
            self.recorder.log("settlement", settlement)

    # --- a round's read corrected from its results screen, for teaching ---------------------------------------

    def _correctable(self) -> bool:
        """The round is over, its last read was of dice, d10s, domino tiles or cards
        (teaching.read_kind) and its picture is kept."""
        driver, read = self.table.driver, self.table.read
        return (self.corrections is not None and self.correction is None and driver.phase == "results"
                and read is not None and self._read_image is not None
                and self._read_image[0] == driver.round_no and read_kind(read) is not None)

    def _correcting(self, names: list[str], typed: list[str],
                    touched: Sequence[str]) -> tuple[list[str], list[str]]:
        """The buttons, taps and typed words the correction takes (holding NEXT, or a
        tap, on the results screen opens it); returns those left for the driver. Once
        one is left to the driver (NEXT: the next round), so are all after it."""
        for word in touched:
            if self.correction is not None:
                self._touch_correction(word)
            elif word == "screen" and self._correctable():
                self._open_correction()
        rest: list[str] = []
        for name in names:
            if rest:
                rest.append(name)
            elif self.correction is not None:
                self._press_correction(name)
            elif name == CONFIRM and self._correctable():
                self._open_correction()
            else:
                rest.append(name)
        if self.correction is None:
            return rest, typed
        for text in typed:
            if self.correction is not None:
                word = text.strip().lower()
                if word in ("k", "keep", "s", "skip"):
                    self._touch_correction("keep" if word.startswith("k") else "skip")
                else:
                    self._set_check(self.correction.check.typed(text))
        return rest, []

    def _open_correction(self) -> None:
        read, kept = self.table.read, self._read_image
        assert read is not None and kept is not None
        kind = read_kind(read)
        assert kind is not None
        assert self.corrections is not None
        image = kept[1]
        check = RollCheck.of_read(kind, read, frame_size=(image.shape[1], image.shape[0]),
                                  die_side=self.corrections.die_side, proposed=self.corrections.to_show(kind))
        self.correction = Correction(check, image, kept[0])

    def _set_check(self, check: RollCheck) -> None:
        assert self.correction is not None
        self.correction = replace(self.correction, check=check)

    def _press_correction(self, name: str) -> None:
        assert self.correction is not None
        check = self.correction.check
        if name == SHAKE:
            self._set_check(check.cycle())
        elif name == NEXT:
            self._set_check(check.next())
        elif name == CONFIRM:
            self._keep_correction()

    def _touch_correction(self, word: str) -> None:
        assert self.correction is not None
        touched = touch_check(self.correction.check, word)
        if touched is not None:
            self._set_check(touched)
        elif word == "keep":
            self._keep_correction()
        elif word == "skip":
            self.correction = None

    def _keep_correction(self) -> None:
        assert self.correction is not None and self.corrections is not None
        check, values = self.correction.check.confirm()
        self._set_check(check)
        if values is None:
            return
        try:
            folder, name = self.corrections.keep(self.correction, values)
        except TableError as err:
            self._set_check(replace(check, message=str(err)))
            return
        self.correction = None
        self._read_image = None  # kept once: the results screen offers it no more
        self.notice = f"Kept for teaching in {folder}; the round stays as settled"
        if self.recorder:
            self.recorder.log("note", f"the last read of round {self.table.driver.round_no} was kept for teaching "
                                      f"as {folder / 'images' / name}")

    def correction_screen(self) -> CheckScreen:
        """What the display shows while a correction is open (display.teach.CheckScreen)."""
        assert self.correction is not None and self.corrections is not None
        return self.corrections.screen(self.correction)

    def view(self) -> TableView:
        table = self.table
        leds = () if self.controls else tuple(led for led in LED_NAMES if led in self.lit())
        if table.camera_error:
            return build_view(table.driver, table.ledger, leds=leds, error=ErrorInfo(
                "Camera lost", "Check the camera cable and light. Until the picture is back the buttons do "
                "nothing; the round waits and nothing is lost.",
                table.camera_error))
        camera = None
        if table.shown_frame is not None:  # the frame on screen, with the last read's boxes while they fit it
            index, size = table.shown_frame
            overlays = overlays_from_read(table.read) if table.read is not None and table.read_is_current else ()
            camera = CameraView(str(index), size, overlays, rolling=table.motion == "rolling",
                                hand=table.motion == "hand")
        stats = Stats(table.driver.round_no, tuple(SeatHistory(s, tuple(h)) for s, h in table.history.items()))
        view = build_view(table.driver, table.ledger, camera=camera, stats=stats, advice=self._advice_now(),
                          leds=leds, clock=self.clock)
        if self.notice:
            return replace(view, prompt=replace(view.prompt, message=self.notice))
        if self._correctable():
            return replace(view, prompt=replace(view.prompt, message=f"{view.prompt.message}. Read wrong? Hold NEXT "
                                                                     "or touch the screen to correct it"))
        return view

    def _advice_now(self) -> Advice | None:
        driver = self.table.driver
        if not self.advisor or driver.phase != "decide":
            return None
        if self._advice is None or self._advice[0] is not driver.state:
            self._advice = (driver.state, advise(driver.game, driver.state))
        return self._advice[1]


# A saved round is carried on only at a table set up as it was; anything else would
# ask the wrong readers for the wrong pieces, or bet what the settings no longer say, and
# the resumed driver's house rules would go on dealing every later round of the sitting.
SAME_TABLE = ("game", "seats", "bet", "seat_bets", "typed_kinds", "dealt_kinds", "settings")
# Who banks next, the round number and the shoe or pack go on from the last settled
# round at a table playing the same game, under the same rules, with the same seats;
# a new bet or a card now typed changes none of them.
SAME_GAME = ("game", "seats", "settings")


@dataclass(frozen=True)
class Reopened:
    driver: Driver
    round_id: int | None  # the resumed round's; None when no round goes on
    notice: str = ""  # what became of an open round, or of the last settled one, for the screen and the log


def reopen_round(store: BankrollStore, driver: Driver, choice: str = "auto") -> Reopened:
    """After a stop or crash. "void" closes the open round and its bets go back (they
    were never taken, so voiding only closes it); "resume" carries on with it and
    refuses, saying why, when this table cannot; "auto", what a plain start does,
    resumes when it can and voids otherwise, so the table always comes back. With no
    round resumed, the next one carries on from the last settled round (see
    `_carried_on`)."""
    pending = store.unfinished()
    ledger = store.ledger()
    saved, why_not = (None, "") if pending is None else _resumable(pending, driver, ledger.as_dict())
    if pending is not None and saved is not None and choice != "void" and not why_not:
        return Reopened(saved, pending.round_id, f"Round {saved.round_no}, left open by a stop, resumes here.")
    if pending is not None and choice == "resume":
        raise StoreError(f"the round left open cannot be resumed: {why_not}. Start with --void to cancel it; "
                         "its bets go back")
    carried, afresh = _carried_on(store, driver, ledger)
    if pending is None:
        return Reopened(carried, None, afresh)
    store.void_round(pending.round_id)
    return Reopened(replace(carried, round_no=carried.round_no if saved is None else saved.round_no), None,
                    "The round left open by a stop was voided" + (f" ({why_not})" if why_not else "")
                    + ": every bet went back." + (f" {afresh}" if afresh else ""))


def _carried_on(store: BankrollStore, driver: Driver, ledger: Ledger) -> tuple[Driver, str]:
    """`driver` with the banker, round number and shoe or pack the last settled round
    handed on, so a restart changes nothing the rules decide: in Dice Blackjack the
    winner deals next, in Blackjack Dice and Domino 21 the bank goes round, with a
    changing bank the dealer keeps it until another's natural, and the cards already
    dealt stay out of the shoe. Without a restart the driver carries these from round
    to round; a new start had a new roll-off or deal pick the banker. Otherwise
    `driver` as it is, and the notice saying why the table starts afresh."""
    try:
        last = store.last_settled()
    except CorruptRecord as err:
        return driver, _afresh(f"its saved state no longer loads: {err}")
    if last is None:
        return driver, ""
    if not isinstance(last, Driver):
        return driver, _afresh("its saved state is not a round of this appliance")
    carried = replace(driver, banker=last.banker, round_no=last.round_no, carry=last.carry)
    why_not = _other_table(last, driver, SAME_GAME) or _undealable(carried, driver, ledger)
    return (driver, _afresh(why_not)) if why_not else (carried, "")


def _afresh(why: str) -> str:
    return f"The table starts afresh, with a new banker, shoe or pack: the last round settled here {why}."


def _undealable(carried: Driver, driver: Driver, ledger: Ledger) -> str:
    """Why the next round cannot be dealt from what a damaged or hand-edited bankroll
    file says the last round handed on ('' when it can): a banker not at the table, or
    a shoe that is no shoe, had every deal refused or stopped the table at it, for good,
    since no round settled to hand on another. A deal the table's chips refuse whoever
    banks is no reason: the table says so at the deal, as after any round."""
    if carried.banker not in (None, *carried.seats):
        return f"was banked by {carried.banker}, who is not at this table"
    try:
        start(carried, ledger)
    except Exception as err:  # whatever a shoe no engine made leads the engine to raise
        try:
            start(driver, ledger)
        except TableError:
            return ""
        return f"handed on what the rules cannot deal from ({type(err).__name__}: {err})"
    return ""


def _resumable(pending: OpenRound, driver: Driver, bankrolls: dict[str, int]) -> tuple[Driver | None, str]:
    """The saved driver (None if there is none) and why this table, with the bankroll
    file's `bankrolls`, cannot carry it on."""
    try:
        saved = pending.state
    except CorruptRecord as err:
        return None, f"its saved state no longer loads: {err}"
    if not isinstance(saved, Driver):
        return None, "its saved state is not a round of this appliance"
    why_not = _other_table(saved, driver, SAME_TABLE)
    return saved, (f"it {why_not}" if why_not else _unplayable(saved, bankrolls))


def _other_table(saved: Driver, driver: Driver, names: tuple[str, ...]) -> str:
    """How the settings' table differs from the saved round's in the settings `names`
    ('' when it does not)."""
    for name in names:
        then, now = _setting(saved, name), _setting(driver, name)
        if then != now:
            return f"was played with {'rules' if name == 'settings' else name} {then!r} and the settings now say {now!r}"
    return ""


def _unplayable(saved: Driver, bankrolls: dict[str, int]) -> str:
    """Why the rules cannot carry the saved round on ('' when they can). A state that
    decodes can still be one no engine made (a damaged or hand-edited file): asked for
    its next move, it would stop the table; or it names someone not at the table, or
    counts chips other than the bankroll file's, and the ledger would refuse its
    settlement; or its phase does not fit it, or it is no round under way (at its bets
    or results), whose next round the store would refuse to open while it stays open.
    Either way the round would stay open, and the table be stuck with it at every start."""
    eng = saved.played.engine
    try:
        if saved.state is not None:
            if not isinstance(saved.state, eng.State):
                return f"its saved state is not a round of {saved.game}"
            strangers = [seat for seat in eng.check_state(saved.state) if seat not in saved.seats]
            if strangers:
                return (f"its saved state is a round played by {', '.join(strangers)}, "
                        f"who {'is' if len(strangers) == 1 else 'are'} not at this table")
            eng.check_state(saved.state, bankrolls)  # only now: a stranger has no bankroll, which says less
        check_driver(saved)
        if saved.phase in ("bets", "results"):
            return f"its saved state is no round under way (it is at its {saved.phase})"
        eng.legal_actions(saved.state)
        eng.describe(saved.state)
    except Exception as err:  # whatever a state no engine made leads the engine to raise
        return f"its saved state is not a round the rules can carry on ({type(err).__name__}: {err})"
    return ""


def _setting(driver: Driver, name: str):
    """A setting as the table uses it: seats' own bets are looked up by name, so the
    order they are written in the settings file does not matter (nor does that of
    house rules, read into the game's Settings)."""
    value = getattr(driver, name)
    if name == "settings":
        return driver.played.house_rules(value)  # "game" is compared first: both are of one game
    return dict(value) if name == "seat_bets" else value
