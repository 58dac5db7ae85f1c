"""Parting two touching tiles that the table mask sees as one blob.

End to end they make a 4:1 blob, parted where the seam (a groove between the bevels)
crosses it near the middle. Side by side they make a square, and there the seam and
the two tiles' dividers form the same cross; what tells them apart is that the seam
runs out to the blob's edges while a divider stops short of the tile's sides.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.dominoes import face

S = face.S


def _warp(frame, corners, width, height):
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    m = cv2.getPerspectiveTransform(corners, target)
    return cv2.warpPerspective(frame, m, (width, height), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


def _to_image(corners, width, height, x0, y0, x1, y1):
    """The rectangle (x0, y0)-(x1, y1) of the canonical picture, in the frame."""
    p0, p1, _, p3 = corners
    along, across = (p1 - p0) / width, (p3 - p0) / height
    pts = np.array([p0 + x * along + y * across for x, y in
                    ((x0, y0), (x1, y0), (x1, y1), (x0, y1))], np.float32)
    return cv2.minAreaRect(pts)


def split_end_to_end(frame, corners):
    """Two tile rects from a 4:1 blob whose corners run along its long side first."""
    picture = _warp(frame, corners, 4 * S, S)
    marks = face.mark_strength(picture)
    profile = marks[face.MARGIN:S - face.MARGIN].mean(axis=0)
    lo, hi = int(1.6 * S), int(2.4 * S)
    seam = lo + int(np.argmax(profile[lo:hi]))
    return [_to_image(corners, 4 * S, S, 0, 0, seam, S),
            _to_image(corners, 4 * S, S, seam, 0, 4 * S, S)]


def split_side_by_side(frame, corners):
    """Two tile rects from a square blob, or None when the seam cannot be told."""
    picture = _warp(frame, corners, 2 * S, 2 * S)
    marks = face.mark_strength(picture)
    ends = np.r_[1:int(0.1 * S), 2 * S - int(0.1 * S):2 * S - 1]  # where a divider never reaches
    middle = slice(S - 3, S + 4)
    across = marks[middle][:, ends].mean(axis=1).max()  # a line y = S reaching the sides
    down = marks[:, middle][ends].mean(axis=0).max()  # a line x = S reaching top and bottom
    if max(across, down) < face.DIVIDER_MIN or max(across, down) < 1.5 * min(across, down):
        return None
    if down > across:  # turn the picture so the seam runs across, at y ~ S
        marks = marks.T
    near = slice(int(0.8 * S), int(1.2 * S))
    seam = near.start + int(np.argmax(marks[near, face.MARGIN:2 * S - face.MARGIN].mean(axis=1)))
    if down > across:
        return [_to_image(corners, 2 * S, 2 * S, 0, 0, seam, 2 * S),
                _to_image(corners, 2 * S, 2 * S, seam, 0, 2 * S, 2 * S)]
    return [_to_image(corners, 2 * S, 2 * S, 0, 0, 2 * S, seam),
            _to_image(corners, 2 * S, 2 * S, 0, seam, 2 * S, 2 * S)]
