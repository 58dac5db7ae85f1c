"""Blackjack with a changing bank: home blackjack from one pack."""

from __future__ import annotations

from table.game import Game, Layout, Odds
from table.pieces import Need, PieceKind
from table.rules import changing_bank as rules
from table.rules.cards import Card
from table.view import Hand, Item


def need(state: rules.State) -> Need:
    return Need(PieceKind.CARD)


def layout(state: rules.State) -> Layout:
    """The dealer's hole card and each player's first card lie face down until the end."""
    over = rules.is_terminal(state)

    def hand(cards: tuple[Card, ...], label: str, hole: bool) -> Hand:
        items = tuple(Item.card(card.rank, card.suit) for card in cards)
        if hole and not over and items:
            items = (Item.back("card"),) + items[1:]
        total = str(rules.hand_total(cards)) if cards and (over or not hole) else ""
        return Hand(items, label, total)

    seats: dict[str, tuple[Hand, ...]] = {}
    for played in state.hands:
        label = "split" if played.from_split else "hand"
        seats[played.seat] = seats.get(played.seat, ()) + (hand(played.cards, label, not played.from_split),)
    if state.banker:
        seats[state.banker] = (hand(state.dealer, "dealer", True),)
    return seats, ()


def odds() -> Odds:
    from table.odds import changing_bank

    return changing_bank


GAME = Game(id=rules.GAME_ID, name="Blackjack, changing bank", engine=rules, pieces=(PieceKind.CARD,), need=need,
            layout=layout, odds=odds)
