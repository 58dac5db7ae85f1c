"""`tabletop21 replay SESSION [--check]` and `tabletop21 demo`: a recorded session
played back through today's vision, rules and display."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BUNDLED = REPO / "calibration_images" / "sessions"  # a recorded session of each game
DEMO_SCREENS = "demo-screens"  # where the demo draws its screens without a window, unless told


def register(subparsers) -> None:
    replay = subparsers.add_parser("replay", help="play back a recorded session")
    replay.add_argument("session", help="session folder (manifest.json, events.jsonl, frames/)")
    replay.add_argument("--check", action="store_true",
                        help="re-read every frame and re-settle every round; exit 1 at the first difference")
    _display_options(replay, "no window (with --screenshots, every screen to PNG files; without, none drawn)")
    replay.add_argument("--step", action="store_true", help="wait for a button or key at every step")
    replay.add_argument("--speed", type=_speed, default=1.0, help="playback speed (0: as fast as possible)")
    replay.add_argument("--advisor", action="store_true", help="show each choice's expected value")
    replay.add_argument("--correct", action="store_true",
                        help="go through every read of dice, d10s, domino tiles or cards and say what it was: each one "
                             "kept teaches `tabletop21 teach KIND` next time")
    replay.add_argument("--into", metavar="DIR", default=None,
                        help="the teaching folder --correct keeps reads in (default ~/tabletop21/teach-dice, "
                             "teach-d10, teach-dominoes or teach-cards)")
    replay.set_defaults(run=run_replay)
    demo = subparsers.add_parser("demo", help="replay a bundled session (Dicey 21 unless a game is named) on the display")
    demo.add_argument("game", nargs="?", default="dicey21",
                      help="whose bundled session: dicey21 (default), dice-blackjack, blackjack-dice, domino21, "
                           "changing-bank")
    _display_options(demo, f"no window: every screen to PNG files, in --screenshots DIR or {DEMO_SCREENS}/")
    demo.add_argument("--step", action="store_true", help="wait for a button or key at every step")
    demo.add_argument("--speed", type=_speed, default=1.0, help="playback speed (0: as fast as possible)")
    demo.set_defaults(run=run_demo, check=False, advisor=True, correct=False, into=None)


def _speed(text: str) -> float:
    """A speed of 0 or more; anything else (-1, nan, inf, not a number) is refused in
    words, not taken silently as 0 (as fast as possible)."""
    try:
        speed = float(text)
    except ValueError:
        speed = -1.0
    if not speed >= 0 or speed == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: a speed is a number, 0 (as fast as possible) or more")
    return speed


def _display_options(parser, headless: str) -> None:
    parser.add_argument("--headless", action="store_true", help=headless)
    parser.add_argument("--size", default="800x480", help="screen size WIDTHxHEIGHT (default 800x480)")
    parser.add_argument("--screenshots", default=None, metavar="DIR",
                        help="one PNG per screen in this folder (made if need be), instead of a window")
    parser.add_argument("--fullscreen", action="store_true")


def run_demo(args) -> int:
    from tabletop21.playback import parse_size

    parse_size(args.size)  # a bad --size is the one line said, not after "No screen here"
    session = BUNDLED / args.game
    if not BUNDLED.is_dir():
        print(f"tabletop21: the bundled demo sessions are missing ({BUNDLED}); run from a clone of the "
              "repository installed with `pip install -e .`", file=sys.stderr)
        return 2
    if not (session / "manifest.json").is_file():
        games = ", ".join(sorted(path.name for path in BUNDLED.iterdir() if (path / "manifest.json").is_file()))
        print(f"tabletop21: no bundled session of {args.game!r}; there is one of each of: {games}", file=sys.stderr)
        return 2
    args.session = str(session)
    if not (args.headless or args.screenshots) and not has_screen():
        args.headless = True
        print(f"No screen here: rendering every screen of the demo to {DEMO_SCREENS}/ instead.")
    if args.headless:
        args.screenshots = args.screenshots or DEMO_SCREENS
    return run_replay(args)


def _correct(session, args) -> int:
    from tabletop21.corrections import ROUNDS, TEACH_FOLDERS, correct

    def folder_for(kind: str) -> Path:
        return Path(args.into or TEACH_FOLDERS[kind]).expanduser()

    try:
        saved = correct(session, folder_for, input, print)
    except (EOFError, KeyboardInterrupt):
        print()
        print(f"stopped: the reads answered so far are kept in {args.into or 'their teaching folders'}")
        return 130
    for folder, (kind, count) in saved.items():
        what = ROUNDS[kind]
        print(f"{count} {what}{'s' if count > 1 else ''} kept in {folder}: teach with "
              f"`tabletop21 teach {kind} {folder} -o FILE`")
    if not saved:
        print(f"{args.session}: no roll of dice (or picture of tiles or cards) kept")
    return 0


def has_screen() -> bool:
    """SDL falls back to a dummy driver (or fails) where there is no display at all."""
    import pygame

    try:
        pygame.display.init()
        return pygame.display.get_driver() not in ("dummy", "offscreen")
    except pygame.error:
        return False
    finally:
        pygame.display.quit()


def run_replay(args) -> int:
    from tabletop21.playback import Quit, live, parse_size, screenshots
    from tabletop21.recording import SessionReader
    from tabletop21.replay import CutShort, replay_session

    size = parse_size(args.size)
    if args.step and (args.headless or args.screenshots):
        print("tabletop21: --step waits for a key at every step, which needs a window: drop --headless "
              "and --screenshots", file=sys.stderr)
        return 2
    session = SessionReader(args.session)
    if args.correct:
        return _correct(session, args)
    if session.torn_tail:
        print(f"warning: {args.session}: the last line of events.jsonl was cut short (a stop while it was "
              f"written) and is left out; replaying the {len(session.events)} events before it", file=sys.stderr)
    show, close = None, None
    written: list[Path] = []
    if args.screenshots:
        show, written = screenshots(args.screenshots, size)
    elif not args.headless:
        show, close = live(size, fullscreen=args.fullscreen, speed=args.speed, stepping=args.step)
    try:
        difference = replay_session(session, check=args.check, show=show, advisor=args.advisor)
    except Quit:
        print(f"{args.session}: stopped from the window")
        return 0
    except KeyboardInterrupt:
        return 130
    finally:
        if close:
            close()
    if written:
        print(f"{len(written)} screens written to {args.screenshots}")
    if difference is not None and not isinstance(difference, CutShort):
        print(f"DIFFERENCE in {args.session}\n{difference}")
        return 1
    done = f"replayed{' and checked' if args.check else ''}"
    cut = f"{difference}; {done} up to there" if difference else done
    print(f"{args.session}: {cut}, no difference")
    return 0
