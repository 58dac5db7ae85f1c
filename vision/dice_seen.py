"""The default d6 reader: the hand-built reader (vision.dice), with each die it reads or
refuses kept only where the learned reader's detector (vision.dice_net, trained on
photos of many tables) also sees a die.

The hand-built reader was built on one tray: there it reads 99% of dice right, and on
other tables it takes the table's grain, knots and shadows for dice (dice-aws, a table
the detector never saw: 14% phantoms, 373 refusals where no die lies). The detector,
trained on three photo sources and composites, finds a die where there is one and
rarely where there is none, so a die the hand-built reader reads with no detector find
on or near it (its box grown by GROW each way) is dropped, and so is a refusal with
such a box (a whole-view refusal stays). A die the learned face classifier, cutting it
at the detector's box, reads as another value with DISAGREE or more is refused ("the
two dice readers disagree"): the table asks for a re-roll rather than pay on a value
two readers dispute. Nothing is added, and a value is the hand-built reader's or none.
A frame with no colour, which the hand-built reader refuses as a whole, is read by the
learned reader alone. docs/vision.md has the figures ("The detector's check").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from table.reads import Box, Die, TableRead, Unreadable
from vision import dice_net
from vision.calibration import Calibration, boxes_in_play
from vision.colour import is_grey
from vision.dice import read_dice as read_dice_hand

SEEN = 0.1  # detector score at or over which a find counts as a die seen
DISAGREE = 0.9  # the learned classifier's probability of another value at which a die is refused
GROW = 0.2  # a find this share of a die's box beyond its edges still sees that die


def seen(box: Box, finds: Sequence[dict]) -> bool:
    """Whether a find's centre lies in `box` grown by GROW of its size each way."""
    x0, y0, x1, y1 = box
    gx, gy = GROW * (x1 - x0), GROW * (y1 - y0)
    return any(x0 - gx <= f["center"][0] <= x1 + gx and y0 - gy <= f["center"][1] <= y1 + gy for f in finds)


def _learned(frame_bgr: np.ndarray, calibration: Calibration | None, config) -> TableRead:
    """The learned d6 reader's read, inside the play area when calibrated."""
    learned = dice_net.read_dice_net(frame_bgr, config)
    dice, refusals = boxes_in_play(calibration, learned.dice, learned.unreadable, "die", "the die")
    return TableRead(dice=tuple(dice), unreadable=tuple(refusals))


def _nearest(die: Die, finds: Sequence[dict]) -> dict:
    """The find nearest a die, of those that see it."""
    return min((f for f in finds if seen(die.box, [f])),
               key=lambda f: (f["center"][0] - die.center[0]) ** 2 + (f["center"][1] - die.center[1]) ** 2)


def read_dice_seen(frame_bgr: np.ndarray, calibration: Calibration | None = None, *, threshold: float = SEEN,
                   disagree: float | None = DISAGREE, config=None) -> TableRead:
    """Every d6 the hand-built reader reads in the frame (inside the play area when
    calibrated) that the learned detector also sees, refusals likewise; a die whose value
    the learned face classifier reads otherwise with at least `disagree` (None: never)
    is refused. `threshold`, `disagree` and `config` (another dice_net.json, networks
    trained without a source) are for measuring (tools/dice_net/seen_bench.py).
    Anything but an image is a ValueError (vision.image_io.NotAnImage), as for the
    hand-built reader."""
    read = read_dice_hand(frame_bgr, calibration)
    if is_grey(frame_bgr):  # the hand-built reader cannot read a frame with no colour; the learned one can
        return _learned(frame_bgr, calibration, config)
    boxed = [u for u in read.unreadable if u.box is not None]
    if not read.dice and not boxed:
        return read
    frame, nets = dice_net._check_frame(frame_bgr), dice_net.load_nets(config)
    finds = dice_net.detect(frame, nets, threshold)
    dice = [d for d in read.dice if seen(d.box, finds)]
    unreadable = [u for u in read.unreadable if u.box is None or seen(u.box, finds)]
    if dice and disagree is not None:
        # the classifier reads each die as the learned reader cuts it: at its detector's box
        probs = dice_net.classify(dice_net.face_crops(frame, nets, [_nearest(d, finds) for d in dice]), nets)
        kept = []
        for die, p in zip(dice, probs):
            other = int(np.argmax(p[1:])) + 1
            if other != die.value and p[other] >= disagree:
                unreadable.append(Unreadable("die", die.center, f"the two dice readers disagree ({die.value} or "
                                             f"{other}): re-roll it", die.box))
            else:
                kept.append(die)
        dice = kept
    return dataclasses.replace(read, dice=tuple(dice), unreadable=tuple(unreadable))
