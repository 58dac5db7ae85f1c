"""How long each game's full odds computation takes: the first call in a fresh
process does all the work, so that is the figure that matters to a user."""

from __future__ import annotations

import subprocess
import sys

from table.games import GAMES

_TIMED = """
import time
from table.games import game
module = game({game!r}).odds_module()
start = time.perf_counter()
module.figures()
print(f"{{time.perf_counter() - start:.3f}}")
"""


def run(args) -> None:
    print("odds: figures() per game, each in a fresh process (seconds, one core)")
    for game_id in GAMES:
        done = subprocess.run([sys.executable, "-c", _TIMED.format(game=game_id)],
                              capture_output=True, text=True)
        figure = done.stdout.strip() + " s" if done.returncode == 0 else "failed: " + done.stderr.strip().splitlines()[-1]
        print(f"  {game_id:15s} {figure}")
