"""Dicey 21: blackjack counts made of one or two cards plus three shared dice.

A round, as the training manual's dealing procedure runs it: every seat stakes an
ANTE (and up to three MATCH wagers on die spots); each seat gets one face-up card,
left to right; then each seat in turn stands or hits (one second and final card) and,
holding an ace or a 7-count, may RAISE up to a multiple of the ante; finally the three
community dice are rolled once for everybody and every bet is settled against the
house. Scoring and the pay tables live in dicey21_pay, the shoe in dicey21_shoe.

Cards are chance outcomes drawn from the shoe's remaining composition, so exact odds
follow the real shoe. The three dice are one chance action, Roll((a, b, c)), because
the camera reads the whole roll at once; its outcomes are the 216 ordered rolls, each
1/216, so any order the camera reports is itself a legal outcome.
Every judgement call the manual leaves open is a named field of Settings and is
explained in docs/rules.md (Dicey 21).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from fractions import Fraction
from itertools import product
from typing import Any

from table.errors import BadBet, BadValue, IllegalAction, TableError
from table.pieces import Piece, dice_values, the_one
from table.rules import CHANCE, HOUSE, TERMINAL
from table.rules.cards import Card, parse_card
from table.rules.dice import check_die, parse_dice
from table.rules.dicey21_pay import (
    ACE_BONUS,
    BEST_SCORE,
    PUSH_SCORES,
    TOP_SCORE_PAYS,
    ante_ratio,
    hand_score,
    hard_count,
    match_result,
)
from table.rules.dicey21_shoe import PER_RANK_PER_DECK, Shoe
from table.rules.seating import check_bankroll, check_saved, check_table

GAME_ID = "dicey21"
DESCRIPTION = "Dicey 21: one or two cards plus three shared dice to score 16-21, with MATCH bets on the dice"
HOUSE_BANKED = True
BETS_HELP = "ANTE [SPOT:CHIPS ...], e.g. '10 3:5 6:2' = ante 10, MATCH 5 on three and 2 on six"

DICE = 3
SPOTS = range(1, 7)
SEVEN_COUNT = 7
MAX_CARDS = 2
STAND, HIT = "stand", "hit"


@dataclass(frozen=True)
class Settings:
    """Table rules; each default is argued in docs/rules.md (Dicey 21)."""

    decks: int = 6
    reshuffle_at: int = 52  # cards left when the cut card shows: about five of six decks dealt
    max_seats: int = 5
    min_ante: int = 1
    max_ante: int = 500
    min_match: int = 1
    max_match: int = 100
    max_match_wagers: int = 3
    ace_raise_multiple: int = 3
    seven_raise_multiple: int = 7
    raise_after_hit: bool = True  # a two-card ace or 7-count may raise too
    raise_on_drawn_ace: bool = True  # an ace that came as the second card allows the ace raise
    raise_in_whole_antes: bool = True  # RAISE is 1x, 2x, ... the ante rather than any chip amount
    match_alone: bool = False  # MATCH wagers without an ANTE (no cards then, so no Royal/Quad/Hi-Five)
    ace_matches_one: bool = True  # for Quad and Hi-Five an ace matches the one-spot

    def __post_init__(self) -> None:
        _check_settings(self)


@dataclass(frozen=True)
class Bets:
    ante: int = 0
    match: tuple[tuple[int, int], ...] = ()  # (spot 1..6, chips) for each MATCH wager


@dataclass(frozen=True)
class Hand:
    """One seat's bets and cards; `choice` and `raised` stay None until decided."""

    seat: str
    ante: int
    match: tuple[tuple[int, int], ...] = ()
    cards: tuple[Card, ...] = ()
    choice: str | None = None
    raised: int | None = None

    @property
    def staked(self) -> int:
        return self.ante + (self.raised or 0) + sum(chips for _, chips in self.match)


@dataclass(frozen=True)
class State:
    settings: Settings
    hands: tuple[Hand, ...]
    bankrolls: tuple[tuple[str, int], ...]
    shoe: Shoe
    dice: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class Stand:
    pass


@dataclass(frozen=True)
class Hit:
    pass


@dataclass(frozen=True)
class Raise:
    amount: int  # chips placed on RAISE; 0 declines


@dataclass(frozen=True)
class Deal:
    card: Card


@dataclass(frozen=True)
class Roll:
    dice: tuple[int, ...]  # three of them

    def __post_init__(self) -> None:
        try:
            values = tuple(self.dice)
        except TypeError:
            raise BadValue(f"a Dicey 21 roll is {DICE} dice, not {self.dice!r}") from None
        if len(values) != DICE:
            raise BadValue(f"a Dicey 21 roll is {DICE} dice, not {len(values)}")
        object.__setattr__(self, "dice", tuple(check_die(value) for value in values))


Action = Stand | Hit | Raise | Deal | Roll
ROLL_CHANCES = tuple((Roll(dice), Fraction(1, 6**DICE)) for dice in product(SPOTS, repeat=DICE))


# ----- setting up a round -------------------------------------------------------


def new_round(
    settings: Settings,
    seats: tuple[str, ...],
    bankrolls: Mapping[str, int],
    bets: Mapping[str, Bets],
    banker: str | None = None,
    *,
    shoe: Shoe | None = None,
) -> State:
    """`shoe` is the previous round's `state.shoe` (None: a freshly shuffled shoe); it is
    reshuffled here once the cut card has come out. The house banks, so `banker` is unused."""
    seats = check_table(seats, bankrolls, bets, max_seats=settings.max_seats, reserved=(HOUSE,))
    hands = tuple(check_bet(settings, seat, bets[seat], bankrolls.get(seat)) for seat in seats if seat in bets)
    players = sum(1 for hand in hands if hand.ante)
    return State(
        settings=settings,
        hands=hands,
        bankrolls=tuple((hand.seat, bankrolls[hand.seat]) for hand in hands),
        shoe=_shoe_for_round(settings, shoe, players),
    )


def check_state(state: State, bankrolls: Mapping[str, int] | None = None) -> tuple[str, ...]:
    """The seats are those with a hand: the house banks and holds none."""
    return check_saved([hand.seat for hand in state.hands], state.bankrolls, max_seats=state.settings.max_seats,
                       reserved=(HOUSE,), held=bankrolls,
                       stakes=[(hand.seat, chips) for hand in state.hands
                               for chips in (hand.ante, hand.raised or 0, *(c for _, c in hand.match))])


def _check_settings(settings: Settings) -> None:
    for field in fields(Settings):
        value = getattr(settings, field.name)
        if field.type == "bool":
            if not isinstance(value, bool):
                raise TableError(f"setting {field.name} is yes/no, not {value!r}")
        elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise TableError(f"setting {field.name} is a whole number of at least 0, not {value!r}")
    if settings.decks < 1 or settings.min_ante < 1 or settings.min_match < 1:
        raise TableError("a shoe needs a deck, and the least ante and MATCH bet is a chip")
    if settings.min_ante > settings.max_ante or settings.min_match > settings.max_match:
        raise TableError("a table minimum above its maximum")
    if settings.reshuffle_at >= settings.decks * 52:
        raise TableError("the cut card must leave some of the shoe to deal")


def check_bet(settings: Settings, seat: str, bet: Bets, bankroll: object) -> Hand:
    """The seat's hand for this bet, or BadBet: ANTE and MATCH wagers within the limits
    and together held in the bankroll (a RAISE is offered later only from what is left)."""
    if not isinstance(bet, Bets):
        raise BadBet(f"{seat}: a Dicey 21 bet is a Bets(ante, match), not {bet!r}")
    ante, match = bet.ante, _match_wagers(seat, bet.match)
    _check_chips(seat, "ANTE", ante, 0, settings.max_ante)
    if ante == 0 and not (match and settings.match_alone):
        rule = "MATCH alone is allowed at this table" if settings.match_alone else "MATCH alone is not allowed here"
        raise BadBet(f"{seat}: an ANTE of {settings.min_ante} to {settings.max_ante} chips is needed ({rule})")
    if ante:
        _check_chips(seat, "ANTE", ante, settings.min_ante, settings.max_ante)
    if len(match) > settings.max_match_wagers:
        raise BadBet(f"{seat}: at most {settings.max_match_wagers} MATCH wagers, not {len(match)}")
    for spot, chips in match:
        _check_chips(seat, f"MATCH on {spot}", chips, settings.min_match, settings.max_match)
    hand = Hand(seat, ante, match)
    if hand.staked > check_bankroll(seat, bankroll):
        raise BadBet(f"{seat}: bets of {hand.staked} chips but only {bankroll} in the bankroll")
    return hand


def _match_wagers(seat: str, wagers: Any) -> tuple[tuple[int, int], ...]:
    """The MATCH wagers as (spot, chips) pairs on different spots 1..6, or a BadBet."""
    try:
        match = tuple((spot, chips) for spot, chips in wagers)
        spots = [spot for spot, _ in match]
        valid = all(spot in SPOTS and type(spot) is int for spot in spots) and len(set(spots)) == len(spots)
    except (TypeError, ValueError):
        valid = False
    if not valid:
        raise BadBet(f"{seat}: each MATCH wager goes on a different spot 1 to 6 (typed SPOT:CHIPS), not "
                     f"{_wagers_text(wagers)}")
    return match


def _wagers_text(wagers: object) -> str:
    """MATCH wagers as they are typed ("7:5 3:2"), whatever shape a slip gave them."""
    try:
        return " ".join(f"{spot}:{chips}" for spot, chips in wagers)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        return str(wagers)


def _check_chips(seat: str, what: str, chips: object, low: int, high: int) -> None:
    if isinstance(chips, bool) or not isinstance(chips, int) or not low <= chips <= high:
        raise BadBet(f"{seat}: {what} of {low} to {high} chips is needed, not {chips}")


def _shoe_for_round(settings: Settings, shoe: Shoe | None, players: int) -> Shoe:
    if shoe is None:
        return Shoe.fresh(settings.decks)
    if not isinstance(shoe, Shoe) or max(shoe.counts) > PER_RANK_PER_DECK * settings.decks:
        raise TableError(f"that shoe does not come from {settings.decks} decks: {shoe!r}")
    if shoe.remaining <= settings.reshuffle_at or shoe.remaining < MAX_CARDS * players:
        return Shoe.fresh(settings.decks)
    return shoe


# ----- whose turn, and what may happen --------------------------------------------


def _next_step(state: State) -> tuple[str, int]:
    """(what happens next, index of the hand it concerns): the whole round flow. The
    roll and the end concern no hand: their index is past the last one."""
    for index, hand in enumerate(state.hands):
        if hand.ante and not hand.cards:
            return "first card", index
    for index, hand in enumerate(state.hands):
        if not hand.ante:
            continue
        if hand.choice is None:
            return "stand or hit", index
        if hand.choice == HIT and len(hand.cards) < MAX_CARDS:
            return "second card", index
        if hand.raised is None and len(raise_options(state, hand)) > 1:
            return "raise", index
    return ("roll" if state.dice is None else "done"), len(state.hands)


def raise_multiple(settings: Settings, cards: tuple[Card, ...]) -> int:
    """The most a hand may RAISE, in antes: the larger of its ace and 7-count allowances."""
    if len(cards) > 1 and not settings.raise_after_hit:
        return 0
    allowance = settings.seven_raise_multiple if hard_count(cards) == SEVEN_COUNT else 0
    ace_cards = cards if settings.raise_on_drawn_ace else cards[:1]
    if any(card.rank == "A" for card in ace_cards):
        allowance = max(allowance, settings.ace_raise_multiple)
    return allowance


def raise_options(state: State, hand: Hand) -> range:
    """RAISE amounts open to the hand, 0 (no raise) first; the bankroll must cover them."""
    most = raise_multiple(state.settings, hand.cards) * hand.ante
    most = min(most, dict(state.bankrolls)[hand.seat] - hand.staked)
    return range(0, most + 1, hand.ante if state.settings.raise_in_whole_antes else 1)


def dice_due(state: State) -> bool:
    """Whether the chance event due is the roll of the three dice (else it is a card)."""
    return _next_step(state)[0] == "roll"


def current_actor(state: State) -> str:
    step, index = _next_step(state)
    if step in ("stand or hit", "raise"):
        return state.hands[index].seat
    return TERMINAL if step == "done" else CHANCE


def legal_actions(state: State) -> tuple[Action, ...]:
    step, index = _next_step(state)
    if step == "stand or hit":
        return (Stand(), Hit())
    if step == "raise":
        return tuple(Raise(amount) for amount in raise_options(state, state.hands[index]))
    if step == "done":
        return ()
    return tuple(action for action, _ in chance_outcomes(state))


def chance_outcomes(state: State) -> tuple[tuple[Action, Fraction], ...]:
    step, _ = _next_step(state)
    if step == "roll":
        return ROLL_CHANCES
    if step in ("first card", "second card"):
        return tuple((Deal(card), chance) for card, chance in state.shoe.next_card_chances())
    raise TableError(f"no chance event is due: {current_actor(state)} is to act")


def apply(state: State, action: Action) -> State:
    step, index = _next_step(state)
    if step == "raise":  # a range test: raises in single chips can be thousands of actions
        amounts = raise_options(state, state.hands[index])
        legal = isinstance(action, Raise) and type(action.amount) is int and action.amount in amounts
    else:
        legal = action in legal_actions(state)
    if not legal:
        raise IllegalAction(f"{_label_or_repr(action)} is not allowed now; {_what_is_due(state)}")
    if isinstance(action, Roll):
        return _replace(state, dice=action.dice)
    hand = state.hands[index]
    if isinstance(action, Deal):
        changed = _with(hand, cards=hand.cards + (action.card,))
        return _replace(state, hands=_swap(state.hands, index, changed), shoe=state.shoe.without(action.card))
    if isinstance(action, Raise):
        return _replace(state, hands=_swap(state.hands, index, _with(hand, raised=action.amount)))
    choice = HIT if isinstance(action, Hit) else STAND
    return _replace(state, hands=_swap(state.hands, index, _with(hand, choice=choice)))


def _what_is_due(state: State) -> str:
    actor = current_actor(state)
    if actor == TERMINAL:
        return "the round is over"
    if actor == CHANCE:
        return f"waiting for {'the dice' if _next_step(state)[0] == 'roll' else 'a card'}"
    return f"{actor} may: {', '.join(label(action) for action in legal_actions(state))}"


def _replace(state: State, **changes: Any) -> State:
    return State(**{**{f.name: getattr(state, f.name) for f in fields(State)}, **changes})


def _with(hand: Hand, **changes: Any) -> Hand:
    return Hand(**{**{f.name: getattr(hand, f.name) for f in fields(Hand)}, **changes})


def _swap(hands: tuple[Hand, ...], index: int, hand: Hand) -> tuple[Hand, ...]:
    return hands[:index] + (hand,) + hands[index + 1 :]


# ----- the end of the round -----------------------------------------------------------


def is_terminal(state: State) -> bool:
    return _next_step(state)[0] == "done"


def hand_result(state: State, hand: Hand) -> dict[str, int]:
    """Net chips of each of one hand's bets once the dice are down (for settle and display)."""
    if state.dice is None:
        raise TableError("the dice have not been rolled yet")
    result = {}
    if hand.ante:
        result["ante"] = ante_ratio(hand_score(hand.cards, state.dice)) * (hand.ante + (hand.raised or 0))
    for spot, chips in hand.match:
        _, ratio = match_result(spot, state.dice, hand.cards, state.settings.ace_matches_one)
        result[f"match {spot}"] = ratio * chips
    return result


def settle(state: State) -> dict[str, int]:
    if not is_terminal(state):
        raise TableError("the round is not over yet")
    net = {hand.seat: sum(hand_result(state, hand).values()) for hand in state.hands}
    net[HOUSE] = -sum(net.values())
    return net


def next_banker(state: State) -> None:
    return None


def banker_for(settings: Settings, seats: tuple[str, ...], bankrolls: Mapping[str, int], bets: Mapping[str, Bets],
               turn: str | None = None) -> str | None:
    """The house banks every round; the driver's `turn` is left as it is."""
    return turn


def carry_over(state: State) -> dict[str, Any]:
    """The shoe goes on to the next round until the cut card comes out."""
    return {"shoe": state.shoe}


# ----- words for people -----------------------------------------------------------------


def label(action: object) -> str:
    if isinstance(action, Stand):
        return STAND
    if isinstance(action, Hit):
        return HIT
    if isinstance(action, Raise):
        return f"raise {action.amount}" if action.amount else "no raise"
    if isinstance(action, Deal):
        return f"card {action.card}"
    if isinstance(action, Roll):
        return "roll " + " ".join(str(die) for die in action.dice)
    raise TableError(f"not a Dicey 21 action: {action!r}")


def _label_or_repr(action: object) -> str:
    try:
        return label(action)
    except TableError:
        return repr(action)


def describe(state: State) -> str:
    dice = "not rolled yet" if state.dice is None else f"{' '.join(map(str, state.dice))} (total {sum(state.dice)})"
    lines = [f"Dicey 21 - dice: {dice}"]
    for hand in state.hands:
        lines.append(f"  {hand.seat} [{dict(state.bankrolls)[hand.seat]} chips]: {_describe_hand(state, hand)}")
    actor = current_actor(state)
    step, index = _next_step(state)
    if actor not in (CHANCE, TERMINAL):
        lines.append(f"  {actor} to act: {', '.join(label(a) for a in legal_actions(state)[:4])}"
                     + (" ..." if len(legal_actions(state)) > 4 else ""))
        if step == "raise":
            lines.append("  (a raise is staked on top of the ANTE and paid at the same rate)")
    elif step == "roll":
        lines.append(f"  next: the {DICE} dice for everyone (type them like '3 5 6')")
    elif step != "done":
        lines.append(f"  next: {state.hands[index].seat}'s {step} (type a rank like 'A', '7' or 'K')")
    return "\n".join(lines)


def _describe_hand(state: State, hand: Hand) -> str:
    """Cards with their count, the bets on the table, and once the dice are down what
    each bet won or lost and why, so nobody has to redo the pay table in their head."""
    bets = [f"ante {hand.ante}"] if hand.ante else []
    bets += [f"raise {hand.raised}"] if hand.raised else []
    bets += [f"match {spot}:{chips}" for spot, chips in hand.match]
    text = f"{_cards_text(hand)} | {', '.join(bets)}"
    if state.dice is None:
        return text
    results = hand_result(state, hand)
    parts = []
    if hand.ante:
        score = hand_score(hand.cards, state.dice)
        parts.append(f"score {score} ({_score_word(score)}): ante{'+raise' if hand.raised else ''} {results['ante']:+d}")
    for spot, _ in hand.match:
        name, _ = match_result(spot, state.dice, hand.cards, state.settings.ace_matches_one)
        parts.append(f"match {spot} {name} {results[f'match {spot}']:+d}")
    return f"{text} | {', '.join(parts)} | net {sum(results.values()):+d}"


def _cards_text(hand: Hand) -> str:
    if not hand.cards:
        return "no cards yet" if hand.ante else "MATCH only"
    count = hard_count(hand.cards)
    soft = f" or {count + ACE_BONUS}" if any(card.rank == "A" for card in hand.cards) else ""
    return f"{' '.join(str(card) for card in hand.cards)} (count {count}{soft})"


def _score_word(score: int) -> str:
    if score > BEST_SCORE:
        return "over 21"
    if score < PUSH_SCORES.start:
        return f"under {PUSH_SCORES.start}"
    return {0: "push", 1: "pays 1 to 1", TOP_SCORE_PAYS: f"pays {TOP_SCORE_PAYS} to 1"}[ante_ratio(score)]


def outcome_of(state: State, pieces: Sequence[Piece]) -> Action:
    """The three dice as they lie, or the card dealt; suits never matter here, so a
    card's suit is dropped: the outcome is the rank."""
    step, _ = _next_step(state)
    if step == "roll":
        return Roll(dice_values(pieces, DICE))
    if step in ("first card", "second card"):
        deal = Deal(Card(the_one(pieces, Card).rank))
        if deal not in legal_actions(state):
            raise BadValue(f"every {deal.card.rank} of the shoe has been dealt: look at the card again")
        return deal
    raise TableError("no card or dice are due now")


def parse_outcome(state: State, text: str) -> Action:
    step, _ = _next_step(state)
    if step == "roll":
        return outcome_of(state, parse_dice(text, DICE))
    if step in ("first card", "second card"):
        return outcome_of(state, (parse_card(text),))
    raise TableError("no card or dice are due now")


def parse_bets(settings: Settings, text: str) -> Bets:
    """'10 3:5 6:2' -> Bets(10, ((3, 5), (6, 2))); limits are checked by new_round."""
    parts = text.split()
    if not parts:
        raise BadBet(f"type a bet: {BETS_HELP}")
    try:
        ante = int(parts[0])
        wagers = tuple(tuple(int(n) for n in part.split(":")) for part in parts[1:])
    except ValueError:
        raise BadBet(f"{text!r}: {BETS_HELP}") from None
    if any(len(wager) != 2 for wager in wagers):
        raise BadBet(f"{text!r}: each MATCH wager is SPOT:CHIPS")
    return Bets(ante, tuple((spot, chips) for spot, chips in wagers))


# ----- simple play for demos and tests ---------------------------------------------------------


def auto_bets(
    settings: Settings, seats: tuple[str, ...], bankrolls: Mapping[str, int], rng: random.Random,
    banker: str | None = None,
) -> dict[str, Bets]:
    """A small ANTE (a fiftieth of the bankroll) and, half the time, one table-minimum
    MATCH. The house banks, so `banker` is unused, as in new_round."""
    bets = {}
    for seat in tuple(seats)[: settings.max_seats]:
        chips = bankrolls.get(seat, 0)
        ante = min(settings.max_ante, max(settings.min_ante, chips // 50))
        if chips < ante:
            continue
        match: tuple[tuple[int, int], ...] = ()
        if settings.max_match_wagers and chips - ante >= settings.min_match and rng.random() < 0.5:
            match = ((rng.choice(SPOTS), settings.min_match),)
        bets[seat] = Bets(ante, match)
    return bets


def auto_action(state: State, rng: random.Random) -> Action:
    """The manual's basic strategy: hit a first card 2..5, else stand; raise the most on a
    first-card ace and never otherwise. Chance events are drawn from `rng`."""
    step, index = _next_step(state)
    if step == "done":
        raise TableError("the round is over")
    if step == "stand or hit":
        return Hit() if hard_count(state.hands[index].cards) in range(2, 6) else Stand()
    if step == "raise":
        hand = state.hands[index]
        first_card_ace = hand.cards[0].rank == "A" and len(hand.cards) == 1
        return Raise(max(raise_options(state, hand)) if first_card_ace else 0)
    outcomes = chance_outcomes(state)
    return rng.choices([action for action, _ in outcomes], weights=[chance for _, chance in outcomes])[0]
