"""Blackjack Dice: d10 hands against a rotating banker."""

from __future__ import annotations

from table.game import Game, Layout, Odds
from table.pieces import Need, PieceKind
from table.rules import blackjack_dice as rules
from table.view import Hand, Item


def need(state: rules.State) -> Need:
    return Need(PieceKind.D10, rules.dice_due(state))


def layout(state: rules.State) -> Layout:
    def hand(h: rules.Hand, label: str) -> tuple[Hand, ...]:
        total = f"{rules.hand_total(h.dice)}{' ' + h.end.upper() if h.end else ''}" if h.dice else ""
        return (Hand(tuple(Item.d10(v) for v in h.dice), label, total),)

    seats = {player: hand(h, "hand") for player, h in zip(state.players, state.hands)}
    if state.table.banker:
        seats[state.table.banker] = hand(state.banker_hand, "banker")
    return seats, ()


def odds() -> Odds:
    from table.odds import blackjack_dice

    return blackjack_dice


GAME = Game(id=rules.GAME_ID, name="Blackjack Dice", engine=rules, pieces=(PieceKind.D10,), need=need,
            layout=layout, odds=odds)
