"""A lamp's colour cast taken out of a frame before its cards are looked for.

Card stock is found as what is bright in every channel (vision.cards.find.whiteness),
so a camera whose white balance is off under a lamp hides most or all of the cards.
White stock is also what shows the light's colour best: it is the brightest thing on
the table, and neutral. So the frame's brightest pixels are taken to be stock, and
where they lean clearly off grey, every channel is scaled to bring them back. Pixels
where a channel is clipped are left out of that measure, since their true colour is
unknown and they pull the correction short (figures: docs/vision.md, "Colour casts").

On frames without cards the brightest pixels are a coloured die or tile, and the
frame is "corrected" wrongly; that is harmless, since no card is found in it either
way and the other readers read the frame as it was.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.colour import leaning, uncast
from vision.exposure import level_at, sparse

# How far off grey (the furthest channel's distance from 1) the brightest stock may lean
# and still be read as it is: neutral light on real and rendered cards stays about this
# close, reads the same corrected or not, while even a mild lamp cast lies past it
# (measured on the card fixtures and renders, docs/vision-cards-d10.md).
CLEAR_CAST = 0.08
BRIGHTEST = 98  # percentile of the summed channels over the frame's unclipped pixels
CLIPPED = 250  # a pixel with a channel at this or more does not show the light's colour
FEWEST = 50  # pixels measured: fewer say nothing about the light
SAMPLE = 4  # every 4th pixel each way: the same light at a sixteenth of the cost


def stock_gains(frame_bgr: np.ndarray) -> np.ndarray | None:
    """Per-channel gains (B, G, R) that bring the brightest pixels to grey, or None
    when they are grey already (within CLEAR_CAST) or too few to tell."""
    sample = sparse(frame_bgr, SAMPLE)
    b, g, r = cv2.split(sample)
    unclipped = (cv2.max(cv2.max(b, g), r) < CLIPPED).astype(np.uint8)
    if cv2.countNonZero(unclipped) < FEWEST:
        return None
    brightness = cv2.add(cv2.add(b, g, dtype=cv2.CV_16U), r, dtype=cv2.CV_16U)
    level = level_at(brightness, BRIGHTEST / 100, unclipped, 3 * 256)
    measured = leaning(np.array(cv2.mean(sample, mask=unclipped & (brightness >= level))[:3]))
    if measured is None or measured[1] <= CLEAR_CAST:
        return None
    return (1.0 / measured[0]).astype(np.float32)


def neutral(frame_bgr: np.ndarray) -> np.ndarray:
    """The frame with a clear cast taken out, else the frame itself."""
    gains = stock_gains(frame_bgr)
    return frame_bgr if gains is None else uncast(frame_bgr, gains)
