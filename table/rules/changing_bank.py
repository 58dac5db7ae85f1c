"""Blackjack with a changing bank: home blackjack from one 52-card pack, where the
bank passes to a player who is dealt a natural while the dealer is not.

The banker is one of the seats, so every payment is capped by what the banker
actually holds: a banker who runs dry pays in the order payments fall due (naturals
in seat order, then busts and bonuses as they happen, then the showdown, where
losing hands are collected before winners are paid). That is the only rule under
which a player-bank with doubling five-card-charlie bonuses can never go below zero.

The pack is part of the state because the game does not reshuffle between rounds:
discards go face up under the burned card and the pack is only reshuffled when the
burned card is reached. `next_pack(final_state)` hands the pack to the next round's
`new_round(..., pack=...)`. Every card that leaves the pack is a CHANCE outcome drawn
uniformly from the unseen stock. docs/rules.md (changing bank) has the full rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from random import Random
from typing import Any

from table.errors import BadBet, BadValue, IllegalAction, TableError
from table.pieces import Piece, the_one
from table.rules import CHANCE, TERMINAL
from table.rules.cards import Card, full_pack, parse_card
from table.rules.seating import check_bankroll, check_saved, check_table

GAME_ID = "changing-bank"
DESCRIPTION = "Home blackjack from one pack; a player's natural takes over the bank"
HOUSE_BANKED = False
BETS_HELP = "STAKE (whole chips, e.g. 2)"

MIN_SEATS, MAX_SEATS = 2, 14  # the seed's range; 14 seats still leave cards to deal
BLACK_JACKS = (Card("J", "C"), Card("J", "S"))
_WHOLE_PACK = frozenset(full_pack())
NATURAL_PAYS = 2  # a player's natural, paid by a dealer without one
DEALER_NATURAL_COLLECTS = 2  # from each player without a natural
NATURAL_STANDOFF_PAYS = 1  # what a player with a natural still pays a dealer's natural
CHARLIE_CARDS = 5  # five cards at 21 or under pay 2x, doubling per extra card

FIND_BANKER, DEAL, PLAY, DEALER, OVER = "find-banker", "deal", "play", "dealer", "over"


@dataclass(frozen=True)
class Settings:
    min_bet: int = 1
    max_bet: int = 5
    max_hands: int = 4  # hands one seat may hold after splitting and re-splitting
    split_aces_one_card: bool = True  # each split ace takes one card and stands
    double_after_split: bool = True
    split_ten_values: bool = False  # False: only same-rank pairs split (K-K, not K-Q)

    def __post_init__(self) -> None:
        if not 1 <= self.min_bet <= self.max_bet:
            raise TableError(f"bet limits must satisfy 1 <= min_bet <= max_bet, not {self.min_bet}..{self.max_bet}")
        if self.max_hands < 1:
            raise TableError(f"max_hands must be at least 1, not {self.max_hands}")


@dataclass(frozen=True)
class Bets:
    stake: int


@dataclass(frozen=True)
class Draw:
    """A card leaving the pack: burned, dealt to a hand, or turned up to find the banker."""

    card: Card


@dataclass(frozen=True)
class Decision:
    move: str


HIT, STAND, DOUBLE, SPLIT = Decision("hit"), Decision("stand"), Decision("double"), Decision("split")


@dataclass(frozen=True)
class Pack:
    """stock: unseen cards above the burned card (order unknown, so kept as a set);
    burn: the burned card at the bottom, None until the first card after a shuffle is
    burned; discards: earlier rounds' cards gathered face up under the burned card."""

    stock: tuple[Card, ...] = full_pack()
    burn: Card | None = None
    discards: tuple[Card, ...] = ()


@dataclass(frozen=True)
class Hand:
    seat: str
    stake: int
    cards: tuple[Card, ...] = ()
    from_split: bool = False
    doubled: bool = False
    done: bool = False
    result: int | None = None  # the player's net chips, set the moment the hand is paid
    note: str = ""


@dataclass(frozen=True)
class State:
    settings: Settings
    seats: tuple[str, ...]
    bankrolls: tuple[tuple[str, int], ...]
    stakes: tuple[tuple[str, int], ...]  # seat -> stake, as bet before the banker is known
    banker: str | None
    pack: Pack
    phase: str
    hands: tuple[Hand, ...] = ()  # players' hands in playing order, from the dealer's left
    dealer: tuple[Card, ...] = ()
    turn: int = 0  # index of the hand being played
    drawing: bool = False  # a hit, double or dealer hit is waiting for its card
    first_deal: tuple[Card, ...] = ()  # cards turned up to find the first banker


# ----------------------------------------------------------------- hand arithmetic


def hand_total(cards: tuple[Card, ...]) -> int:
    """Best total: one ace counts 11 whenever that does not bust the hand."""
    total = sum(card.points for card in cards)
    if total <= 11 and any(card.rank == "A" for card in cards):
        return total + 10
    return total


def is_natural(cards: tuple[Card, ...]) -> bool:
    return len(cards) == 2 and hand_total(cards) == 21


def is_pair(settings: Settings, cards: tuple[Card, ...]) -> bool:
    if len(cards) != 2:
        return False
    first, second = cards
    if settings.split_ten_values:
        return first.points == second.points
    return first.rank == second.rank


def bonus_multiple(cards: tuple[Card, ...]) -> int:
    """Multiple of the stake a player's hand collects as a bonus, 0 if none."""
    if hand_total(cards) > 21:
        return 0
    ranks = sorted(card.rank for card in cards)
    if ranks == ["7", "7", "7"]:
        return 3
    if ranks == ["6", "7", "8"]:
        return 2
    if len(cards) >= CHARLIE_CARDS:
        return 1 << (len(cards) - CHARLIE_CARDS + 1)  # 2, 4, 8...
    return 0


def paid_at_once(cards: tuple[Card, ...], stake: int) -> int | None:
    """What a player's hand that has stopped is paid before the dealer plays: a bust
    loses the stake, a bonus collects its multiple; None means it waits for the
    showdown."""
    if hand_total(cards) > 21:
        return -stake
    bonus = bonus_multiple(cards)
    return bonus * stake if bonus else None


def showdown(player: tuple[Card, ...], dealer: tuple[Card, ...], stake: int) -> int:
    """A standing player's net chips against the dealer's final hand: a dealer bust
    pays everyone still standing; otherwise ties go to the dealer."""
    dealer_total = hand_total(dealer)
    if dealer_total > 21 or hand_total(player) > dealer_total:
        return stake
    return -stake


def bank_candidates(seats: tuple[str, ...], bankrolls: Mapping[str, int]) -> tuple[str, ...]:
    """The seats dealt a card in the first-banker deal: those with chips (everyone if
    nobody has any), since a bank that cannot pay anybody is no bank."""
    return tuple(seat for seat in seats if bankrolls[seat] > 0) or seats


def first_banker(cards_dealt: tuple[Card, ...], seats: tuple[str, ...]) -> str | None:
    """Cards dealt face up in rotation from seats[0]: the seat that gets the first
    black jack banks first (None while no black jack has fallen)."""
    for index, card in enumerate(cards_dealt):
        if card in BLACK_JACKS:
            return seats[index % len(seats)]
    return None


# ---------------------------------------------------------------------- new round


def new_round(
    settings: Settings,
    seats: tuple[str, ...],
    bankrolls: Mapping[str, int],
    bets: Mapping[str, Bets],
    banker: str | None = None,
    pack: Pack | None = None,
) -> State:
    """banker=None starts with the deal that finds the first banker (the pack is then
    gathered and shuffled whole, so `pack` is ignored). The banker does not bet: a
    stake listed for a named banker is ignored unchecked, and one bet by the seat that
    turns out to be the banker is not used."""
    seats = check_table(seats, bankrolls, bets, banker, min_seats=MIN_SEATS, max_seats=MAX_SEATS)
    stakes = tuple((seat, check_bet(settings, seat, bets[seat], bankrolls[seat]))
                   for seat in seats if seat in bets and seat != banker)
    if pack is not None:
        _check_pack(pack)
    state = State(
        settings=settings,
        seats=seats,
        bankrolls=tuple((seat, bankrolls[seat]) for seat in seats),
        stakes=stakes,
        banker=banker,
        pack=Pack() if pack is None or banker is None else pack,
        phase=FIND_BANKER if banker is None else DEAL,
    )
    return _start_deal(state) if banker is not None else state


def check_bet(settings: Settings, seat: str, bet: object, chips: int) -> int:
    """The stake, or BadBet: within the limits, and covered twice over, since a
    dealer's natural collects twice the stake before anyone can act."""
    if not isinstance(bet, Bets):
        raise BadBet(f"{seat}: a bet is a Bets(stake), not {bet!r}")
    stake = _within_limits(settings, bet.stake, f"{seat}: ")
    if DEALER_NATURAL_COLLECTS * stake > check_bankroll(seat, chips):
        raise BadBet(
            f"{seat}: a stake of {stake} needs {DEALER_NATURAL_COLLECTS * stake} chips to cover "
            f"a dealer's natural; {seat} has {chips}"
        )
    return stake


def check_state(state: State, bankrolls: Mapping[str, int] | None = None) -> tuple[str, ...]:
    return check_saved(state.seats, state.bankrolls, state.banker, min_seats=MIN_SEATS, max_seats=MAX_SEATS,
                       held=bankrolls,
                       named=[*(seat for seat, _ in state.stakes), *(hand.seat for hand in state.hands)],
                       stakes=[*state.stakes, *((hand.seat, hand.stake) for hand in state.hands)])


def _within_limits(settings: Settings, stake: object, who: str = "") -> int:
    if isinstance(stake, bool) or not isinstance(stake, int) or not settings.min_bet <= stake <= settings.max_bet:
        raise BadBet(f"{who}the stake must be {settings.min_bet} to {settings.max_bet} chips, not {stake!r}")
    return stake


def _check_pack(pack: Pack) -> None:
    if not isinstance(pack, Pack):
        raise BadValue(f"a pack is a changing_bank.Pack, not {type(pack).__name__}")
    cards = pack.stock + pack.discards + ((pack.burn,) if pack.burn is not None else ())
    if len(cards) != len(_WHOLE_PACK) or set(cards) != _WHOLE_PACK:
        raise BadValue("a pack must hold each of the 52 cards exactly once")
    if pack.burn is None and pack.discards:
        raise BadValue("discards lie under the burned card, so a pack with discards needs one")


def _start_deal(state: State) -> State:
    """Hands for the seats that bet, in playing order from the dealer's left."""
    stakes = dict(state.stakes)
    order = _from_left_of(state.seats, _bank(state))
    hands = tuple(Hand(seat, stakes[seat]) for seat in order if seat in stakes)
    return replace(state, phase=DEAL if hands else OVER, hands=hands)


def _from_left_of(seats: tuple[str, ...], banker: str) -> tuple[str, ...]:
    at = seats.index(banker)
    return seats[at + 1:] + seats[:at]


# ------------------------------------------------------------------ the contract


def current_actor(state: State) -> str:
    if state.phase == OVER:
        return TERMINAL
    if state.phase in (FIND_BANKER, DEAL) or state.drawing:
        return CHANCE
    if state.phase == PLAY:
        hand = state.hands[state.turn]
        return CHANCE if len(hand.cards) < 2 else hand.seat
    return _bank(state)


def _bank(state: State) -> str:
    """The dealer, once the first deal has found one."""
    if state.banker is None:
        raise IllegalAction("nobody deals yet: the cards turned up have not found the first banker")
    return state.banker


def is_terminal(state: State) -> bool:
    return state.phase == OVER


def legal_actions(state: State) -> tuple[Any, ...]:
    actor = current_actor(state)
    if actor == TERMINAL:
        return ()
    if actor == CHANCE:
        return tuple(Draw(card) for card in unseen_cards(state))
    if state.phase == DEALER:
        return (STAND, HIT) if _spare_cards(state) >= 1 else (STAND,)
    return _player_actions(state, state.hands[state.turn])


def _player_actions(state: State, hand: Hand) -> tuple[Any, ...]:
    settings, spare = state.settings, _spare_cards(state)
    own = [h for h in state.hands if h.seat == hand.seat]
    affordable = sum(h.stake for h in own) + hand.stake <= dict(state.bankrolls)[hand.seat]
    actions = [STAND]
    if spare >= 1:
        actions.append(HIT)
    if (len(hand.cards) == 2 and spare >= 1 and affordable
            and (settings.double_after_split or not hand.from_split)):
        actions.append(DOUBLE)
    if is_pair(settings, hand.cards) and spare >= 2 and affordable and len(own) < settings.max_hands:
        actions.append(SPLIT)
    return tuple(actions)


def chance_outcomes(state: State) -> tuple[tuple[Draw, Fraction], ...]:
    if current_actor(state) != CHANCE:
        raise TableError("no card is due to be drawn now")
    stock = unseen_cards(state)
    each = Fraction(1, len(stock))
    return tuple((Draw(card), each) for card in stock)


def apply(state: State, action: object) -> State:
    actor = current_actor(state)
    if actor == TERMINAL:
        raise IllegalAction("the round is over; start a new round")
    if actor == CHANCE:
        if not isinstance(action, Draw):
            raise IllegalAction(f"a card must be drawn now, not {_name(action)}")
        return _draw(state, action.card)
    if not isinstance(action, Decision) or action not in legal_actions(state):
        choices = ", ".join(label(a) for a in legal_actions(state))
        raise IllegalAction(f"{actor} cannot {_name(action)} now; choose one of: {choices}")
    if state.phase == DEALER:
        return replace(state, drawing=True) if action == HIT else _dealer_stands(state)
    return _player_decides(state, action)


def _name(action: object) -> str:
    return label(action) if isinstance(action, (Draw, Decision)) else repr(action)


# ------------------------------------------------------------------- the pack


def _live_pack(state: State) -> Pack:
    """The pack as the next draw finds it: an empty stock means the burned card has
    been reached, so discards and burned card are shuffled into a new stock."""
    pack = state.pack
    if pack.stock or pack.burn is None:
        return pack
    return Pack(stock=pack.discards + (pack.burn,))


def unseen_cards(state: State) -> tuple[Card, ...]:
    """The cards the next draw may bring, each equally likely (the CHANCE outcomes)."""
    return _live_pack(state).stock


def _spare_cards(state: State) -> int:
    """Cards that can still be dealt this round beyond those already owed to split
    hands; a reshuffle costs one burned card."""
    pack = state.pack
    reachable = len(pack.stock) - 1 if pack.burn is None else len(pack.stock) + len(pack.discards)
    return reachable - sum(1 for hand in state.hands if len(hand.cards) < 2)


def banker_for(settings: Settings, seats: tuple[str, ...], bankrolls: Mapping[str, int], bets: Mapping[str, Bets],
               turn: str | None = None) -> str | None:
    """The dealer keeps the bank until another's natural takes it over (next_banker):
    the table's `turn` is the banker."""
    return turn


def carry_over(state: State) -> dict[str, Any]:
    """The same pack goes on: this round's cards under the burned card."""
    return {"pack": next_pack(state)}


def next_pack(state: State) -> Pack:
    """The pack for the next round: this round's cards go face up under the burned card."""
    if not is_terminal(state):
        raise TableError("the round is not over, so its cards are still on the table")
    on_table = tuple(card for hand in state.hands for card in hand.cards) + state.dealer
    if state.pack.burn is None:  # nobody was dealt in, the pack is still fresh
        return Pack(stock=state.pack.stock + on_table)
    return replace(state.pack, discards=state.pack.discards + on_table)


def _draw(state: State, card: Card) -> State:
    pack = _live_pack(state)
    if card not in pack.stock:
        raise IllegalAction(f"{card} is not among the unseen cards of the pack (suit needed; dealt or discarded cards cannot come again)")
    at = pack.stock.index(card)
    pack = replace(pack, stock=pack.stock[:at] + pack.stock[at + 1:])
    if state.phase == FIND_BANKER:
        return _turn_up_for_banker(replace(state, pack=pack), card)
    if pack.burn is None:
        return replace(state, pack=replace(pack, burn=card))
    state = replace(state, pack=pack, drawing=False)
    if state.phase == DEAL:
        return _deal_one(state, card)
    if state.phase == DEALER:
        return _dealer_takes(state, card)
    return _player_takes(state, card)


def _turn_up_for_banker(state: State, card: Card) -> State:
    cards = state.first_deal + (card,)
    banker = first_banker(cards, bank_candidates(state.seats, dict(state.bankrolls)))
    if banker is None:
        return replace(state, first_deal=cards)
    state = replace(state, first_deal=cards, banker=banker, pack=Pack())
    return _start_deal(state)


# --------------------------------------------------------------- deal and naturals


def _deal_one(state: State, card: Card) -> State:
    """One card face down to each player and the dealer, then one face up, in order."""
    dealt = sum(len(hand.cards) for hand in state.hands) + len(state.dealer)
    position = dealt % (len(state.hands) + 1)
    if position == len(state.hands):
        state = replace(state, dealer=state.dealer + (card,))
    else:
        state = _with_hand(state, position, cards=state.hands[position].cards + (card,))
    if len(state.dealer) < 2:
        return state
    return _settle_naturals(state)


def _settle_naturals(state: State) -> State:
    if is_natural(state.dealer):
        for index, hand in enumerate(state.hands):
            if is_natural(hand.cards):
                state = _pay(state, index, -NATURAL_STANDOFF_PAYS * hand.stake, "natural against the dealer's natural")
            else:
                state = _pay(state, index, -DEALER_NATURAL_COLLECTS * hand.stake, "lost to the dealer's natural")
        return replace(state, phase=OVER)
    for index, hand in enumerate(state.hands):
        if is_natural(hand.cards):
            state = _pay(state, index, NATURAL_PAYS * hand.stake, "natural")
    return _next_hand(replace(state, phase=PLAY, turn=0))


# ------------------------------------------------------------------ players' play


def _player_decides(state: State, action: Decision) -> State:
    index, hand = state.turn, state.hands[state.turn]
    if action == STAND:
        return _next_hand(_finish_hand(state, index))
    if action == HIT:
        return replace(state, drawing=True)
    if action == DOUBLE:
        return replace(_with_hand(state, index, stake=2 * hand.stake, doubled=True), drawing=True)
    first, second = (replace(hand, cards=(card,), from_split=True) for card in hand.cards)
    return replace(state, hands=state.hands[:index] + (first, second) + state.hands[index + 1:])


def _player_takes(state: State, card: Card) -> State:
    index = state.turn
    hand = state.hands[index]
    cards = hand.cards + (card,)
    state = _with_hand(state, index, cards=cards)
    split_ace = hand.from_split and cards[0].rank == "A" and state.settings.split_aces_one_card
    if hand_total(cards) >= 21 or hand.doubled or (split_ace and len(cards) == 2):
        return _next_hand(_finish_hand(state, index))
    return state


def _finish_hand(state: State, index: int) -> State:
    """A hand stops: a bust pays the dealer and a bonus is paid at once; any other
    hand waits for the dealer's showdown."""
    state = _with_hand(state, index, done=True)
    hand = state.hands[index]
    amount = paid_at_once(hand.cards, hand.stake)
    if amount is None:
        return state
    if amount < 0:
        return _pay(state, index, amount, f"bust with {hand_total(hand.cards)}")
    return _pay(state, index, amount, f"bonus {bonus_multiple(hand.cards)}x for {_cards_text(hand.cards)}")


def _next_hand(state: State) -> State:
    turn = state.turn
    while turn < len(state.hands) and state.hands[turn].done:
        turn += 1
    if turn < len(state.hands):
        return replace(state, turn=turn)
    if all(hand.result is not None for hand in state.hands):
        return replace(state, turn=turn, phase=OVER)
    return replace(state, turn=turn, phase=DEALER)


# ---------------------------------------------------------------- dealer's play


def _dealer_takes(state: State, card: Card) -> State:
    state = replace(state, dealer=state.dealer + (card,))
    return _dealer_stands(state) if hand_total(state.dealer) >= 21 else state


def _dealer_stands(state: State) -> State:
    """The showdown: losing hands are collected first, then winners are paid in
    seat order, so a short bank pays as far as the collected chips reach."""
    open_hands = [i for i, hand in enumerate(state.hands) if hand.result is None]
    outcomes = {i: showdown(state.hands[i].cards, state.dealer, state.hands[i].stake) for i in open_hands}
    dealer_total = hand_total(state.dealer)
    for index in sorted(open_hands, key=lambda i: outcomes[i] > 0):
        won = outcomes[index] > 0
        note = "dealer bust" if dealer_total > 21 else ("beat the dealer" if won else "lost to the dealer")
        state = _pay(state, index, outcomes[index], note)
    return replace(state, phase=OVER)


# ---------------------------------------------------------------- chips


def _pay(state: State, index: int, amount: int, note: str) -> State:
    """Settle one hand now; a payment to a player is capped by the banker's chips."""
    if amount > 0:
        available = _banker_chips(state)
        if available < amount:
            note += f" (bank short: paid {available} of {amount})"
            amount = available
    return _with_hand(state, index, result=amount, note=note, done=True)


def _banker_chips(state: State) -> int:
    paid = sum(hand.result for hand in state.hands if hand.result is not None)
    return dict(state.bankrolls)[_bank(state)] - paid


def _with_hand(state: State, index: int, **changes: Any) -> State:
    hands = state.hands
    return replace(state, hands=hands[:index] + (replace(hands[index], **changes),) + hands[index + 1:])


def settle(state: State) -> dict[str, int]:
    if not is_terminal(state):
        raise TableError("the round is not over yet")
    net = {seat: 0 for seat in state.seats}
    for hand in state.hands:
        if hand.result is None:
            raise TableError(f"{hand.seat}'s hand was never paid")
        net[hand.seat] += hand.result
        net[_bank(state)] -= hand.result
    return net


def next_banker(state: State) -> str | None:
    """A player's natural takes the bank when the dealer has none (the nearest to the
    dealer's left if several); a banker left with no chips passes the bank to the
    next seat on the left that has some, since a bank that cannot pay is no bank."""
    if state.banker is None:
        return None
    banker = state.banker
    if not is_natural(state.dealer):
        naturals = [hand.seat for hand in state.hands if is_natural(hand.cards) and not hand.from_split]
        banker = naturals[0] if naturals else banker
    if not is_terminal(state):
        return banker
    chips = {seat: dict(state.bankrolls)[seat] + net for seat, net in settle(state).items()}
    if chips[banker] > 0:
        return banker
    return next((seat for seat in _from_left_of(state.seats, banker) if chips[seat] > 0), banker)


# ------------------------------------------------------------- words for people


def label(action: object) -> str:
    if isinstance(action, Draw):
        return f"card {action.card}"
    if action == DOUBLE:
        return "double down"
    if isinstance(action, Decision):
        return action.move
    raise TableError(f"not an action of this game: {action!r}")


def _cards_text(cards: tuple[Card, ...]) -> str:
    return " ".join(str(card) for card in cards) or "-"


def describe(state: State) -> str:
    if state.phase == FIND_BANKER:
        return f"Finding the first banker: {_cards_text(state.first_deal)} (first black jack banks)"
    pack = state.pack
    lines = [f"Banker {state.banker}; pack: {len(pack.stock)} unseen, burned {pack.burn or '-'}, {len(pack.discards)} discards"]
    dealer = state.dealer
    if state.phase in (DEAL, PLAY) and dealer:  # the hole card stays face down while players play
        lines.append("  dealer  ?? " + _cards_text(dealer[1:]))
    else:
        lines.append(f"  dealer  {_cards_text(dealer)}" + (f"  ({hand_total(dealer)})" if dealer else ""))
    for index, hand in enumerate(state.hands):
        marker = ">" if state.phase == PLAY and index == state.turn else " "
        paid = f"  {hand.result:+d} {hand.note}" if hand.result is not None else ""
        total = f"({hand_total(hand.cards)})" if hand.cards else ""
        lines.append(f"{marker} {hand.seat:7s} {_cards_text(hand.cards)} {total} stake {hand.stake}{paid}")
    if state.phase == OVER:
        lines.append("Round over; next banker: " + str(next_banker(state)))
    return "\n".join(lines)


def outcome_of(state: State, pieces: Sequence[Piece]) -> Draw:
    """The card drawn, with its suit: the pack is tracked card by card."""
    if current_actor(state) != CHANCE:
        raise IllegalAction("no card is due now; it is a player's or the dealer's decision")
    draw = Draw(the_one(pieces, Card))
    if draw.card.suit is None:
        raise BadValue(f"{str(draw.card)!r}: give the suit too (C, D, H or S), e.g. QS")
    if draw.card not in unseen_cards(state):
        raise IllegalAction(f"{draw.card} has already been dealt or discarded from this pack")
    return draw


def parse_outcome(state: State, text: str) -> Draw:
    """A typed card with its suit ('QS', '10h')."""
    if current_actor(state) != CHANCE:
        raise IllegalAction("no card is due now; it is a player's or the dealer's decision")
    return outcome_of(state, (parse_card(text, suit_required=True),))


def parse_bets(settings: Settings, text: str) -> Bets:
    try:
        stake = int(text.strip())
    except ValueError:
        raise BadBet(f"{text!r}: type the stake as a whole number of chips") from None
    return Bets(_within_limits(settings, stake))


# ----------------------------------------------------------- simple automatic play


def auto_bets(settings: Settings, seats: tuple[str, ...], bankrolls: Mapping[str, int], rng: Random,
              banker: str | None = None) -> dict[str, Bets]:
    """A random stake within the limits for every seat that can cover a dealer's natural;
    new_round ignores a named banker's, so he is not given one."""
    bets = {}
    for seat in seats:
        top = min(settings.max_bet, bankrolls[seat] // DEALER_NATURAL_COLLECTS)
        if seat != banker and top >= settings.min_bet:
            bets[seat] = Bets(settings.min_bet + int(rng.random() * (top - settings.min_bet + 1)))
    return bets


def auto_action(state: State, rng: Random) -> object:
    """Cards at random; players split aces and eights, double on 10 or 11 and hit
    below 17; the dealer hits below 17."""
    if current_actor(state) == TERMINAL:
        raise TableError("the round is over: there is no move to make")
    legal = legal_actions(state)
    if current_actor(state) == CHANCE:
        return legal[int(rng.random() * len(legal))]
    if state.phase == DEALER:
        return HIT if HIT in legal and hand_total(state.dealer) < 17 else STAND
    cards = state.hands[state.turn].cards
    total = hand_total(cards)
    if SPLIT in legal and cards[0].rank in ("A", "8"):
        return SPLIT
    if DOUBLE in legal and total in (10, 11):
        return DOUBLE
    return HIT if HIT in legal and total < 17 else STAND
