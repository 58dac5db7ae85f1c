"""A lamp's colour cast, taken back out of a frame before its dice are read again.

The photos the networks learnt from are neutral, and a camera whose white balance is
off under a lamp gives frames with a cast: every channel scaled by its own gain. The
brightest pixels of the dice (white pips, white faces, glare) show the light's
colour; but so would a set of yellow dice with black pips under a white lamp. A cast
tints the table as well, and the dice's own colour does not, so the cast is taken out
only where the table leans the same way as the dice (under a real lamp it does;
coloured dice on a coloured cloth under white light it does not). Only what lies past
the photos' own spread is taken out, so the neutral photos read exactly as they are.
Taking a cast out reads more dice right under warm and cool lamps (measured on the
photos with casts added, docs/vision.md, "Colour casts").
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from vision.colour import leaning

# The brightest pixels of the dice in a photo lie within this of grey in every
# channel (just past the furthest photo: pips of one colour on dice of another); a frame
# further off is brought back to this, no nearer, so a scene of yellow dice with no
# white about them is changed no more than it must be.
CAST = 0.12
# A frame is read again only for a cast clearly past that: a second read is another
# draw of candidates, not a better one, where the light is hardly changed.
CLEAR_CAST = 0.18
BRIGHTEST = 95  # percentile of the summed channels over the dice's boxes
FEWEST = 50  # pixels looked at: fewer say nothing about the light
STEP = 2  # every other pixel of every other row: a quarter of the cost, the same light
TABLE_SHARE = 0.5  # of the dice's cast (along it, in log colour) the table must show too
TABLE_THUMB = 80  # pixels a side: dice vanish in the median of a thumbnail this small


def cast_gains(frame_bgr: np.ndarray, boxes: Iterable[tuple[float, float, float, float]]) -> np.ndarray | None:
    """Per-channel gains (B, G, R) that take the cast past CAST out of the frame, or
    None when the dice show none (or too few pixels to tell)."""
    h, w = frame_bgr.shape[:2]
    parts = [frame_bgr[max(0, int(y0)):min(h, int(y1) + 1):STEP, max(0, int(x0)):min(w, int(x1) + 1):STEP]
             .reshape(-1, 3) for x0, y0, x1, y1 in boxes]
    pixels = np.concatenate(parts).astype(np.float32) if parts else np.empty((0, 3), np.float32)
    if len(pixels) < FEWEST:
        return None
    brightness = pixels.sum(axis=1)
    measured = leaning(pixels[brightness >= np.percentile(brightness, BRIGHTEST)].mean(axis=0))
    if measured is None:
        return None
    light, off = measured
    if off <= CLEAR_CAST or _table_share(frame_bgr, light) < TABLE_SHARE:
        return None
    return (light ** -((off - CAST) / off)).astype(np.float32)


def _table_share(frame_bgr: np.ndarray, light: np.ndarray) -> float:
    """How much of the dice's cast the table shows: its log colour projected on theirs."""
    thumb = cv2.resize(frame_bgr, (TABLE_THUMB, TABLE_THUMB), interpolation=cv2.INTER_AREA)
    table = np.log(np.maximum(np.median(thumb.reshape(-1, 3), axis=0), 1.0))
    dice = np.log(light)
    table, dice = table - table.mean(), dice - dice.mean()
    return float(table @ dice / (dice @ dice))
