"""Dicey 21 scoring and the two pay tables, as plain functions of cards and dice.

Kept apart from the round flow so the odds (table/odds/dicey21.py) price hands with
exactly the functions that settle real rounds; a second copy of the pay table there
could silently drift from the one the table pays out.
"""

from __future__ import annotations

from collections.abc import Iterable

from table.rules.cards import Card

ACE_BONUS = 10  # one ace may count 11 instead of 1, as in blackjack
BEST_SCORE = 21

# ANTE & RAISE: score -> net chips per chip staked (negative: the stake is lost).
PUSH_SCORES = range(16, 19)
EVEN_MONEY_SCORES = range(19, 21)
TOP_SCORE_PAYS = 2
LOSS = -1

# MATCH: how many dice show the spot, and what the cards add to a triple.
DICE_ONLY_PAYS = {1: ("single", 1), 2: ("double", 2), 3: ("triple", 6)}
ROYAL = ("royal", 20)
QUAD = ("quad", 40)
HI_FIVE = ("hi-five", 500)
NO_MATCH = ("no match", LOSS)
ROYAL_RANKS = ("K", "Q")


def hard_count(cards: Iterable[Card]) -> int:
    """The count with every ace as 1: what the 7-count raise looks at."""
    return sum(card.points for card in cards)


def hand_score(cards: Iterable[Card], dice: Iterable[int]) -> int:
    """Cards plus dice, one ace counted 11 whenever that keeps the score at 21 or less.

    Counting the ace high exactly when it does not bust always gives the better pay:
    a high-ace score of 16..21 at least pushes, while the same hand counted low is
    then 6..11 and loses."""
    cards = tuple(cards)
    score = hard_count(cards) + sum(dice)
    if any(card.rank == "A" for card in cards) and score + ACE_BONUS <= BEST_SCORE:
        score += ACE_BONUS
    return score


def ante_ratio(score: int) -> int:
    """Net chips per chip on the ANTE (and the RAISE) for a final score."""
    if score in PUSH_SCORES:
        return 0
    if score in EVEN_MONEY_SCORES:
        return 1
    if score == BEST_SCORE:
        return TOP_SCORE_PAYS
    return LOSS


def card_matches_spot(card: Card, spot: int, ace_matches_one: bool) -> bool:
    """Ranks 2..6 match the spot with that many pips; the ace matches 1 by setting."""
    if card.rank == "A":
        return ace_matches_one and spot == 1
    return card.rank == str(spot)


def match_result(spot: int, dice: Iterable[int], cards: Iterable[Card], ace_matches_one: bool) -> tuple[str, int]:
    """(name, net chips per chip) of one MATCH wager; only the highest payout counts."""
    hits = sum(1 for die in dice if die == spot)
    if hits == 0:
        return NO_MATCH
    if hits < 3:
        return DICE_ONLY_PAYS[hits]
    cards = tuple(cards)
    matching = sum(1 for card in cards if card_matches_spot(card, spot, ace_matches_one))
    if matching >= 2:
        return HI_FIVE
    if matching == 1:
        return QUAD
    if any(card.rank in ROYAL_RANKS for card in cards):
        return ROYAL
    return DICE_ONLY_PAYS[3]
