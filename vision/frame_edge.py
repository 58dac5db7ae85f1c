"""Dice cut by the edge of the view. When part of a die lies outside the picture, the
part still in view can pass for a whole die showing something else: half a d6's pips
look like a smaller value, and a d10 cut through its number looks like another
number. So every dice reader refuses a die that reaches more than EDGE_OVERHANG of
its size past the frame's edge ("die lies across the edge of the view").

The two readers see a die differently, so there are two measures of the same limit.
The d6 reader places a square box of known side on a die, and that box can reach past
the frame (box_overhang). The d10 reader has only the outline of what is in view,
which ends at the frame's edge (outline_overhang)."""

from __future__ import annotations

import numpy as np

# How far a die may reach past the frame's edge, in die sides (d6) or widths (d10).
# Why: docs/tried/dice.md (d6) and docs/vision-cards-d10.md (d10).
EDGE_OVERHANG = 0.2
# An outline point this close to the frame's edge (pixels) lies on it. The d10
# outlines come from a half-resolution mask, so the last column they can reach is 1-2
# pixels short of the frame's last column.
ON_EDGE = 2.0


def box_overhang(box: tuple[float, float, float, float], shape: tuple[int, ...]) -> float:
    """How far (pixels) a die's box (x0, y0, x1, y1) reaches past the frame's edge, for a
    frame of `shape` (rows, columns, ...)."""
    x0, y0, x1, y1 = box
    return max(-x0, -y0, x1 - shape[1], y1 - shape[0], 0.0)


def outline_overhang(outline: np.ndarray, shape: tuple[int, ...]) -> float:
    """How far past the frame's edge a die reaches, in widths of the die, judged from
    its outline inside the frame (points (x, y) in pixels, as cv2 gives them).

    Where the outline runs along an edge, the die is cut there. A round die of width
    W cut a share o of W from its side leaves a chord of 2 W sqrt(o (1 - o)) along
    the edge, so o = (1 - sqrt(1 - (chord / W)^2)) / 2. W is the outline's extent
    along that edge, which is the die's full width there as long as less than half of
    the die is cut off. A die wholly in view that only touches the edge touches it at
    a point or along a short stretch, which gives a small o. The largest o over the
    four edges is returned."""
    points = np.asarray(outline, np.float64).reshape(-1, 2)
    if len(points) == 0:
        return 0.0
    rows, columns = shape[0], shape[1]
    x, y = points[:, 0], points[:, 1]
    worst = 0.0
    for on_edge, along in ((x <= ON_EDGE, y), (x >= columns - 1 - ON_EDGE, y),
                           (y <= ON_EDGE, x), (y >= rows - 1 - ON_EDGE, x)):
        if not on_edge.any():
            continue
        width = float(np.ptp(along))
        if width <= 0:
            continue
        chord = min(float(np.ptp(along[on_edge])) / width, 1.0)
        worst = max(worst, (1.0 - np.sqrt(1.0 - chord * chord)) / 2.0)
    return worst
