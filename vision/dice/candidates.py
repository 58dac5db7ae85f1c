"""Places worth asking the patch classifier about, each with a guess of the die's size.

A lone die is one compact blob and gets one candidate at its centre, sized from the
blob (marked `lone`: the reader gives it a second chance when the finders doubt
it); a compact blob much bigger than the frame's typical die also gets the grid,
because two dice touching corner to corner can look like one big die. Anything
else (dice touching, a die split into pip fragments, a tray wall) is covered by a
grid of candidates at the typical die size of this frame, and the classifier plus
non-maximum suppression picks the real centres. This keeps the search cheap without
ever needing the blobs themselves to be right."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from skimage.measure import inertia_tensor_eigvals

from vision.dice.components import components

MIN_BLOB_AREA = 120
GRID_STEP = 0.3  # grid spacing as a fraction of the die side: a die is always hit near its centre
BIG_BLOB_DICE = 6  # blobs larger than this many die areas get thin parts skipped
THIN_PART = 0.25  # ...where the blob is less than half a die side thick
LONE_GRID = 1.35  # a die-shaped blob this many typical sides wide may be two dice: it gets the grid too
TURNED_ASPECT = 1.4  # a turned die's blob: longest over shortest spread...
TURNED_FILL = 0.85  # ...and its area over a filled square's of the same spread
DEFAULT_SIDE = 30.0  # die side in pixels of a 640-pixel-wide view when nothing better is known


@dataclass(frozen=True)
class Candidate:
    x: float
    y: float
    side: float  # estimated side of the die (top face plus visible walls), pixels
    lone: bool = False  # the centre of a blob shaped like one die


def _is_single_die_shape(w: int, h: int, area: int, blob: np.ndarray | None = None) -> bool:
    """Whether a blob (w x h box, `area` pixels) is shaped like one die: filling its
    box, or, given the blob's own pixels, at any angle (_is_turned_die_shape)."""
    if not 0.7 < w / h < 1.4:
        return False
    return area / float(w * h) > 0.6 or (blob is not None and _is_turned_die_shape(blob, area))


def _is_turned_die_shape(blob: np.ndarray, area: int) -> bool:
    """As round as a square in its second moments: their two axes alike, and as
    tight as a filled square's.

    A square turned 30-45 degrees fills only half of its upright box, so the box test
    passes dice lying nearly square to the view only. With this test the others get
    their own candidate and size too, and the second chance lone dice get; the
    frame's typical size is still taken from the box test's dice alone (taking these
    in too reads fewer dice held out)."""
    major, minor = inertia_tensor_eigvals(blob)  # the pixels' variances along their two axes
    # A filled square of side s has both variances s^2 / 12.
    return minor > 0 and major / minor < TURNED_ASPECT ** 2 and area / (12 * np.sqrt(major * minor)) > TURNED_FILL


def typical_die_side(stats: np.ndarray, frame_length: int) -> float:
    """Median side of the blobs shaped like one die; with none, the default scaled by
    the frame's longer side (`frame_length`): a camera's view is as wide as its longer
    side whichever way it is turned, and a narrow view cut from a frame shows its dice
    at the frame's size (scaled by the width, a tall strip's dice were taken for half
    their size and read as several small ones)."""
    sides = [np.sqrt(a) for _, _, w, h, a in stats[1:]
             if a >= MIN_BLOB_AREA and _is_single_die_shape(w, h, a)]
    sides = [s for s in sides if 12 <= s <= frame_length / 6]
    if not sides:
        return DEFAULT_SIDE * frame_length / 640.0
    return float(np.median(sides))


def find_candidates(mask: np.ndarray, die_side: float | None = None) -> tuple[list[Candidate], float]:
    """Candidates from a foreground mask, and the die side used for the grid."""
    found = components(mask)
    stats, centroids = found.stats, found.centroids
    side = die_side or typical_die_side(stats, max(mask.shape[:2]))
    out: list[Candidate] = []
    depth = None  # distance to the blob's edge, computed only if a big blob needs it
    step = max(2, int(round(side * GRID_STEP)))
    for i in range(1, found.count):
        x, y, w, h, area = stats[i]
        if area < MIN_BLOB_AREA * (side / DEFAULT_SIDE) ** 2 * 0.5:
            continue
        own = float(np.sqrt(area))
        blob = found.blob(i)
        if 0.6 * side < own < 1.6 * side and _is_single_die_shape(w, h, area, blob.view(np.uint8)):
            out.append(Candidate(float(centroids[i][0]), float(centroids[i][1]), own, lone=True))
            if own < LONE_GRID * side:
                continue
        # Grid, offset so a blob narrower than a step still gets a point at its middle.
        if area > BIG_BLOB_DICE * side * side:
            # A blob this big is a crowd of dice or a tray rim with dice against it:
            # no die centre lies on its thin parts (the rim itself).
            if depth is None:
                depth = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
            blob &= depth[y:y + h, x:x + w] >= THIN_PART * side
        off_x, off_y = (w % step) / 2.0 + step / 2.0 - 0.5, (h % step) / 2.0 + step / 2.0 - 0.5
        gy, gx = np.meshgrid(np.arange(off_y, h, step), np.arange(off_x, w, step), indexing="ij")
        hit = blob[gy.astype(int), gx.astype(int)]
        out += [Candidate(float(x + px), float(y + py), side) for py, px in zip(gy[hit], gx[hit])]
        if w < step and h < step:
            out.append(Candidate(float(centroids[i][0]), float(centroids[i][1]), side))
    return out, side
