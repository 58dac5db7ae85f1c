"""The learned d10 reader: the d6 reader's two networks (vision.dice_net), trained for
ten-sided dice by tools/d10_net on real d10 photos, real d10s cut out and pasted onto
the d6 photo sources' tables (their d6 dice left in as what must not be read) and
rendered d10s of every value.

The detector finds each d10; the face classifier says, from a square crop round it,
that it is no d10 at all (class 0: a d6, bare table, a die's edge) or which number is
on top (class value + 1). A die is read only when the classifier is sure of its number
(`face.threshold` in d10_net.json, chosen on dice held out of training); one it is
sure is a d10 but not of the number is Unreadable; anything else is not reported.

A d6 witness: the learned d6 reader's face classifier (vision/models/dice_face.onnx)
looks at each find as it would at a die; where it reads pips at `d6_veto` or more, the
find is a six-sided die and is dropped. On the held-out phone tables of dice-aws it
took out about 30% of the d10 detector's finds there, and 1 in 61 real d10s
(docs/vision-cards-d10.md).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from table.reads import D10, TableRead, Unreadable
from vision import dice_net
from vision.calibration import Calibration, boxes_in_play, checked_frame

CONFIG = dice_net.MODELS / "d10_net.json"
D6_NOT_DIE = 0.2  # the d6 witness counts only where it is this sure the find is a die


def with_d6_witness(frame: np.ndarray, cands: list[dict]) -> list[dict]:
    """Each find with "d6": the d6 face classifier's 7 probabilities (not a die, 1..6)."""
    if cands:
        nets = dice_net.load_nets()
        for d, p in zip(cands, dice_net.classify(dice_net.face_crops(frame, nets, cands), nets)):
            d["d6"] = p.astype(float)
    return cands


def decide(cands: list[dict], threshold: float, not_d10: float, sure_d10: float,
           d6_veto: float = 1.1) -> tuple[list[D10], list[Unreadable]]:
    """Reads and refusals from detections carrying the classifier's 11 probabilities
    (and, where a find has "d6", dropping those the d6 classifier reads at d6_veto)."""
    dice, unreadable = [], []
    for d in cands:
        p = d["probs"]
        if p[0] >= not_d10:
            continue
        q = d.get("d6")
        if q is not None and q[0] < D6_NOT_DIE and float(np.max(q[1:])) >= d6_veto:
            continue
        value = int(np.argmax(p[1:]))
        conf = float(p[value + 1])
        if conf >= threshold:
            dice.append(D10(value, d["center"], d["box"], min(1.0, max(0.0, conf))))
        elif 1.0 - p[0] >= sure_d10:
            second = int(np.argsort(p[1:])[-2])
            unreadable.append(Unreadable(
                "d10", d["center"],
                f"cannot read this d10's number for sure ({value}: {conf:.2f}, {second}: {p[second + 1]:.2f}); re-roll it",
                d["box"]))
    return dice, unreadable


def read_d10_net(frame_bgr: np.ndarray, calibration: Calibration | None = None,
                 config: Path | str | None = None) -> TableRead:
    """Read the d10s in a BGR frame with the shipped networks (or those of `config`, a
    d10_net.json with its ONNX files beside it). With a calibration, only what lies in
    its play area is reported, and a die across its edge is refused."""
    frame = checked_frame(frame_bgr, calibration, min_side=32)
    cfg = dice_net.load_nets(config or CONFIG).cfg
    cands = dice_net.candidates(frame, config or CONFIG, float(cfg["detector"]["threshold"]))
    face = cfg["face"]
    veto = float(face.get("d6_veto", 1.1))
    if veto <= 1.0:
        cands = with_d6_witness(frame, cands)
    dice, unreadable = decide(cands, float(face["threshold"]), float(face["not_die_threshold"]),
                              float(face.get("sure_d10", 0.9)), veto)
    kept_dice, kept_refusals = boxes_in_play(calibration, dice, unreadable, "d10", "die")
    return TableRead(d10=tuple(kept_dice), unreadable=tuple(kept_refusals))
