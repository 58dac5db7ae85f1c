"""`tabletop21 run [--config FILE]`: the appliance itself: camera, buttons, display."""

from __future__ import annotations

import queue
import sys
import threading
import time
from dataclasses import replace
from datetime import datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from table.errors import TableError


def register(subparsers) -> None:
    parser = subparsers.add_parser("run", help="start the table appliance (camera, buttons, display)")
    parser.add_argument("--config", default=None, help="settings file (TOML); see docs/deploy/table.toml")
    parser.add_argument("--fullscreen", action="store_true", help="fill the screen (kiosk mode)")
    parser.add_argument("--frames", type=int, default=None,
                        help="stop after this many camera frames and print the loop's timings (a smoke test)")
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--resume", action="store_true", help="carry on with a round a crash left open")
    choice.add_argument("--void", action="store_true", help="void a round a crash left open; its bets go back")
    parser.set_defaults(run=run)


def typed_lines() -> queue.Queue:
    """Cards and d10s typed at the terminal, for tables where the camera does not read them yet."""
    lines: queue.Queue = queue.Queue()

    def pump() -> None:
        for line in sys.stdin:
            lines.put(line.strip())

    if sys.stdin and sys.stdin.isatty():
        threading.Thread(target=pump, daemon=True).start()
    return lines


def run(args) -> int:
    from display import QUIT, Display
    from hardware.appliance import Appliance, Table, reader_kinds, resume_or_void, table_reader
    from hardware.config import load_config
    from hardware.frames import ReconnectingSource
    from hardware.recording import Manifest, SessionWriter
    from hardware.sources import open_source
    from table.driver import Driver, house_account
    from table.store import BankrollStore
    from vision.calibration import Calibration
    from vision.settle import SettleDetector

    config = load_config(args.config)
    game, seats = config.table.game, config.table.seats
    store_path = Path(config.table.store).expanduser()
    store_path.parent.mkdir(parents=True, exist_ok=True)
    store = BankrollStore(store_path)
    ledger = store.open_table({seat: config.table.chips for seat in seats} | {h: 0 for h in house_account(game)},
                              house_account(game))
    typed = tuple(kind for kind, how in (("card", config.input.cards), ("d10", config.input.d10),
                                          ("tile", config.input.dominoes)) if how == "typed")
    driver = Driver(game, seats, bet=config.table.bet, seat_bets=tuple(config.table.bets.items()), typed_kinds=typed)
    if store.unfinished() is not None and not (args.resume or args.void):
        raise TableError("a round was left open by a crash or power cut: start again with --resume to finish "
                         "it or --void to cancel it and return its bets")
    driver, round_id = resume_or_void(store, driver, resume=args.resume)
    calibration = Calibration.load(Path(config.table.calibration).expanduser()) if config.table.calibration else None
    folder = Path(config.table.sessions).expanduser() / datetime.now().strftime("%Y%m%d-%H%M%S")
    kinds = reader_kinds(game, typed)
    recorder = SessionWriter(folder, Manifest(game, seats, settings={
        "bet": config.table.bet, "typed_kinds": list(typed), "bankrolls": ledger.as_dict(), "driver": driver,
        "readers": list(kinds)},
        versions={"tabletop21": _version()}, created=datetime.now().isoformat(timespec="seconds")))
    controls = None
    if config.gpio.enabled:
        from hardware.controls import GpioControls

        controls = GpioControls(config.gpio)
    display = Display((config.display.width, config.display.height),
                      fullscreen=args.fullscreen or config.display.fullscreen)
    appliance = Appliance(Table(driver, ledger, round_id=round_id),
                          ReconnectingSource(lambda: open_source(config)), SettleDetector(),
                          table_reader(kinds, calibration), store=store, recorder=recorder,
                          controls=controls, advisor=config.display.advisor)
    lines = typed_lines()
    print(f"tabletop21: {game} at {len(seats)} seats; recording to {folder}; Esc or q quits.")
    timings: dict[str, list[float]] = {"table (camera, settle, read, rules)": [], "display": []}
    try:
        while args.frames is None or len(timings["display"]) < args.frames:
            presses = display.poll()
            if QUIT in presses:
                break
            entries = display.typed()
            while not lines.empty():
                entries.append(lines.get())
            started = time.perf_counter()
            view, image = appliance.tick(presses=[p for p in presses if p != QUIT], typed=entries)
            drawn = time.perf_counter()
            if display.typing:
                view = replace(view, prompt=replace(view.prompt, message=f"Typed: {display.typing}_  (Enter to give it)"))
            display.show(view, image)
            timings["table (camera, settle, read, rules)"].append(drawn - started)
            timings["display"].append(time.perf_counter() - drawn)
            if image is None:
                time.sleep(0.05)  # no camera: do not spin
    except KeyboardInterrupt:
        pass
    finally:
        for stage, seconds in timings.items():
            if seconds:
                ordered = sorted(seconds)
                print(f"{stage}: {1000 * sum(ordered) / len(ordered):.1f} ms mean, "
                      f"{1000 * ordered[int(0.95 * (len(ordered) - 1))]:.1f} ms p95 over {len(ordered)} frames")
        recorder.close()
        display.close()
        if controls:
            controls.close()
        store.close()
    return 0


def _version() -> str:
    try:
        return version("tabletop21")
    except PackageNotFoundError:
        return "unknown"
