"""Write the README screenshots: one PNG per screen kind, games mixed, from the same
example views the tests render.

    python -m tabletop21.screenshots [OUT_DIR] [--size 800x480]
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from display.examples import all_views, example_frame  # noqa: E402
from display.render import save_png  # noqa: E402

# Which game shows each screen kind, so every game and every kind appears.
PICKS = (
    "dicey21/attract",
    "changing-bank/bets",
    "changing-bank/play",
    "dicey21/play",
    "blackjack-dice/reading",
    "dice-blackjack/reading",
    "domino21/results",
    "dicey21/paytable",
    "blackjack-dice/stats",
    "dice-blackjack/error",
)
SETTLED = 2.0  # seconds into the results animation: payouts fully counted up


def write_screenshots(out_dir: Path, size: tuple[int, int]) -> list[Path]:
    views = all_views()
    written = []
    for key in PICKS:
        view = views[key]
        name = key.replace("/", "-") + ".png"
        written.append(save_png(view, size, out_dir / name, example_frame(view), t=SETTLED))
    return written


def screen_size(text: str) -> tuple[int, int]:
    """--size as `tabletop21 demo --size` takes it: "abc" or 0x0 is a usage error, not a traceback."""
    from table.errors import TableError
    from tabletop21.playback import parse_size

    try:
        return parse_size(text)
    except TableError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", nargs="?", default="docs/screenshots", type=Path)
    parser.add_argument("--size", default="800x480", type=screen_size)
    args = parser.parse_args(argv)
    from table.errors import TableError
    from tabletop21.playback import screenshot_folder

    try:
        screenshot_folder(args.out_dir)
    except TableError as err:
        parser.error(str(err))
    for path in write_screenshots(args.out_dir, args.size):
        print(path)


if __name__ == "__main__":
    main()
