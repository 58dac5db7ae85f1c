"""From the round driver to the screen: builds the display's TableView.

The display decides nothing, so everything it shows is worked out here: whose turn
it is, what the two buttons do now, each hand as dice, tiles or cards, and the
results. The only per-game code is how each engine's state lays out its hands.
"""

from __future__ import annotations

from typing import Any, Callable

from table.driver import Driver, bet_text, need_of
from table.ledger import Ledger
from table.rules import HOUSE, TERMINAL, engine
from table.advisor import Advice
from table.view import (
    Advisor, AdvisorLine, Bet, CameraView, ErrorInfo, Hand, Item, PayRow, PayTable, Prompt, Seat, SeatResult, Stats, TableView,
)

GAME_NAMES = {
    "dicey21": "Dicey 21",
    "dice-blackjack": "Dice Blackjack",
    "blackjack-dice": "Blackjack Dice",
    "domino21": "Domino 21",
    "changing-bank": "Blackjack, changing bank",
}

Layout = tuple[dict[str, tuple[Hand, ...]], tuple[Hand, ...]]  # per seat, shared
BETWEEN_ROUNDS_SECONDS = 4.0  # how long each between-rounds screen stays up


def _cards(cards) -> tuple[Item, ...]:
    return tuple(Item.card(card.rank, card.suit) for card in cards)


def _dicey21(state) -> Layout:
    from table.rules.dicey21_pay import hand_score

    dice = tuple(Item.die(v) for v in state.dice) if state.dice else ()
    seats = {}
    for hand in state.hands:
        total = str(hand_score(hand.cards, state.dice)) if state.dice and hand.cards else ""
        seats[hand.seat] = (Hand(_cards(hand.cards), "cards", total),)
    return seats, (Hand(dice, "community dice", str(sum(state.dice)) if state.dice else ""),)


def _dice_blackjack(state) -> Layout:
    seats: dict[str, tuple[Hand, ...]] = {}
    for duel in state.duels:
        for owner, hand in ((duel.player, duel.player_hand), (state.table.banker, duel.dealer_hand)):
            dice = tuple(Item.die(v) for roll in hand.rolls for v in roll)
            label = "vs " + duel.player if owner != duel.player else "hand"
            total = f"{hand.total}{' ' + hand.end.upper() if hand.end else ''}" if hand.rolls else ""
            seats[owner] = seats.get(owner, ()) + (Hand(dice, label, total),)
    return seats, ()


def _blackjack_dice(state) -> Layout:
    from table.rules.blackjack_dice import hand_total

    def hand(h, label):
        total = f"{hand_total(h.dice)}{' ' + h.end.upper() if h.end else ''}" if h.dice else ""
        return (Hand(tuple(Item.d10(v) for v in h.dice), label, total),)

    seats = {player: hand(h, "hand") for player, h in zip(state.players, state.hands)}
    if state.table.banker:
        seats[state.table.banker] = hand(state.banker_hand, "banker")
    return seats, ()


def _domino21(state) -> Layout:
    """A tile is drawn face up exactly when the engine has it face up, and a total only
    when no face-down tile hides it: the end of a round reveals nothing by itself (a
    banker over 21 keeps his tiles hidden, and a player he pays need not show)."""
    from table.rules.domino21 import best_total

    seats = {}
    for hand in state.hands:
        tiles = tuple(Item.tile(h.tile.low, h.tile.high) if h.face_up else Item.back("tile") for h in hand.held)
        best = best_total(h.tile for h in hand.held) if hand.held else None
        hidden = not all(h.face_up for h in hand.held)
        shown = "" if not hand.held or hidden else ("over 21" if best is None else str(best))
        seats[hand.owner] = (Hand(tiles, "banker" if hand.owner == state.banker else "tiles", shown),)
    return seats, ()


def _changing_bank(state) -> Layout:
    """The dealer's hole card and each player's first card lie face down until the end."""
    from table.rules.changing_bank import hand_total, is_terminal

    over = is_terminal(state)

    def hand(cards, label, hole):
        items = _cards(cards)
        if hole and not over and items:
            items = (Item.back("card"),) + items[1:]
        total = str(hand_total(cards)) if cards and (over or not hole) else ""
        return Hand(items, label, total)

    seats: dict[str, tuple[Hand, ...]] = {}
    for played in state.hands:
        label = "split" if played.from_split else "hand"
        seats[played.seat] = seats.get(played.seat, ()) + (hand(played.cards, label, not played.from_split),)
    if state.banker:
        seats[state.banker] = (hand(state.dealer, "dealer", True),)
    return seats, ()


LAYOUTS: dict[str, Callable[[Any], Layout]] = {
    "dicey21": _dicey21,
    "dice-blackjack": _dice_blackjack,
    "blackjack-dice": _blackjack_dice,
    "domino21": _domino21,
    "changing-bank": _changing_bank,
}

DICEY21_PAYS = (
    PayTable("ANTE & RAISE", (PayRow("21", "2 to 1"), PayRow("19 or 20", "1 to 1"),
                              PayRow("16 to 18", "push"), PayRow("15 or less, over 21", "lose"))),
    PayTable("MATCH", (PayRow("Single", "1 to 1"), PayRow("Double", "2 to 1"), PayRow("Triple", "6 to 1"),
                       PayRow("Royal (triple + K or Q)", "20 to 1"), PayRow("Quad (triple + 1 card)", "40 to 1"),
                       PayRow("Hi-Five (triple + 2 cards)", "500 to 1"))),
)


def bets_shown(text: str) -> tuple[Bet, ...]:
    """'10 3:5' -> bet 10, on 3: 5 (a MATCH-style side bet is SPOT:CHIPS)."""
    shown = []
    for number, word in enumerate(text.split()):
        spot, _, chips = word.partition(":")
        shown.append(Bet(f"on {spot}", int(chips)) if chips else Bet("bet" if number == 0 else "more", int(spot)))
    return tuple(shown)


def public_label(driver: Driver, action: Any) -> str:
    """Words for an action on the shared screen. Choosing which face-down domino to turn
    up must not name the hidden tiles to the whole table, so it says which one by place."""
    eng = engine(driver.game)
    tile = getattr(action, "tile", None)
    if driver.game == "domino21" and type(action).__name__ == "Expose" and tile is not None:
        held = [h.tile for h in eng.current_hand(driver.state).held]
        return f"turn up tile {held.index(tile) + 1}"
    return eng.label(action)


def prompt_for(driver: Driver) -> Prompt:
    eng = engine(driver.game)
    if driver.phase == "bets":
        return Prompt(shake="deal", next="deal", message=driver.message or f"Bets of {driver.bet} are placed: press to deal")
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
    what = f"{need.count} {need.kind}" if need.kind in ("dice", "d10") else f"a {need.kind}"
    if driver.phase == "roll":
        return Prompt(shake="roll dice", message=driver.message or f"Shake and roll {what}")
    if driver.phase == "typed":
        return Prompt(message=driver.message or f"Type {what} and press Enter")
    return Prompt(message=driver.message or f"Reading {what}...")


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
    name = GAME_NAMES[driver.game]
    if error is not None:
        return TableView(driver.game, name, "error", driver.round_no, error=error, leds=leds)
    seats_hands, shared = LAYOUTS[driver.game](driver.state) if driver.state is not None else ({}, ())
    actor = engine(driver.game).current_actor(driver.state) if driver.state is not None else TERMINAL
    sitting_out = dict(driver.sitting_out)
    seats = tuple(
        Seat(
            name=seat,
            bankroll=ledger.balance(seat),
            bets=bets_shown(bet_text(driver, seat)) if driver.state is not None and seat != driver.banker and seat in seats_hands else (),
            hands=seats_hands.get(seat, ()),
            status=f"sits out: {sitting_out[seat]}" if seat in sitting_out and driver.state is not None else "",
            is_turn=seat == actor,
            role="banker" if seat == driver.banker else "",
        )
        for seat in driver.seats
    )
    screen = {"bets": "bets" if driver.round_no else "attract", "results": "results",
              "reading": "reading"}.get(driver.phase, "play")
    paytables = DICEY21_PAYS if driver.game == "dicey21" else ()
    if screen == "bets":  # between rounds the table also sees the pay table and the session so far
        rotation = ["bets"] + (["paytable"] if paytables else []) + (["stats"] if stats and stats.rounds else [])
        screen = rotation[int(clock // BETWEEN_ROUNDS_SECONDS) % len(rotation)]
    results = ()
    if driver.phase == "results":
        results = tuple(SeatResult(seat, net, "WIN" if net > 0 else "LOSE" if net < 0 else "PUSH")
                        for seat, net in driver.settlement if seat != HOUSE)
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
    eng = engine(driver.game)
    lines = tuple(AdvisorLine(public_label(driver, action), chips / driver.bet) for action, chips in advice.values)
    return Advisor(eng.current_actor(driver.state), lines, visible=True)

