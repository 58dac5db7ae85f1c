"""Exact Dicey 21 odds, priced through the rules engine itself.

Every figure walks real engine states: a one-seat round is opened with new_round,
cards come from the engine's shoe chances, decisions are the engine's legal actions,
and finished hands are priced with the engine's own score and pay functions over the
216 rolls. Nothing here restates a rule, so the odds cannot drift from what the table
pays. All sums are exact Fractions; floats appear only in the returned figures.

The deck model is the manual's own: the first card comes from a full six-deck shoe
and a hit card from the 311 cards left after it (this is what reproduces its HIT
row to the sixth decimal; an infinite deck misses it in the fourth).
Every "edge" here is the player's expected net chips per chip of the bet in
question (negative = the house's advantage), the sign the manual's table uses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from fractions import Fraction
from functools import cache
from typing import Any

from table.errors import TableError
from table.rules import CHANCE, TERMINAL
from table.rules import dicey21 as game
from table.rules.cards import Card
from table.rules.dicey21_pay import ante_ratio, hand_score, match_result

PLAYER = "player"
RAISE_MULTIPLES_SHOWN = (1, 2, 3, 4)
TEN_COUNT = ("10", "J", "Q", "K")  # the manual's "10" column holds every ten-count card


# ----- pricing finished hands ------------------------------------------------------


@cache
def _ante_expectation(cards: tuple[Card, ...]) -> Fraction:
    """Net chips per chip on ANTE and RAISE once the cards are final, over all rolls."""
    return sum((p * ante_ratio(hand_score(cards, roll.dice)) for roll, p in game.ROLL_CHANCES), Fraction(0))


@cache
def _match_expectation(spot: int, cards: tuple[Card, ...], ace_matches_one: bool) -> Fraction:
    return sum(
        (p * match_result(spot, roll.dice, cards, ace_matches_one)[1] for roll, p in game.ROLL_CHANCES),
        Fraction(0),
    )


@cache
def _ante_outcome_split(cards: tuple[Card, ...]) -> tuple[Fraction, Fraction, Fraction]:
    """Chances that the ANTE wins, pushes, loses with these final cards."""
    split = [Fraction(0)] * 3
    for roll, p in game.ROLL_CHANCES:
        ratio = ante_ratio(hand_score(cards, roll.dice))
        split[0 if ratio > 0 else 1 if ratio == 0 else 2] += p
    return split[0], split[1], split[2]


def _settled_value(state: game.State, hand: game.Hand) -> Fraction:
    """Expected net chips of all of a hand's bets once its owner has nothing left to decide."""
    value = _ante_expectation(hand.cards) * (hand.ante + (hand.raised or 0)) if hand.ante else Fraction(0)
    for spot, chips in hand.match:
        value += chips * _match_expectation(spot, hand.cards, state.settings.ace_matches_one)
    return value


# ----- walking the seat's decisions through the engine --------------------------------


def _hand(state: game.State, seat: str) -> game.Hand:
    return next(hand for hand in state.hands if hand.seat == seat)


def _card_due_to(state: game.State, seat: str) -> bool:
    hand = _hand(state, seat)
    return game.current_actor(state) == CHANCE and hand.choice == game.HIT and len(hand.cards) < game.MAX_CARDS


def _value(state: game.State, seat: str) -> Fraction:
    """Expected net chips for `seat` from here on, deciding every choice optimally."""
    if game.current_actor(state) == seat:
        return max(_exact_action_values(state).values())
    if _card_due_to(state, seat):
        return sum((p * _value(game.apply(state, deal), seat) for deal, p in game.chance_outcomes(state)), Fraction(0))
    return _settled_value(state, _hand(state, seat))


def _exact_action_values(state: game.State) -> dict[game.Action, Fraction]:
    seat = game.current_actor(state)
    if seat in (CHANCE, TERMINAL):
        raise TableError(f"no player decision is pending ({seat})")
    return {action: _value(game.apply(state, action), seat) for action in game.legal_actions(state)}


def action_values(state: game.State) -> dict[Any, float]:
    """Each legal action of the seat to act -> expected net chips of all its bets (ANTE,
    RAISE and MATCH) with optimal play afterwards, the next cards drawn from this
    state's own shoe (so cards already dealt at the table are taken into account)."""
    return {action: float(value) for action, value in _exact_action_values(state).items()}


def _best_action(state: game.State) -> game.Action:
    """The first legal action of greatest value: on ties, stand and no raise come first."""
    values = _exact_action_values(state)
    return max(values, key=lambda action: values[action])


def _final_hands(state: game.State, seat: str,
                 choose: Callable[[game.State], game.Action]) -> list[tuple[Fraction, game.Hand]]:
    """Every way the seat's hand can end up under a strategy, with its exact chance."""
    if game.current_actor(state) == seat:
        return _final_hands(game.apply(state, choose(state)), seat, choose)
    if _card_due_to(state, seat):
        return [
            (p * q, hand)
            for deal, p in game.chance_outcomes(state)
            for q, hand in _final_hands(game.apply(state, deal), seat, choose)
        ]
    return [(Fraction(1), _hand(state, seat))]


def _opened_round(settings: game.Settings, match: tuple[tuple[int, int], ...] = ()) -> game.State:
    """One seat, a 1-chip ANTE, a bankroll that covers any raise, a fresh shoe."""
    most = 1 + max(settings.ace_raise_multiple, settings.seven_raise_multiple) + sum(c for _, c in match)
    return game.new_round(settings, (PLAYER,), {PLAYER: most}, {PLAYER: game.Bets(1, match)})


def _first_cards(settings: game.Settings) -> list[tuple[Card, Fraction]]:
    return [(_card(deal), p) for deal, p in game.chance_outcomes(_opened_round(settings))]


def _card(deal: game.Action) -> Card:
    if not isinstance(deal, game.Deal):
        raise TableError(f"a card was due, not {deal!r}")
    return deal.card


def _dealt(settings: game.Settings, card: Card, match: tuple[tuple[int, int], ...] = ()) -> game.State:
    """The one-seat round with its first card on the table."""
    return game.apply(_opened_round(settings, match), game.Deal(card))


# ----- the figures --------------------------------------------------------------------------


def _column(rank: str) -> str:
    return "10" if rank in TEN_COUNT else rank


def _first_card_table(settings: game.Settings) -> tuple[dict[str, dict[str, float]], Fraction]:
    """The manual's EDGE COMPUTATION: per first card STAND, HIT, STAND & RAISE, MAX.

    Its HIT row is hitting without raising afterwards (the basic strategy never raises
    a two-card hand), so HIT is priced at a table where a two-card hand cannot raise."""
    no_raise_after_hit = replace(settings, raise_after_hit=False)
    sums: dict[str, dict[str, Fraction]] = {}
    edge = Fraction(0)
    for card, p in _first_cards(settings):
        dealt = _dealt(settings, card)
        stood = game.apply(dealt, game.Stand())
        declined = game.apply(stood, game.Raise(0)) if game.current_actor(stood) == PLAYER else stood
        no_raise_hit = game.apply(_dealt(no_raise_after_hit, card), game.Hit())
        row = {
            "stand": _value(declined, PLAYER),
            "hit": _value(no_raise_hit, PLAYER),
            "stand_raise": _value(stood, PLAYER),
            "hit_then_best_raise": _value(game.apply(dealt, game.Hit()), PLAYER),
        }
        row["max"] = max(row["stand"], row["hit"], row["stand_raise"])
        edge += p * row["max"]
        column = sums.setdefault(_column(card.rank), {"p": Fraction(0)})
        column["p"] += p
        for key, value in row.items():
            column[key] = column.get(key, Fraction(0)) + p * value
    table = {
        column: {key: float(total if key == "p" else total / entries["p"]) for key, total in entries.items()}
        for column, entries in sums.items()
    }
    return table, edge


def _basic_strategy_hands(settings: game.Settings) -> list[tuple[Fraction, game.Hand]]:
    """Final hands of a lone ANTE player who always takes the best action."""
    return [
        (p * q, hand)
        for card, p in _first_cards(settings)
        for q, hand in _final_hands(_dealt(settings, card), PLAYER, _best_action)
    ]


def _strategy_figures(settings: game.Settings, hands: list[tuple[Fraction, game.Hand]]) -> dict[str, Any]:
    """Outcome split and raise frequencies when the player follows the best strategy."""
    split = [sum(p * _ante_outcome_split(hand.cards)[i] for p, hand in hands) for i in range(3)]
    may_raise = [(p, hand) for p, hand in hands if game.raise_multiple(settings, hand.cards)]
    return {
        "outcomes": dict(zip(("win", "push", "lose"), map(float, split))),
        "raise_chance": float(sum(p for p, hand in hands if hand.raised)),
        "may_raise_chance": float(sum(p for p, _ in may_raise)),
        "may_raise_first_card_ace": float(sum(p for p, h in may_raise if h.cards[0].rank == "A")),
        "may_raise_second_card_ace": float(
            sum(p for p, h in may_raise if h.cards[0].rank != "A" and any(c.rank == "A" for c in h.cards))
        ),
        "may_raise_seven_count": float(sum(p for p, h in may_raise if sum(c.points for c in h.cards) == 7)),
        "hit_chance": float(_hit_chance(hands)),
    }


def _hit_chance(hands: list[tuple[Fraction, game.Hand]]) -> Fraction:
    return sum((p for p, hand in hands if hand.choice == game.HIT), Fraction(0))


def _unlinked_hands(settings: game.Settings, hit_chance: Fraction) -> list[tuple[Fraction, tuple[Card, ...]]]:
    """The manual's MATCH model: one or two cards as often as basic strategy holds them,
    but the cards drawn as if the hit did not depend on the first card."""
    hands: list[tuple[Fraction, tuple[Card, ...]]] = []
    for card, p in _first_cards(settings):
        hands.append((p * (1 - hit_chance), (card,)))
        second_cards = game.chance_outcomes(game.apply(_dealt(settings, card), game.Hit()))
        hands += [(p * hit_chance * q, (card, _card(deal))) for deal, q in second_cards]
    return hands


def _spot_average(settings: game.Settings, hands: list[tuple[Fraction, tuple[Card, ...]]]) -> dict[str, Fraction]:
    """MATCH expectation per spot over weighted final card tuples."""
    return {
        str(spot): sum((p * _match_expectation(spot, cards, settings.ace_matches_one) for p, cards in hands), Fraction(0))
        for spot in game.SPOTS
    }


def _match_figures(settings: game.Settings, hands: list[tuple[Fraction, game.Hand]]) -> dict[str, Any]:
    """MATCH with the player's cards (exact, and the manual's model), alone, any match."""
    exact = _spot_average(settings, [(p, hand.cards) for p, hand in hands])
    manual_model = _spot_average(settings, _unlinked_hands(settings, _hit_chance(hands)))
    alone = _spot_average(settings, [(Fraction(1), ())])
    one_spot = 1  # every spot has the same chance of showing on at least one die
    any_match = sum(
        (p for roll, p in game.ROLL_CHANCES if match_result(one_spot, roll.dice, (), False)[1] > 0), Fraction(0)
    )
    return {
        "match_edge_six_decks": float(_mean(manual_model.values())),
        "match_edge_exact": float(_mean(exact.values())),
        "match_edge_exact_by_spot": {spot: float(value) for spot, value in exact.items()},
        "match_edge_alone": float(_mean(alone.values())),
        "match_any_chance": float(any_match),
    }


def _mean(values: Iterable[Fraction]) -> Fraction:
    values = list(values)
    return sum(values, Fraction(0)) / len(values)


def figures(settings: game.Settings | None = None) -> dict[str, Any]:
    settings = settings or game.Settings()
    table, edge = _first_card_table(settings)
    hands = _basic_strategy_hands(settings)
    result = {
        "first_card": table,
        "edge": float(edge),
        "edge_by_max_raise": {
            str(k): float(_first_card_table(replace(settings, ace_raise_multiple=k))[1]) for k in RAISE_MULTIPLES_SHOWN
        },
        **_strategy_figures(settings, hands),
        **_match_figures(settings, hands),
        "decks": settings.decks,
        "deck_model": f"first card from a full {settings.decks}-deck shoe, hit card from the rest of it",
    }
    return result


def report(figures: dict[str, Any]) -> str:
    columns = list(figures["first_card"])
    rows = [("STAND EV", "stand"), ("HIT EV", "hit"), ("STAND & RAISE", "stand_raise"), ("MAX EV", "max"), ("p", "p")]
    lines = ["DICEY 21 - ANTE & RAISE, expected net chips per chip of ANTE", f"({figures['deck_model']}; dice exact)"]
    lines.append(f"{'First card':14s}" + "".join(f"{c:>10s}" for c in columns))
    for title, key in rows:
        lines.append(f"{title:14s}" + "".join(f"{figures['first_card'][c][key]:10.6f}" for c in columns))
    lines.append(f"EDGE (player, per ANTE): {figures['edge']:.6f}")
    lines.append(
        "House edge by the most a first-card ace may raise: "
        + ", ".join(f"{k}x {-v:.2%}" for k, v in figures["edge_by_max_raise"].items())
    )
    out = figures["outcomes"]
    lines.append(f"Best play wins {out['win']:.1%}, pushes {out['push']:.1%}, loses {out['lose']:.1%} of hands;")
    lines.append(
        f"it raises {figures['raise_chance']:.1%} of the time and may raise {figures['may_raise_chance']:.1%} "
        f"(first-card ace {figures['may_raise_first_card_ace']:.1%}, second-card ace "
        f"{figures['may_raise_second_card_ace']:.1%}, 7-count {figures['may_raise_seven_count']:.1%})."
    )
    lines.append(
        f"MATCH house edge with the player's cards ({figures['decks']} decks, best play), the manual's model "
        f"(cards as likely to match whether or not the hand was hit): {-figures['match_edge_six_decks']:.2%}"
    )
    lines.append(
        f"  exact, where a hit hand's first card is always 2..5: {-figures['match_edge_exact']:.2%} averaged over "
        "the spots (" + ", ".join(f"{s}: {-v:.2%}" for s, v in figures["match_edge_exact_by_spot"].items()) + ")"
    )
    lines.append(
        f"MATCH alone (no cards): house edge {-figures['match_edge_alone']:.2%}; "
        f"at least one match {figures['match_any_chance']:.1%} of the time."
    )
    return "\n".join(lines)
