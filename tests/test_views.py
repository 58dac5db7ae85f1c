"""Every state a round of every game passes through becomes a screen the display
can draw, with the turn, the prompt and the results worked out here."""

import random

import pytest

from display import render_screen
from table.driver import Driver, advance
from table.games import GAMES, engine
from table.ledger import Ledger
from table.round_play import checked_apply, sample_chance
from table.rules import CHANCE, HOUSE
from table.view import ErrorInfo
from table.views import build_view

SEATS = ("ann", "bob", "cat")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_state_of_a_round_becomes_a_drawable_screen(game_id):
    eng = engine(game_id)
    rng = random.Random(11)
    bankrolls = {seat: 200 for seat in SEATS} | ({HOUSE: 0} if eng.HOUSE_BANKED else {})
    ledger = Ledger.open(bankrolls, credit=(HOUSE,) if eng.HOUSE_BANKED else ())
    bets = {seat: eng.parse_bets(eng.Settings(), "4") for seat in SEATS}
    state = eng.new_round(eng.Settings(), SEATS, ledger.as_dict(), bets)
    driver = Driver(game_id, SEATS, bet=4, round_no=1)
    screens = set()
    while True:
        driver = advance(Driver(game_id, SEATS, bet=4, round_no=1, state=state))
        view = build_view(driver, ledger)
        screens.add(view.screen)
        assert [seat.name for seat in view.seats] == list(SEATS)
        assert view.prompt.message
        if driver.phase == "decide":
            assert sum(seat.is_turn for seat in view.seats) == 1
        surface = render_screen(view, (800, 480))
        assert surface.get_size() == (800, 480)
        if driver.phase == "results":
            assert {r.seat for r in view.results} <= set(SEATS)
            assert sum(r.net for r in view.results) == -dict(driver.settlement).get(HOUSE, 0)
            break
        action = sample_chance(eng, state, rng) if eng.current_actor(state) == CHANCE else eng.auto_action(state, rng)
        state = checked_apply(eng, state, action)
    assert "results" in screens and "play" in screens or "reading" in screens


def test_an_error_screen_says_what_to_do():
    view = build_view(Driver("dicey21", SEATS, bet=4), Ledger.open({s: 5 for s in SEATS}),
                      error=ErrorInfo("Camera lost", "check the camera cable; the round waits"))
    assert view.screen == "error" and "cable" in view.error.todo


def test_face_down_pieces_and_the_totals_they_hide_stay_hidden_until_the_end():
    eng = engine("changing-bank")
    rng = random.Random(4)
    ledger = Ledger.open({seat: 200 for seat in SEATS})
    state = eng.new_round(eng.Settings(), SEATS, ledger.as_dict(), {s: eng.parse_bets(eng.Settings(), "2") for s in SEATS},
                          banker="ann")
    while eng.current_actor(state) == CHANCE:
        state = checked_apply(eng, state, sample_chance(eng, state, rng))
    view = build_view(advance(Driver("changing-bank", SEATS, bet=2, round_no=1, state=state)), ledger)
    dealer = next(seat for seat in view.seats if seat.name == "ann")
    assert not dealer.hands[0].items[0].face_up and dealer.hands[0].total == ""
    while not eng.is_terminal(state):
        action = sample_chance(eng, state, rng) if eng.current_actor(state) == CHANCE else eng.auto_action(state, rng)
        state = checked_apply(eng, state, action)
    view = build_view(advance(Driver("changing-bank", SEATS, bet=2, round_no=1, state=state)), ledger)
    assert all(item.face_up for seat in view.seats for hand in seat.hands for item in hand.items)


def test_the_advisor_shows_each_choice_while_a_seat_decides():
    from table.advisor import advise

    eng = engine("dicey21")
    ledger = Ledger.open({"ann": 100, HOUSE: 0}, credit=(HOUSE,))
    state = eng.new_round(eng.Settings(), ("ann",), ledger.as_dict(), {"ann": eng.parse_bets(eng.Settings(), "10")})
    state = checked_apply(eng, state, eng.parse_outcome(state, "A"))
    driver = advance(Driver("dicey21", ("ann",), bet=10, round_no=1, state=state))
    view = build_view(driver, ledger, advice=advise("dicey21", state))
    assert view.advisor.seat == "ann" and view.advisor.visible
    assert {line.action for line in view.advisor.lines} == {eng.label(a) for a in eng.legal_actions(state)}
    assert view.advisor.lines[0].ev >= view.advisor.lines[-1].ev


def test_between_rounds_the_bets_pay_table_and_statistics_take_turns():
    from table.view import SeatHistory, Stats

    ledger = Ledger.open({"ann": 90, HOUSE: 10}, credit=(HOUSE,))
    driver = Driver("dicey21", ("ann",), bet=5, round_no=1)
    stats = Stats(1, (SeatHistory("ann", (100, 90)),))
    screens = [build_view(driver, ledger, stats=stats, clock=t).screen for t in (0.0, 4.5, 8.5, 12.5)]
    assert screens == ["bets", "paytable", "stats", "bets"]
    assert build_view(Driver("domino21", ("ann", "bob"), bet=1, round_no=1), Ledger.open({"ann": 5, "bob": 5}),
                      clock=4.5).screen == "bets", "no pay table and no rounds yet: nothing else to show"


def test_the_pay_table_is_the_engines_under_the_house_rules_in_force():
    """Built from table.rules.dicey21_pay, not a second copy: the standard table reads
    as the felt does, and a house rule the table is set to changes what it shows."""
    ledger = Ledger.open({"ann": 90, HOUSE: 10}, credit=(HOUSE,))

    def shown(**rules):
        driver = Driver("dicey21", ("ann",), bet=5, round_no=1, rules=tuple(rules.items()))
        view = build_view(driver, ledger, clock=4.5)
        assert view.screen == "paytable"
        return {table.title: [(row.hand, row.pays) for row in table.rows] for table in view.paytables}

    standard = shown()
    assert standard == {
        "ANTE & RAISE": [("21", "2 to 1"), ("19 or 20", "1 to 1"), ("16 to 18", "push"), ("15 or less, over 21", "lose")],
        "MATCH": [("Single", "1 to 1"), ("Double", "2 to 1"), ("Triple", "6 to 1"), ("Royal (triple + K or Q)", "20 to 1"),
                  ("Quad (triple + 1 card)", "40 to 1"), ("Hi-Five (triple + 2 cards)", "500 to 1")],
    }
    assert list(shown(max_match_wagers=0)) == ["ANTE & RAISE"], "no MATCH bets taken: no MATCH table"
    assert ("Quad (triple + 1 card, not an ace)", "40 to 1") in shown(ace_matches_one=False)["MATCH"]


def test_choosing_a_domino_to_turn_up_does_not_name_the_hidden_tiles():
    from pathlib import Path

    from tabletop21.recording import SessionReader
    from tabletop21.replay import table_for

    session = Path(__file__).resolve().parents[1] / "calibration_images" / "sessions" / "domino21"
    reader = SessionReader(session)
    driver, ledger = table_for(reader).driver, table_for(reader).ledger
    from table.driver import step

    for event in reader.events:
        if event.kind != "input":
            continue
        driver = step(driver, event.data, ledger)
        if driver.phase == "decide" and any(type(a).__name__ == "Expose" for a in engine("domino21").legal_actions(driver.state)):
            break
    else:
        pytest.fail("the domino21 session has no exposing choice")
    prompt = build_view(driver, ledger).prompt
    assert "turn up tile" in prompt.shake and "[" not in prompt.shake
    assert "-" not in prompt.message.split(":", 1)[1], "no tile like [0-3] on the shared screen"


def test_a_domino_banker_over_21_keeps_his_tiles_hidden_on_the_screen():
    """He concedes on 11 and pays: the table never sees his hand (nor the hand he pays),
    while a banker who announces a total shows every hand."""
    from table.rules.tiles import Tile

    eng = engine("domino21")
    state = eng.new_round(eng.Settings(), ("bank", "p"), {"bank": 100, "p": 100}, {"p": eng.Bets(1)}, banker="bank")
    for tile in (Tile(6, 6), Tile(5, 5), Tile(0, 1), Tile(1, 2)):
        state = eng.apply(state, eng.Draw(tile))
    state = eng.apply(eng.apply(state, eng.Stand()), eng.Stand())
    ledger = Ledger.open({"bank": 100, "p": 100})

    def shown(final):
        view = build_view(Driver("domino21", ("bank", "p"), bet=1, banker="bank", state=final, phase="results"), ledger)
        return {seat.name: ([item.face_up for item in seat.hands[0].items], seat.hands[0].total) for seat in view.seats}

    assert shown(eng.apply(state, eng.Announce(None))) == {"bank": ([False, False], ""), "p": ([False, False], "")}
    # 0-1 counts 8 with its blank as 7; 6-6 and 5-5 make 17 with one double at half
    assert shown(eng.apply(state, eng.Announce(11))) == {"bank": ([True, True], "11"), "p": ([True, True], "17")}


def test_the_advisor_stays_off_the_screen_while_the_decider_holds_a_hidden_piece():
    """A changing-bank player's hole card is face down: hit/stand figures computed from
    it would show the whole table what it is."""
    from table.advisor import advise

    eng = engine("changing-bank")
    ledger = Ledger.open({seat: 200 for seat in SEATS})
    state = eng.new_round(eng.Settings(), SEATS, ledger.as_dict(), {"bob": eng.Bets(2)}, banker="ann")
    for card in ("2C", "9H", "5S", "7D", "KC"):  # the burn, bob's hole card, the dealer's, then face up
        state = eng.apply(state, eng.parse_outcome(state, card))
    assert eng.current_actor(state) == "bob"
    driver = advance(Driver("changing-bank", SEATS, bet=2, banker="ann", round_no=1, state=state))
    assert build_view(driver, ledger, advice=advise("changing-bank", state)).advisor is None


def test_dicey21_results_give_each_bet_its_own_result_and_a_bust_is_said():
    """'LOSE -2' was an ANTE push and a lost MATCH: the view now holds each bet."""
    from table.driver import Driver, Motion, Press, SettledRead, Typed, step
    from table.ledger import Ledger
    from table.reads import Die, TableRead
    from table.rules import HOUSE
    from table.view import PayLine
    from table.views import build_view

    ledger = Ledger.open({"ann": 100, "bob": 100, HOUSE: 0}, (HOUSE,))
    driver = Driver("dicey21", ("ann", "bob"), bet=5, seat_bets=(("ann", "5 3:2"),), typed_kinds=("card",))
    driver = step(driver, Press("shake"), ledger)
    for text in ("10H", "9S"):  # ann's card, then bob's
        driver = step(driver, Typed(text), ledger)
    while driver.phase == "decide":  # no raise, stand
        driver = step(driver, Press("confirm"), ledger)
    dice = tuple(Die(v, (10.0 * i + 5, 5.0), (10.0 * i, 0.0, 10.0 * i + 9, 9.0), 0.99) for i, v in enumerate((5, 6, 1)))
    for event in (Press("shake"), Motion("rolling"), SettledRead(TableRead(dice=dice))):
        driver = step(driver, event, ledger)
    assert driver.phase == "results", driver.message
    results = {r.seat: r for r in build_view(driver, ledger).results}
    ann = results["ann"]  # 10 + 12 = 22: bust; no 3 among the dice
    assert ann.outcome == "BUST" and ann.lines == (PayLine("ANTE 5", "LOSE", -5), PayLine("MATCH 2 on 3", "LOSE", -2))
    assert ann.net == -7 and "ANTE 5 lose -5" in ann.detail and "MATCH 2 on 3 lose -2" in ann.detail
    assert results["bob"].outcome in ("WIN", "LOSE", "PUSH") and results["bob"].lines[0].bet == "ANTE 5"
