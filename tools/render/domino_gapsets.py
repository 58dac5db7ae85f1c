"""Larger seeded render sets for the domino reader's known gaps, to measure them
(docs/vision-dominoes.md, Figures). The committed fixtures hold a few scenes of each
gap; these sets are big enough for a rate, and are rebuilt rather than committed:

    python -m tools.render.domino_gapsets OUT SEED

writes OUT/<gap>/images and labels.json (the `tabletop21 eval` layout) for every gap
and prints what the reader makes of each set.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from tabletop21.evaluate import evaluate, summary
from tools.render import domino_fixtures as fixtures
from vision.dominoes import read_dominoes
from vision.dominoes.layout import ALL_TILES

STYLES = ("ivory", "ivory_rainbow", "pink", "red", "black", "white")
TABLES = ("felt", "wood", "tray", "cloth")
# Photos per set: single-tile sets need more photos for as many tiles.
COUNTS = {"lone": 60, "nodivider": 40, "small": 12, "cloth": 8, "steep": 8, "tables": 12}
# Tables beyond the fixtures' felt, wood, tray and cloth: dark and pale wood, a dyed
# cloth, a busy stone.
OTHER_TABLES = ("walnut", "oak", "bluecloth", "granite")


def plans(gap: str, rng: np.random.Generator, count: int) -> list[fixtures.Plan]:
    """`count` photos of one gap: lone tiles from 24 to 190 pixels wide (the short
    side, in a 640-pixel frame), the same without a visible divider, scenes of small
    tiles, white and ivory tiles on a white cloth, black tiles seen steeply, scenes
    on other tables."""
    def some(n):
        return [ALL_TILES[k] for k in rng.permutation(len(ALL_TILES))[:n]]
    made = []
    for i in range(count):
        name = f"{gap}_{i:03d}.jpg"
        if gap in ("lone", "nodivider"):
            short = float(np.exp(rng.uniform(np.log(24), np.log(190))))
            made.append(fixtures.Plan(name, STYLES[i % 6], TABLES[i % 4], some(1), short, 0,
                                      divider=gap == "lone"))
        elif gap == "small":
            made.append(fixtures.Plan(name, STYLES[i % 6], TABLES[i % 3], some(8),
                                      rng.uniform(24, 32), 2))
        elif gap == "cloth":
            made.append(fixtures.Plan(name, ("white", "ivory")[i % 2], "cloth", some(6),
                                      rng.uniform(34, 60), 2))
        elif gap == "steep":
            made.append(fixtures.Plan(name, "black", TABLES[i % 3], some(6),
                                      rng.uniform(34, 60), 2, tilt=(12.0, 20.0)))
        else:
            made.append(fixtures.Plan(name, STYLES[i % 6], OTHER_TABLES[i % 4], some(6),
                                      rng.uniform(34, 60), 1))
    return made


def build(out: Path, seed: int) -> None:
    for k, (gap, count) in enumerate(COUNTS.items()):
        rng = np.random.default_rng((seed, k))
        folder = out / gap
        (folder / "images").mkdir(parents=True, exist_ok=True)
        labels = {plan.name: fixtures.write_photo(folder, plan, rng) for plan in plans(gap, rng, count)}
        (folder / "labels.json").write_text(json.dumps(labels, indent=1))


def main(argv: list[str]) -> None:
    out, seed = Path(argv[0]), int(argv[1])
    build(out, seed)
    for gap in COUNTS:
        result = summary(evaluate(out / gap, lambda frame: read_dominoes(frame, None)))
        tiles = result["kinds"]["dominoes"]
        print(f"{gap}: {tiles['value_right']}/{tiles['labelled']} read right, "
              f"{tiles['found'] - tiles['value_right']} misread, {tiles['unreadable']} unreadable, "
              f"{tiles['phantoms']} phantoms; {result['ms_per_photo']} ms per photo")


if __name__ == "__main__":
    main(sys.argv[1:])
