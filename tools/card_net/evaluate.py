"""Score a card reader on composites of the designs kept out of training
(tools.card_net.faces.HELD_OUT) on the real tables, at several camera heights.

    python -m tools.card_net.evaluate --config runs/cardnet/onnx/card_net.json [--scenes 150] [--seed 5000]
    python -m tools.card_net.evaluate --reader hand          # the hand-built read_cards

A card counts when at least one of its indices is in full view. A read is matched to
a card whose outline holds the read's middle, the card of the same rank and suit first:
right (rank and suit), rank right (suit wrong or not named), or wrong. A second read
of a card is "twice"; a read on no face-up card is a phantom; a refusal on a card not
read is "refused". Camera heights: a card's long side in a 448 px frame, 1x = 100 px."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from tools.card_net import compose, faces
from tools.dice_net.data import DEFAULT_DATA
from tools.domino_net.compose import DEFAULT_CACHE, all_tables

# name -> (a card's long side in px, the picture's side): "@896" is the same camera height
# seen by a camera of twice the resolution (the detector sees it shrunk to 448, the
# classifier cuts its crops from the sharper picture).
HEIGHTS = {"0.5x": ((40.0, 60.0), 448), "0.5x@896": ((80.0, 120.0), 896), "1x": ((85.0, 115.0), 448),
           "1x@896": ((170.0, 230.0), 896), "2x": ((170.0, 230.0), 448), "3x": ((250.0, 300.0), 448)}
# Big cards in a big frame (a phone held close): only when named with --heights.
CLOSE_HEIGHTS = {"2x@896": ((340.0, 460.0), 896), "3x@896": ((500.0, 600.0), 896)}


def _inside(quad: np.ndarray, p, grow: float = 1.15) -> bool:
    c = quad.mean(0)
    q = (c + (quad - c) * grow).astype(np.float32)
    return cv2.pointPolygonTest(q.reshape(-1, 1, 2), (float(p[0]), float(p[1])), False) >= 0


def score_scene(read, cards: list[dict], indices: list[compose.Index], in_view: float = compose.SHOWN) -> dict:
    """`in_view`: the visible share at which an index counts as in full view."""
    shown = {i.card for i in indices if i.visible >= in_view}
    up = [k for k, c in enumerate(cards) if c["rank"]]
    counted = [k for k in up if k in shown]
    out = dict.fromkeys(("cards", "right", "rank_right", "wrong", "refused", "missed", "twice", "phantoms"), 0)
    out["cards"] = len(counted)
    matched: dict[int, str] = {}
    for card in read.cards:
        holding = [k for k in up if _inside(cards[k]["quad"], card.center)]
        same = [k for k in holding if cards[k]["rank"] == card.rank and cards[k]["suit"] == card.suit]
        pick = (same or holding or [None])[-1]  # the topmost card of those holding it
        if pick is None:
            out["phantoms"] += 1
            continue
        if pick in matched:
            out["twice"] += 1
            continue
        truth = cards[pick]
        matched[pick] = ("right" if card.rank == truth["rank"] and card.suit == truth["suit"]
                         else "rank_right" if card.rank == truth["rank"] else "wrong")
    for k in counted:
        if k in matched:
            out[matched[k]] += 1
        elif any(_inside(cards[k]["quad"], u.center) for u in read.unreadable):
            out["refused"] += 1
        else:
            out["missed"] += 1
    for k, how in matched.items():  # a card read though none of its indices is wholly in view
        if k not in counted:
            out["cards"] += 1
            out[how] += 1
    out["rank_right"] += out["right"]  # rank right counts the rank-and-suit right ones too
    out["photos"] = int(out["cards"] > 0)
    out["whole"] = int(out["cards"] > 0 and out["right"] == out["cards"] and out["twice"] == 0
                       and out["phantoms"] == 0)
    return out


def line(name: str, t: dict) -> str:
    n = max(t["cards"], 1)
    return (f"{name:6s} {t['cards']:5d} cards: ranks {100 * t['rank_right'] / n:5.1f}%, rank and suit "
            f"{100 * t['right'] / n:5.1f}%, wrong {100 * t['wrong'] / n:4.1f}%, refused {100 * t['refused'] / n:4.1f}%, "
            f"missed {100 * t['missed'] / n:5.1f}%, extra reads {100 * (t['twice'] + t['phantoms']) / n:4.1f}% "
            f"(twice {t['twice']}, phantoms {t['phantoms']}), photos whole {100 * t['whole'] / max(t['photos'], 1):5.1f}% "
            f"of {t['photos']}")


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", type=Path, help="a card_net.json (default: the shipped one)")
    ap.add_argument("--reader", choices=("net", "hand"), default="net")
    ap.add_argument("--scenes", type=int, default=150, help="per camera height")
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--designs", choices=("held", "train"), default="held")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--json", type=Path, help="write the totals here")
    ap.add_argument("--in-view", type=float, default=compose.SHOWN,
                    help="visible share at which an index counts as in full view (compose.SHOWN)")
    ap.add_argument("--heights", help="comma-separated camera heights of HEIGHTS (default: all)")
    ap.add_argument("--sweep", action="store_true",
                    help="net: score every face threshold of SWEEP on one pass (to choose it on training designs)")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    train, held = faces.split(faces.all_faces(np.random.default_rng(0)))
    designs = held if a.designs == "held" else train
    tabs = all_tables(a.data, a.cache)
    if a.reader == "net":
        from vision.cards.net import read_cards_net

        def reader(img):
            return read_cards_net(img, config=a.config)
    else:
        from vision.cards import read_cards as reader
    if a.sweep:
        return sweep(a, designs, tabs)
    results = {}
    heights = a.heights.split(",") if a.heights else list(HEIGHTS)
    for name in heights:
        long_range, size = {**HEIGHTS, **CLOSE_HEIGHTS}[name]
        rng = np.random.default_rng(a.seed)
        totals: dict[str, int] = {}
        for _ in range(a.scenes):
            cards: list[dict] = []
            img, indices = compose.scene(rng, size, tabs, designs, long_range=long_range, cards=cards,
                                         frame_side=size)
            for k, v in score_scene(reader(img), cards, indices, a.in_view).items():
                totals[k] = totals.get(k, 0) + v
        results[name] = totals
        print(line(name, totals), flush=True)
    if a.json:
        a.json.write_text(json.dumps(results, indent=1))
    return results


SWEEP = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99)


def sweep(a, designs, tabs) -> dict:
    """One detector and classifier pass per scene, then each face threshold's score."""
    from table.reads import TableRead
    from vision import dice_net
    from vision.cards import net

    nets = dice_net.load_nets(a.config or net.CONFIG)
    results: dict[float, dict[str, int]] = {t: {} for t in SWEEP}
    for long_range, size in HEIGHTS.values():
        rng = np.random.default_rng(a.seed)
        for _ in range(a.scenes):
            cards: list[dict] = []
            img, indices = compose.scene(rng, size, tabs, designs, long_range=long_range, cards=cards,
                                         frame_side=size)
            found = net.detect(img, nets, float(nets.cfg["detector"]["threshold"]))
            net.classify(img, found, nets)
            for t in SWEEP:
                cfg = {**nets.cfg, "face": {**nets.cfg["face"], "threshold": t}}
                got, refused = net.decide([dict(f) for f in found], cfg, (size, size))
                for k, v in score_scene(TableRead(cards=tuple(got), unreadable=tuple(refused)), cards, indices).items():
                    results[t][k] = results[t].get(k, 0) + v
    for t, totals in results.items():
        read = totals["rank_right"] + totals["wrong"]  # rank_right holds the rank-and-suit right ones
        print(line(f"{t:.2f}", totals) + f"; wrong of read {100 * (read - totals['right']) / max(read, 1):.2f}%")
    return results


if __name__ == "__main__":
    main()
