"""Odds for Blackjack with a changing bank, from the rules engine's own hand values,
bonuses and showdown.

The exact figures assume an infinite deck (every rank 1/13, ten-values 4/13): the
real single pack is only partly known to a player (hole cards are face down), and
the infinite deck turns each decision into a small cached recursion instead of a
search over the pack. The single-pack truth is measured by playing the engine
itself, so the report shows both and how far apart they are.

The dealer of this game may stand anywhere, so a player's edge only means something
against a stated dealer rule: here, draw to 16 and stand on every 17 or more.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from table.errors import TableError
from table.rules import CHANCE, TERMINAL
from table.rules import changing_bank as game
from table.rules.cards import RANKS, Card

DEALER_STANDS_ON = 17
SIM_ROUNDS = 10_000
SIM_SEED = 21
SIM_STAKE = 1

_CARDS = {rank: Card(rank) for rank in RANKS[:10]}  # "10" stands for any of 10 J Q K
_DRAWS = tuple((card, (4 if rank == "10" else 1) / 13) for rank, card in _CARDS.items())
_TENS = ("10", "J", "Q", "K")


def _key(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Hands that differ only in order or in which ten-value card they hold are equal."""
    ranks = sorted("10" if card.rank in _TENS else card.rank for card in cards)
    return tuple(_CARDS[rank] for rank in ranks)


HandValue = Callable[[tuple[Card, ...], Card], float]


def _by_signature(value: HandValue) -> HandValue:
    """Cache a hand's value under what it depends on: up to three cards, the ranks
    (the 7-7-7 and 8-7-6 bonuses); beyond that the count, the ace-low sum and
    whether an ace is held, since only the charlie bonus looks past three cards."""
    cache: dict[tuple[object, ...], float] = {}

    def cached(cards: tuple[Card, ...], *context: Card) -> float:
        signature: tuple[object, ...]
        if len(cards) <= 3:
            signature = tuple(sorted(card.rank for card in cards))
        else:
            signature = (len(cards), sum(card.points for card in cards), any(card.rank == "A" for card in cards))
        key = (signature, *context)
        if key not in cache:
            cache[key] = value(cards, *context)
        return cache[key]

    return cached


# ---------------------------------------------------------------- the dealer


@cache
def _dealer_finals(cards: tuple[Card, ...]) -> tuple[tuple[int, tuple[Card, ...], float], ...]:
    """(final total, one hand reaching it, probability) for a dealer who draws to 16."""
    if game.hand_total(cards) >= DEALER_STANDS_ON:
        return ((min(game.hand_total(cards), 22), cards, 1.0),)
    merged: dict[int, list[Any]] = {}
    for card, p in _DRAWS:
        for total, hand, q in _dealer_finals(_key(cards + (card,))):
            merged.setdefault(total, [hand, 0.0])[1] += p * q
    return tuple((total, hand, q) for total, (hand, q) in sorted(merged.items()))


@cache
def dealer_distribution(up: Card) -> tuple[tuple[int, tuple[Card, ...], float], ...]:
    """Dealer's final totals (22 = bust) given the up card, knowing the dealer has no
    natural (otherwise the round would already be over)."""
    merged: dict[int, list[Any]] = {}
    for hole, p in _DRAWS:
        if game.is_natural((hole, up)):
            continue
        for total, hand, q in _dealer_finals(_key((hole, up))):
            merged.setdefault(total, [hand, 0.0])[1] += p * q
    mass = sum(q for _, q in merged.values())
    return tuple((total, hand, q / mass) for total, (hand, q) in sorted(merged.items()))


def _dealer_natural_chance(up: Card) -> float:
    return sum(p for hole, p in _DRAWS if game.is_natural((hole, up)))


# ---------------------------------------------------------------- the player


@_by_signature
def _finished(cards: tuple[Card, ...], up: Card) -> float:
    """Value per unit stake of a hand that takes no more cards: a bust, a bonus paid
    at once, or the showdown against the dealer's final hand."""
    paid = game.paid_at_once(cards, 1)
    if paid is not None:
        return float(paid)
    return sum(q * game.showdown(cards, hand, 1) for _, hand, q in dealer_distribution(up))


@_by_signature
def _hit(cards: tuple[Card, ...], up: Card) -> float:
    return sum(p * _best_after_card(cards + (card,), up) for card, p in _DRAWS)


@_by_signature
def _best_after_card(cards: tuple[Card, ...], up: Card) -> float:
    """Play on after a hit: the engine stops a hand at 21 or more, otherwise the
    better of standing and hitting again."""
    if game.hand_total(cards) >= 21:
        return _finished(cards, up)
    return max(_finished(cards, up), _hit(cards, up))


def _double(cards: tuple[Card, ...], up: Card) -> float:
    return 2 * sum(p * _finished(cards + (card,), up) for card, p in _DRAWS)


@cache
def _split_hand(first: Card, up: Card, settings: game.Settings) -> float:
    """One hand of a split pair; re-splits are not counted (a small undervalue)."""
    total = 0.0
    for card, p in _DRAWS:
        cards = (first, card)
        if (first.rank == "A" and settings.split_aces_one_card) or game.hand_total(cards) >= 21:
            value = _finished(cards, up)
        else:
            value = max(_finished(cards, up), _hit(cards, up))
            if settings.double_after_split:
                value = max(value, _double(cards, up))
        total += p * value
    return total


def hand_values(hand: Iterable[Card], up_card: Card, settings: game.Settings,
                moves: Iterable[game.Decision]) -> dict[game.Decision, float]:
    """Expected chips per unit stake of each move for a player's hand."""
    cards, up = _key(hand), _key((up_card,))[0]
    by_move = {
        game.STAND: lambda: _finished(cards, up),
        game.HIT: lambda: _hit(cards, up),
        game.DOUBLE: lambda: _double(cards, up),
        game.SPLIT: lambda: 2 * _split_hand(cards[0], up, settings),
    }
    return {move: by_move[move]() for move in moves}


def _initial_moves(settings: game.Settings, cards: tuple[Card, ...]) -> tuple[game.Decision, ...]:
    """The moves on two fresh cards when chips and cards are plentiful."""
    moves = (game.STAND, game.HIT, game.DOUBLE)
    return moves + (game.SPLIT,) if game.is_pair(settings, cards) else moves


def player_edge(settings: game.Settings = game.Settings()) -> float:
    """Expected chips per unit bet for one player playing the best infinite-deck move
    (basic strategy) against the stated dealer rule."""
    two_cards = [(a, b) for a in RANKS for b in RANKS]
    player_natural = sum(game.is_natural((Card(a), Card(b))) for a, b in two_cards) / len(two_cards)
    against_natural = (-game.NATURAL_STANDOFF_PAYS * player_natural
                       - game.DEALER_NATURAL_COLLECTS * (1 - player_natural))
    edge = 0.0
    for up_rank in RANKS:
        up = Card(up_rank)
        natural = _dealer_natural_chance(up)
        play = 0.0
        for a, b in two_cards:
            cards = (Card(a), Card(b))
            if game.is_natural(cards):
                play += game.NATURAL_PAYS
            else:
                play += max(hand_values(cards, up, settings, _initial_moves(settings, cards)).values())
        edge += (natural * against_natural + (1 - natural) * play / len(two_cards)) / len(RANKS)
    return edge


# ---------------------------------------------------------------- the dealer's choice


def _hidden_card_hands(hand: game.Hand) -> list[tuple[tuple[Card, ...], float]]:
    """What a standing hand may be, as the dealer sees it: the first card of an unsplit
    hand is face down, and it cannot make a natural, a bust or a bonus (those hands
    were already paid)."""
    if hand.from_split:
        return [(hand.cards, 1.0)]
    options = []
    for card, p in _DRAWS:
        cards = (card,) + hand.cards[1:]
        paid_already = (len(cards) == 2 and game.is_natural(cards)) or game.paid_at_once(cards, 1) is not None
        if not paid_already:
            options.append((cards, p))
    mass = sum(p for _, p in options)
    return [(cards, p / mass) for cards, p in options]


def _dealer_values(state: game.State) -> dict[str, Any]:
    open_hands = [(hand.stake, _hidden_card_hands(hand)) for hand in state.hands if hand.result is None]

    @cache
    def stand(dealer: tuple[Card, ...]) -> float:
        return -sum(stake * p * game.showdown(cards, dealer, 1) for stake, options in open_hands for cards, p in options)

    @cache
    def hit(dealer: tuple[Card, ...]) -> float:
        return sum(p * best(_key(dealer + (card,))) for card, p in _DRAWS)

    def best(dealer: tuple[Card, ...]) -> float:
        return stand(dealer) if game.hand_total(dealer) >= 21 else max(stand(dealer), hit(dealer))

    dealer = _key(state.dealer)
    moves = {game.STAND: stand, game.HIT: hit}
    return {move: moves[move](dealer) for move in game.legal_actions(state)}


def action_values(state: game.State) -> dict[Any, float]:
    """Expected chips of each legal move for whoever must decide, over an infinite
    deck: a player knows own cards and the dealer's face-up (second) card; the dealer
    knows every face-up card. Assumes the bank can cover every payment."""
    actor = game.current_actor(state)
    if actor in (CHANCE, TERMINAL):
        raise TableError("no decision is pending: " + ("a card is due" if actor == CHANCE else "the round is over"))
    if state.phase == game.DEALER:
        return _dealer_values(state)
    hand = state.hands[state.turn]
    per_unit = hand_values(hand.cards, state.dealer[1], state.settings, game.legal_actions(state))
    return {move: hand.stake * value for move, value in per_unit.items()}


# ---------------------------------------------------------------- simulation


def _dealer_by_rule(state: game.State) -> game.Decision:
    return game.HIT if game.hand_total(state.dealer) < DEALER_STANDS_ON else game.STAND


def simulate(rounds: int = SIM_ROUNDS, seed: int = SIM_SEED) -> tuple[float, float]:
    """Mean result per unit bet and its 95% half-width, from the engine playing one
    player heads-up from a single pack carried round to round (burn card and
    reshuffles as at the table): the player plays the best infinite-deck move, the
    dealer the stated rule, and every card comes from the engine's chance outcomes."""
    rng = random.Random(seed)
    settings, seats = game.Settings(), ("dealer", "player")
    bankrolls = {"dealer": 10**9, "player": 10**9}
    bets = {"player": game.Bets(SIM_STAKE)}
    pack, results = None, []
    for _ in range(rounds):
        state = game.new_round(settings, seats, bankrolls, bets, banker="dealer", pack=pack)
        while not game.is_terminal(state):
            actor = game.current_actor(state)
            action: game.Draw | game.Decision
            if actor == CHANCE:
                cards = game.unseen_cards(state)
                action = game.Draw(cards[rng.randrange(len(cards))])
            elif actor == "dealer":
                action = _dealer_by_rule(state)
            else:
                values = action_values(state)
                action = max(values, key=lambda move: values[move])
            state = game.apply(state, action)
        results.append(game.settle(state)["player"] / SIM_STAKE)
        pack = game.next_pack(state)
    mean = sum(results) / rounds
    spread = math.sqrt(sum((r - mean) ** 2 for r in results) / (rounds - 1))
    return mean, 1.96 * spread / math.sqrt(rounds)


# ---------------------------------------------------------------- figures


def figures() -> dict[str, Any]:
    edge = player_edge()
    simulated, half_width = simulate()
    ups = [Card(rank) for rank in RANKS[:10]]
    return {
        "player_edge": edge,
        "interval95": [simulated - half_width, simulated + half_width],
        "simulated_edge": simulated,
        "simulated_rounds": SIM_ROUNDS,
        "simulation_seed": SIM_SEED,
        "dealer_rule": f"dealer draws to {DEALER_STANDS_ON - 1} and stands on every {DEALER_STANDS_ON} or more, soft or hard",
        "player_strategy": (
            "best move for an infinite deck (basic strategy) on own cards and the dealer's face-up card: "
            "stand, hit, double on any two cards, split pairs (re-splits not counted); default Settings"
        ),
        "method": (
            "player_edge: exact expectation over an infinite deck; interval95: the engine itself playing "
            f"{SIM_ROUNDS} heads-up rounds from one 52-card pack with burn card and reshuffles, seed {SIM_SEED}"
        ),
        "dealer_natural": sum(_dealer_natural_chance(up) for up in map(Card, RANKS)) / len(RANKS),
        "dealer_bust_by_up_card": {
            str(up): next((q for total, _, q in dealer_distribution(up) if total == 22), 0.0) for up in ups
        },
    }


def report(figures: dict[str, Any]) -> str:
    low, high = figures["interval95"]
    lines = [
        "Blackjack with a changing bank: one player against the bank",
        f"  dealer rule:     {figures['dealer_rule']}",
        f"  player strategy: {figures['player_strategy']}",
        f"  player edge (infinite deck, exact):   {figures['player_edge']:+.4f} per chip bet",
        f"  player edge (one pack, simulated):    {figures['simulated_edge']:+.4f}  "
        f"95% interval [{low:+.4f}, {high:+.4f}] over {figures['simulated_rounds']} rounds, seed {figures['simulation_seed']}",
        f"  dealer natural:  {figures['dealer_natural']:.4f} of rounds",
        "  dealer busts (no natural), by up card:",
    ]
    lines += [f"    {up:>3s}  {bust:.4f}" for up, bust in figures["dealer_bust_by_up_card"].items()]
    lines.append("Method: " + figures["method"])
    lines.append("Assumes the bank covers every payment; a short bank pays less, see docs/rules.md (changing bank).")
    return "\n".join(lines)
