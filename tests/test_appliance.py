"""The appliance loop end to end with a scripted camera: a Dicey 21 round is played,
recorded, persisted, and replayed identically; a changed reader is caught by --check."""

import json
import random
from dataclasses import dataclass, replace

import cv2
import numpy as np
import pytest

from hardware.frames import CameraLost, Frame
from table.driver import Driver, Press, Typed, house_account, step
from table.games import GAMES, engine
from table.ledger import Ledger
from table.reads import Die, TableRead
from table.rules import HOUSE
from table.serial import CorruptRecord
from tabletop21.appliance import Appliance, Table, reopen_round
from tabletop21.recording import Manifest, SessionReader, SessionWriter
from tabletop21.replay import replay_session
from tabletop21.store import BankrollStore

BANKROLLS = {"ann": 100, "bob": 100, HOUSE: 0}


class ScriptedCamera:
    """Frames whose first pixel carries their index. `script` holds the statuses of the
    coming frames (None is a dropout); once it runs out the table is settled."""

    def __init__(self, script=()):
        self.script = list(script)
        self.index = 0
        self.status = "settled"

    def read(self):
        self.status = self.script.pop(0) if self.script else "settled"
        self.index += 1
        if self.status is None:
            raise CameraLost("cable pulled")
        image = np.zeros((48, 64, 3), np.uint8)
        image[0, 0] = self.index % 256
        return Frame(image, self.index, self.index / 30)

    def close(self):
        pass


@dataclass(frozen=True)
class Report:
    state: str


class ScriptedSettle:
    """Says what the scripted camera is showing, as vision.settle would."""

    def __init__(self, camera):
        self.camera = camera

    def update(self, image):
        return Report(self.camera.status)


def dice_reader(values):
    def read(image):
        return TableRead(dice=tuple(Die(v, (10.0 + 15 * i, 20.0), (5.0 + 15 * i, 15.0, 15.0 + 15 * i, 25.0), 0.99)
                                    for i, v in enumerate(values)))
    return read


def play_recorded_round(folder, store=None):
    camera = ScriptedCamera()
    driver = Driver("dicey21", ("ann", "bob"), bet=10)
    manifest = Manifest("dicey21", ("ann", "bob"), settings={"bet": 10, "typed_kinds": list(driver.typed_kinds),
                                                            "bankrolls": BANKROLLS})
    recorder = SessionWriter(folder, manifest)
    ledger = store.open_table(BANKROLLS, house_account("dicey21")) if store else Ledger.open(BANKROLLS, (HOUSE,))
    appliance = Appliance(Table(driver, ledger), camera, ScriptedSettle(camera), dice_reader((6, 5, 4)),
                          store=store, recorder=recorder)
    appliance.tick(presses=["shake"])
    appliance.tick(typed=["10h"])
    appliance.tick(typed=["9s"])
    while appliance.table.driver.phase == "decide":
        appliance.tick(presses=["confirm"])
    view, _ = appliance.tick(presses=["shake"])
    assert view.screen == "reading" and view.leds == ("reading",), "no GPIO: the screen shows the lamps"
    camera.script = ["rolling"] * 3 + ["hand"]
    for _ in range(6):
        view, image = appliance.tick()
    recorder.close()
    return appliance, view


def test_a_round_is_played_recorded_and_replayed_identically(tmp_path):
    appliance, view = play_recorded_round(tmp_path / "session")
    assert view.screen == "results"
    # ann 10 + 15 = 25 loses 10; bob 9 + 15 = 24 loses 10
    assert appliance.table.ledger.as_dict() == {"ann": 90, "bob": 90, HOUSE: 20}
    assert {r.seat: r.outcome for r in view.results} == {"ann": "BUST", "bob": "BUST"}
    assert replay_session(tmp_path / "session") is None
    assert replay_session(tmp_path / "session", check=True, read=dice_reader((6, 5, 4))) is None


def test_check_shows_the_first_difference(tmp_path):
    play_recorded_round(tmp_path / "session")
    diff = replay_session(tmp_path / "session", check=True, read=dice_reader((6, 5, 3)))
    assert diff is not None and diff.what == "read"
    events = (tmp_path / "session" / "events.jsonl").read_text().splitlines()
    settlement_line = next(i for i, line in enumerate(events) if '"settlement"' in line)
    record = json.loads(events[settlement_line])
    record["data"]["ann"] = -5
    events[settlement_line] = json.dumps(record)
    (tmp_path / "session" / "events.jsonl").write_text("\n".join(events) + "\n")
    diff = replay_session(tmp_path / "session")
    assert diff.what == "settlement" and diff.event_no <= settlement_line + 1
    assert diff.recorded["ann"] == -5 and diff.today["ann"] == -10 and "-5" in str(diff)


def test_check_refuses_a_recorded_frame_todays_readers_cannot_read_naming_the_event(tmp_path):
    play_recorded_round(tmp_path / "session")
    (frame,) = (tmp_path / "session" / "frames").iterdir()
    frame.write_bytes(cv2.imencode(".jpg", np.zeros((4, 4, 3), np.uint8))[1].tobytes())  # decodes, but 4x4
    with pytest.raises(CorruptRecord, match=r"event \d+: today.s readers refuse the recorded frame: .*\(4, 4, 3\)"):
        replay_session(tmp_path / "session", check=True)


@pytest.mark.parametrize("readers", [["xray"], "dice", 5, [["dice"]]])
def test_a_manifest_naming_readers_there_are_not_is_refused_in_words(tmp_path, readers):
    play_recorded_round(tmp_path / "session")
    path = tmp_path / "session" / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["settings"]["readers"] = readers
    path.write_text(json.dumps(manifest))
    with pytest.raises(CorruptRecord, match="the manifest's readers .* are not readers: dice, d10, dominoes, cards"):
        replay_session(tmp_path / "session", check=True)


def test_a_lost_camera_shows_the_error_screen_and_the_round_carries_on(tmp_path):
    camera = ScriptedCamera(["settled", None, None, "settled"])
    appliance = Appliance(Table(Driver("dicey21", ("ann",), bet=5), Ledger.open({"ann": 50, HOUSE: 0}, (HOUSE,))),
                          camera, ScriptedSettle(camera), dice_reader((1, 1, 1)))
    appliance.tick(presses=["shake"])
    state = appliance.table.driver.state
    view, image = appliance.tick()
    assert view.screen == "error" and "cable" in view.error.detail and image is None
    view, image = appliance.tick()
    view, image = appliance.tick(typed=["5d"])
    assert view.screen != "error" and appliance.table.driver.state != state


def test_buttons_and_typed_entries_do_nothing_while_the_camera_is_lost():
    """The screen says "Camera lost", not what the round is at: a SHAKE dealt a round,
    and NEXT confirmed choices, that nobody could see. Presses then are dropped, not
    kept for when the picture is back."""
    from gpiozero.pins.mock import MockFactory

    from tabletop21.devices import open_controls
    from tabletop21.settings import GpioConfig

    factory = MockFactory()
    config = GpioConfig(enabled=True, bounce_time=None)
    controls = open_controls(config, pin_factory=factory)
    try:
        camera = ScriptedCamera([None, None])
        idle = Driver("dicey21", ("ann",), bet=5)
        appliance = Appliance(Table(idle, Ledger.open({"ann": 50, HOUSE: 0}, (HOUSE,))), camera,
                              ScriptedSettle(camera), dice_reader((1, 1, 1)), controls=controls)
        shake = factory.pin(config.shake)
        for typed in (["5d"], ["9c"]):
            shake.drive_low()
            shake.drive_high()
            view, _ = appliance.tick(presses=["confirm"], typed=typed)
            assert view.screen == "error" and controls.lit() == {"error"}
            assert appliance.table.driver == idle
        view, _ = appliance.tick()
        assert view.screen != "error" and appliance.table.driver.phase == "bets"
        shake.drive_low()
        shake.drive_high()
        appliance.tick()
        assert appliance.table.driver.phase == "typed" and appliance.table.driver.round_no == 1, "the picture is back"
    finally:
        controls.close()
        factory.reset()


def test_frames_the_calibration_does_not_fit_show_the_error_screen_and_change_nothing():
    """A webcam that gives another size than the one calibrated for (its driver chose
    another mode) must not stop the appliance: the table shows why, as for a lost
    camera, and the round waits."""
    from vision.calibration import Calibration
    from vision.settle import SettleDetector

    camera = ScriptedCamera()
    calibration = Calibration(frame_size=(640, 480), area=((0, 0), (639, 0), (639, 479), (0, 479)))
    appliance = Appliance(Table(Driver("dicey21", ("ann",), bet=5), Ledger.open({"ann": 50, HOUSE: 0}, (HOUSE,))),
                          camera, SettleDetector(calibration), dice_reader((1, 1, 1)))
    appliance.tick(presses=["shake"])
    driver = appliance.table.driver
    view, image = appliance.tick()
    assert view.screen == "error" and "made on 640x480 frames, this one is 64x48" in view.error.detail
    assert image is not None and appliance.table.driver == driver and appliance.lit() == {"error"}


def test_bankrolls_are_persisted_with_the_settlement(tmp_path):
    store = BankrollStore(tmp_path / "bank.sqlite")
    play_recorded_round(tmp_path / "session", store)
    assert BankrollStore(tmp_path / "bank.sqlite").ledger().as_dict() == {"ann": 90, "bob": 90, HOUSE: 20}
    assert store.unfinished() is None


def test_what_became_of_an_open_round_is_shown_and_recorded_until_the_table_moves_on(tmp_path):
    recorder = SessionWriter(tmp_path / "s", Manifest("dicey21", ("ann",)))
    camera = ScriptedCamera()
    notice = "The round left open by a stop was voided: every bet went back."
    appliance = Appliance(Table(Driver("dicey21", ("ann",), bet=5), Ledger.open({"ann": 50, HOUSE: 0}, (HOUSE,))),
                          camera, ScriptedSettle(camera), dice_reader((1, 1, 1)), recorder=recorder, notice=notice)
    for _ in range(2):
        view, _ = appliance.tick()
        assert view.prompt.message == notice
    view, _ = appliance.tick(presses=["shake"])
    assert view.prompt.message != notice
    recorder.close()
    assert [(e.kind, e.data) for e in SessionReader(tmp_path / "s").events][0] == ("note", notice)


SEATS = ("ann", "bob", "cy")
EVERY_KIND_TYPED = ("dice", "d10", "card", "tile")


def at_table(game, seats=SEATS):
    return Driver(game, seats, bet=2, typed_kinds=EVERY_KIND_TYPED)


def settle_a_round(path, game, seed, seats=SEATS):
    """One round played through the appliance into the bankroll file, every chance
    outcome typed (as the engine labels it) and every choice the highlighted one;
    returns the driver at the results, which holds what the next round carries on."""
    eng = engine(game)
    store = BankrollStore(path)
    ledger = store.open_table({seat: 100 for seat in seats} | {h: 0 for h in house_account(game)},
                              house_account(game))
    appliance = Appliance(Table(reopen_round(store, at_table(game, seats)).driver, ledger), None, None, None,
                          store=store)
    rng = random.Random(seed)
    appliance.feed(Press("shake"))
    while appliance.table.driver.phase != "results":
        driver = appliance.table.driver
        if driver.phase == "typed":
            outcome = rng.choice(eng.legal_actions(driver.state))
            appliance.feed(Typed(eng.label(outcome).split(" ", 1)[1].strip("[]")))
        else:
            appliance.feed(Press("confirm"))
    store.close()
    return appliance.table.driver


def carried(driver):
    return driver.banker, driver.round_no, driver.carry


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_restart_between_rounds_carries_on_with_the_banker_round_and_shoe(tmp_path, game):
    """A new start dealt as a new table: a roll-off or a deal picked the banker again,
    against each game's rule for who banks next, and a fresh shoe or pack came out."""
    settled = settle_a_round(tmp_path / "bank.sqlite", game, seed=3)
    assert settled.round_no == 1 and (settled.banker or settled.carry), "the round hands something on"
    store = BankrollStore(tmp_path / "bank.sqlite")
    reopened = reopen_round(store, at_table(game))
    assert carried(reopened.driver) == carried(settled) and reopened.notice == ""
    ledger = store.ledger()
    uninterrupted = step(step(settled, Press("next"), ledger), Press("shake"), ledger)
    restarted = step(reopened.driver, Press("shake"), ledger)
    assert restarted.round_no == uninterrupted.round_no == 2 and restarted.state == uninterrupted.state


def open_next_round(path, game, settled):
    """Round 2 dealt and saved, then the power goes."""
    store = BankrollStore(path)
    ledger = store.ledger()
    appliance = Appliance(Table(step(settled, Press("next"), ledger), ledger), None, None, None, store=store)
    appliance.feed(Press("shake"))
    assert store.unfinished() is not None
    store.close()


@pytest.mark.parametrize("game", ["dice-blackjack", "changing-bank"])
def test_a_voided_round_leaves_the_banker_and_shoe_the_last_settled_round_handed_on(tmp_path, game):
    """Voiding kept only the round number."""
    settled = settle_a_round(tmp_path / "bank.sqlite", game, seed=3)
    open_next_round(tmp_path / "bank.sqlite", game, settled)
    store = BankrollStore(tmp_path / "bank.sqlite")
    reopened = reopen_round(store, at_table(game), "void")
    assert store.unfinished() is None and "voided" in reopened.notice and "afresh" not in reopened.notice
    assert carried(reopened.driver) == (settled.banker, 2, settled.carry), "round 2 was voided; round 3 is next"


@pytest.mark.parametrize("change, words", [
    (lambda d: Driver("dice-blackjack", d.seats[:2], bet=2, typed_kinds=d.typed_kinds),
     "was played with seats ('ann', 'bob', 'cy') and the settings now say ('ann', 'bob')"),
    (lambda d: Driver("blackjack-dice", d.seats, bet=2, typed_kinds=d.typed_kinds),
     "was played with game 'dice-blackjack' and the settings now say 'blackjack-dice'"),
    (lambda d: Driver("dice-blackjack", d.seats, bet=2, typed_kinds=d.typed_kinds, rules=(("max_bet", 50),)),
     "was played with rules {} and the settings now say {'max_bet': 50}"),
])
def test_a_table_set_up_for_another_game_or_seats_starts_afresh_and_says_why(tmp_path, change, words):
    settled = settle_a_round(tmp_path / "bank.sqlite", "dice-blackjack", seed=3)
    now = change(settled)
    reopened = reopen_round(BankrollStore(tmp_path / "bank.sqlite"), now)
    assert reopened.driver == now and reopened.notice == (
        f"The table starts afresh, with a new banker, shoe or pack: the last round settled here {words}.")


def test_a_bet_changed_between_rounds_keeps_the_banker(tmp_path):
    settled = settle_a_round(tmp_path / "bank.sqlite", "dice-blackjack", seed=3)
    reopened = reopen_round(BankrollStore(tmp_path / "bank.sqlite"), replace(at_table("dice-blackjack"), bet=3))
    assert carried(reopened.driver) == carried(settled) and reopened.driver.bet == 3


def test_a_table_whose_chips_cover_no_round_carries_on_all_the_same(tmp_path):
    """Whoever banked, no round could be dealt: that is said at the deal, not taken for
    a damaged last round."""
    settled = settle_a_round(tmp_path / "bank.sqlite", "dice-blackjack", seed=3)
    store = BankrollStore(tmp_path / "bank.sqlite")
    store._db.execute("UPDATE accounts SET chips = 1")
    reopened = reopen_round(store, at_table("dice-blackjack"))
    assert carried(reopened.driver) == carried(settled) and reopened.notice == ""
    assert "No round" in step(reopened.driver, Press("shake"), store.ledger()).message


@pytest.mark.parametrize("damage, words", [
    ("'{\"@type\":\"table.driver:OldDriver\"}'", "its saved state no longer loads: "),
    ("json_set(state, '$.banker', 'zed')", "was banked by zed, who is not at this table"),
    ("json_set(state, '$.carry', json('[[\"shoe\", 5]]'))",
     "handed on what the rules cannot deal from (TableError: that shoe does not come from 6 decks: 5)"),
    ("json_set(state, '$.carry', json('[[\"pack\", 5]]'))", "handed on what the rules cannot deal from (TypeError: "),
])
def test_a_damaged_last_round_starts_the_table_afresh_rather_than_stopping_every_deal(tmp_path, damage, words):
    settle_a_round(tmp_path / "bank.sqlite", "dicey21", seed=3)
    store = BankrollStore(tmp_path / "bank.sqlite")
    store._db.execute(f"UPDATE rounds SET state = {damage} WHERE status = 'settled'")
    reopened = reopen_round(store, at_table("dicey21"))
    assert reopened.driver == at_table("dicey21") and words in reopened.notice
    assert step(reopened.driver, Press("shake"), store.ledger()).round_no == 1, "the table deals"


def test_the_reading_screen_shows_the_frame_now_and_drops_a_read_whose_pieces_have_moved():
    """It drew the last read's boxes on a newer frame where the dice had moved, and said
    "no camera image yet" while frames came in; a hand over the table went unsaid."""
    camera = ScriptedCamera(["rolling"])
    driver = Driver("dice-blackjack", ("ann", "bob"), bet=5)
    appliance = Appliance(Table(driver, Ledger.open(BANKROLLS, (HOUSE,))), camera, ScriptedSettle(camera),
                          dice_reader((6, 5)))
    view, _ = appliance.tick()
    assert view.camera is not None and view.camera.frame_ref == "1" and view.camera.rolling and not view.camera.overlays
    for _ in range(3):  # deal, then shake for the roll
        if appliance.table.driver.phase != "reading":
            appliance.tick(presses=["shake"])
    assert appliance.table.driver.phase == "reading"
    camera.script = ["rolling", "rolling"]
    for _ in range(6):
        if appliance.table.read is None:
            view, _ = appliance.tick()
    assert appliance.table.read is not None
    assert len(view.camera.overlays) == 2 and view.camera.frame_ref == str(camera.index)
    camera.script = ["hand"]
    view, _ = appliance.tick()
    assert view.camera.hand and not view.camera.overlays and view.camera.frame_ref == str(camera.index)


def test_with_dealt_cards_a_round_needs_no_keyboard_and_replays_the_same_cards(tmp_path):
    """[input] cards = "dealt": the table deals from its own shoe and shows the cards;
    the deal is recorded, so a replay deals exactly the same."""
    from table.driver import Dealt
    from table.pieces import PieceKind

    camera = ScriptedCamera()
    driver = Driver("dicey21", ("ann", "bob"), bet=10, typed_kinds=(), dealt_kinds=(PieceKind.CARD,))
    recorder = SessionWriter(tmp_path / "s", Manifest("dicey21", ("ann", "bob"), settings={
        "bet": 10, "typed_kinds": [], "bankrolls": BANKROLLS, "driver": driver}))
    appliance = Appliance(Table(driver, Ledger.open(BANKROLLS, (HOUSE,))), camera, ScriptedSettle(camera),
                          dice_reader((6, 5, 4)), recorder=recorder, rng=random.Random(3))
    appliance.tick(presses=["shake"])
    assert appliance.table.driver.phase == "decide", "both seats' cards were dealt without a word typed"
    while appliance.table.driver.phase == "decide":
        appliance.tick(presses=["confirm"])
    appliance.tick(presses=["shake"])
    camera.script = ["rolling"] * 3
    for _ in range(6):
        view, _ = appliance.tick()
    recorder.close()
    assert view.screen == "results"
    dealt = [event.data for event in SessionReader(tmp_path / "s").events if isinstance(event.data, Dealt)]
    assert len(dealt) >= 2 and len({d.outcome for d in dealt}) >= 1
    assert replay_session(tmp_path / "s", check=True, read=dice_reader((6, 5, 4))) is None


def test_a_dealt_card_must_be_one_the_shoe_can_give_and_nothing_is_dealt_out_of_turn():
    from table.driver import Dealt, deal
    from table.errors import TableError
    from table.pieces import PieceKind
    from table.rules.cards import Card

    ledger = Ledger.open(BANKROLLS, (HOUSE,))
    driver = step(Driver("dicey21", ("ann",), bet=10, typed_kinds=(), dealt_kinds=(PieceKind.CARD,)),
                  Press("shake"), ledger)
    assert driver.phase == "dealing"
    with pytest.raises(TableError, match="not a card or die this round can be dealt"):
        step(driver, Dealt(Card("7", "H")), ledger)
    dealt = step(driver, deal(driver, random.Random(1)), ledger)
    assert dealt.applied and dealt.state != driver.state
    with pytest.raises(TableError, match="nothing to deal"):
        deal(Driver("dicey21", ("ann",), bet=10), random.Random(1))


def test_the_bankroll_history_stays_bounded_over_a_long_night():
    from tabletop21.appliance import HISTORY_ROUNDS

    camera = ScriptedCamera()
    appliance = Appliance(Table(Driver("dicey21", ("ann",), bet=5), Ledger.open(BANKROLLS, (HOUSE,))), camera,
                          ScriptedSettle(camera), dice_reader((6, 5, 4)))
    finished = replace(appliance.table.driver, phase="results", settlement=(("ann", 1), (HOUSE, -1)))
    for _ in range(HISTORY_ROUNDS + 50):
        appliance._round_finished(finished)
    assert len(appliance.table.history["ann"]) == HISTORY_ROUNDS
    assert appliance.table.history["ann"][-1] == BANKROLLS["ann"] + HISTORY_ROUNDS + 50


def test_a_manifest_naming_learned_readers_it_did_not_read_with_is_refused_in_words(tmp_path):
    play_recorded_round(tmp_path / "session")
    path = tmp_path / "session" / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["settings"]["learned"] = ["cards"]  # the session read dice only
    path.write_text(json.dumps(manifest))
    with pytest.raises(CorruptRecord, match=r"the manifest's learned readers \['cards'\] are not among its readers"):
        replay_session(tmp_path / "session", check=True)


def test_a_session_read_with_the_learned_dice_reader_is_checked_with_it(tmp_path, monkeypatch):
    from vision.read import OTHER_READERS

    play_recorded_round(tmp_path / "session")
    path = tmp_path / "session" / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["settings"]["learned"] = ["dice"]
    path.write_text(json.dumps(manifest))
    used = []

    def spy(frame, calibration=None):
        used.append(frame.shape)
        return TableRead()

    monkeypatch.setitem(OTHER_READERS, "dice-net", spy)
    try:
        replay_session(tmp_path / "session", check=True)
    except CorruptRecord:
        pass  # reading nothing where the shipped reader read dice may well be told
    assert used  # the recorded frames went to the learned reader
