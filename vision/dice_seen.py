"""The default d6 reader: the hand-built reader (vision.dice), with each die it reads or
refuses kept only where the learned reader's detector (vision.dice_net, trained on
photos of many tables) also sees a die.

The hand-built reader was built on one tray: there it reads 99% of dice right, and on
other tables it takes the table's grain, knots and shadows for dice (dice-aws, a table
the detector never saw: 14% phantoms, 373 refusals where no die lies). The detector,
trained on three photo sources and composites, finds a die where there is one and
rarely where there is none, so a die the hand-built reader reads with no detector find
on or near it (its box grown by GROW each way) is dropped, and so is a refusal with
such a box (a whole-view refusal stays). Nothing is added: the values are the
hand-built reader's. docs/vision.md has the figures ("Dice seen by the detector").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from table.reads import Box, TableRead
from vision import dice_net
from vision.calibration import Calibration
from vision.dice import read_dice as read_dice_hand

SEEN = 0.1  # detector score at or over which a find counts as a die seen
GROW = 0.2  # a find this share of a die's box beyond its edges still sees that die


def seen(box: Box, finds: Sequence[dict]) -> bool:
    """Whether a find's centre lies in `box` grown by GROW of its size each way."""
    x0, y0, x1, y1 = box
    gx, gy = GROW * (x1 - x0), GROW * (y1 - y0)
    return any(x0 - gx <= f["center"][0] <= x1 + gx and y0 - gy <= f["center"][1] <= y1 + gy for f in finds)


def read_dice_seen(frame_bgr: np.ndarray, calibration: Calibration | None = None, *, threshold: float = SEEN,
                   config=None) -> TableRead:
    """Every d6 the hand-built reader reads in the frame (inside the play area when
    calibrated) that the learned detector also sees; refusals likewise. `threshold` and
    `config` (another dice_net.json, a detector trained without a source) are for
    measuring (tools/dice_net/seen_bench.py). Anything but an image is a ValueError
    (vision.image_io.NotAnImage), as for the hand-built reader."""
    read = read_dice_hand(frame_bgr, calibration)
    boxed = [u for u in read.unreadable if u.box is not None]
    if not read.dice and not boxed:
        return read
    finds = dice_net.detect(dice_net._check_frame(frame_bgr), dice_net.load_nets(config), threshold)
    return dataclasses.replace(read, dice=tuple(d for d in read.dice if seen(d.box, finds)),
                               unreadable=tuple(u for u in read.unreadable if u.box is None or seen(u.box, finds)))
