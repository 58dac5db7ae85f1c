"""Teach the card reader one deck design it never saw, then read other pictures of that
deck: with and without the teaching, design by design and camera height by height.

For each held-out design (tools.card_net.faces.HELD_OUT, those installed) and camera
height (tools.card_net.evaluate.HEIGHTS), `--teach` composites of that design alone on
the real tables are the owner's labelled photos (every face-up card labelled with its
outline's box, as an owner labels them); `--test` other composites (another seed) are
scored by evaluate.score_scene, by the shipped reader and by the taught one.

    python -m tools.card_net.teach_bench [--teach 20] [--test 60] [--heights 1x,2x] [--designs bellot,paris]

Needs Debian's gnome-cards-data and librsvg2-bin for the Aisleriot themes (without
them, only the renderer's held-out typefaces are scored)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np

from tools.card_net import compose, faces
from tools.card_net.evaluate import CLOSE_HEIGHTS, HEIGHTS, line, score_scene
from tools.dice_net.data import DEFAULT_DATA
from tools.domino_net.compose import DEFAULT_CACHE, all_tables
from vision.teach import Example


def example(name: str, img: np.ndarray, cards: list[dict]) -> Example:
    """A composite as an owner's labelled photo: each face-up card, its outline's box."""
    h, w = img.shape[:2]
    pieces = []
    for c in cards:
        if not c["rank"]:
            continue  # face down: not labelled, as in labels.json's "cards"
        x0, y0 = np.clip(c["quad"].min(0), 0, [w - 1, h - 1])
        x1, y1 = np.clip(c["quad"].max(0), 0, [w - 1, h - 1])
        if x1 > x0 and y1 > y0:
            pieces.append(((c["rank"], c["suit"]), (float(x0), float(y0), float(x1), float(y1))))
    return Example(name, img, tuple(pieces))


def scenes(rng, n: int, tabs, design: dict, height: str) -> list[tuple[np.ndarray, list[dict], list]]:
    long_range, size = {**HEIGHTS, **CLOSE_HEIGHTS}[height]
    out = []
    for _ in range(n):
        cards: list[dict] = []
        img, indices = compose.scene(rng, size, tabs, design, long_range=long_range, cards=cards, frame_side=size)
        out.append((img, cards, indices))
    return out


def main(argv=None) -> dict:
    from vision.cards.net import read_cards_net
    from vision.teach import teach
    from vision.teach_cards import read_taught_cards

    ap = argparse.ArgumentParser()
    ap.add_argument("--teach", type=int, default=20, help="teaching pictures per design and height")
    ap.add_argument("--test", type=int, default=60, help="pictures scored per design and height")
    ap.add_argument("--heights", default="1x,1x@896,2x")
    ap.add_argument("--designs", help="comma-separated (default: every held-out design installed)")
    ap.add_argument("--seed", type=int, default=8000)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    _, held = faces.split(faces.all_faces(np.random.default_rng(0)))
    names = a.designs.split(",") if a.designs else sorted(held)
    tabs = all_tables(a.data, a.cache)
    totals: dict[str, dict[str, int]] = {"shipped": {}, "taught": {}}
    for name in names:
        for height in a.heights.split(","):
            design = {name: held[name]}
            rng = np.random.default_rng([a.seed, names.index(name), list({**HEIGHTS, **CLOSE_HEIGHTS}).index(height)])
            lessons = [example(f"{name}-{k}", img, cards)
                       for k, (img, cards, _) in enumerate(scenes(rng, a.teach, tabs, design, height))]
            start = time.process_time()
            taught = teach("cards", lessons)
            took = time.process_time() - start
            print(f"{name} {height}: taught on {taught.taught_on['cards']} cards ({taught.taught_on['indices']} "
                  f"indices) in {took:.1f} s of CPU; detector {taught.detector_threshold}, head "
                  f"{taught.head_threshold}{', shipped kept' if taught.keep_shipped else ''}", flush=True)
            run: dict[str, dict[str, int]] = {"shipped": {}, "taught": {}}
            for img, cards, indices in scenes(rng, a.test, tabs, design, height):
                for who, read in (("shipped", read_cards_net(img)), ("taught", read_taught_cards(img, taught))):
                    for k, v in score_scene(read, cards, indices).items():
                        run[who][k] = run[who].get(k, 0) + v
                        totals[who][k] = totals[who].get(k, 0) + v
            for who in run:
                print("  " + line(who[:6], run[who]), flush=True)
    print("all designs and heights:")
    for who in totals:
        print("  " + line(who[:6], totals[who]))
    return totals


if __name__ == "__main__":
    main()
