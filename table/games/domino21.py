"""Domino 21: double-six tiles, some face down, against a rotating banker."""

from __future__ import annotations

from typing import Any

from table.game import Game, Layout, Odds
from table.pieces import Need, PieceKind
from table.rules import domino21 as rules
from table.view import Hand, Item


def need(state: rules.State) -> Need:
    return Need(PieceKind.TILE)


def layout(state: rules.State) -> Layout:
    """A tile is drawn face up exactly when the engine has it face up, and a total only
    when no face-down tile hides it: the end of a round reveals nothing by itself (a
    banker over 21 keeps his tiles hidden, and a player he pays need not show)."""
    seats: dict[str, tuple[Hand, ...]] = {}
    for hand in state.hands:
        tiles = tuple(Item.tile(h.tile.low, h.tile.high) if h.face_up else Item.back("tile") for h in hand.held)
        best = rules.best_total(h.tile for h in hand.held) if hand.held else None
        hidden = not all(h.face_up for h in hand.held)
        shown = "" if not hand.held or hidden else ("over 21" if best is None else str(best))
        seats[hand.owner] = (Hand(tiles, "banker" if hand.owner == state.banker else "tiles", shown),)
    return seats, ()


def public_label(state: rules.State, action: Any) -> str:
    """Choosing which face-down tile to turn up must not name the hidden tiles to the
    whole table, so it says which one by place."""
    if isinstance(action, rules.Expose):
        held = [h.tile for h in rules.current_hand(state).held]
        return f"turn up tile {held.index(action.tile) + 1}"
    return rules.label(action)


def odds() -> Odds:
    from table.odds import domino21

    return domino21


GAME = Game(id=rules.GAME_ID, name="Domino 21", engine=rules, pieces=(PieceKind.TILE,), need=need,
            layout=layout, odds=odds, public_label=public_label)
