"""Exact value of Dice Blackjack for the player, by dynamic programming over totals.

Every roll adds at least one point, so both hands are short walks upward through the
totals 4..21 and the whole game solves exactly in Fractions. The dealer moves last and
sees the player's total, so the dealer's choices (which die to count, whether to take a
tie) are solved per player total: the player's stand value is what is left after the
dealer's best reply. A simple dealer (highest allowed count, always takes a tie) is
solved too, to show what those choices are worth. Every rule comes from the engine.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from table.errors import TableError
from table.rules import CHANCE, TERMINAL
from table.rules import dice_blackjack as game
from table.rules.dice_hands import Hit, Stand, chance_rolls

ROLLS = tuple((roll.dice, p) for roll, p in chance_rolls(2, game.SIDES))
LOWEST = 4  # 1-1 doubled
ASSUMPTIONS = (
    "Two fair d6; player and dealer heads-up (each extra player is a separate duel with the same value). "
    "Player stakes 1; Blackjack pays {pays}; the dealer sees the player's total before choosing."
)


def _key(dice: tuple[int, ...]) -> str:
    return "-".join(map(str, dice))


@cache
def dealer_rolls_on(total: int, player_total: int, best: bool, settings: game.Settings) -> Fraction:
    """Player's value while the dealer, on `total`, must roll again."""
    value = Fraction(0)
    for dice, p in ROLLS:
        value += p * dealer_counts(total, dice, player_total, best, settings)[1]
    return value


def dealer_counts(total: int, dice: tuple[int, ...], player_total: int, best: bool, settings: game.Settings) -> tuple[tuple[int, ...] | None, Fraction]:
    """The dealer's count of a roll and the player's value after it; a best dealer
    minimises the player's value, a simple one counts the highest total allowed."""
    options = game.dealer_options(total, dice, player_total)
    if not options:
        return None, Fraction(1)
    scored = [(used, dealer_on(new, player_total, best, settings)) for used, new in options]
    if best:
        return min(scored, key=lambda item: item[1])
    return scored[0]  # options come highest total first


@cache
def dealer_on(total: int, player_total: int, best: bool, settings: game.Settings) -> Fraction:
    """Player's value once the dealer's count is `total` (standing where forced)."""
    if total > game.TARGET:
        return Fraction(1)
    stand = Fraction(game.compare(player_total, total))
    if game.dealer_must_stand(total):
        return stand
    hit = dealer_rolls_on(total, player_total, best, settings)
    if game.dealer_may_stand(total, player_total):
        return min(stand, hit) if best else stand
    return hit


@cache
def stand_value(player_total: int, best: bool, settings: game.Settings) -> Fraction:
    """Player's value standing on `player_total`, the dealer still to play."""
    value = Fraction(0)
    for dice, p in ROLLS:
        value += p * dealer_on(game.first_count(dice), player_total, best, settings)
    return value


def hit_value(total: int, first: tuple[int, ...] | None, best: bool, settings: game.Settings) -> Fraction:
    """Player's value hitting `total`; `first` is the first roll while a second pair
    would still be Blackjack (None afterwards)."""
    value = Fraction(0)
    for dice, p in ROLLS:
        if first is not None and game.is_blackjack(first, dice, settings):
            value += p * settings.blackjack_pays
            continue
        options = game.hit_options(total, dice)
        value += p * (max(player_on(new, best, settings) for _, new in options) if options else -1)
    return value


@cache
def player_on(total: int, best: bool, settings: game.Settings) -> Fraction:
    """Player's value on `total` after counting a roll, playing on optimally."""
    stand = stand_value(total, best, settings)
    return stand if total >= game.TARGET else max(stand, hit_value(total, None, best, settings))


def after_first_roll(first: tuple[int, ...], best: bool, settings: game.Settings) -> Fraction:
    total = game.first_count(first)
    if total > game.TARGET:
        return Fraction(-1)
    return max(stand_value(total, best, settings), hit_value(total, first, best, settings))


def player_edge(best: bool = True, settings: game.Settings = game.Settings()) -> Fraction:
    return sum((p * after_first_roll(dice, best, settings) for dice, p in ROLLS), Fraction(0))


def _hits(total: int, first: tuple[int, ...] | None, settings: game.Settings) -> bool:
    return hit_value(total, first, True, settings) > stand_value(total, True, settings)


def strategy(settings: game.Settings) -> dict[str, Any]:
    """The optimal player's decisions: hit or stand per total, on a first-roll pair,
    and which dice to count of each roll where there is a real choice."""
    totals = range(LOWEST, game.TARGET)
    hit_or_stand = {str(t): ("hit" if _hits(t, None, settings) else "stand") for t in totals}
    pairs = {_key((d, d)): ("hit" if _hits(game.first_count((d, d)), (d, d), settings) else "stand") for d in range(1, 6)}
    counting = {}
    for total in totals:
        row = {}
        for dice, _ in ROLLS:
            options = game.hit_options(total, dice)
            if len(options) > 1:
                used, _ = max(options, key=lambda o: player_on(o[1], True, settings))
                row[_key(dice)] = "both" if len(used) == 2 else str(used[0])
        counting[str(total)] = row
    return {"hit_or_stand": hit_or_stand, "first_roll_pair": pairs, "count": counting}


def dealer_strategy(settings: game.Settings) -> dict[str, Any]:
    """The dealer's best choices where the rules leave one, per player total: which
    dice to count ("both", a die, or "stand"/"hit" for a tie below 17)."""
    table = {}
    for player_total in range(LOWEST, game.TARGET + 1):
        rows = {}
        for total in range(LOWEST, game.DEALER_STANDS):
            row = {}
            if total == player_total:
                stand, hit = Fraction(0), dealer_rolls_on(total, player_total, True, settings)
                row["tie"] = "stand" if stand <= hit else "hit"
            for dice, _ in ROLLS:
                if len(game.dealer_options(total, dice, player_total)) > 1:
                    used, _ = dealer_counts(total, dice, player_total, True, settings)
                    if used is not None:  # there are options, so the dealer counts some
                        row[_key(dice)] = "both" if len(used) == 2 else str(used[0])
            if row:
                rows[str(total)] = row
        table[str(player_total)] = rows
    return table


def figures(settings: game.Settings = game.Settings()) -> dict[str, Any]:
    best = player_edge(True, settings)
    simple = player_edge(False, settings)
    pair_then_pair = sum((p for dice, p in ROLLS if dice[0] == dice[1] and game.first_count(dice) <= game.TARGET), Fraction(0))
    return {
        "player_edge": float(best),
        "player_edge_exact": str(best),
        "player_edge_vs_simple_dealer": float(simple),
        "player_edge_vs_simple_dealer_exact": str(simple),
        "dealer_choices_worth": float(simple - best),
        "stand_value": {str(t): float(stand_value(t, True, settings)) for t in range(LOWEST, game.TARGET + 1)},
        "blackjack_chance_when_hitting_pairs": float(pair_then_pair * Fraction(1, 6)),
        "strategy": strategy(settings),
        "dealer_strategy": dealer_strategy(settings),
        "assumptions": ASSUMPTIONS.format(pays=f"{settings.blackjack_pays}:1"),
    }


def report(figures: dict[str, Any]) -> str:
    lines = [
        "Dice Blackjack: exact values for the player (stake 1), optimal play on both sides",
        f"  player edge vs best dealer:    {figures['player_edge']:+.5f}  ({figures['player_edge_exact']})",
        f"  player edge vs simple dealer:  {figures['player_edge_vs_simple_dealer']:+.5f}"
        "  (dealer counts the highest allowed total and takes every tie)",
        f"  the dealer's choices are worth {figures['dealer_choices_worth']:.5f} per unit to the dealer",
        "",
        "Player strategy: hit or stand after counting a roll",
        "  " + "  ".join(f"{t}:{a[0].upper()}" for t, a in figures["strategy"]["hit_or_stand"].items()),
        "  first-roll pair (hitting keeps the Blackjack chance): "
        + ", ".join(f"{pair} {action}" for pair, action in figures["strategy"]["first_roll_pair"].items()),
        "Stand value by total (vs best dealer):",
        "  " + "  ".join(f"{t}:{v:+.3f}" for t, v in figures["stand_value"].items()),
        "Which dice to count (B both, a digit: that die alone, . no choice), total by roll:",
        *_count_grid(figures["strategy"]["count"]),
        "Dealer's best choices: see --json dealer_strategy (player total -> dealer total -> roll)",
        "Assumptions: " + figures["assumptions"],
    ]
    return "\n".join(lines)


def _count_grid(counting: dict[str, dict[str, str]]) -> list[str]:
    rolls = [_key(dice) for dice, _ in ROLLS]
    rows = ["      " + " ".join(rolls)]
    for total, row in counting.items():
        cells = [row.get(roll, ".").replace("both", "B").center(3) for roll in rolls]
        rows.append(f"  {total:>2}  " + " ".join(cells))
    return rows


def action_values(state: game.State) -> dict[Any, float]:
    """Expected chips of each legal action for whoever must decide now, from their side."""
    actor = game.current_actor(state)
    if actor in (CHANCE, TERMINAL):
        raise TableError(f"no decision is pending ({actor})")
    settings = state.settings
    duel = state.duels[state.turn]
    hand, stake = duel.player_hand, duel.stake
    if actor == state.table.banker and hand.end:
        player_total, total = hand.total, duel.dealer_hand.total
        values: dict[object, Fraction]
        if state.step == "use":
            values = {game.Use(used): dealer_on(new, player_total, True, settings) for used, new in game.dealer_options(total, state.pending, player_total)}
        else:
            values = {Stand(): Fraction(game.compare(player_total, total)), Hit(): dealer_rolls_on(total, player_total, True, settings)}
        return {action: float(-stake * value) for action, value in values.items()}
    values_: dict[object, Fraction]
    if state.step == "use":
        values_ = {game.Use(used): player_on(new, True, settings) for used, new in game.hit_options(hand.total, state.pending)}
    else:
        first = hand.rolls[0] if len(hand.rolls) == 1 else None
        values_ = {Hit(): hit_value(hand.total, first, True, settings), Stand(): stand_value(hand.total, True, settings)}
    return {action: float(stake * value) for action, value in values_.items()}
