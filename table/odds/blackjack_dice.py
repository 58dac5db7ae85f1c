"""Exact value of Blackjack Dice for a player, by dynamic programming over totals.

Dice do not run out, so a hand is fully described by its total with 1s as one and
whether it holds a 1 (which can be eleven); every draw has the same odds. The banker
plays last: under the "choose" house rule the banker, seeing the player's total,
decides whether a 1 making 17 to 21 stays eleven (stand) or becomes one (draw on), so
the banker's play is solved per player total. Every rule is the engine's own.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from table.errors import TableError
from table.rules import CHANCE, TERMINAL
from table.rules import blackjack_dice as game
from table.rules.dice_hands import Hit, Stand, chance_rolls

FIRST = tuple((roll.dice, p) for roll, p in chance_rolls(2, game.SIDES))
DRAW = tuple((roll.dice[0], p) for roll, p in chance_rolls(1, game.SIDES))
ASSUMPTIONS = (
    "Two fair d10 (0 is ten) to start, one per hit; heads-up, stake 1; Blackjack pays {pays}:1; "
    "the banker sees the player's total (matters only when the banker chooses the value of a 1)."
)

Standing = tuple[tuple[int, int], ...]  # (player total, stake) of each player waiting for the banker


def _draw(hard: int, has_one: bool, face: int) -> tuple[int, bool]:
    return hard + game.points(face), has_one or face == 1


def _players_value(standing: Standing, banker_total: int) -> Fraction:
    return Fraction(sum(stake * game.compare(total, banker_total) for total, stake in standing))


@cache
def banker_on(hard: int, has_one: bool, standing: Standing, banker_one: str) -> Fraction:
    """The standing players' value (chips) with the banker on this hand; a banker with a
    choice makes it as small as possible."""
    if hard > game.TARGET:
        return _players_value(standing, hard)
    stand = _players_value(standing, game.best_total(hard, has_one))
    play = game.banker_play(hard, has_one, banker_one)
    if play == "stand":
        return stand
    hit = banker_draws(hard, has_one, standing, banker_one)
    return hit if play == "hit" else min(stand, hit)


def banker_draws(hard: int, has_one: bool, standing: Standing, banker_one: str) -> Fraction:
    return sum((p * banker_on(*_draw(hard, has_one, face), standing, banker_one) for face, p in DRAW), Fraction(0))


@cache
def stand_value(total: int, banker_one: str) -> Fraction:
    """A player's value standing on `total`, the banker's whole hand still to come."""
    return sum((p * banker_on(*game.count(dice), ((total, 1),), banker_one) for dice, p in FIRST), Fraction(0))


@cache
def player_on(hard: int, has_one: bool, banker_one: str) -> Fraction:
    """A player's value holding this hand and playing on optimally."""
    if hard > game.TARGET:
        return Fraction(-1)
    total = game.best_total(hard, has_one)
    stand = stand_value(total, banker_one)
    return stand if total == game.TARGET else max(stand, hit_value(hard, has_one, banker_one))


def hit_value(hard: int, has_one: bool, banker_one: str) -> Fraction:
    return sum((p * player_on(*_draw(hard, has_one, face), banker_one) for face, p in DRAW), Fraction(0))


def player_edge(settings: game.Settings = game.Settings()) -> Fraction:
    value = Fraction(0)
    for dice, p in FIRST:
        value += p * (settings.blackjack_pays if game.is_blackjack(dice) else player_on(*game.count(dice), settings.banker_one))
    return value


def strategy(banker_one: str) -> dict[str, Any]:
    """Hit or stand per hard total (no 1, or a 1 that must be one) and per soft total
    (a 1 counted as eleven); a 1 is counted as eleven whenever that stays at 21 or under."""

    def move(hard: int, has_one: bool) -> str:
        return "hit" if hit_value(hard, has_one, banker_one) > stand_value(game.best_total(hard, has_one), banker_one) else "stand"

    return {
        "hard": {str(t): move(t, False) for t in range(4, game.TARGET)},
        "soft": {str(t + 10): move(t, True) for t in range(2, 11)},
        "one": "eleven whenever the total stays at 21 or under",
    }


def banker_strategy() -> dict[str, Any]:
    """Under the "choose" rule: per player total, what the banker does with a 1 that
    makes 17 to 21 (stand = keep it eleven, hit = count it as one and draw)."""
    table = {}
    for player_total in range(4, game.TARGET + 1):
        standing = ((player_total, 1),)
        row = {}
        for hard in range(7, 12):
            if game.banker_play(hard, True, game.BANKER_CHOOSES) == "either":
                stand = _players_value(standing, game.best_total(hard, True))
                hit = banker_draws(hard, True, standing, game.BANKER_CHOOSES)
                row[f"soft {hard + 10}"] = "stand" if stand <= hit else "hit"
        table[str(player_total)] = row
    return table


def figures(settings: game.Settings = game.Settings()) -> dict[str, Any]:
    edges = {rule: player_edge(game.Settings(banker_one=rule, blackjack_pays=settings.blackjack_pays)) for rule in game.BANKER_ONE_RULES}
    blackjack = sum((p for dice, p in FIRST if game.is_blackjack(dice)), Fraction(0))
    return {
        "player_edge": float(edges[settings.banker_one]),
        "player_edge_exact": str(edges[settings.banker_one]),
        "banker_one": settings.banker_one,
        "player_edge_by_banker_one": {rule: float(edge) for rule, edge in edges.items()},
        "player_edge_by_banker_one_exact": {rule: str(edge) for rule, edge in edges.items()},
        "blackjack_probability": float(blackjack),
        "stand_value": {
            rule: {str(t): float(stand_value(t, rule)) for t in range(4, game.TARGET + 1)} for rule in game.BANKER_ONE_RULES
        },
        "strategy": strategy(settings.banker_one),
        "strategy_by_banker_one": {rule: strategy(rule) for rule in game.BANKER_ONE_RULES},
        "banker_strategy": banker_strategy(),
        "assumptions": ASSUMPTIONS.format(pays=settings.blackjack_pays),
    }


def report(figures: dict[str, Any]) -> str:
    lines = ["Blackjack Dice: exact values for the player (stake 1), optimal play on both sides"]
    for rule, edge in figures["player_edge_by_banker_one"].items():
        marker = "  (this table)" if rule == figures["banker_one"] else ""
        lines.append(f"  banker's 1 rule {rule!r:9s} player edge {edge:+.5f}{marker}")
    lines.append(f"  Blackjack (0 and 1 on the first two dice): {figures['blackjack_probability']:.3f}")
    for rule, table in figures["strategy_by_banker_one"].items():
        lines.append(f"Player strategy, banker's 1 rule {rule!r} (H hit, S stand):")
        lines.append("  hard " + " ".join(f"{t}:{a[0].upper()}" for t, a in table["hard"].items()))
        lines.append("  soft " + " ".join(f"{t}:{a[0].upper()}" for t, a in table["soft"].items()))
    lines.append("  a 1 is counted as eleven whenever that keeps the total at 21 or under")
    lines.append("Banker choosing (rule 'choose'): against a player standing on ...")
    for total, row in figures["banker_strategy"].items():
        draws = [soft for soft, move in row.items() if move == "hit"]
        if draws:
            lines.append(f"  {total:>2}: count the 1 as one and draw on {', '.join(draws)}")
    lines.append("  any other total: keep the 1 as eleven on every soft 17 to 21")
    lines.append("Assumptions: " + figures["assumptions"])
    return "\n".join(lines)


def action_values(state: game.State) -> dict[Any, float]:
    """Expected chips of each legal action for whoever decides now, from their side.
    A player's values assume the banker answers that player alone (exact heads-up);
    the banker's values count every player who stood."""
    actor = game.current_actor(state)
    if actor in (CHANCE, TERMINAL):
        raise TableError(f"no decision is pending ({actor})")
    rule = state.settings.banker_one
    if state.turn == len(state.players):
        standing = tuple(
            (game.hand_total(hand.dice), state.table.stake(seat))
            for seat, hand in zip(state.players, state.hands)
            if hand.end == "stand"
        )
        hard, has_one = game.count(state.banker_hand.dice)
        stand = _players_value(standing, game.best_total(hard, has_one))
        return {Stand(): float(-stand), Hit(): float(-banker_draws(hard, has_one, standing, rule))}
    seat, hand = state.players[state.turn], state.hands[state.turn]
    hard, has_one = game.count(hand.dice)
    stake = state.table.stake(seat)
    return {
        Hit(): float(stake * hit_value(hard, has_one, rule)),
        Stand(): float(stake * stand_value(game.best_total(hard, has_one), rule)),
    }
