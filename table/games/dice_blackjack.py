"""Dice Blackjack: two d6 against a dealer seat, who banks the others."""

from __future__ import annotations

from table.game import Game, Layout, Odds
from table.pieces import Need, PieceKind
from table.rules import dice_blackjack as rules
from table.view import Hand, Item


def need(state: rules.State) -> Need:
    return Need(PieceKind.DIE, rules.dice_due(state))


def layout(state: rules.State) -> Layout:
    seats: dict[str, tuple[Hand, ...]] = {}
    for duel in state.duels:
        for owner, hand in ((duel.player, duel.player_hand), (state.table.banker, duel.dealer_hand)):
            if owner is None:
                continue
            dice = tuple(Item.die(v) for roll in hand.rolls for v in roll)
            label = "vs " + duel.player if owner != duel.player else "hand"
            total = f"{hand.total}{' ' + hand.end.upper() if hand.end else ''}" if hand.rolls else ""
            seats[owner] = seats.get(owner, ()) + (Hand(dice, label, total),)
    return seats, ()


def odds() -> Odds:
    from table.odds import dice_blackjack

    return dice_blackjack


GAME = Game(id=rules.GAME_ID, name="Dice Blackjack", engine=rules, pieces=(PieceKind.DIE,), need=need,
            layout=layout, odds=odds)
