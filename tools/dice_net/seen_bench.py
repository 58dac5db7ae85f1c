"""The table's d6 reader (the hand-built reader checked by the learned detector,
vision.dice_seen) on a labelled photo source: the hand-built reader alone, then checked
by a detector (the shipped one, or one trained without the source) at each score.

    python -m tools.dice_net.seen_bench ../shared/data/dice-aws --config runs/lo-aws/onnx/dice_net.json
    python -m tools.dice_net.seen_bench ../shared/data/dice-d6-photos --every 2 --seen 0.1,0.2

Columns as `tabletop21 eval`: % of the labelled dice; refusals where no die lies."""

from __future__ import annotations

import argparse
import json
from functools import partial
from pathlib import Path

import cv2

from tabletop21.evaluate import evaluate, summary
from vision.dice import read_dice
from vision.dice_seen import DISAGREE, SEEN, read_dice_seen


def line(name: str, result: dict) -> str:
    k = result["kinds"]["dice"]
    k_wrong = k["found"] - k["value_right"]
    return (f"{name:34s} right {k['value_right_pct']:6.2f}%  wrong {100 * k_wrong / max(k['labelled'], 1):5.2f}%  phantoms {k['phantom_pct']:6.2f}%  unreadable "
            f"{k['unreadable_pct']:5.2f}%  refusals where no die lies {k['needless_refusals']:4d}  photos perfect "
            f"{result['perfect_pct']:6.2f}% of {result['photos']}")


def main(argv=None) -> dict[str, dict]:
    ap = argparse.ArgumentParser()
    ap.add_argument("source", type=Path, help="a folder with labels.json (the `eval` format)")
    ap.add_argument("--config", type=Path, help="the detector's dice_net.json (default: the shipped one)")
    ap.add_argument("--every", type=int, default=1, help="score every Nth photo")
    ap.add_argument("--seen", default=str(SEEN), help="comma-separated detector scores to check at")
    ap.add_argument("--disagree", default=f"none,{DISAGREE}",
                    help="comma-separated classifier probabilities of another value at which a die is refused "
                         "(none: never)")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    names = sorted(json.loads((a.source / "labels.json").read_text()))[::a.every]
    out = {"hand-built alone": summary(evaluate(a.source, read_dice, names))}
    print(line("hand-built alone", out["hand-built alone"]), flush=True)
    for score in map(float, a.seen.split(",")):
        for word in a.disagree.split(","):
            disagree = None if word == "none" else float(word)
            name = f"checked at {score:g}" + ("" if disagree is None else f", disagree {disagree:g}")
            reader = partial(read_dice_seen, threshold=score, disagree=disagree, config=a.config)
            out[name] = summary(evaluate(a.source, reader, names))
            print(line(name, out[name]), flush=True)
    return out


if __name__ == "__main__":
    main()
