"""Dicey 21: cards of one's own and three community dice; the house banks."""

from __future__ import annotations

from table.errors import TableError
from table.game import Game, Layout, Odds
from table.pieces import Need, PieceKind
from table.rules import dicey21 as rules
from table.rules import dicey21_pay as pay
from table.view import Hand, Item, PayLine, PayRow, PayTable


def need(state: rules.State) -> Need:
    return Need(PieceKind.DIE, rules.DICE) if rules.dice_due(state) else Need(PieceKind.CARD)


def layout(state: rules.State) -> Layout:
    dice = tuple(Item.die(v) for v in state.dice) if state.dice else ()
    seats: dict[str, tuple[Hand, ...]] = {}
    for hand in state.hands:
        total = str(pay.hand_score(hand.cards, state.dice)) if state.dice and hand.cards else ""
        # Once the dice are down the caption is the hand's score (cards and dice), not a card count.
        seats[hand.seat] = (Hand(tuple(Item.card(c.rank, c.suit) for c in hand.cards), "score" if total else "cards",
                                 total),)
    return seats, (Hand(dice, "community dice", str(sum(state.dice)) if state.dice else ""),)


def _to_one(ratio: int) -> str:
    return {0: "push", pay.LOSS: "lose"}.get(ratio, f"{ratio} to 1")


def _scores(scores: range) -> str:
    return f"{scores.start} or {scores.stop - 1}" if len(scores) == 2 else f"{scores.start} to {scores.stop - 1}"


def pay_tables(settings: rules.Settings) -> tuple[PayTable, ...]:
    """The pay table the engine settles by (table.rules.dicey21_pay), as the house
    rules in force have it: no MATCH table where MATCH wagers are not taken, and the
    ace's part in a Quad or Hi-Five said where it does not count."""
    ante = PayTable("ANTE & RAISE", (
        PayRow(str(pay.BEST_SCORE), _to_one(pay.ante_ratio(pay.BEST_SCORE))),
        PayRow(_scores(pay.EVEN_MONEY_SCORES), _to_one(pay.ante_ratio(pay.EVEN_MONEY_SCORES.start))),
        PayRow(_scores(pay.PUSH_SCORES), _to_one(pay.ante_ratio(pay.PUSH_SCORES.start))),
        PayRow(f"{pay.PUSH_SCORES.start - 1} or less, over {pay.BEST_SCORE}", _to_one(pay.LOSS))))
    if not settings.max_match_wagers:
        return (ante,)
    royal = " or ".join(pay.ROYAL_RANKS)
    card = "1 card" if settings.ace_matches_one else "1 card, not an ace"
    cards = "2 cards" if settings.ace_matches_one else "2 cards, not aces"
    match = PayTable("MATCH", tuple(PayRow(name.capitalize(), _to_one(ratio))
                                    for name, ratio in pay.DICE_ONLY_PAYS.values()) + (
        PayRow(f"Royal (triple + {royal})", _to_one(pay.ROYAL[1])),
        PayRow(f"Quad (triple + {card})", _to_one(pay.QUAD[1])),
        PayRow(f"Hi-Five (triple + {cards})", _to_one(pay.HI_FIVE[1]))))
    return ante, match


def _word(chips: int) -> str:
    return "WIN" if chips > 0 else "LOSE" if chips < 0 else "PUSH"


def pay_lines(state: rules.State, seat: str) -> tuple[str, tuple[PayLine, ...]] | None:
    """A finished round's bets for one seat: ANTE and RAISE share the hand's score
    (over 21 is BUST), each MATCH wager its spot's own result; None for a seat that
    sat the round out."""
    hand = next((hand for hand in state.hands if hand.seat == seat), None)
    if hand is None:
        return None
    if state.dice is None:
        raise TableError("the round is not over: no dice rolled yet")
    score = pay.hand_score(hand.cards, state.dice)
    ratio = pay.ante_ratio(score)
    lines = [PayLine(f"ANTE {hand.ante}", _word(ratio), ratio * hand.ante)] if hand.ante else []
    if hand.raised:
        lines.append(PayLine(f"RAISE {hand.raised}", _word(ratio), ratio * hand.raised))
    for spot, chips in hand.match:
        name, per_chip = pay.match_result(spot, state.dice, hand.cards, state.settings.ace_matches_one)
        lines.append(PayLine(f"MATCH {chips} on {spot}" + (f" ({name})" if per_chip > 0 else ""), _word(per_chip),
                             per_chip * chips))
    net = sum(line.chips for line in lines)
    return ("BUST" if score > pay.BEST_SCORE else _word(net)), tuple(lines)


def odds() -> Odds:
    from table.odds import dicey21

    return dicey21


GAME = Game(id=rules.GAME_ID, name="Dicey 21", engine=rules, pieces=(PieceKind.CARD, PieceKind.DIE), need=need,
            layout=layout, odds=odds, pay_tables=pay_tables, pay_lines=pay_lines)
