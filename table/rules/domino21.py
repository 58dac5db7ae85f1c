"""Domino twenty-one: the card game 21 played with a double-six set of tiles.

Every player stakes a price per tile held and the banker matches the square, so
buying a tile raises both the risk and the prize; that is why the stake, the
banker's cover and the hit rule are all tied to the tile count below. Tiles come
out of the boneyard as CHANCE actions, uniform over the tiles not yet in play, and
each held tile remembers whether it lies face up, because the exposure rule is what
gives later players their information (and the camera sees only face-up tiles).
See docs/rules.md (Domino 21) for the rules in full and every ambiguity's choice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, lru_cache
from random import Random
from typing import Any

from table.errors import BadBet, BadValue, IllegalAction, TableError
from table.pieces import Piece, the_one
from table.rules import CHANCE, TERMINAL, no_carry_over
from table.rules.seating import (
    check_bankroll,
    check_saved,
    check_table,
    round_the_table,
)
from table.rules.tiles import Tile, full_set, parse_tile

GAME_ID = "domino21"
DESCRIPTION = "Domino 21: double-six tiles, a price per tile, the banker matches the square"
HOUSE_BANKED = False
BETS_HELP = "PRICE (chips per tile; a 2-tile hand costs 2 x PRICE)"

TARGET = 21
OPENING_TILES = 2
MAX_TILES = 9  # the seed: no hand of ten tiles can stay at 21 or under
FACE_DOWN_KEPT = 2  # after each hit one of the three face-down tiles is turned up
DOUBLE_BLANK = Tile(0, 0)
STAND_ON = 17  # auto_action's simple strategy: draw while the best total is below this

MATCH_RULES = ("tiles-squared", "stake-squared")
BANK_OVER_RULES = ("pays-match", "pays-stake", "refunds")
COVER_RULES = ("limit-hits", "seat-order")
SPECIAL_RULES = ("pips", "any")


@dataclass(frozen=True)
class Settings:
    """Table choices; each non-obvious one is a reading of the seed, see the docs."""

    min_price: int = 1
    max_price: int = 100
    max_players: int = 5
    match: str = "tiles-squared"  # banker's match for n tiles: n*n*price, or (n*price)**2
    bank_over: str = "pays-match"  # banker over 21 pays each standing player his match
    bank_cover: str = "limit-hits"  # a hit is sold only while the bank covers every pot
    special_21: str = "pips"  # [0-0] + two tiles whose pips make 21 (the seed's four hands)
    banker_may_concede: bool = True  # the banker may declare "over 21" without showing

    def __post_init__(self) -> None:
        for name, allowed in (("match", MATCH_RULES), ("bank_over", BANK_OVER_RULES),
                              ("bank_cover", COVER_RULES), ("special_21", SPECIAL_RULES)):
            if getattr(self, name) not in allowed:
                raise TableError(f"rule {name} is one of {', '.join(allowed)}, not {getattr(self, name)!r}")
        if not 1 <= self.min_price <= self.max_price:
            raise TableError(f"prices need 1 <= min_price <= max_price, not {self.min_price}..{self.max_price}")
        if not 1 <= self.max_players <= (len(full_set()) // OPENING_TILES) - 1:
            raise TableError(f"max_players {self.max_players} does not fit one double-six set")


@dataclass(frozen=True)
class Bets:
    price: int  # chips per tile held


@dataclass(frozen=True)
class Hit:
    pass


@dataclass(frozen=True)
class Stand:
    pass


@dataclass(frozen=True)
class Expose:
    tile: Tile


@dataclass(frozen=True)
class Draw:
    tile: Tile


@dataclass(frozen=True)
class Announce:
    total: int | None  # None: "over 21", the banker's tiles stay hidden


@dataclass(frozen=True)
class HeldTile:
    tile: Tile
    face_up: bool = False


@dataclass(frozen=True)
class Hand:
    owner: str
    price: int  # 0 for the banker, who matches rather than stakes
    held: tuple[HeldTile, ...] = ()
    finished: bool = False

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(held.tile for held in self.held)

    @property
    def face_down(self) -> tuple[Tile, ...]:
        return tuple(held.tile for held in self.held if not held.face_up)


@dataclass(frozen=True)
class State:
    settings: Settings
    seats: tuple[str, ...]
    banker: str
    bankrolls: tuple[tuple[str, int], ...]
    hands: tuple[Hand, ...]  # the players in the order they play, the banker's hand last
    step: str = "deal"  # deal, decide, draw, expose, announce, over
    banker_total: int | None = None  # what the banker announced; None when over 21


# ---------------------------------------------------------------- tile and hand values


@cache
def tile_values(tile: Tile) -> frozenset[int]:
    """Each blank half may count 0 or 7 and a double may count half its pips."""
    def half(pips: int) -> tuple[int, ...]:
        return (0, 7) if pips == 0 else (pips,)

    values = {a + b for a in half(tile.low) for b in half(tile.high)}
    if tile.is_double:
        values.add(tile.low)
    return frozenset(values)


def add_tile(totals: frozenset[int], tile: Tile) -> frozenset[int]:
    """The totals of a hand once `tile` joins it (lets a search grow hands a tile at a time)."""
    values = tile_values(tile)
    return frozenset(total + value for total in totals for value in values)


def hand_totals(tiles: Iterable[Tile]) -> frozenset[int]:
    """Every total the hand can be counted as (over 21 included)."""
    return _totals(tuple(tiles))


@lru_cache(maxsize=1 << 16)
def _totals(tiles: tuple[Tile, ...]) -> frozenset[int]:
    """Cached because every legal_actions and settle asks again about the same hands."""
    if len(set(tiles)) != len(tiles):
        raise BadValue(f"a hand cannot hold the same tile twice: {' '.join(map(str, tiles))}")
    totals = frozenset({0})
    for tile in tiles:
        totals = add_tile(totals, tile)
    return totals


def best_of(totals: Iterable[int]) -> int | None:
    """The highest total not over 21, or None when every total is over (bust)."""
    return max((total for total in totals if total <= TARGET), default=None)


def best_total(tiles: Iterable[Tile]) -> int | None:
    return best_of(hand_totals(tiles))


def is_special_21(tiles: Iterable[Tile], settings: Settings) -> bool:
    """The three-tile 21 holding [0-0] that beats every other hand."""
    tiles = tuple(tiles)
    if len(tiles) != 3 or DOUBLE_BLANK not in tiles:
        return False
    if settings.special_21 == "pips":
        return sum(tile.pips for tile in tiles) == TARGET
    return TARGET in hand_totals(tiles)


def banker_match(settings: Settings, price: int, tiles: int) -> int:
    """What the banker puts against a player's stake of `tiles` x `price`."""
    if settings.match == "stake-squared":
        return (tiles * price) ** 2
    return tiles * tiles * price


def keeps_drawing(best: int | None) -> bool:
    """The simple strategy of auto_action (and the advisor's model of the banker),
    given the hand's best total."""
    return best is not None and best < STAND_ON


# ---------------------------------------------------------------- starting a round


def _cover_needed(settings: Settings, prices: Iterable[int]) -> int:
    return sum(banker_match(settings, price, OPENING_TILES) for price in prices)


def check_bet(settings: Settings, seat: str, bet: object, chips: int) -> int:
    """The price per tile, or BadBet: within the limits, and the two opening tiles paid
    for (each later tile is sold only while the bankroll still covers it)."""
    price = getattr(bet, "price", None)
    if not isinstance(bet, Bets) or isinstance(price, bool) or not isinstance(price, int):
        raise BadBet(f"{seat}: a bet is Bets(price=chips per tile), not {bet!r}")
    if not settings.min_price <= price <= settings.max_price:
        raise BadBet(f"{seat}: the price per tile is {settings.min_price} to {settings.max_price}, not {price}")
    if check_bankroll(seat, chips) < OPENING_TILES * price:
        raise BadBet(f"{seat}: two tiles at {price} cost {OPENING_TILES * price} chips, the bankroll holds {chips}")
    return price


def _pick_banker(settings: Settings, order: tuple[str, ...], bankrolls: Mapping[str, int], prices: dict[str, int]) -> str:
    """The first seat in `order` that covers everyone else's opening pot."""
    for seat in order:
        others = [price for other, price in prices.items() if other != seat]
        if bankrolls[seat] >= _cover_needed(settings, others):
            return seat
    raise BadBet("nobody can bank these bets: no seat holds enough chips to cover the other players' opening pots")


def banker_for(settings: Settings, seats: tuple[str, ...], bankrolls: Mapping[str, int], bets: Mapping[str, Bets],
               turn: str | None = None) -> str | None:
    """Who banks a round with these bets when it is `turn`'s turn (whom next_banker
    named, who could cover the lowest price): `turn`, or when it cannot cover the
    other players' opening pots at the prices they bet, the next seat round the table
    that can, and `turn` plays with its own bet. None (no turn) leaves the choice to
    new_round. Every bet is checked as new_round checks it; BadBet when no seat can
    bank, with or without a turn."""
    seats = check_table(seats, bankrolls, bets, turn, min_seats=2, seat_error=BadBet)
    prices = {seat: check_bet(settings, seat, bet, bankrolls[seat]) for seat, bet in bets.items()}
    banker = _pick_banker(settings, seats if turn is None else round_the_table(seats, turn, inclusive=True),
                          bankrolls, prices)
    return None if turn is None else banker


def new_round(settings: Settings, seats: tuple[str, ...], bankrolls: Mapping[str, int], bets: Mapping[str, Bets],
              banker: str | None = None) -> State:
    seats = check_table(seats, bankrolls, bets, banker, min_seats=2, seat_error=BadBet)
    bankrolls = dict(bankrolls)
    prices = {seat: check_bet(settings, seat, bet, bankrolls[seat])
              for seat, bet in bets.items() if seat != banker}
    if banker is None:
        banker = _pick_banker(settings, seats, bankrolls, prices)
        prices.pop(banker, None)  # the banker matches; a bet auto_bets made for him is void
    order = [seat for seat in round_the_table(seats, banker) if seat in prices]
    if len(order) > settings.max_players:
        raise BadBet(f"{len(order)} players bet but the table seats at most {settings.max_players}")
    needed = _cover_needed(settings, prices.values())
    if bankrolls[banker] < needed:
        raise BadBet(f"the banker {banker} holds {bankrolls[banker]} chips but the opening pots need {needed}")
    hands = tuple(Hand(seat, prices[seat]) for seat in order) + (Hand(banker, 0),)
    state = State(settings, seats, banker, tuple((seat, bankrolls[seat]) for seat in seats), hands)
    return state if order else replace(state, step="over")


def check_state(state: State, bankrolls: Mapping[str, int] | None = None) -> tuple[str, ...]:
    return check_saved(state.seats, state.bankrolls, state.banker, min_seats=2, held=bankrolls,
                       named=[hand.owner for hand in state.hands],
                       stakes=[(hand.owner, hand.price) for hand in state.hands])


# ---------------------------------------------------------------- whose turn, what is legal


def in_play(state: State) -> frozenset[Tile]:
    return frozenset(tile for hand in state.hands for tile in hand.tiles)


def face_up_tiles(state: State) -> frozenset[Tile]:
    """What the overhead camera should see: every tile lying face up."""
    return frozenset(held.tile for hand in state.hands for held in hand.held if held.face_up)


def boneyard(state: State) -> tuple[Tile, ...]:
    taken = in_play(state)
    return tuple(tile for tile in full_set() if tile not in taken)


def _turn(state: State) -> int:
    """Index of the hand being dealt to or playing."""
    if state.step == "deal":
        return next(i for i, hand in enumerate(state.hands) if len(hand.held) < OPENING_TILES)
    if state.step == "announce":
        return len(state.hands) - 1
    return next(i for i, hand in enumerate(state.hands) if not hand.finished)


def current_hand(state: State) -> Hand:
    if state.step == "over":
        raise TableError("the round is over: no hand is playing")
    return state.hands[_turn(state)]


def current_actor(state: State) -> str:
    if state.step == "over":
        return TERMINAL
    if state.step in ("deal", "draw"):
        return CHANCE
    return current_hand(state).owner


def is_terminal(state: State) -> bool:
    return state.step == "over"


def _bankroll(state: State, account: str) -> int:
    return dict(state.bankrolls)[account]


def stake_allowed(state: State, index: int, tiles: int) -> bool:
    """Whether hand `index` may grow to `tiles` tiles as far as money goes: the
    player's bankroll covers the stake and (under limit-hits) the bank still covers
    every pot. The banker's own tiles cost nothing."""
    hand = state.hands[index]
    if hand.owner == state.banker:
        return True
    if _bankroll(state, hand.owner) < tiles * hand.price:
        return False
    if state.settings.bank_cover != "limit-hits":
        return True
    pots = sum(banker_match(state.settings, other.price, len(other.held))
               for i, other in enumerate(state.hands[:-1]) if i != index)
    return pots + banker_match(state.settings, hand.price, tiles) <= _bankroll(state, state.banker)


def _can_hit(state: State, index: int) -> bool:
    tiles = len(state.hands[index].held) + 1
    return tiles <= MAX_TILES and bool(boneyard(state)) and stake_allowed(state, index, tiles)


def legal_actions(state: State) -> tuple[Any, ...]:
    step = state.step
    if step == "over":
        return ()
    if step in ("deal", "draw"):
        return tuple(Draw(tile) for tile in boneyard(state))
    index = _turn(state)
    hand = state.hands[index]
    if step == "expose":
        return tuple(Expose(tile) for tile in sorted(hand.face_down))
    if step == "announce":
        concede = (Announce(None),) if state.settings.banker_may_concede else ()
        return (Announce(best_total(hand.tiles)),) + concede
    return ((Hit(),) if _can_hit(state, index) else ()) + (Stand(),)


def chance_outcomes(state: State) -> tuple[tuple[Draw, Fraction], ...]:
    if current_actor(state) != CHANCE:
        raise TableError(f"no tile is being drawn now ({state.step})")
    draws = legal_actions(state)
    return tuple((draw, Fraction(1, len(draws))) for draw in draws)


# ---------------------------------------------------------------- applying actions


def _refuse(state: State, action: object) -> IllegalAction:
    if isinstance(action, Draw) and isinstance(action.tile, Tile) and action.tile in in_play(state):
        return IllegalAction(f"{action.tile} is already in play: draw a tile from the boneyard")
    if isinstance(action, Hit) and state.step == "decide":
        return IllegalAction(f"{current_hand(state).owner} cannot buy another tile now "
                             "(nine tiles, empty boneyard, or the stake or the bank would not cover it)")
    allowed = ", ".join(label(legal) for legal in legal_actions(state)[:6]) or "nothing"
    return IllegalAction(f"{label(action)} is not legal now ({state.step}); legal: {allowed}")


def _with_hand(state: State, index: int, hand: Hand, step: str) -> State:
    hands = state.hands[:index] + (hand,) + state.hands[index + 1:]
    return replace(state, hands=hands, step=step)


def _show_all(hand: Hand) -> Hand:
    return replace(hand, held=tuple(replace(held, face_up=True) for held in hand.held))


def _next_turn(state: State) -> State:
    """After a hand finishes: the next hand, the banker's announcement, or the end."""
    players = state.hands[:-1]
    banker_hand = state.hands[-1]
    if not banker_hand.finished and all(best_total(hand.tiles) is None for hand in players):
        return replace(state, step="over")  # every player is bust: the banker has won
    if not banker_hand.finished:
        return replace(state, step="decide")
    if best_total(banker_hand.tiles) is None:
        return replace(state, step="over")
    if state.settings.banker_may_concede:
        return replace(state, step="announce")
    return _announce(state, best_total(banker_hand.tiles))


def _announce(state: State, total: int | None) -> State:
    if total is None:
        return replace(state, step="over", banker_total=None)
    return replace(state, hands=tuple(_show_all(hand) for hand in state.hands), step="over", banker_total=total)


def _receive(state: State, index: int, tile: Tile) -> State:
    hand = state.hands[index]
    hand = replace(hand, held=hand.held + (HeldTile(tile),))
    if state.step == "deal":
        dealt = replace(state, hands=state.hands[:index] + (hand,) + state.hands[index + 1:])
        return replace(dealt, step="deal" if any(len(h.held) < OPENING_TILES for h in dealt.hands) else "decide")
    if best_total(hand.tiles) is None:
        # A busted player shows everything; a busted banker keeps his tiles hidden.
        shown = hand if hand.owner == state.banker else _show_all(hand)
        return _next_turn(_with_hand(state, index, replace(shown, finished=True), state.step))
    return _with_hand(state, index, hand, "expose" if len(hand.face_down) > FACE_DOWN_KEPT else "decide")


def apply(state: State, action: object) -> State:
    if action not in legal_actions(state):
        raise _refuse(state, action)
    index = _turn(state)
    hand = state.hands[index]
    if isinstance(action, Draw):
        return _receive(state, index, action.tile)
    if isinstance(action, Hit):
        return replace(state, step="draw")
    if isinstance(action, Expose):
        held = tuple(replace(h, face_up=True) if h.tile == action.tile else h for h in hand.held)
        return _with_hand(state, index, replace(hand, held=held), "decide")
    if isinstance(action, Stand):
        return _next_turn(_with_hand(state, index, replace(hand, finished=True), state.step))
    assert isinstance(action, Announce)  # legal, and none of the others
    return _announce(state, action.total)


# ---------------------------------------------------------------- settling


def stake(hand: Hand) -> int:
    return hand.price * len(hand.held)


def player_result(state: State, hand: Hand) -> str:
    """'bust', 'win', 'lose' or 'bank-over' (the banker announced over 21)."""
    best = best_total(hand.tiles)
    if best is None:
        return "bust"
    if state.banker_total is None:
        return "bank-over"
    settings = state.settings
    mine, banks = is_special_21(hand.tiles, settings), is_special_21(state.hands[-1].tiles, settings)
    if mine != banks:
        return "win" if mine else "lose"
    return "win" if best > state.banker_total else "lose"


def _claim(state: State, hand: Hand) -> int:
    """Chips the player gains (negative: loses) before the bank's funds are counted."""
    result = player_result(state, hand)
    match = banker_match(state.settings, hand.price, len(hand.held))
    if result == "win" or (result == "bank-over" and state.settings.bank_over == "pays-match"):
        return match
    if result == "bank-over":
        return stake(hand) if state.settings.bank_over == "pays-stake" else 0
    return -stake(hand)


def settle(state: State) -> dict[str, int]:
    """Losers pay the bank first; winners are then paid in playing order for as long
    as the bank lasts (it always lasts under the default limit-hits cover)."""
    if not is_terminal(state):
        raise TableError("the round is not over yet: nothing to settle")
    claims = {hand.owner: _claim(state, hand) for hand in state.hands[:-1]}
    funds = _bankroll(state, state.banker) - sum(claim for claim in claims.values() if claim < 0)
    net = {seat: 0 for seat in state.seats}
    for owner, claim in claims.items():
        paid = claim if claim < 0 else min(claim, funds)
        funds -= max(paid, 0)
        net[owner] = paid
        net[state.banker] -= paid
    return net


def next_banker(state: State) -> str | None:
    """The bank passes to the left, skipping anyone who could not cover the others'
    opening pots at the lowest price; None when nobody can."""
    after = settle(state) if is_terminal(state) else {}
    chips = {seat: amount + after.get(seat, 0) for seat, amount in state.bankrolls}
    settings = state.settings
    for seat in round_the_table(state.seats, state.banker):
        bettors = [other for other in state.seats
                   if other != seat and chips[other] >= OPENING_TILES * settings.min_price]
        if bettors and chips[seat] >= _cover_needed(settings, [settings.min_price] * len(bettors)):
            return seat
    return None


# ---------------------------------------------------------------- text and simple play


def _show(hand: Hand) -> str:
    return " ".join(str(h.tile) if h.face_up else f"({h.tile.low}-{h.tile.high})" for h in hand.held)


def describe(state: State) -> str:
    lines = [f"Banker: {state.banker} [{_bankroll(state, state.banker)} chips]; tiles in (brackets) lie face down"]
    for hand in state.hands:
        lines.append(f"{hand.owner} {_hand_head(state, hand)}: {_show(hand) or 'no tiles yet'}"
                     f"{_score_text(hand)}{_result_text(state, hand)}")
    if is_terminal(state):
        if state.banker_total is not None:
            lines.append(f"{state.banker} announced {state.banker_total}")
        elif state.hands[-1].finished:
            lines.append(f"{state.banker} announced over 21")
        net = settle(state)
        lines.append("net: " + ", ".join(f"{seat} {chips:+d}" for seat, chips in net.items()))
    else:
        lines.append(_due_text(state))
    return "\n".join(lines)


def _hand_head(state: State, hand: Hand) -> str:
    if hand.owner == state.banker:
        return "(banker)"
    pot = f"stake {stake(hand)}, banker's match {banker_match(state.settings, hand.price, len(hand.held))}"
    return f"({hand.price}/tile of {_bankroll(state, hand.owner)} chips; {pot})"


def _score_text(hand: Hand) -> str:
    if not hand.tiles:
        return ""
    best = best_total(hand.tiles)
    return "  BUST" if best is None else f"  best {best}"


def _result_text(state: State, hand: Hand) -> str:
    """Why a player's pot went the way it did, in words a table can check."""
    if not is_terminal(state) or hand.owner == state.banker or not hand.tiles:
        return ""
    result = player_result(state, hand)
    if result == "bust":
        return " -> loses his stake: over 21"
    if result == "bank-over":
        return f" -> the banker is over 21 ({state.settings.bank_over})"
    mine, banks = is_special_21(hand.tiles, state.settings), is_special_21(state.hands[-1].tiles, state.settings)
    why = ("a special 21 ([0-0] and two more)" if mine or banks
           else f"{best_total(hand.tiles)} against {state.banker_total}")
    return f" -> {'wins the match' if result == 'win' else 'loses his stake'}: {why}"


def _due_text(state: State) -> str:
    hand = current_hand(state)
    if state.step == "deal":
        return (f"next: a tile for {hand.owner}, {len(hand.held) + 1} of {OPENING_TILES} "
                "(type one from the boneyard, like '3-5')")
    if state.step == "draw":
        return f"next: the tile {hand.owner} bought (type one from the boneyard, like '3-5')"
    if state.step == "expose":
        return f"{hand.owner} turns one of his three face-down tiles face up"
    if state.step == "announce":
        return f"{hand.owner} announces his total and shows his hand, or says 'over 21' and shows nothing"
    if hand.owner == state.banker:
        return f"{hand.owner} (banker) stands or hits; his tiles cost nothing"
    if Hit() not in legal_actions(state):
        return f"{hand.owner} can only stand (nine tiles, an empty boneyard, or no chips to cover another tile)"
    tiles = len(hand.held) + 1
    return (f"{hand.owner} stands or hits: a hit costs {hand.price} more (stake {tiles * hand.price}) "
            f"and the banker's match grows to {banker_match(state.settings, hand.price, tiles)}")


def label(action: object) -> str:
    if isinstance(action, Hit):
        return "hit"
    if isinstance(action, Stand):
        return "stand"
    if isinstance(action, Expose):
        return f"expose {action.tile}"
    if isinstance(action, Draw):
        return f"draw {action.tile}"
    if isinstance(action, Announce):
        return "announce over 21" if action.total is None else f"announce {action.total}"
    return repr(action)


def outcome_of(state: State, pieces: Sequence[Piece]) -> Draw:
    """The tile drawn, whichever way round it lies."""
    tile = the_one(pieces, Tile)
    if tile in in_play(state):
        raise BadValue(f"{tile} is already in play: type a tile from the boneyard")
    return Draw(tile)


def parse_outcome(state: State, text: str) -> Draw:
    return outcome_of(state, (parse_tile(text),))


carry_over = no_carry_over


def parse_bets(settings: Settings, text: str) -> Bets:
    try:
        price = int(text.strip())
    except (ValueError, AttributeError):
        raise BadBet(f"{text!r}: type the price per tile as a whole number of chips") from None
    if not settings.min_price <= price <= settings.max_price:
        raise BadBet(f"the price per tile is {settings.min_price} to {settings.max_price}, not {price}")
    return Bets(price)


def auto_bets(settings: Settings, seats: tuple[str, ...], bankrolls: Mapping[str, int], rng: Random,
              banker: str | None = None) -> dict[str, Bets]:
    """Every seat that can afford two tiles bets the lowest price, but only the first
    seat that could bank for the others and max_players more, since new_round seats no
    more players than that; it picks that seat (or an earlier bettor, leaving as many
    players) to bank and voids its bet. A named banker is the only seat that may bank,
    so the players are counted without him. Nobody bets once no seat could bank for the
    rest, so an auto session stops there instead of dealing empty rounds for ever."""
    able = [seat for seat in seats if bankrolls.get(seat, 0) >= OPENING_TILES * settings.min_price]
    for bank in able if banker is None else [banker]:
        players = [seat for seat in able if seat != bank][:settings.max_players]
        if players and bankrolls[bank] >= _cover_needed(settings, [settings.min_price] * len(players)):
            return {seat: Bets(settings.min_price) for seat in able if seat == bank or seat in players}
    return {}


def auto_action(state: State, rng: Random) -> object:
    legal = legal_actions(state)
    if state.step == "decide":
        return Hit() if Hit() in legal and keeps_drawing(best_total(current_hand(state).tiles)) else Stand()
    if state.step == "expose":
        return min(legal, key=lambda expose: (expose.tile.pips, expose.tile))
    if state.step == "announce":
        return legal[0]
    raise TableError(f"no decision to take now ({current_actor(state)})")
