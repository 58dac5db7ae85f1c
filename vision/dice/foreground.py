"""Where something other than the bare table is, without knowing what dice look like.

Two cues, because neither alone sees every die: a colour/brightness difference from
the slowly varying table surface (catches coloured, black and translucent dice) and
fine local contrast (catches white dice on a white table, whose only strong marks are
their pips and edges). The mask is deliberately generous: the patch classifier, not
this mask, decides what is a die."""

from __future__ import annotations

import cv2
import numpy as np

BACKGROUND_GRID = 160  # the table estimate is made at this size: cheap, and dice vanish in it
COLOUR_THRESHOLD = 40
TEXTURE_THRESHOLD = 40


def _disc(size: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


def table_background(lab: np.ndarray) -> np.ndarray:
    """The table as it would look without dice: a wide median at low resolution, wide
    enough that a cluster of dice is a minority inside every window."""
    small = cv2.resize(lab, (BACKGROUND_GRID, BACKGROUND_GRID), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.medianBlur(small, 31), (lab.shape[1], lab.shape[0]))


def foreground_mask(frame_bgr: np.ndarray) -> np.ndarray:
    """uint8 mask, 255 where something stands out from the table surface."""
    lab = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2LAB)
    diff = cv2.absdiff(lab, table_background(lab))
    # Chroma differences count triple: a pale die on a pale table differs mostly in hue.
    colour = cv2.max(cv2.max(diff[..., 0] // 2, cv2.multiply(diff[..., 1], 3)),
                     cv2.multiply(diff[..., 2], 3))
    mask = cv2.threshold(colour, COLOUR_THRESHOLD, 255, cv2.THRESH_BINARY)[1]
    texture = cv2.morphologyEx(lab[..., 0], cv2.MORPH_GRADIENT, _disc(3))
    texture = cv2.threshold(texture, TEXTURE_THRESHOLD, 255, cv2.THRESH_BINARY)[1]
    mask = cv2.bitwise_or(mask, cv2.morphologyEx(texture, cv2.MORPH_CLOSE, _disc(11)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _disc(7))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, _disc(5))
