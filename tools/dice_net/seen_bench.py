"""The table's d6 reader (both readers together, vision.dice_seen) on a labelled photo
source: the hand-built reader alone, the learned reader alone, then both together over
a grid of the combining rules' thresholds ("none" turns a rule off). Each frame is read
once by each reader; the rules then run on what they saw.

    python -m tools.dice_net.seen_bench ../shared/data/dice-aws --config runs/lo-aws/onnx/dice_net.json
    python -m tools.dice_net.seen_bench ../shared/data/dice-d6-photos --every 2 --agree none,0.01,0.05

Columns as `tabletop21 eval`: % of the labelled dice; refusals where no die lies."""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
from pathlib import Path

import cv2

from tabletop21.evaluate import evaluate, summary
from vision import dice_seen
from vision.dice import read_dice


def line(name: str, result: dict) -> str:
    k = result["kinds"]["dice"]
    k_wrong = k["found"] - k["value_right"]
    return (f"{name:44s} right {k['value_right_pct']:6.2f}%  wrong {100 * k_wrong / max(k['labelled'], 1):5.2f}%  "
            f"phantoms {k['phantom_pct']:6.2f}%  unreadable {k['unreadable_pct']:5.2f}%  refusals where no die lies "
            f"{k['needless_refusals']:4d}  photos perfect {result['perfect_pct']:6.2f}% of {result['photos']}")


def _values(text: str) -> list[float | None]:
    return [None if w == "none" else float(w) for w in text.split(",")]


def main(argv=None) -> dict[str, dict]:
    ap = argparse.ArgumentParser()
    ap.add_argument("source", type=Path, help="a folder with labels.json (the `eval` format)")
    ap.add_argument("--config", type=Path, help="the learned reader's dice_net.json (default: the shipped one)")
    ap.add_argument("--every", type=int, default=1, help="score every Nth photo")
    ap.add_argument("--start", type=int, default=0, help="starting with this one (0 to N-1)")
    ap.add_argument("--seen", default=str(dice_seen.SEEN), help="detector scores at which a find sees a die")
    ap.add_argument("--agree", default=str(dice_seen.AGREE), help="probabilities of the hand-built value under "
                    "which a die is refused")
    ap.add_argument("--disagree", default=str(dice_seen.DISAGREE), help="probabilities of another value at which "
                    "a die is refused")
    ap.add_argument("--not-a-die", default=str(dice_seen.NOT_A_DIE), help="'not a die' probabilities at which a "
                    "hand-built die is dropped")
    ap.add_argument("--fill", default="on", help="on, off or on,off: add the learned reader's own reads")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    names = sorted(json.loads((a.source / "labels.json").read_text()))[a.start::a.every]
    out = {"hand-built alone": summary(evaluate(a.source, read_dice, names))}
    print(line("hand-built alone", out["hand-built alone"]), flush=True)
    def learned(frame, calibration=None):
        return dice_seen._learned(frame, calibration, a.config)

    out["learned alone"] = summary(evaluate(a.source, learned, names))
    print(line("learned alone", out["learned alone"]), flush=True)
    looks: dict[tuple[str, float], dice_seen.Evidence] = {}

    def look(frame, calibration, score: float) -> dice_seen.Evidence:
        key = (hashlib.sha1(frame.tobytes()).hexdigest(), score)
        if key not in looks:
            looks[key] = dice_seen.evidence(frame, calibration, threshold=score, config=a.config)
        return looks[key]

    grid = itertools.product(_values(a.seen), _values(a.agree), _values(a.disagree), _values(a.not_a_die),
                             a.fill.split(","))
    for score, agree, disagree, not_a_die, fill in grid:
        def reader(frame, calibration=None, score=score, agree=agree, disagree=disagree, not_a_die=not_a_die,
                   fill=fill):
            return dice_seen.combine(look(frame, calibration, score), calibration, agree=agree, disagree=disagree,
                                     not_a_die=not_a_die, fill=fill == "on", config=a.config)
        name = f"both: seen {score:g}, agree {agree}, disagree {disagree}, not a die {not_a_die}, fill {fill}"
        out[name] = summary(evaluate(a.source, reader, names))
        print(line(name, out[name]), flush=True)
    return out


if __name__ == "__main__":
    main()
