"""Where the dice are: things that differ clearly in colour from the table around them.

The table is estimated by a wide median at quarter resolution (a die covers well under
half of the window, so the median is table, whatever colour the die is)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.d10.patch import outline_pose

MEDIAN_WINDOW = 31  # quarter-resolution pixels: 124 frame pixels, wider than two dice
DIFFERENCE = 28.0  # Lab distance from the table that counts as "something on it"
# Around one die the table can be judged more finely than over the whole frame: there a
# body differing by 10 from a table whose own noise is 3 is clearly die.
LOCAL_DIFFERENCE = 10.0
LOCAL_NOISE_TIMES = 3.0
# A shadow darkens the table by the same share in every colour channel.
SHADOW_DARKER = (0.45, 0.96)
SHADOW_EVENNESS = 0.12
# A lone d10 seen from above is at most about 1.8 times as long as it is wide (the
# rendered ones about 1.5, with a margin); a longer blob is dice touching, a die and
# something else, or no die (a domino tile is 2:1), whose middle is no top face.
ONE_DIE_ELONGATION = 1.8
CORE = 0.75  # share of a cluster's deepest inside distance that marks one die's core
CLUSTER_DICE = 4  # a cluster of touching dice is at most this many dice long
SPLIT_DEPTH = 2
RECTANGLE_FILL = 0.92  # share of its smallest box above which a big thing is a card or a tile (_rectangle)


@dataclass(frozen=True)
class TableDifference:
    """How each pixel of a frame differs from the table under it, at half resolution."""

    distance: np.ndarray  # float32 Lab distance from the table
    frame: np.ndarray  # the frame at half resolution, BGR
    table: np.ndarray  # the table estimated under it, BGR

    def shadow(self, rows: slice, columns: slice) -> np.ndarray:
        """bool: where the table is darkened evenly in every channel, as a shadow darkens it."""
        ratio = (self.frame[rows, columns].astype(np.float32) + 1) / (self.table[rows, columns].astype(np.float32) + 1)
        b, g, r = ratio[..., 0], ratio[..., 1], ratio[..., 2]
        darkest, lightest = np.minimum(np.minimum(b, g), r), np.maximum(np.maximum(b, g), r)
        return (darkest > SHADOW_DARKER[0]) & (lightest < SHADOW_DARKER[1]) & (lightest - darkest < SHADOW_EVENNESS)


def table_difference(frame_bgr: np.ndarray) -> TableDifference:
    """The Lab distance is computed exactly, so that a frame gives the same blobs every
    time. 8-bit Lab differences are whole numbers, so many pixels lie exactly at a
    threshold (28 is the length of (28, 0, 0) and of (8, 12, 24)). cv2.magnitude,
    through Intel IPP, rounded such a length to 28.0 or to 28.000002 depending on where
    its input arrays happened to start in memory, which differed from run to run: one
    pixel more or less in a die's blob moved its read centre 0.48 pixels. The squares of
    whole numbers up to 255 and their sum are exact in float32 and numpy's sqrt is
    correctly rounded, so here the length of (28, 0, 0) is 28.0 on every path."""
    h, w = frame_bgr.shape[:2]
    half = cv2.resize(frame_bgr, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    quarter = cv2.resize(half, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    table = cv2.resize(cv2.medianBlur(quarter, MEDIAN_WINDOW), (w // 2, h // 2), interpolation=cv2.INTER_LINEAR)
    lab = cv2.cvtColor(half, cv2.COLOR_BGR2LAB).astype(np.float32)
    table_lab = cv2.cvtColor(table, cv2.COLOR_BGR2LAB).astype(np.float32)
    square = lab - table_lab
    square *= square
    distance = np.sqrt(square[..., 0] + square[..., 1] + square[..., 2])
    return TableDifference(distance, half, table)


def foreground(difference: TableDifference) -> np.ndarray:
    """uint8 mask (1 = differs clearly from the table) at half resolution."""
    mask: np.ndarray = (difference.distance > DIFFERENCE).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _outer_outlines(mask: np.ndarray) -> list[np.ndarray]:
    """Every outer outline (half resolution), also those lying inside another thing's
    outline: a dice tray's rim is one big ring around everything on the tray."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    return [c for c, (_, _, _, parent) in zip(contours, hierarchy[0] if hierarchy is not None else []) if parent < 0]


def _die_sizes(die_px: float | None) -> tuple[float, float]:
    """Shortest and longest outline (full-resolution pixels) one die can have."""
    return (0.6 * die_px, 2.4 * die_px) if die_px else (20.0, 130.0)


def _length(outline: np.ndarray) -> tuple[float, bool]:
    """Full-resolution length of a half-resolution outline, and whether it is compact
    (its box no more than twice as long as wide), as one die is."""
    (_, _), (w, h), _ = cv2.minAreaRect(outline)
    return 2.0 * max(w, h), min(w, h) > 0.5 * max(w, h)


def blob_outlines(difference: TableDifference, area_mask: np.ndarray | None,
                  die_px: float | None) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Full-resolution outlines of die-sized things on the table, and of clusters: things
    too big or too long for one die but not for a few touching."""
    mask = foreground(difference)
    if area_mask is not None:
        mask &= cv2.resize(area_mask, mask.shape[::-1], interpolation=cv2.INTER_NEAREST) > 0
    low, high = _die_sizes(die_px)
    dice, clusters = [], []
    for outline in _outer_outlines(mask):
        length, compact = _length(outline)
        if low <= length <= high and compact:
            dice.append(outline * 2)
        elif low <= length <= CLUSTER_DICE * high:
            clusters.append(outline * 2)
    return dice, clusters


def oversized(difference: TableDifference, area_mask: np.ndarray | None,
              die_px: float | None) -> list[tuple[np.ndarray, float]]:
    """Full-resolution outlines, with their lengths, of things as compact as one die but
    too long for one at the reader's sizes: a die seen much closer than those sizes
    assume (a close-up photo, a low camera), or dice touching in a square. Looked for
    in a half-size copy, whose table window is twice as wide: in the frame itself a
    die more than twice too long is part of the table estimate under it and breaks
    into pieces (the frame's own `difference` holds that copy)."""
    lone, clusters = blob_outlines(table_difference(difference.frame), area_mask, die_px / 2 if die_px else None)
    high = _die_sizes(die_px)[1]
    found = []
    for outline in lone + clusters:
        length, compact = _length(outline.astype(np.float32) / 2)
        if compact and 2 * length > high and not _rectangle(outline):
            found.append((outline * 2, 2 * length))
    return found


def _rectangle(outline: np.ndarray) -> bool:
    """Whether an outline is a card's or a tile's: its hull fills its smallest box.
    A d10 seen from above, a kite between side faces, fills 0.75-0.88 of it (the
    rendered ones enlarged two and three times); a whole card or tile 0.93-0.99."""
    points = outline.astype(np.float32)
    (_, _), (w, h), _ = cv2.minAreaRect(points)
    return cv2.contourArea(cv2.convexHull(points)) > RECTANGLE_FILL * w * h


def die_blobs(frame_bgr: np.ndarray, area_mask: np.ndarray | None, die_px: float | None,
              difference: TableDifference | None = None) -> list[np.ndarray]:
    """Outlines (full-resolution contours) of die-sized things on the table."""
    return blob_outlines(difference or table_difference(frame_bgr), area_mask, die_px)[0]


def touching_dice(outline: np.ndarray, die_px: float | None) -> list[tuple[np.ndarray, tuple[tuple[float, float], ...]]]:
    """The dice in a blob of dice touching (a cluster, or a die-sized blob that is no
    one die): for each, its outline and the middles of the dice it touches (all full
    resolution). Nothing when the blob does not part into several die-sized pieces.

    Each die of a cluster has a core far from the cluster's edge, and touching dice
    meet at a neck closer to it: the cores are where the distance to the edge is more
    than CORE of the deepest, and every pixel belongs to the nearest core. A part still
    too long is split the same way once more."""
    low, high = _die_sizes(die_px)
    half = np.round(outline.reshape(-1, 1, 2) / 2.0).astype(np.int32)
    x, y, w, h = cv2.boundingRect(half)
    inside = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(inside, [half - [x - 1, y - 1]], -1, 1, -1)
    parts = [p for p in _split(inside, SPLIT_DEPTH) if _length(p)[1] and low <= _length(p)[0] <= high]
    if len(parts) < 2:
        return []
    outlines = [(p + [x - 1, y - 1]) * 2 for p in parts]
    middles = [outline_pose(o)[0] for o in outlines]
    return [(o, tuple(m for j, m in enumerate(middles) if j != i)) for i, o in enumerate(outlines)]


def _split(inside: np.ndarray, depth: int) -> list[np.ndarray]:
    """Outlines of the parts of a cluster mask, one per core (see touching_dice)."""
    depth_map = cv2.distanceTransform(inside, cv2.DIST_L2, 5)
    count, cores = cv2.connectedComponents((depth_map > CORE * depth_map.max()).astype(np.uint8))
    if count <= 2:
        return []
    # Each pixel to its nearest core: the distance transform to the cores labels each
    # pixel with the nearest core pixel, whose core is looked up.
    _, nearest = cv2.distanceTransformWithLabels((cores == 0).astype(np.uint8), cv2.DIST_L2, 5,
                                                 labelType=cv2.DIST_LABEL_PIXEL)
    ys, xs = np.nonzero(cores)
    core_of = np.zeros(nearest.max() + 1, np.int32)
    core_of[nearest[ys, xs]] = cores[ys, xs]
    owner = core_of[nearest] * (inside > 0)
    outlines = []
    for k in range(1, count):
        part = (owner == k).astype(np.uint8)
        contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not contours:
            continue
        outline = max(contours, key=cv2.contourArea)
        deeper = _split(part, depth - 1) if depth > 1 and outline_pose(outline)[3] > ONE_DIE_ELONGATION else []
        outlines += deeper or [outline]
    return outlines


def whole_die(contour: np.ndarray, difference: TableDifference, shadow_out_of_blob: bool = False,
              neighbours: tuple[tuple[float, float], ...] = ()) -> np.ndarray:
    """The outline of the whole die round a blob (full-resolution convex hull).

    A die close to the table's colour differs clearly from it only in its ink and its
    lit faces, so its blob is a ragged part of the die with the wrong middle and axis.
    Round the blob the table's own noise is known, so a much finer cut separates the
    rest of the body; the table's shadow, evenly darker, is left out; and a d10 seen
    from above is convex, so the hull closes what ink and glare leave open.

    The blob itself is kept whole unless `shadow_out_of_blob`: the darkest shadow right
    beside a die differs clearly from the table and so is part of the blob, but a die of
    the table's own hue has shaded faces that pass for shadow, so both cuts are worth a
    look. What lies nearer the middle of a touching die (`neighbours`) is that die's."""
    (cx, cy), _, length, _ = outline_pose(contour)
    cx, cy, reach = cx / 2, cy / 2, length / 2 + 3  # half resolution: a blob's length each way
    h, w = difference.distance.shape
    left, top = int(max(cx - reach, 0)), int(max(cy - reach, 0))
    right, bottom = int(min(cx + reach, w)), int(min(cy + reach, h))
    distance = difference.distance[top:bottom, left:right]
    own = np.zeros(distance.shape, np.uint8)
    cv2.drawContours(own, [(contour.reshape(-1, 2) / 2.0 - [left, top]).astype(np.int32)], -1, 1, -1)
    table = distance[cv2.dilate(own, np.ones((7, 7), np.uint8)) == 0]
    noise = float(np.median(table)) if table.size else 0.0
    cut = min(max(LOCAL_DIFFERENCE, LOCAL_NOISE_TIMES * noise), DIFFERENCE)
    shadow = difference.shadow(slice(top, bottom), slice(left, right))
    body: np.ndarray = cv2.morphologyEx(((distance > cut) & ~shadow).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    if neighbours:
        ys, xs = np.mgrid[top:bottom, left:right].astype(np.float32)
        mine = (xs - cx) ** 2 + (ys - cy) ** 2
        for nx, ny in neighbours:
            body[(xs - nx / 2) ** 2 + (ys - ny / 2) ** 2 < mine] = 0
    kept = own & ~shadow if shadow_out_of_blob else own
    body |= kept if kept.any() else own
    count, parts = cv2.connectedComponents(body)
    overlap = np.bincount(parts[own > 0], minlength=count)
    overlap[0] = 0
    outlines, _ = cv2.findContours((parts == overlap.argmax()).astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_SIMPLE)
    return (cv2.convexHull(max(outlines, key=cv2.contourArea)) + [left, top]) * 2
