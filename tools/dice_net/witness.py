"""The hand-built d6 reader and the learned one side by side on a source, and ways of
putting their reads together, scored as `tabletop21 eval` scores:

- hand: the hand-built reader (vision.dice.read_dice) alone;
- net: the learned reader (vision.dice_net.read_dice_net with CONFIG) alone;
- agree: a die is read only where both read it with the same value; where they read
  different values, or one reads a die and the other refuses it or its detector sees
  something there, it is refused (a re-roll); a die only one of them sees at all is
  dropped;
- agree+net: as agree, but a die the learned reader reads and the hand-built one
  refuses or misses is read (the learned reader is calibrated; the hand-built one
  misses dice of other tables);

    python -m tools.dice_net.witness --config runs/lo-aws/onnx/dice_net.json --source dice-aws

Measure with networks trained without the source (`pipeline.sh RUN SOURCE`)."""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2

from table.reads import Die, TableRead, Unreadable, inside
from tabletop21.evaluate import KINDS, load_labels, photo_path, score_kind
from tools.dice_net.data import DEFAULT_DATA
from vision import dice_net
from vision.dice import read_dice
from vision.image_io import load_bgr

SEEN = 0.1  # a learned find this sure means the learned reader sees something there


def _one(a, b) -> bool:
    return inside(a.center, b.box) or inside(b.center, a.box)


def combine(hand: TableRead, net: TableRead, finds: list[dict], take_net: bool) -> TableRead:
    dice: list[Die] = []
    refused: list[Unreadable] = []
    used: set[int] = set()

    def refuse(d, why: str) -> None:
        refused.append(Unreadable("die", d.center, why, d.box))

    for h in hand.dice:
        match = [k for k, n in enumerate(net.dice) if k not in used and _one(h, n)]
        if match:
            used.add(match[0])
            n = net.dice[match[0]]
            if n.value == h.value:
                dice.append(n)
            else:
                refuse(h, f"read both as {h.value} and as {n.value}: re-roll it")
        elif any(_one(h, u) for u in net.unreadable if u.box is not None) or any(
                inside(f["center"], h.box) and f["score"] >= SEEN for f in finds):
            refuse(h, "not sure of this die: re-roll it")
    for k, n in enumerate(net.dice):
        if k in used:
            continue
        if take_net:
            dice.append(n)
        elif any(_one(n, u) for u in hand.unreadable if u.box is not None):
            refuse(n, "not sure of this die: re-roll it")
    for u in (*hand.unreadable, *net.unreadable):
        if u.kind == "die" and u.box is not None and not any(_one(u, d) for d in dice) \
                and not any(_one(u, r) for r in refused):
            refused.append(u)
    return TableRead(dice=tuple(dice), unreadable=tuple(refused))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", type=Path, help="a dice_net.json (default: the shipped one)")
    ap.add_argument("--source", required=True)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--every", type=int, default=1, help="score every Nth photo")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    config = a.config or dice_net.MODELS / "dice_net.json"
    cfg = dice_net.load_nets(config).cfg
    det_thr, face_thr = float(cfg["detector"]["threshold"]), float(cfg["face"]["threshold"])
    not_die = float(cfg["face"]["not_die_threshold"])
    folder = a.data / a.source
    labels = load_labels(folder)
    names = sorted(labels)[:: a.every]
    modes = ("hand", "net", "agree", "agree+net")
    totals = {m: dict.fromkeys(("labelled", "value_right", "wrong", "unreadable", "phantoms", "needless_refusals",
                                "perfect"), 0) for m in modes}
    for name in names:
        frame = load_bgr(photo_path(folder, name))
        hand = read_dice(frame)
        finds = dice_net.candidates(frame, config, min_score=SEEN)  # one detector pass for both uses
        net = dice_net.decide([f for f in finds if f["score"] >= det_thr], face_thr, not_die)
        reads = {"hand": hand, "net": net, "agree": combine(hand, net, finds, False),
                 "agree+net": combine(hand, net, finds, True)}
        for m in modes:
            s, _ = score_kind(KINDS["dice"], labels[name].get("dice", []), reads[m], labels[name].get("unreadable", []))
            t = totals[m]
            for k in ("labelled", "value_right", "unreadable", "phantoms", "needless_refusals"):
                t[k] += getattr(s, k)
            t["wrong"] += s.found - s.value_right
            t["perfect"] += int(s.value_right == s.labelled and not s.phantoms and not s.unreadable
                                and not s.needless_refusals)
    for m, t in totals.items():
        n = max(t["labelled"], 1)
        print(f"{a.source} {m:9s} right {100 * t['value_right'] / n:5.1f}%  wrong {100 * t['wrong'] / n:4.1f}%  "
              f"unreadable {100 * t['unreadable'] / n:4.1f}%  phantoms {100 * t['phantoms'] / n:5.1f}%  "
              f"needless refusals {t['needless_refusals']}  perfect {t['perfect']}/{len(names)}", flush=True)


if __name__ == "__main__":
    main()
