"""Records the bundled sessions in this folder from rendered frames:

    .venv/bin/python -m tools.make_sessions

Each session is a real run of the appliance loop (tabletop21.appliance.Appliance): a
camera that renders the table (a hand over the tray, dice tumbling in, coming to
rest; tiles laid down one by one), the real settle detector and readers, the round
driver and the rules engines, with decisions taken by the engines' own simple
strategy through the two buttons. What it records is what `tabletop21 demo` and
`tabletop21 replay --check` play back. Until sessions recorded at a real table
replace them, these are the regression fixtures for the whole pipeline.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import shutil
import sys
from pathlib import Path

import numpy as np

from hardware.frames import Frame
from table.driver import Driver, house_account, need_of
from table.games import engine
from table.games import game as game_of
from table.ledger import Ledger
from table.pieces import PieceKind
from table.round_play import sample_chance
from tabletop21.appliance import Appliance, Table, reader_kinds, table_reader
from tabletop21.recording import Manifest, SessionWriter
from tools.render import dominoes as tiles
from tools.render import scene
from tools.render.fixtures import _place, random_die
from vision.settle import SettleDetector

HERE = Path(__file__).resolve().parents[1] / "calibration_images" / "sessions"
SIZE = 640
SESSIONS = {
    "dicey21": dict(seats=("Ann", "Ben", "Cleo"), bet=5, typed=("card",), rounds=4, seed=21,
                    seat_bets={"Ann": "5 3:2", "Cleo": "5 6:1 1:1"}),
    "dice-blackjack": dict(seats=("Ann", "Ben"), bet=5, typed=(), rounds=3, seed=6),
    "blackjack-dice": dict(seats=("Ann", "Ben", "Cleo"), bet=5, typed=("d10",), rounds=3, seed=10),
    "domino21": dict(seats=("Ann", "Ben", "Cleo"), bet=1, typed=(), rounds=2, seed=28),
    "changing-bank": dict(seats=("Ann", "Ben", "Cleo"), bet=5, typed=("card",), rounds=3, seed=52),
}
MAX_TICKS = 60  # per chance event: far more than rolling and settling take


class RenderedTable:
    """A frame source that draws what the script puts on the table, frame by frame."""

    def __init__(self, rng: np.random.Generator, kind: str) -> None:
        self.rng = rng
        self.kind = kind
        if kind == "tiles":
            self.base = tiles.table_background("felt", (SIZE, SIZE), rng)
            self.style = tiles.STYLES[sorted(tiles.STYLES)[0]]
            self.shape = tiles.random_shape(rng)
            self.light = int(rng.integers(1 << 30))  # one lamp for the whole session
        else:
            self.base, self.area = scene.table(rng, SIZE, True)
        self.laid: list[tuple[tuple[int, int], tuple[float, float], float]] = []
        self.still = self._draw_empty()
        self.queue: list[np.ndarray] = []
        self.index = 0

    def read(self) -> Frame:
        self.index += 1
        image = self.queue.pop(0) if self.queue else self.still
        return Frame(image, self.index, self.index / 15)

    def close(self) -> None:
        pass

    def _draw_empty(self) -> np.ndarray:
        return scene.finish(self.base.copy(), self.rng) if self.kind == "dice" else self._tiles_frame()

    def roll(self, values: tuple[int, ...]) -> None:
        """A hand with the shaker, the dice tumbling, then the dice at rest."""
        side = float(self.rng.uniform(30, 40))
        taken: list = []
        dice = []
        for value in values:
            spot = _place(self.rng, self.area, side * 1.3, taken, touching=False)
            taken.append((*spot, side * 1.3))
            dice.append(dataclasses.replace(random_die(self.rng, *spot, side), value=value, glare=False))
        for step in range(2):
            hand = self.base.copy()
            scene.draw_hand(hand, SIZE * (0.3 + 0.2 * step), SIZE * 0.5, 1.0, self.rng)
            self.queue.append(scene.finish(hand, self.rng))
        for step in range(3):
            moving = self.base.copy()
            for die in dice:
                shift = (3 - step) * side * 0.8
                scene.draw_die(moving, dataclasses.replace(die, x=die.x - shift, angle=die.angle + 25 * (3 - step),
                                                           blur=(shift / 2, 0.0)), self.rng)
            self.queue.append(scene.finish(moving, self.rng))
        still = self.base.copy()
        for die in dice:
            scene.draw_die(still, die, self.rng)
        self.still = scene.finish(still, self.rng)

    def lay(self, halves: tuple[int, int]) -> None:
        """A hand lays one more tile face up beside the others."""
        slot = len(self.laid)
        column, row = slot % 4, slot // 4
        centre = (110 + 140 * column + self.rng.uniform(-8, 8), 90 + 120 * row + self.rng.uniform(-8, 8))
        self.laid.append((halves, centre, float(self.rng.uniform(-25, 25))))
        hand = self._tiles_frame(hand=True)
        self.queue += [hand, hand]
        self.still = self._tiles_frame()

    def _tiles_frame(self, hand: bool = False) -> np.ndarray:
        table = self.base.copy()
        for halves, centre, angle in self.laid:
            texture, alpha = tiles.tile_texture(halves, self.style, np.random.default_rng(hash(halves) & 0xFFFF),
                                                self.shape)
            tiles.place_tile(table, texture, alpha, centre, 46.0, angle)
        if hand:
            table[SIZE // 3: SIZE * 2 // 3, SIZE // 4: SIZE * 3 // 4] = (120, 150, 200)
        return tiles.finish_photo(table, np.random.default_rng(self.light))

    def clear(self) -> None:
        """Between rounds the tiles go back to the boneyard."""
        if self.kind == "tiles":
            self.laid = []
            self.still = self._tiles_frame()


def outcome_text(action) -> str:
    for name in ("card", "tile"):
        if hasattr(action, name):
            return str(getattr(action, name))
    dice = getattr(action, "dice", None)
    return " ".join(str(value) for value in (dice if isinstance(dice, tuple) else (action.value,)))


def record(game: str, folder: Path, seats, bet: int, typed, rounds: int, seed: int, seat_bets=None) -> dict:
    eng = engine(game)
    rng = random.Random(seed)
    camera = RenderedTable(np.random.default_rng(seed), "tiles" if PieceKind.TILE in game_of(game).pieces else "dice")
    bankrolls = {seat: 100 for seat in seats} | {account: 0 for account in house_account(game)}
    driver = Driver(game, tuple(seats), bet=bet, seat_bets=tuple((seat_bets or {}).items()), typed_kinds=tuple(typed))
    kinds = reader_kinds(game, tuple(typed))
    manifest = Manifest(game, tuple(seats), settings={"bet": bet, "typed_kinds": list(typed), "bankrolls": bankrolls,
                                                      "readers": list(kinds), "seat_bets": seat_bets or {}},
                        versions={"tabletop21": "rendered"}, created="rendered")
    recorder = SessionWriter(folder, manifest, jpeg_quality=85)
    appliance = Appliance(Table(driver, Ledger.open(bankrolls, house_account(game))), camera,
                          SettleDetector(), table_reader(kinds), recorder=recorder)
    tally = {"reads": 0, "rerolls": 0, "misreads": 0}
    for _ in range(3):
        appliance.tick()
    finished = 0
    for _ in range(5_000):
        if finished == rounds:
            break
        current = appliance.table.driver
        if current.phase == "bets":
            camera.clear()
            appliance.tick(presses=["shake"])
        elif current.phase == "results":
            finished += 1
            appliance.tick(presses=["next"])
        elif current.phase == "decide":
            legal = eng.legal_actions(current.state)
            wanted = legal.index(eng.auto_action(current.state, rng))
            steps = (wanted - current.highlight) % len(legal)
            appliance.tick(presses=["next"] * steps + ["shake"])
        elif current.phase == "typed":
            appliance.tick(typed=[outcome_text(sample_chance(eng, current.state, rng))])
        else:
            outcome = sample_chance(eng, current.state, rng)
            if need_of(game, current.state).kind == PieceKind.TILE:
                camera.lay((outcome.tile.low, outcome.tile.high))
            else:
                camera.roll(tuple(outcome.dice))
                appliance.tick(presses=["shake"])
            before = appliance.table.driver.state
            for _ in range(MAX_TICKS):
                appliance.tick()
                if appliance.table.driver.state is not before or appliance.table.driver.message:
                    break
            tally["reads"] += 1
            tally["rerolls"] += appliance.table.driver.state is before
            applied = appliance.table.driver.applied
            if applied and outcome_text(applied[0]).split() != outcome_text(outcome).split():
                same = sorted(outcome_text(applied[0]).split()) == sorted(outcome_text(outcome).split())
                tally["misreads"] += not same
            if appliance.table.driver.state is before and camera.kind == "tiles":
                raise RuntimeError(f"{game}: the tile reader missed tile {outcome.tile}: fix the reader")
    else:
        raise RuntimeError(f"{game}: the session did not finish; the driver is stuck in {appliance.table.driver.phase}")
    recorder.close()
    return tally | {"bankrolls": appliance.table.ledger.as_dict()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(SESSIONS))
    args = parser.parse_args(argv)
    for game in args.games:
        folder = HERE / game
        shutil.rmtree(folder, ignore_errors=True)
        tally = record(game, folder, **SESSIONS[game])
        print(f"{game}: {tally}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
