"""The size cards are read at: a frame whose cards are much bigger or smaller than
the fixtures' is resized first (vision.resized_read), and the read is mapped back to
the frame's own pixels.

Why: the card finder and the fan reader count in pixels (closings, smallest blob,
index boxes), set on cards about 174 pixels long. Cards much smaller or bigger than
that are missed more often when read as they are, and bigger frames also cost time
in proportion to their pixels; brought to the working size they read about as well
as at 174 (measured on the card fixtures resized, docs/vision-cards-d10.md)."""

from __future__ import annotations

import numpy as np

TARGET = 174.0  # long side (pixels) of a lone card in the fixtures, the size the pixel constants suit
# Lone cards this share of TARGET long (their median) are read as they are. Cards
# in one fixture frame measure up to 1.3 times each other (poker and bridge sizes, a
# tilted camera), and a neat overlapping hand can pass for one bigger card, so the
# band reaches well above 1: a tighter top shrank frames whose hands then lost cards.
BAND = (0.8, 1.35)
NEAR_ONE = 0.05  # a resizing closer to 1 than this is not worth its blur
SHORTEST = 60.0  # a card-shaped thing shorter than this is not measured: a patch of a back's print, a label
MOST = 2.0  # enlarging further adds no index detail, only pixels to search


def working_factor(long_sides: list[float]) -> float:
    """How much to resize a frame whose lone cards are `long_sides` pixels long (1: not
    at all, and so when there is no lone card to measure)."""
    cards = [side for side in long_sides if side >= SHORTEST]
    if not cards:
        return 1.0
    side = float(np.median(cards))
    return 1.0 if BAND[0] * TARGET <= side <= BAND[1] * TARGET else min(MOST, TARGET / side)
