"""Where something other than the bare table is, without knowing what dice look like.

Two cues, because neither alone sees every die: a colour/brightness difference from
the slowly varying table surface (catches coloured, black and translucent dice) and
fine local contrast (catches white dice on a white table, whose only strong marks are
their pips and edges). The mask is deliberately generous: the patch classifier, not
this mask, decides what is a die."""

from __future__ import annotations

import cv2
import numpy as np

BACKGROUND_GRID = 80  # the table estimate is made at this size: cheap, and dice vanish in it
COLOUR_THRESHOLD = 40
TEXTURE_THRESHOLD = 40
CHROMA_WEIGHT = 4.0
BACKGROUND_MEDIAN = 15  # a fifth of the view: wider than any cluster of dice


def _disc(size: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


def table_background(image: np.ndarray) -> np.ndarray:
    """The table as it would look without dice: a wide median at low resolution, wide
    enough that a cluster of dice is a minority inside every window."""
    small = cv2.resize(image, (BACKGROUND_GRID, BACKGROUND_GRID), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.medianBlur(small, BACKGROUND_MEDIAN), (image.shape[1], image.shape[0]))


def foreground_mask(frame_bgr: np.ndarray) -> np.ndarray:
    """uint8 mask, 255 where something stands out from the table surface."""
    # YCrCb rather than Lab: a linear transform, several times cheaper on a Pi, and
    # it separates brightness from chroma just as well for this purpose.
    ycc = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2YCrCb)
    luma, red, blue = cv2.split(cv2.absdiff(ycc, table_background(ycc)))
    # Chroma differences count more: a pale die on a pale table differs mostly in hue.
    colour = cv2.max(cv2.multiply(luma, 0.5), cv2.multiply(cv2.max(red, blue), CHROMA_WEIGHT))
    mask = cv2.threshold(colour, COLOUR_THRESHOLD, 255, cv2.THRESH_BINARY)[1]
    texture = cv2.morphologyEx(cv2.split(ycc)[0], cv2.MORPH_GRADIENT, _disc(3))
    texture = cv2.threshold(texture, TEXTURE_THRESHOLD, 255, cv2.THRESH_BINARY)[1]
    mask = cv2.bitwise_or(mask, cv2.morphologyEx(texture, cv2.MORPH_CLOSE, _disc(11)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _disc(7))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, _disc(5))
