"""The `tabletop21` command. Each sub-command lives in its own cmd_*.py module with a
`register(subparsers)` function; build_parser lists them (a new command is one module
and one entry there)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

from table.errors import TableError

# Libraries' own chatter (pygame's banner, OpenCV's capture warnings) would bury
# the plain-words messages this command prints; our errors say what went wrong.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
# SDL complains on stderr ("XDG_RUNTIME_DIR is invalid or not set") where no desktop
# session set one, as under systemd or ssh: give it a private folder of its own.
if not os.environ.get("XDG_RUNTIME_DIR"):
    _runtime = os.path.join(tempfile.gettempdir(), f"tabletop21-runtime-{os.getuid()}")
    try:
        os.makedirs(_runtime, mode=0o700, exist_ok=True)
        os.environ["XDG_RUNTIME_DIR"] = _runtime
    except OSError:  # no such folder to be had: SDL says its line, nothing worse
        pass
# The readers' small matrix products gain nothing from BLAS threads, which only fight
# the camera loop (and each other) for the Pi's cores; set before numpy is imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def rule_arg(text: str) -> tuple[str, str]:
    """`--rule NAME=VALUE`: the value is read by table.rules.game_settings, which knows
    each game's rules and their types."""
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise argparse.ArgumentTypeError(f"write a house rule as NAME=VALUE, e.g. short_banker=refuse; not {text!r}")
    return name.strip(), value.strip()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tabletop21",
        description="A table appliance for 21-style games with real dice, tiles and cards.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    from tabletop21.cli import (
        cmd_bench,
        cmd_calibrate,
        cmd_doctor,
        cmd_eval,
        cmd_games,
        cmd_odds,
        cmd_play,
        cmd_read,
        cmd_replay,
        cmd_run,
        cmd_teach,
    )

    for command in (cmd_bench, cmd_calibrate, cmd_doctor, cmd_eval, cmd_games, cmd_odds, cmd_play, cmd_read,
                    cmd_replay, cmd_run, cmd_teach):
        command.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    from hardware.controls import GpioUnavailable
    from vision.weights import IncompleteInstall

    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except (TableError, IncompleteInstall, GpioUnavailable) as err:  # each says what to do in its own words
        print(f"tabletop21: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `tabletop21 odds X --json | head`: the reader left, nothing is wrong
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
