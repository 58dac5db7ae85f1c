"""Example screens for all five games, one per screen kind a round goes through.

Used by the tests (rendering, layout fit, reference images) and by the screenshot
script, so both always show the same thing. The figures are plausible for each
game but come from no engine: the display must draw whatever it is given."""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from table.view import (
    Advisor,
    AdvisorLine,
    Bet,
    CameraView,
    ErrorInfo,
    Hand,
    Item,
    Overlay,
    PayRow,
    PayTable,
    Prompt,
    Seat,
    SeatHistory,
    SeatResult,
    Stats,
    TableView,
)

FRAME_SIZE = (640, 480)
CAMERA_LOST = ErrorInfo("Camera lost", "Check the camera cable, then press NEXT to try again.", "No frame for 5 seconds.")
REROLL = ErrorInfo("Re-roll please", "One die is cocked against the rail. Pick up all dice and press SHAKE to roll again.", "A die that is not flat cannot be read for certain.")

ERROR_PROMPTS = {CAMERA_LOST.title: Prompt("", "try again", ""), REROLL.title: Prompt("roll again", "", "")}


@dataclass(frozen=True)
class GameExample:
    """What differs between games in the examples; every screen is built from this."""

    game_id: str
    name: str
    bets: tuple[Seat, ...]
    play: tuple[Seat, ...]
    shared: tuple[Hand, ...]
    play_prompt: Prompt
    advice: tuple[AdvisorLine, ...]
    overlays: tuple[Overlay, ...]
    rolling: bool
    results: tuple[SeatResult, ...]
    paytables: tuple[PayTable, ...]
    error: ErrorInfo
    showcase: Hand  # the pieces the game is played with, floating on the attract screen


def _d6(*values: int) -> tuple[Item, ...]:
    return tuple(Item.die(v) for v in values)


def _d10(*values: int) -> tuple[Item, ...]:
    return tuple(Item.d10(v) for v in values)


def _box(x: int, y: int, size: int = 60) -> tuple[float, float, float, float]:
    return (x, y, x + size, y + size)


def _one_table(title: str, *rows: tuple[str, str]) -> tuple[PayTable, ...]:
    return (PayTable(title, tuple(PayRow(hand, pays) for hand, pays in rows)),)


DICEY21 = GameExample(
    game_id="dicey21",
    name="Dicey 21",
    bets=(
        Seat("Ana", 200, (Bet("ANTE", 10), Bet("MATCH 4", 5))),
        Seat("Ben", 150, (Bet("ANTE", 20),)),
        Seat("Cleo", 90, (Bet("ANTE", 5), Bet("MATCH 2", 5), Bet("MATCH 6", 5))),
    ),
    play=(
        Seat("Ana", 185, (Bet("ANTE", 10), Bet("MATCH 4", 5)), (Hand((Item.card("A", "S"),), total="1 or 11"),), "can raise", True),
        Seat("Ben", 130, (Bet("ANTE", 20),), (Hand((Item.card("9", "H"), Item.card("K", "D")), total="19"),), "stands"),
        Seat("Cleo", 75, (Bet("ANTE", 5), Bet("MATCH 2", 5), Bet("MATCH 6", 5)), (Hand((Item.card("7", "C"),), total="7"),), "waiting"),
    ),
    shared=(Hand((Item.back("die"),) * 3, "community dice", ""),),
    play_prompt=Prompt("hit", "stand", "Ana: hit, stand or raise?"),
    advice=(AdvisorLine("stand", -0.31), AdvisorLine("hit", -0.12), AdvisorLine("raise 3x", 0.41)),
    overlays=(Overlay(_box(120, 150), "die 5"), Overlay(_box(260, 170), "die 3"), Overlay(_box(400, 140), "die 6")),
    rolling=False,
    results=(SeatResult("Ana", 30, "WIN", "21 pays 2:1"), SeatResult("Ben", -20, "BUST", "24 is over 21"), SeatResult("Cleo", 10, "PUSH", "ante 17 push, MATCH 6 pays 2:1")),
    paytables=(
        PayTable("ANTE & RAISE", (PayRow("16 - 18", "push"), PayRow("19 - 20", "1 : 1"), PayRow("21", "2 : 1"), PayRow("raise on any ace", "0 - 3x ante"), PayRow("raise on a 7 count", "0 - 7x ante"))),
        PayTable("MATCH", (PayRow("Single", "1 : 1"), PayRow("Double", "2 : 1"), PayRow("Triple", "6 : 1"), PayRow("Royal (triple + K/Q)", "20 : 1"), PayRow("Quad (triple + card)", "40 : 1"), PayRow("Hi-Five (triple + 2 cards)", "500 : 1"))),
    ),
    error=REROLL,
    showcase=Hand((Item.card("A", "S"), Item.card("K", "D")) + _d6(6, 5, 4)),
)

DICE_BLACKJACK = GameExample(
    game_id="dice-blackjack",
    name="Dice Blackjack",
    bets=(Seat("Dana", 120, (Bet("bet", 10),)), Seat("Eli", 300, (), (), "deals after Dana", role="dealer")),
    play=(
        Seat("Dana", 110, (Bet("bet", 10),), (Hand(_d6(3, 4), "roll 1", "14"), Hand(_d6(2, 6), "roll 2", "16 or 22")), "hit: use 2, 6 or both", True),
        Seat("Eli", 300, (), (), "waits for Dana", role="dealer"),
    ),
    shared=(),
    play_prompt=Prompt("roll again", "stand on 16", "Dana: keep the 2 for 16, or stand?"),
    advice=(AdvisorLine("stand on 16", -0.28), AdvisorLine("roll again", -0.19)),
    overlays=(Overlay(_box(200, 200), "die 2"), Overlay(_box(330, 190), "die 6")),
    rolling=True,
    results=(SeatResult("Dana", 20, "BLACKJACK", "two pairs in a row pay double"), SeatResult("Eli", -20, "LOSE", "dealer pays")),
    paytables=_one_table("Dice Blackjack", ("win against dealer", "1 : 1"), ("blackjack (pair, then pair)", "2 : 1"), ("tie taken by dealer", "push"), ("bust", "lose")),
    error=CAMERA_LOST,
    showcase=Hand(_d6(5, 5, 3, 3)),
)

BLACKJACK_DICE = GameExample(
    game_id="blackjack-dice",
    name="Blackjack Dice",
    bets=(Seat("Finn", 100, (Bet("bet", 5),)), Seat("Gus", 80, (Bet("bet", 10),)), Seat("Hana", 140, (Bet("bet", 5),)), Seat("Ivo", 260, role="banker")),
    play=(
        Seat("Finn", 95, (Bet("bet", 5),), (Hand(_d10(7, 9, 2), total="18"),), "stands"),
        Seat("Gus", 70, (Bet("bet", 10),), (Hand(_d10(6, 0), total="16"),), "your roll", True),
        Seat("Hana", 135, (Bet("bet", 5),), (), "waiting"),
        Seat("Ivo", 260, (), (), "banker rolls last", role="banker"),
    ),
    shared=(),
    play_prompt=Prompt("roll one more", "stand", "Gus: 16. Roll another d10 or stand?"),
    advice=(AdvisorLine("roll", -0.08), AdvisorLine("stand", -0.35)),
    overlays=(Overlay(_box(150, 120), "d10 6"), Overlay(_box(320, 260), "d10 0"), Overlay(_box(470, 130), "d10 ?", True, "numeral face not up")),
    rolling=False,
    results=(SeatResult("Finn", -5, "LOSE", "banker 19 beats 18"), SeatResult("Gus", 10, "WIN", "21 beats 19"), SeatResult("Hana", -5, "BUST", "23 is over 21"), SeatResult("Ivo", 0, "PUSH", "banker nets 0")),
    paytables=_one_table("Blackjack Dice", ("beat the banker", "1 : 1"), ("two-dice blackjack", "1 : 1, never tied"), ("tie with banker", "banker wins"), ("bust", "lose")),
    error=REROLL,
    showcase=Hand(_d10(7, 9, 0, 5)),
)

DOMINO21 = GameExample(
    game_id="domino21",
    name="Domino 21",
    bets=(Seat("Jo", 60, (Bet("stake 2 tiles", 2),)), Seat("Kai", 45, (Bet("stake 2 tiles", 2),)), Seat("Lu", 200, role="banker")),
    play=(
        Seat("Jo", 58, (Bet("stake 3 tiles", 3),), (Hand((Item.tile(6, 5), Item.tile(3, 1), Item.tile(2, 0)), total="17"),), "thinking", True),
        Seat("Kai", 43, (Bet("stake 2 tiles", 2),), (Hand((Item.back("tile"), Item.back("tile"))),), "stands"),
        Seat("Lu", 200, (), (Hand((Item.back("tile"), Item.back("tile"))),), "plays last", role="banker"),
    ),
    shared=(Hand((Item.back("tile"),) * 6, "boneyard", ""),),
    play_prompt=Prompt("buy a tile", "stand", "Jo: 17 with three tiles. Buy another?"),
    advice=(AdvisorLine("buy a tile", -0.52), AdvisorLine("stand", 0.06)),
    overlays=(Overlay((140, 160, 200, 280), "tile 6|5"), Overlay((260, 160, 320, 280), "tile 3|1"), Overlay((380, 160, 440, 280), "tile 2|0"), Overlay((500, 160, 560, 280), "tile face down")),
    rolling=False,
    results=(SeatResult("Jo", 9, "WIN", "20 beats banker 19: pays 3 squared"), SeatResult("Kai", -2, "LOSE", "18 to banker 19"), SeatResult("Lu", -7, "LOSE", "banker pays out")),
    paytables=_one_table("Domino 21", ("stake per tile", "1 chip"), ("banker matches", "stake squared"), ("beat the banker", "win banker's match"), ("tie or lower", "banker takes stake"), ("over 21", "lose stake")),
    error=CAMERA_LOST,
    showcase=Hand((Item.tile(6, 6), Item.tile(5, 4), Item.back("tile"), Item.tile(0, 0))),
)

CHANGING_BANK = GameExample(
    game_id="changing-bank",
    name="Blackjack, Changing Bank",
    bets=(Seat("Mo", 100, (Bet("bet", 10),)), Seat("Nia", 100, (Bet("bet", 10),)), Seat("Oz", 100, (Bet("bet", 5),)), Seat("Pia", 100, (Bet("bet", 5),)), Seat("Quinn", 400, role="dealer")),
    play=(
        Seat("Mo", 90, (Bet("bet", 10),), (Hand((Item.card("8", "C"), Item.card("7", "D"), Item.card("6", "S")), total="21"),), "stands"),
        Seat("Nia", 90, (Bet("bet", 10), Bet("split", 10)), (Hand((Item.card("8", "H"), Item.card("3", "S")), "hand 1", "11"), Hand((Item.card("8", "S"),), "hand 2", "8")), "hand 1 to play", True),
        Seat("Oz", 95, (Bet("bet", 5),), (Hand((Item.card("Q", "H"), Item.card("5", "C")), total="15"),), "waiting"),
        Seat("Pia", 95, (Bet("bet", 5),), (Hand((Item.card("J", "D"), Item.card("9", "C")), total="19"),), "waiting"),
        Seat("Quinn", 400, (), (Hand((Item.card("10", "S"), Item.back("card"))),), "hole card down", role="dealer"),
    ),
    shared=(),
    play_prompt=Prompt("hit", "stand", "Nia, hand 1: 11. Hit or stand?"),
    advice=(AdvisorLine("hit", 0.18), AdvisorLine("stand", -0.42), AdvisorLine("double", 0.11)),
    overlays=(Overlay((100, 120, 170, 220), "card 8H"), Overlay((190, 120, 260, 220), "card 3S"), Overlay((300, 110, 370, 210), "card 8S"), Overlay((420, 250, 490, 350), "card face down")),
    rolling=False,
    results=(SeatResult("Mo", 20, "WIN", "8-7-6 pays double"), SeatResult("Nia", -20, "LOSE", "19 and 18 to dealer 20"), SeatResult("Oz", -5, "BUST", "25 is over 21"), SeatResult("Pia", -5, "LOSE", "19 to 20"), SeatResult("Quinn", 10, "WIN", "dealer 20")),
    paytables=_one_table("Changing Bank", ("beat the dealer", "1 : 1"), ("natural", "2 : 1"), ("five cards, 21 or under", "2 : 1, doubling per card"), ("8-7-6 making 21", "2 : 1"), ("dealer natural", "players pay 2x")),
    error=CAMERA_LOST,
    showcase=Hand((Item.card("A", "H"), Item.card("K", "S"), Item.back("card"))),
)

GAMES = (DICEY21, DICE_BLACKJACK, BLACKJACK_DICE, DOMINO21, CHANGING_BANK)


def _history(seed: int, start: int, rounds: int) -> tuple[int, ...]:
    """A fixed, made-up bankroll path so chart pictures never change between runs."""
    rng = np.random.default_rng(seed)
    steps = rng.choice([-10, -5, 0, 5, 10, 20], size=rounds)
    return tuple(int(v) for v in np.concatenate([[start], start + np.cumsum(steps)]))


def views_for(game: GameExample) -> dict[str, TableView]:
    base = TableView(game.game_id, game.name, "attract")
    players = [seat for seat in game.play if not seat.role]
    histories = tuple(SeatHistory(seat.name, _history(i, 100, 14)) for i, seat in enumerate(players))
    ended = tuple(replace(seat, is_turn=False, status="") for seat in game.play)
    actor = next(seat.name for seat in game.play if seat.is_turn)
    return {
        "attract": replace(base, seats=game.bets, shared=(game.showcase,), prompt=Prompt("start", "rules", "Press SHAKE to start a round")),
        "bets": replace(base, screen="bets", round_no=3, seats=game.bets, prompt=Prompt("", "bets done", "Place chips, then press NEXT")),
        "play": replace(base, screen="play", round_no=3, seats=game.play, shared=game.shared, prompt=game.play_prompt, advisor=Advisor(actor, game.advice, visible=True)),
        "reading": replace(base, screen="reading", round_no=3, camera=CameraView("frame-0042", FRAME_SIZE, () if game.rolling else game.overlays, game.rolling), prompt=Prompt("", "", "Hands off the table: reading...") if game.rolling else Prompt("re-read", "accept", "Check the read, then press NEXT")),
        "results": replace(base, screen="results", round_no=3, seats=ended, shared=game.shared, results=game.results, prompt=Prompt("", "next round", "Collect and pay, then press NEXT")),
        "paytable": replace(base, screen="paytable", paytables=game.paytables, prompt=Prompt("", "back", "")),
        "stats": replace(base, screen="stats", round_no=14, stats=Stats(14, histories, ("Biggest win: +30", "Pushes: 3 of 14 rounds")), prompt=Prompt("", "back", "")),
        "error": replace(base, screen="error", round_no=3, error=game.error, prompt=ERROR_PROMPTS[game.error.title]),
    }


def all_views() -> dict[str, TableView]:
    """Every example screen, keyed 'game-id/screen'."""
    return {f"{game.game_id}/{screen}": view for game in GAMES for screen, view in views_for(game).items()}


def example_frame(view: TableView) -> np.ndarray | None:
    """A drawn overhead picture matching the view's overlays (felt and simple pieces),
    so reading screens can be rendered without a camera or the photo set."""
    if view.camera is None:
        return None
    width, height = view.camera.frame_size
    frame: np.ndarray = np.zeros((height, width, 3), np.uint8)
    frame[:] = (40, 110, 30)
    for overlay in view.camera.overlays:
        _draw_piece(frame, overlay)
    if view.camera.rolling:  # two dice tumbling: smeared white shapes, nothing readable
        for x, y in ((230, 200), (380, 250)):
            cv2.rectangle(frame, (x, y), (x + 55, y + 55), (235, 235, 235), -1)
        frame = cv2.blur(frame, (41, 9))
    return frame


def _draw_piece(frame: np.ndarray, overlay: Overlay) -> None:
    x0, y0, x1, y1 = (int(v) for v in overlay.box)
    kind, _, shown = overlay.label.partition(" ")
    inner = (x0 + 4, y0 + 4), (x1 - 4, y1 - 4)
    if "face down" in shown:
        cv2.rectangle(frame, *inner, (120, 50, 30), -1)
    elif kind == "d10":
        cx = (x0 + x1) // 2
        kite = np.array([(cx, y0 + 2), (x1 - 2, y0 + (y1 - y0) * 6 // 10), (cx, y1 - 2), (x0 + 2, y0 + (y1 - y0) * 6 // 10)])
        cv2.fillPoly(frame, [kite], (40, 90, 210))
        cv2.putText(frame, shown, (cx - 9, (y0 + y1) // 2 + 9), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2)
    else:
        cv2.rectangle(frame, *inner, (235, 235, 235), -1)
        cv2.putText(frame, shown, (x0 + 8, y0 + 28), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (20, 20, 20), 2)
