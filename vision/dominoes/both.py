"""The default domino reader: the hand-built reader (vision.dominoes.reader) and the
learned one (vision.dominoes.net) on the same frame, their finds merged.

The hand-built reader reads the renders it was built on (the project's fixtures and
recorded sessions) in full and rarely reads a real photo; the learned one reads far
more of real tiles (docs/vision-dominoes.md). Merged as the learned reader merges its
two looks (`net.merge_looks`), but with the hand-built read kept wherever both read a
tile: it has read no tile wrong on any real photo or render measured, while the
learned one sometimes pairs the halves of two touching tiles. A tile one reads and the
other refuses or misses is read, a refusal stays only where neither read a tile, and
two reads of one tile anywhere are both refused. The face-down tiles are the hand-built
reader's (the learned one does not count backs).

The learned reader reads here only tiles its detector is sure of (`sure_tile`, the
bar at which it refuses a tile it cannot read): on held-out renders the tiles it reads
wrong (halves of two touching tiles paired across their seam) are mostly found
weakly. Of the learned reader's refusals only those of a tile whose halves it found but could
not read for sure are kept: one of a tile it found without halves (`net.NO_HALVES`)
it gives on d10s and tray rims too, and a tile missed is not read (the round waits
for it), where a refusal would take in the dice on it.

The learned reader does not look for a tile's divider line, and two d6 dice side by
side look to it like a tile. So a tile only it reads, with no blank half (a die has
no blank face), carries the doubt the hand-built reader gives a tile read without its
divider (`Domino.dice_alike`): where the dice reader runs too, `vision.read.read_table`
refuses it; at a table of tiles only it stands."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from table.reads import TableRead
from vision.calibration import Calibration
from vision.dominoes import net
from vision.dominoes.reader import read_dominoes

LEARNED_MIN_SIDE = 32  # px: the learned reader's smallest frame; the hand-built reader takes 16


def read_dominoes_both(frame_bgr: np.ndarray, calibration: Calibration | None = None,
                       learned_reader: Callable[[np.ndarray, Calibration | None], TableRead] | None = None) -> TableRead:
    """Both domino readers' finds in one TableRead (`dominoes`, `face_down`, `unreadable`);
    bad input is refused as either reader refuses it (vision.image_io.NotAnImage).
    `learned_reader` reads in place of the shipped learned reader (a taught one, which
    reads at the thresholds its teaching chose)."""
    hand = read_dominoes(frame_bgr, calibration)
    if min(frame_bgr.shape[:2]) < LEARNED_MIN_SIDE:  # a frame too small for the learned reader: the hand-built one's
        return hand
    learned = (net.read_dominoes_net(frame_bgr, calibration, sure_tiles=True) if learned_reader is None else
               learned_reader(frame_bgr, calibration))
    doubts = [u for u in learned.unreadable if not u.reason.startswith(net.NO_HALVES)]
    reads, refusals = net.merge_looks((list(hand.dominoes), list(hand.unreadable)), (list(learned.dominoes), doubts),
                                      keep="first")
    own = {id(tile) for tile in hand.dominoes}
    reads = [tile if id(tile) in own or 0 in tile.halves or tile.dice_alike else
             dataclasses.replace(tile, dice_alike=f"pips {tile.halves[0]} and {tile.halves[1]} seen only by the "
                                                  "learned reader: one tile or two dice side by side?")
             for tile in reads]
    reads, refusals = net.refuse_duplicates(reads, refusals)
    return TableRead(dominoes=tuple(reads), face_down=hand.face_down, unreadable=tuple(refusals))
