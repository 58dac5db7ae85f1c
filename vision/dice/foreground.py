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
# A pixel differs from the table when its brightness differs by more than LUMA_STEP
# or either chroma by more than CHROMA_STEP: chroma counts eight times more, since
# a pale die on a pale table differs mostly in hue.
LUMA_STEP = 81
CHROMA_STEP = 10
TEXTURE_THRESHOLD = 40
TEXTURE_WEAK = 20  # faint contrast: the walls of a white die on a white table
WEAK_COLOURED = 0.05  # a faint region with more of its pixels differing in colour is not grown
BACKGROUND_MEDIAN = 15  # a fifth of the view: wider than any cluster of dice


def _disc(size: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


def table_background(image: np.ndarray) -> np.ndarray:
    """The table as it would look without dice: a wide median at low resolution, wide
    enough that a cluster of dice is a minority inside every window."""
    small = cv2.resize(image, (BACKGROUND_GRID, BACKGROUND_GRID), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.medianBlur(small, BACKGROUND_MEDIAN), (image.shape[1], image.shape[0]))


def _texture(luma: np.ndarray, coloured: np.ndarray) -> np.ndarray:
    """uint8 mask of strong local contrast (pips, edges), grown over the faint
    contrast joined to it when that region is compact and has next to no colour
    difference from the table: a white die on a white table.

    Without the growth such a die's mask is its pips alone, about two thirds of the
    die, so its blob and the frame's typical die size come out small, and big white
    dice are read as several small ones (a 4 as three 1s) or not at all. Colour
    regions need no growth (their colour already covers the die), and thin or
    sprawling faint regions (the edge of the view, a tray rim) are left out."""
    texture = cv2.morphologyEx(luma, cv2.MORPH_GRADIENT, _disc(3))
    strong = cv2.threshold(texture, TEXTURE_THRESHOLD, 255, cv2.THRESH_BINARY)[1]
    weak = cv2.morphologyEx(cv2.threshold(texture, TEXTURE_WEAK, 255, cv2.THRESH_BINARY)[1],
                            cv2.MORPH_CLOSE, _disc(11))
    # Grana's block-based labelling: a third of the default's time.
    count, parts, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(weak, 8, cv2.CV_32S, cv2.CCL_GRANA)
    w, h, area = stats[:, 2], stats[:, 3], stats[:, 4]
    joined = np.bincount(parts[strong > 0], minlength=count) > 0
    colour_share = np.bincount(parts[coloured > 0], minlength=count) / np.maximum(area, 1)
    grow = joined & (colour_share < WEAK_COLOURED) & (w < 2 * h) & (h < 2 * w) & (area > 0.4 * w * h)
    for i in np.flatnonzero(grow):  # filled inside its outline: a plain face has no contrast at all
        x, y = stats[i, 0], stats[i, 1]
        outline, _ = cv2.findContours((parts[y:y + h[i], x:x + w[i]] == i).astype(np.uint8),
                                      cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cv2.drawContours(strong[y:y + h[i], x:x + w[i]], outline, -1, 255, -1)
    return strong


def foreground_mask(frame_bgr: np.ndarray) -> np.ndarray:
    """uint8 mask, 255 where something stands out from the table surface."""
    # YCrCb rather than Lab: a linear transform, several times cheaper on a Pi, and
    # it separates brightness from chroma just as well for this purpose.
    ycc = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2YCrCb)
    # One range test on the three channels at once: no channel split, no scaling.
    mask = cv2.bitwise_not(cv2.inRange(cv2.absdiff(ycc, table_background(ycc)), (0, 0, 0),
                                       (LUMA_STEP, CHROMA_STEP, CHROMA_STEP)))
    texture = _texture(cv2.extractChannel(ycc, 0), mask)
    mask = cv2.bitwise_or(mask, cv2.morphologyEx(texture, cv2.MORPH_CLOSE, _disc(11)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _disc(7))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, _disc(5))
