"""Parting two touching tiles that the table mask sees as one blob, and joining the
two halves of one tile that its divider line cut apart.

End to end they make a 4:1 blob, parted where the seam (a groove between the bevels)
crosses it near the middle. Side by side they make a square, and there the seam and
the two tiles' dividers form the same cross; what tells them apart is that the seam
runs out to the blob's edges while a divider stops short of the tile's sides.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.dominoes import face, ranks

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


def _seam(profile: np.ndarray, lo: int, hi: int) -> int:
    """Where in [lo, hi) the seam runs: the middle of the strongest stretch, as a
    tile's visible side can widen the gap between two top faces."""
    smooth = np.convolve(profile, np.ones(7) / 7, mode="same")
    return lo + int(np.argmax(smooth[lo:hi]))


def split_end_to_end(frame, corners):
    """Two tile rects from a 4:1 blob whose corners run along its long side first."""
    picture = _warp(frame, corners, 4 * S, S)
    marks = face.mark_strength(picture)
    # The seam runs the whole width; a column of pips beside it covers half of it at
    # most, so score each column by what three quarters of its length show.
    profile = np.percentile(marks[face.MARGIN:S - face.MARGIN], 25, axis=0)
    seam = _seam(profile, int(1.6 * S), int(2.4 * S))
    return [_to_image(corners, 4 * S, S, 0, 0, seam, S),
            _to_image(corners, 4 * S, S, seam, 0, 4 * S, S)]


def side_by_side_ways(frame, corners):
    """Both ways of parting a square blob into two tile rects, as (how clearly a line
    along that cut reaches the blob's edges, the two rects), the clearer first.

    The clearer line is usually the seam, but not always: a dark groove between two
    black tiles can show less than their white dividers, which line up across both
    tiles and may run nearly out to the sides. Which way is right is told by reading
    the parts (`reader._read_square`): parted along the dividers, each part's middle
    line is the seam, so no part shows a divider of its own."""
    picture = _warp(frame, corners, 2 * S, 2 * S)
    marks = face.mark_strength(picture)
    ways = []
    for turned in (False, True):  # a cut y = S across, then x = S down
        seen = marks.T if turned else marks
        along = np.percentile(seen[:, face.MARGIN:2 * S - face.MARGIN], 25, axis=1)
        seam = _seam(along, int(0.8 * S), int(1.2 * S))
        rects = [_to_image(corners, 2 * S, 2 * S, 0, 0, seam, 2 * S),
                 _to_image(corners, 2 * S, 2 * S, seam, 0, 2 * S, 2 * S)] if turned else \
                [_to_image(corners, 2 * S, 2 * S, 0, 0, 2 * S, seam),
                 _to_image(corners, 2 * S, 2 * S, 0, seam, 2 * S, 2 * S)]
        ways.append((_reaching_line(seen), rects))
    return sorted(ways, key=lambda way: -way[0])


def _reaching_line(marks: np.ndarray) -> float:
    """How clearly a line y ~ S runs out to both sides of a square picture, where a
    divider never reaches: what it shows there against the rows a little way off
    (a loosely fitted outline brings table and shadow into every row at the sides)."""
    lo, hi = _body_span(marks)
    ends = np.r_[lo + 1:lo + int(0.1 * S), hi - int(0.1 * S):hi - 1]
    rows = marks[:, ends].mean(axis=1)
    off = np.r_[rows[S - 12:S - 6], rows[S + 7:S + 13]]
    return float(rows[S - 3:S + 4].max() - ranks.median(off))


def _body_span(marks: np.ndarray) -> tuple[int, int]:
    """Columns [lo, hi) of the picture the bodies span. An outline fitted to a blob
    that has lost part of its edge (a white tile's lit side on a white cloth) leaves
    table inside the picture; the bodies' edge then shows as a line down every row,
    and a seam reaches that line, not the picture's side."""
    profile = np.percentile(marks, 20, axis=0)  # a row of pips is no line down every row
    quarter = S // 2
    strong = max(face.DIVIDER_MIN, 3 * float(ranks.median(profile)))
    lo = int(np.argmax(profile[:quarter]))
    hi = 2 * S - quarter + int(np.argmax(profile[-quarter:])) + 1
    lo = lo if lo >= 3 and profile[lo] >= strong else 0
    hi = hi if hi <= 2 * S - 3 and profile[hi - 1] >= strong else 2 * S
    return lo, hi


def halves_of_tiles(squares):
    """Pairs of square blobs that sit like the two halves of one tile: a divider
    that runs nearly from side to side parts a tile's outline in two.

    Returns the joined (rect, fill) of each pair, and the squares left over."""
    joined, used = [], set()
    for i, a in enumerate(squares):
        for j in range(i + 1, len(squares)):
            b = squares[j]
            if i in used or j in used or not _halves_of_one(a, b):
                continue
            pts = np.vstack([cv2.boxPoints(a.rect), cv2.boxPoints(b.rect)])
            rect = cv2.minAreaRect(pts)
            joined.append((rect, (a.area + b.area) / max(rect[1][0] * rect[1][1], 1.0)))
            used.update((i, j))
    return joined, [s for k, s in enumerate(squares) if k not in used]


def _halves_of_one(a, b) -> bool:
    side_a, side_b = np.mean(a.rect[1]), np.mean(b.rect[1])
    if not 0.8 <= side_a / side_b <= 1.25:
        return False
    gap = np.subtract(b.rect[0], a.rect[0])
    if not 0.85 <= np.linalg.norm(gap) / ((side_a + side_b) / 2) <= 1.2:
        return False
    turn = abs((a.rect[2] - b.rect[2] + 45) % 90 - 45)
    heading = np.degrees(np.arctan2(gap[1], gap[0]))
    off_axis = abs((heading - a.rect[2] + 45) % 90 - 45)
    return turn < 10 and off_axis < 10
