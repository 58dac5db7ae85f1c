"""`tabletop21 run [--config FILE]`: the appliance itself: camera, buttons, display."""

from __future__ import annotations

import os
import queue
import sys
import threading
import time
from collections import deque
from contextlib import ExitStack, suppress
from dataclasses import replace
from datetime import datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from table.errors import TableError


def register(subparsers) -> None:
    parser = subparsers.add_parser("run", help="start the table appliance (camera, buttons, display)")
    parser.add_argument("--config", default=None,
                        help="settings file (TOML; see docs/deploy/table.toml); default $TABLETOP21_CONFIG, "
                             "else ~/tabletop21/table.toml")
    parser.add_argument("--fullscreen", action="store_true", help="fill the screen (kiosk mode)")
    parser.add_argument("--frames", type=int, default=None,
                        help="stop after this many camera frames and print the loop's timings (a smoke test)")
    choice = parser.add_mutually_exclusive_group()
    # Without either, a round left open by a stop or crash is resumed when the settings
    # still describe its table and voided (every bet back) otherwise; the screen says which.
    choice.add_argument("--resume", action="store_true",
                        help="carry on with a round left open, or stop and say why it cannot be")
    choice.add_argument("--void", action="store_true", help="void a round left open; its bets go back")
    parser.add_argument("--new-table", action="store_true",
                        help="open fresh bankrolls where the bankroll file is missing, empty or damaged and no "
                             "good copy is beside it (a damaged file is kept aside, never deleted)")
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
    from tabletop21.devices import open_display, settings_calibration
    from tabletop21.settings import find_settings, load_config

    path, said = find_settings(args.config)
    config = load_config(path)
    print(said)
    calibration = settings_calibration(config)  # opens nothing: a bad file starts nothing
    taught = _taught(config)
    display = open_display(config, args.fullscreen)  # first to open: if it fails, nothing else was opened
    with ExitStack() as opened:  # closed in reverse, whatever ends the run
        opened.callback(display.close)
        return _run(args, config, calibration, taught, display, opened)


def _taught(config):
    """The taught dice reader the settings name, with its file's hash (what the recording
    names), or None; a file that cannot be used is one line before anything opens."""
    if not config.table.taught:
        return None
    from tabletop21.taught import file_hash, load_taught

    path = Path(config.table.taught).expanduser()
    try:
        return load_taught(path), {"file": str(path), "hash": file_hash(path)}
    except TableError as err:
        raise TableError(f"{err} (fix [table] taught in the settings, or empty it for the shipped reader)") from None


def _run(args, config, calibration, taught, display, opened: ExitStack) -> int:
    from display import QUIT
    from hardware.frames import ReconnectingSource
    from table.driver import Driver, house_account
    from tabletop21.appliance import Appliance, Table, reader_kinds, reopen_round, table_reader
    from tabletop21.devices import open_source
    from tabletop21.folders import folder_to_keep
    from tabletop21.recording import (
        EndOfRecording,
        Manifest,
        SessionWriter,
        earlier_sessions,
        new_session_folder,
        prune_sessions,
    )
    from tabletop21.store import BankrollStore
    from tabletop21.teaching import Corrections
    from vision.settle import SettleDetector

    game, seats = config.table.game, config.table.seats
    typed, dealt = config.input.typed_kinds(), config.input.dealt_kinds()
    driver = Driver(game, seats, bet=config.table.bet, seat_bets=tuple(config.table.bets.items()), typed_kinds=typed,
                    dealt_kinds=dealt, settings=config.settings)
    # Whatever a setting or a device can fail at comes before the store is written
    # to: reopening a round can void it, and a round voided by a start that then
    # stopped on a bad sessions folder or an unplugged camera is lost to the start
    # after the fix, which would have resumed it.
    started = datetime.now()
    root = Path(config.table.sessions).expanduser()
    made = _missing(root)  # looked for first: new_session_folder makes them
    existed = earlier_sessions(root)  # a bankroll file gone missing is no new table when these are there
    folder = new_session_folder(root, started)
    opened.callback(_drop_if_unrecorded, folder, made)
    source = ReconnectingSource(lambda: open_source(config), first=_open_camera(config, open_source))
    opened.callback(source.close)
    controls = None
    if config.gpio.enabled:
        from tabletop21.devices import open_controls

        controls = open_controls(config.gpio)
        opened.callback(controls.close)
    store_path = Path(config.table.store).expanduser()
    folder_to_keep(store_path.parent, "the bankroll file", "point [table] store at a file in a folder")
    store = BankrollStore(store_path, new_table=args.new_table, existed=existed)
    opened.callback(store.close)
    for notice in store.notices:
        print(f"tabletop21: {notice}")
    ledger = store.open_table({seat: config.table.chips for seat in seats} | {h: 0 for h in house_account(game)},
                              house_account(game))
    reopened = reopen_round(store, driver, "resume" if args.resume else "void" if args.void else "auto")
    if reopened.notice:
        print(f"tabletop21: {reopened.notice}")
    removed, freed = prune_sessions(root, config.table.keep_sessions_mb, keep=(folder,))
    if removed:
        print(f"tabletop21: removed the {removed} oldest session recording{'s' if removed > 1 else ''} "
              f"({freed / 2**20:.0f} MiB) to keep {root} under [table] keep_sessions_mb = "
              f"{config.table.keep_sessions_mb}")
    kinds = reader_kinds(game, typed + dealt)
    recorder = SessionWriter(folder, Manifest(game, seats, settings={
        "bet": config.table.bet, "typed_kinds": list(typed), "dealt_kinds": list(dealt),
        "bankrolls": ledger.as_dict(),
        "driver": reopened.driver, "readers": list(kinds), "calibration": calibration,
        "taught": taught[1] if taught else None, "learned": [kind for kind in config.table.learned if kind in kinds]},
        versions={"tabletop21": _version()}, created=started.isoformat(timespec="seconds")))
    opened.callback(recorder.close)
    appliance = Appliance(Table(reopened.driver, ledger, round_id=reopened.round_id), source, SettleDetector(calibration),
                          table_reader(kinds, calibration, taught[0] if taught else None, config.table.learned), store=store, recorder=recorder,
                          controls=controls, advisor=config.display.advisor,
                          notice=" ".join([*store.notices, reopened.notice]).strip(),
                          corrections=Corrections(die_side=calibration.die_px if calibration is not None else None))
    lines = typed_lines()
    print(f"tabletop21: {game} at {len(seats)} seats; recording to {folder}; Esc on the display (or Ctrl+C) quits.")
    timings = {"table (camera, settle, read, rules)": LoopTimes(), "display": LoopTimes()}
    try:
        while args.frames is None or timings["display"].count < args.frames:
            presses = display.poll()
            if QUIT in presses:
                break
            entries = display.typed()
            while not lines.empty():
                entries.append(lines.get())
            ticked = time.perf_counter()
            view, image = appliance.tick(presses=[p for p in presses if p != QUIT], typed=entries,
                                         touched=display.touched())
            drawn = time.perf_counter()
            typing = f"Typed: {display.typing}_  (Enter to give it)" if display.typing else ""
            if appliance.correction is not None:  # a round's dice said to be read wrong, on its results screen
                screen = appliance.correction_screen()
                display.show_check(replace(screen, message=typing) if typing else screen, appliance.correction.image)
            else:
                display.show(replace(view, prompt=replace(view.prompt, message=typing)) if typing else view, image)
            timings["table (camera, settle, read, rules)"].add(drawn - ticked)
            timings["display"].add(time.perf_counter() - drawn)
            if image is None:
                time.sleep(0.05)  # no camera: do not spin
    except KeyboardInterrupt:
        pass
    except EndOfRecording as err:  # a recorded session as the camera, played to its end
        print(f"tabletop21: {err}: the run ends.")
    except TableError as err:  # a full card, a bankroll file that cannot be written: said on the screen too
        stopped_screen(display, appliance, err)
        raise
    finally:
        for stage, times in timings.items():
            if times.count:
                print(f"{stage}: {times}")
    return 0


STOPPED_SCREEN_SECONDS = 30.0  # how long the table's screen says why it stopped, before the run ends


def stopped_screen(display, appliance, err: TableError, clock=time.monotonic) -> None:
    """What stopped the table, on its own screen (the terminal may be nowhere near it),
    until a button or Esc or STOPPED_SCREEN_SECONDS; the round in play stays as it was
    last saved. A display with no screen (SDL's dummy driver) shows nothing to wait for."""
    import pygame

    from table.view import ErrorInfo
    from table.views import build_view

    said = str(err)
    fix = ("The memory card is full: free some space (a lower [table] keep_sessions_mb prunes old recordings at "
           "start), then start the table again." if "full" in said else
           "Fix what the line below says, then start the table again; the round in play is kept as it was.")
    view = build_view(appliance.table.driver, appliance.table.ledger, error=ErrorInfo("The table stopped", fix, said))
    display.show(view, None)
    try:
        screenless = pygame.display.get_driver() in ("dummy", "offscreen")
    except pygame.error:  # no display opened at all
        screenless = True
    if screenless:
        return
    until = clock() + STOPPED_SCREEN_SECONDS
    while clock() < until and not display.poll():
        display.show(view, None)
        time.sleep(0.05)


class LoopTimes:
    """Seconds per pass of the loop: a running mean over the whole run and a p95 over
    the latest RECENT passes, so a night at 30 frames a second keeps a flat footprint
    (every pass kept was two floats a frame, about 180 MB a day)."""

    RECENT = 3600

    def __init__(self) -> None:
        self.count, self.total = 0, 0.0
        self.recent: deque[float] = deque(maxlen=self.RECENT)

    def add(self, seconds: float) -> None:
        self.count += 1
        self.total += seconds
        self.recent.append(seconds)

    def __str__(self) -> str:
        ordered = sorted(self.recent)
        p95 = ordered[int(0.95 * (len(ordered) - 1))]
        return (f"{1000 * self.total / self.count:.1f} ms mean over {self.count} frames, "
                f"{1000 * p95:.1f} ms p95 over the last {len(ordered)}")


def _open_camera(config, open_source):
    """The camera, opened before the store is touched, or None when a live one does
    not open: that is no reason to stop. On the appliance the table's screen is where
    a person looks, so it says "Camera lost" and the camera is tried again, as when it
    goes mid-run, where a stopped run would leave the screen blank while systemd
    restarted it. A recorded session that is not there is a setting to fix and stops
    the run (the reader's own error)."""
    from hardware.frames import CameraLost

    try:
        return open_source(config)
    except (CameraLost, OSError) as err:
        print(f"tabletop21: the camera did not open ({err}); the screen says so and it is tried again. "
              "Check its cable and [camera] in the settings; `tabletop21 doctor` tells more. No camera at all? "
              "`tabletop21 run --config docs/deploy/laptop.toml` plays a recorded session as the camera",
              file=sys.stderr)
        return None


def _missing(folder: Path) -> list[Path]:
    """The folder and those above it that are not there yet, deepest first (os.path's
    exists, since Path.exists raises where a folder above is unreadable, and
    new_session_folder is the one to say that in words)."""
    return [path for path in (folder, *folder.parents) if not os.path.exists(path)]


def _drop_if_unrecorded(folder: Path, made: list[Path]) -> None:
    """A run that stopped before its recording began (a round --resume refuses, GPIO
    pins in use, a bad bankroll file) leaves no empty session folder for replay to
    trip on, nor the empty sessions folder (and those above it) it made to hold it."""
    with suppress(OSError):  # not empty: the recording began, or another run's is there, and it stays
        for path in (folder, *made):
            path.rmdir()


def _version() -> str:
    try:
        return version("tabletop21")
    except PackageNotFoundError:
        return "unknown"
