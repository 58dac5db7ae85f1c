"""`tabletop21 bench night`: a game night of rounds through the real appliance loop, the
bankroll file and a session recording, on a fast clock, printing what must stay flat:
memory, open files, disk, and the chips on the table (which must never change).

The table deals its own cards (Blackjack with a changing bank, `[input] cards = "dealt"`),
so no camera read is needed and a night of rounds takes minutes; each round also runs
camera frames through the settle detector, as a live table does between decisions.
Printed, never asserted: the figures depend on the machine."""

from __future__ import annotations

import os
import random
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from hardware.frames import Frame
from table.driver import Driver, house_account
from table.games import game
from table.pieces import PieceKind
from table.reads import TableRead
from tabletop21.appliance import Appliance, Table
from tabletop21.recording import Manifest, SessionWriter
from tabletop21.store import BankrollStore
from vision.settle import SettleDetector

GAME = "changing-bank"
SEATS = ("Ann", "Ben", "Cleo", "Dee")
ROUNDS = 480  # eight hours at a round a minute
FRAMES_PER_ROUND = 30  # camera frames between decisions


class StillTable:
    """An empty table's frames, numbered, as a camera would give them."""

    def __init__(self) -> None:
        self.index = 0
        rng = np.random.default_rng(0)
        self.image = np.clip(np.full((480, 640, 3), (40, 110, 40)) + rng.normal(0, 2, (480, 640, 3)),
                             0, 255).astype(np.uint8)

    def read(self) -> Frame:
        self.index += 1
        return Frame(self.image, self.index, self.index / 30)

    def close(self) -> None:
        pass


def _nothing_read(frame: np.ndarray) -> TableRead:
    return TableRead()


def _used(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def _resources(folder: Path, store: BankrollStore) -> dict[str, Any]:
    with open("/proc/self/statm") as statm:
        resident_pages = int(statm.read().split()[1])
    return {"rss_mb": round(resident_pages * os.sysconf("SC_PAGE_SIZE") / 2**20, 1),
            "open_files": len(os.listdir("/proc/self/fd")),
            "disk_mb": round(_used(folder) / 2**20, 2),
            "chips": sum(store.ledger().as_dict().values())}


def night(rounds: int = ROUNDS, seed: int = 1, say: Any = print) -> tuple[dict[str, Any], dict[str, Any]]:
    """Plays `rounds` rounds; returns the resources at the start and at the end."""
    eng = game(GAME).engine
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="tabletop21-night-") as folder_name:
        folder = Path(folder_name)
        store = BankrollStore(folder / "bank.sqlite")
        ledger = store.open_table({seat: 1000 for seat in SEATS} | {h: 0 for h in house_account(GAME)},
                                  house_account(GAME))
        driver = Driver(GAME, SEATS, bet=5, typed_kinds=(), dealt_kinds=(PieceKind.CARD,))
        recorder = SessionWriter(folder / "session", Manifest(GAME, SEATS, settings={"driver": driver}))
        appliance = Appliance(Table(driver, ledger), StillTable(), SettleDetector(), _nothing_read, store=store,
                              recorder=recorder, rng=random.Random(seed))
        start = _resources(folder, store)
        say(f"start: {start}")
        played, started = 0, time.perf_counter()
        while played < rounds:
            current = appliance.table.driver
            if current.phase == "decide":
                legal = eng.legal_actions(current.state)
                steps = (legal.index(eng.auto_action(current.state, rng)) - current.highlight) % len(legal)
                presses = ["next"] * steps + ["confirm"]
            elif current.phase == "results":
                played += 1
                presses = ["next"]
                if played % max(1, rounds // 8) == 0:
                    say(f"round {played}: {_resources(folder, store)}, {time.perf_counter() - started:.0f} s")
            else:
                presses = ["shake"]
            for _ in range(FRAMES_PER_ROUND // 3):
                appliance.tick()
            appliance.tick(presses=presses)
        end = _resources(folder, store)
        recorder.close()
        store.close()
    return start, end


def run(args: Any) -> None:
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"night: {ROUNDS} rounds of {GAME} at {len(SEATS)} seats, cards dealt by the table, "
          f"{FRAMES_PER_ROUND} camera frames a round, a bankroll file and a recording")
    start, end = night()
    print(f"start: {start}")
    print(f"end:   {end}")
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB "
          f"(before the night: {peak_before:.0f} MB); chips on the table "
          f"{'unchanged' if start['chips'] == end['chips'] else 'CHANGED'}")
