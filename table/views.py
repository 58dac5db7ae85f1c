"""From the round driver to the screen: builds the display's TableView.

The display decides nothing, so everything it shows is worked out here: whose turn
it is, what the two buttons do now, each hand as dice, tiles or cards, and the
results. What differs between games (how a state lays out its hands, the pay table,
words that must not give away a hidden piece) each game's Game says (table.games).
"""

from __future__ import annotations

from typing import Any

from table.advisor import Advice
from table.driver import Driver, bet_text, need_of, next_bet
from table.ledger import Ledger
from table.rules import HOUSE, TERMINAL
from table.view import (
    Advisor,
    AdvisorLine,
    Bet,
    CameraView,
    ErrorInfo,
    Hand,
    Prompt,
    Seat,
    SeatResult,
    Stats,
    TableView,
)

BETWEEN_ROUNDS_SECONDS = 4.0  # how long each between-rounds screen stays up


def bets_shown(text: str) -> tuple[Bet, ...]:
    """'10 3:5' -> bet 10, on 3: 5 (a MATCH-style side bet is SPOT:CHIPS)."""
    shown = []
    for number, word in enumerate(text.split()):
        spot, _, chips = word.partition(":")
        shown.append(Bet(f"on {spot}", int(chips)) if chips else Bet("bet" if number == 0 else "more", int(spot)))
    return tuple(shown)


def public_label(driver: Driver, action: Any) -> str:
    """Words for an action on the shared screen (its game's, where the engine's own
    label would name a piece a seat keeps hidden)."""
    return driver.played.label_for_table(driver.state, action)


def prompt_for(driver: Driver) -> Prompt:
    eng = driver.played.engine
    if driver.phase == "bets":
        if driver.highlight:
            seat = driver.seats[driver.highlight - 1]
            now, then = bet_text(driver, seat) or "no bet", next_bet(driver, seat) or "no bet (sits out)"
            following = driver.seats[driver.highlight] if driver.highlight < len(driver.seats) else "deal"
            return Prompt(shake="deal", next=f"next: {following}",
                          message=driver.message or f"{seat} bets {now}: hold NEXT for {then}")
        return Prompt(shake="deal", next=f"next: {driver.seats[0]}'s bet",
                      message=driver.message or "Bets are placed: SHAKE deals; NEXT picks a seat to change its bet")
    if driver.phase == "results":
        return Prompt(next="next round", message="Round over")
    if driver.phase == "decide":
        actions = eng.legal_actions(driver.state)
        chosen = public_label(driver, actions[driver.highlight])
        following = public_label(driver, actions[(driver.highlight + 1) % len(actions)])
        who = eng.current_actor(driver.state)
        choices = " / ".join(f"[{public_label(driver, a)}]" if i == driver.highlight else public_label(driver, a)
                             for i, a in enumerate(actions))
        return Prompt(shake=chosen, next=f"next choice: {following}" if len(actions) > 1 else "",
                      message=driver.message or f"{who}: {choices}")
    need = need_of(driver.game, driver.state)
    what = f"{need.count} {need.kind}" if need.kind.rolled else f"a {need.kind}"
    if driver.phase == "roll":
        return Prompt(shake="roll dice", message=driver.message or f"Shake and roll {what}")
    if driver.phase == "typed":
        return Prompt(message=driver.message or f"Type {what} and press Enter")
    if driver.phase == "dealing":
        return Prompt(message=f"Dealing {what}...")
    return Prompt(message=driver.message or f"Reading {what}...")


def _result(driver: Driver, seat: str, net: int) -> SeatResult:
    """A seat's net, and where the game has several bets a seat can win or lose apart
    (Dicey 21's ANTE, RAISE and MATCH), each of them with its own result."""
    pay_lines = driver.played.pay_lines
    paid = None if pay_lines is None else pay_lines(driver.state, seat)
    if paid is None:
        return SeatResult(seat, net, "WIN" if net > 0 else "LOSE" if net < 0 else "PUSH")
    outcome, lines = paid
    return SeatResult(seat, net, outcome, "; ".join(map(str, lines)), lines)


def build_view(
    driver: Driver,
    ledger: Ledger,
    *,
    camera: CameraView | None = None,
    stats: Stats | None = None,
    error: ErrorInfo | None = None,
    advice: Advice | None = None,
    leds: tuple[str, ...] = (),
    clock: float = 0.0,
) -> TableView:
    played = driver.played
    name = played.name
    if error is not None:
        return TableView(driver.game, name, "error", driver.round_no, error=error, leds=leds)
    seats_hands, shared = played.layout(driver.state) if driver.state is not None else ({}, ())
    actor = played.engine.current_actor(driver.state) if driver.state is not None else TERMINAL
    sitting_out = dict(driver.sitting_out)
    seats = tuple(
        Seat(
            name=seat,
            bankroll=ledger.balance(seat),
            bets=bets_shown(bet_text(driver, seat)) if seat != driver.banker and (
                seat in seats_hands if driver.state is not None else driver.phase == "bets") else (),
            hands=seats_hands.get(seat, ()),
            status=f"sits out: {sitting_out[seat]}" if seat in sitting_out and driver.state is not None else "",
            is_turn=seat == actor or driver.phase == "bets" and 0 < driver.highlight == driver.seats.index(seat) + 1,
            role="banker" if seat == driver.banker else "",
        )
        for seat in driver.seats
    )
    screen = {"bets": "bets" if driver.round_no else "attract", "results": "results",
              "reading": "reading"}.get(driver.phase, "play")
    paytables = played.pay_tables(driver.settings)
    if screen == "bets":  # between rounds the table also sees the pay table and the session so far
        rotation = ["bets"] + (["paytable"] if paytables else []) + (["stats"] if stats and stats.rounds else [])
        screen = rotation[int(clock // BETWEEN_ROUNDS_SECONDS) % len(rotation)]
    results: tuple[SeatResult, ...] = ()
    if driver.phase == "results":
        results = tuple(_result(driver, seat, net) for seat, net in driver.settlement if seat != HOUSE)
    return TableView(
        driver.game, name, screen, driver.round_no, seats=seats, shared=shared, prompt=prompt_for(driver),
        camera=camera, results=results, paytables=paytables,
        stats=stats, advisor=advisor_for(driver, advice, seats_hands.get(actor, ())), leds=leds,
    )


def advisor_for(driver: Driver, advice: Advice | None, own: tuple[Hand, ...]) -> Advisor | None:
    """The advisor's figures per chip of the table bet, shown only while a seat decides
    and only if that seat holds nothing face down (`own`: its hands as drawn): the
    figures come from what the decider knows, so on a shared screen they would tell the
    table what his hole card or hidden tiles are."""
    if advice is None or driver.phase != "decide" or any(not item.face_up for hand in own for item in hand.items):
        return None
    lines = tuple(AdvisorLine(public_label(driver, action), chips / driver.bet) for action, chips in advice.values)
    return Advisor(driver.played.engine.current_actor(driver.state), lines, visible=True)

