"""Finding tile outlines on the table: which pixels are not table, and where one tile
ends and the next begins.

The table is learned from the frame's own border (or the play area's rim), because a
tray, felt and wood all differ; shadows are told from tiles by keeping their colour
and only losing light. Touching tiles are parted along the edge lines inside a blob:
the seam between two tiles runs right across, while a tile's own divider stops short
of its sides and so never cuts a tile in two.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np

from vision.dominoes import ranks

MIN_SHORT_PX = 20  # a tile narrower than this cannot show its pips readably
NECKED_FILL = 0.75  # a piece filling less of its rectangle may be two tiles joined by a neck
RAGGED_FILL = 0.45  # least fill of a blob (two touching tiles with their sides and shadows)
CHROMA_STEP = 0.04  # change in r,g,b share that is a different material, not light
BRIGHTER = 1.2  # light ratio above which a pixel is something paler than the table
DARKER = 0.42  # below this it is darker than any drop shadow we expect
_ACROSS_DIVIDER = np.ones((1, 5), np.uint8)  # along a tile lying level: spans a divider
_BODY_WEIGHTS = np.array([0.5, 1.5, 1.5], np.float32)  # L, a, b: lightness counts for less
BUSY_TABLE = 0.03  # share of bare table on edge lines above which rings mean nothing
UNSEEN_SHARE = 0.3  # an outlined region the colour test saw less of is added whole
CLOSE_UP_FILL = 0.8  # least fill of its rectangle for a ringed region a third of the frame
SHADE = 0.85  # light ratio below which a ringed pixel is shade (a drop shadow, a side)


@dataclass(frozen=True)
class Outline:
    """A blob that may be one tile: its fitted rectangle and how well it fits."""

    rect: tuple[Sequence[float], Sequence[float], float]  # cv2.minAreaRect: ((x, y), (w, h), angle)
    area: float
    fill: float  # blob area / rectangle area
    hull: float = 0.0  # the blob's convex hull area / rectangle area
    # The whole blob, taken because edge lines cut it into specks (a small tile's
    # divider and pip rings can): reader.read_blob gives it a second chance only.
    whole: bool = False
    # A ragged blob parted at a narrow neck (two tiles touching corner to corner):
    # the parts, for reader.read_blob's last look.
    necked: tuple = ()

    @property
    def aspect(self) -> float:
        w, h = self.rect[1]
        return max(w, h) / max(min(w, h), 1e-6)

    @property
    def short(self) -> float:
        return min(self.rect[1])


def foreground(frame: np.ndarray, area_mask: np.ndarray | None,
               seen_mask: np.ndarray | None = None) -> np.ndarray:
    """uint8 mask of everything that is not bare table (or its shadows), in `seen_mask`
    (by default the play area, `area_mask`). The table is judged in the play area
    alone even where things are looked for past it, so that what lies inside is found
    as it was when nothing past the edge was looked at.

    Worked out at half size (which also smooths sensor noise): a tile is still
    several pixels across there, and it keeps the reader inside its time budget."""
    h, w = frame.shape[:2]
    half = (max(1, w // 2), max(1, h // 2))
    small = cv2.resize(frame, half, interpolation=cv2.INTER_AREA)
    share, total = _colour(small)
    table_share, table_total = _local_table(frame, area_mask, half)
    fg = _differs(share, total, table_share, table_total)
    mask: np.ndarray = fg.astype(np.uint8) * 255
    # cv2's stubs give every result an integer-or-float dtype, which numpy's refuse to
    # "|=": morphologyEx keeps its input's uint8.
    mask = cast(np.ndarray, cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)))
    # A ring runs round a tile's drop shadow too; the top face is lit as the cloth is,
    # the shadow is not, and the shadow would widen the outline past the tile.
    lit = np.where(total >= SHADE * table_total, 255, 0).astype(np.uint8)
    mask |= _enclosed(small, mask) & lit
    seen_mask = area_mask if seen_mask is None else seen_mask
    if seen_mask is not None:
        mask &= cv2.resize(seen_mask, half, interpolation=cv2.INTER_NEAREST)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    mask = cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)
    # The 3 MB int64 temporary is wasteful, but freeing it raises glibc's threshold
    # for giving memory back to the system, and every later big array then costs
    # milliseconds of page faults (system time) a frame (seen in the bench).
    return fill_holes(np.where(mask >= 128, 255, 0).astype(np.uint8))


def _enclosed(small: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """Regions ringed by edge lines that the colour test all but missed. A white tile
    on a white cloth is neither another colour nor another light than the cloth, but
    its bevel, its visible side and its drop shadow still draw a closed line around
    it. Regions the colour test did see keep its outline, which parts neighbours."""
    # Light and blue-yellow (ivory on white differs mostly there); YCrCb is cheap.
    ycc = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb), (5, 5), 1.0)
    light: np.ndarray = cv2.Canny(ycc[..., 0], 20, 50)
    edges = light | cv2.Canny(ycc[..., 2], 6, 15)
    # Only a smooth table says anything by its rings: on marble or a patterned cloth
    # every patch is ringed, and tile-shaped ones would pass for backs.
    # Judged cell by cell, by the typical cell: the tiles themselves are edgy too.
    h, w = edges.shape
    cells = cv2.resize((edges > 0).astype(np.float32), (max(1, w // 16), max(1, h // 16)),
                       interpolation=cv2.INTER_AREA)
    if float(np.median(cells)) > BUSY_TABLE:
        return np.zeros_like(seen)
    ring = cv2.dilate(edges, np.ones((5, 5), np.uint8))
    regions = cv2.erode(fill_holes(ring), np.ones((5, 5), np.uint8))
    # Wood grain and a cloth's weave ring only thin slivers, which would cling to tiles.
    regions = cv2.morphologyEx(regions, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    count, labels = cv2.connectedComponents(regions, connectivity=4)
    if count <= 1:
        return regions
    flat = labels.ravel()
    area = np.bincount(flat, minlength=count)
    seen_share = np.bincount(flat[seen.ravel() > 0], minlength=count) / np.maximum(area, 1)
    # A tray's rim or the frame's edge rings the whole table: no tile is that big. A
    # close-up tile may fill a third of the frame or more, but then it is a compact
    # four-sided region, which a ringed stretch of wood grain or cloth is not.
    unseen = (seen_share < UNSEEN_SHARE) & (area < 0.6 * regions.size)
    unseen[0] = False
    for big in np.flatnonzero(unseen & (area >= 0.3 * regions.size)):
        unseen[big] = _compact((labels == big).astype(np.uint8))
    return (unseen * 255).astype(np.uint8)[labels]


def _compact(region: np.ndarray) -> bool:
    """Whether a region fills most of its fitted rectangle and is no longer than a
    tile (a tile seen close and steeply is still nearly a rectangle)."""
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (_, (w, h), _) = cv2.minAreaRect(max(contours, key=cv2.contourArea))
    return float(region.sum()) / max(w * h, 1.0) >= CLOSE_UP_FILL and max(w, h) <= 3 * min(w, h)


def _colour(img: np.ndarray):
    """Each pixel's share of b, g, r (what its material is) and its total (its light),
    as separate planes: whole-plane arithmetic is what keeps this fast."""
    planes = [p.astype(np.float32) + 1.0 for p in cv2.split(img)]
    total = planes[0] + planes[1] + planes[2]
    return [p / total for p in planes], total


def _local_table(frame, area_mask, size):
    """Table colour at every pixel of a `size` picture, from bare table nearby.

    On a coarse grid (a cell is 16 pixels), cells unlike the frame's typical colour
    are taken for objects and filled in from the bare cells around them, so uneven
    light and wood tone are not read as objects."""
    h, w = frame.shape[:2]
    grid = (max(8, w // 16), max(8, h // 16))
    share, total = _colour(cv2.resize(frame, grid, interpolation=cv2.INTER_AREA))
    inside = np.ones(total.shape, bool) if area_mask is None else \
        cv2.resize(area_mask, grid, interpolation=cv2.INTER_AREA) > 250
    if inside.sum() < 4:
        inside[:] = True
    objects = _objects(share, total, inside)
    keep = (inside & ~objects).astype(np.float32)
    if keep.sum() < 4:
        keep = inside.astype(np.float32)
    sigma = max(grid) / 8
    weight = cv2.GaussianBlur(keep, (0, 0), sigma) + 1e-6
    full = [cv2.resize(cv2.GaussianBlur(layer * keep, (0, 0), sigma) / weight, size,
                       interpolation=cv2.INTER_LINEAR) for layer in (*share, total)]
    return full[:3], full[3]


def _objects(share, total, inside) -> np.ndarray:
    """Grid cells that are not bare table.

    The table is what most of the frame shows, unless one big tile fills most of a
    close-up: then the frame's rim, which is mostly table, says what the table is."""
    rim = np.zeros_like(inside)
    rim[:2], rim[-2:], rim[:, :2], rim[:, -2:] = True, True, True, True
    rim &= inside
    for source in (inside, rim):
        objects = _differs(share, total, [np.median(p[source]) for p in share],
                           np.median(total[source]))
        if not rim.any() or (objects[rim]).mean() < 0.4:
            break
    return objects


def _differs(share, total, table_share, table_total) -> np.ndarray:
    chroma2 = sum((p - t) * (p - t) for p, t in zip(share, table_share))
    ratio = total / np.maximum(table_total, 1.0)
    # The colour share of a dark pixel is mostly noise: ask a dark pixel for more (a
    # black one, of total 0, for more than any colour can give).
    step = CHROMA_STEP * np.maximum(1.0, 250.0 / np.maximum(np.minimum(total, table_total), 1e-6))
    return (chroma2 > step * step) | (ratio > BRIGHTER) | (ratio < DARKER)


def fill_holes(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, -1)
    return filled


def outlines(frame: np.ndarray, fg: np.ndarray) -> list[Outline]:
    """Blobs of the foreground, split along edge lines that cross them from side to side.

    Each blob is worked on in its own box: most of a frame is bare table, and edge
    finding and labelling over all of it would cost more than the tiles do."""
    found: list[Outline] = []
    min_area = 2 * MIN_SHORT_PX * MIN_SHORT_PX * 0.8
    blobs, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for blob in blobs:
        x, y, w, h = cv2.boundingRect(blob)
        if w * h < min_area:
            continue
        x0, y0 = max(0, x - 6), max(0, y - 6)
        x1, y1 = min(fg.shape[1], x + w + 6), min(fg.shape[0], y + h + 6)
        alone = np.zeros((y1 - y0, x1 - x0), np.uint8)  # this blob without its neighbours
        cv2.drawContours(alone, [blob - np.array([x0, y0])], -1, 255, -1)
        found.extend(_pieces(frame[y0:y1, x0:x1], alone, np.array([x0, y0]), min_area))
    return _distinct(found)


def _pieces(frame: np.ndarray, fg: np.ndarray, offset: np.ndarray, min_area: float) -> list[Outline]:
    """The parts of one blob that edge lines cut apart, as outlines in frame pixels."""
    lab = cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2Lab), (5, 5), 1.0)
    # Lightness edges, plus red-green ones: a red tile on green felt is about as
    # light as the felt.
    light: np.ndarray = cv2.Canny(lab[..., 0], 30, 70)
    edges = light | cv2.Canny(lab[..., 1], 20, 45)
    pieces = cv2.bitwise_and(fg, cv2.bitwise_not(edges))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(pieces, connectivity=4)
    kept = []  # (outline, its piece in the blob's pixels)
    grow = np.ones((5, 5), np.uint8)
    # Edge lines leave thousands of specks; only pieces big enough to be a tile count.
    for i in np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] >= min_area) + 1:
        x, y, w, h = stats[i, :4]
        x0, y0 = max(0, x - 3), max(0, y - 3)
        x1, y1 = min(fg.shape[1], x + w + 3), min(fg.shape[0], y + h + 3)
        piece = np.zeros_like(fg)
        piece[y0:y1, x0:x1] = (labels[y0:y1, x0:x1] == i).astype(np.uint8) * 255
        piece[y0:y1, x0:x1] = fill_holes(cv2.dilate(piece[y0:y1, x0:x1], grow) & fg[y0:y1, x0:x1])
        outline = outline_of(piece[y0:y1, x0:x1], offset + [x0, y0])
        # A thin rim around other pieces is not an object's face.
        if outline is not None and stats[i, cv2.CC_STAT_AREA] >= 0.5 * outline.area:
            kept.append((outline, piece))
    faces = [(outline, piece) for outline, piece in kept if outline.fill >= NECKED_FILL]
    found = [outline if outline.fill >= NECKED_FILL else dataclasses.replace(
        outline, necked=necked_parts(piece, offset) or parts_beside_faces(outline, piece, faces, offset))
        for outline, piece in kept]
    if not found:
        # A small tile's divider and pip rings can cut it into pieces each too small
        # to count: then the blob itself, if it is compact, is the outline.
        outline = outline_of(fg, offset)
        if outline is not None and outline.area >= min_area:
            found.append(dataclasses.replace(outline, whole=True))
    return found


def necked_parts(piece: np.ndarray, offset) -> tuple[Outline, ...]:
    """Two tiles touching corner to corner make one ragged piece joined by a neck,
    which no edge line crosses when both are the colour of the table's light (white
    tiles on a white cloth). The cores left where the piece is thicker than a share
    of its thickest part (a higher share for a thicker neck) are grown back into it;
    the parts, if that parts it into compact, tile-long outlines, or none."""
    whole = cv2.countNonZero(piece)
    depth = cv2.distanceTransform(piece, cv2.DIST_L2, 3)
    for share in (0.5, 0.65, 0.8):
        count, labels = cv2.connectedComponents((depth > share * depth.max()).astype(np.uint8),
                                                connectivity=4)
        if count < 3:
            continue
        grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * int(share * depth.max()) + 3,) * 2)
        parts = [outline_of(cv2.dilate((labels == k).astype(np.uint8) * 255, grow) & piece, offset)
                 for k in range(1, count)]
        # Each part must be long like a tile: a notch (glare eating into a black
        # tile's side) only cuts a tile into squares.
        if all(p is not None and p.fill >= NECKED_FILL and p.area >= 0.2 * whole and p.aspect >= 1.4
               for p in parts):
            return tuple(p for p in parts if p is not None)
    return ()


def parts_beside_faces(ragged: Outline, piece: np.ndarray, faces, offset) -> tuple[Outline, ...]:
    """A ragged piece whose rectangle holds compact faces (two tiles touching side by
    side, the sides and shadows joining one face to its neighbour's rim, where only
    the other face is ringed by its own edge lines): those faces and, if it is a
    compact, tile-long outline, what is left of the piece without them; or none.
    (_distinct keeps the ragged piece and drops the faces inside it, so they are read
    only as its parts.)"""
    inner = [(face, mask) for face, mask in faces if _holds(ragged, face)]
    if not inner:
        return ()
    rest = piece.copy()
    for _, mask in inner:
        grown: np.ndarray = cv2.dilate(mask, np.ones((7, 7), np.uint8))
        rest &= ~grown
    rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    other = outline_of(rest, offset) if cv2.countNonZero(rest) else None
    if other is None or other.fill < NECKED_FILL or other.aspect < 1.4 or other.area < 0.3 * ragged.area:
        return ()
    return (*(face for face, _ in inner), other)


def _holds(outer: Outline, inner: Outline) -> bool:
    return cv2.pointPolygonTest(cv2.boxPoints(outer.rect).reshape(-1, 1, 2), inner.rect[0], False) >= 0


def outline_of(mask: np.ndarray, offset) -> Outline | None:
    """The outline of the mask's biggest region, or None when it is ragged (faces
    joined by a scrap of rim are no one object, and the wide rectangle would hide
    the faces inside it from _distinct)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    contour = max(contours, key=cv2.contourArea) + np.asarray(offset)
    area = cv2.contourArea(contour)
    rect = cv2.minAreaRect(contour)
    rect_area = max(rect[1][0] * rect[1][1], 1.0)
    fill = area / rect_area
    hull = cv2.contourArea(cv2.convexHull(contour)) / rect_area
    return Outline(rect, area, fill, hull) if fill >= RAGGED_FILL else None


def _distinct(found: list[Outline]) -> list[Outline]:
    """One outline per object: a rim piece and the face inside it fill to the same blob."""
    kept: list[Outline] = []
    for outline in sorted(found, key=lambda o: -o.area):
        if not any(_holds(k, outline) for k in kept):
            kept.append(outline)
    return kept


def tighten(frame: np.ndarray, rect, aspect: float = 2.0, short_px: int = 40):
    """The rectangle of the tile's own body inside a loosely fitted one, and how
    fully the body fills it.

    The table mask may hold a drop shadow or a blurred fringe; the tile's body is one
    colour (apart from its marks), so keeping the pixels of that colour and refitting
    gives the outline the pips are measured against. `aspect` is what the body is
    expected to be (2 for a tile, 1 for two side by side). Returns the rect unchanged (with
    fill 1) when the body does not stand out from its surroundings."""
    (cx, cy), (w, h), angle = rect
    if w < h:
        w, h, angle = h, w, angle + 90
    pad = 1.3
    size = (int(max(aspect, w / max(h, 1e-6)) * short_px * pad), int(short_px * pad))
    scale = short_px / max(h, 1e-6)
    m = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    m[:, 2] += np.array([size[0] / 2 - cx, size[1] / 2 - cy])
    crop = cv2.warpAffine(frame, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2Lab)
    # Body colour from most of the tile, not just its middle, where glare often sits.
    half_w, half_h = int(0.35 * w * scale), int(0.35 * h * scale)
    core = lab[size[1] // 2 - half_h:size[1] // 2 + half_h,
               size[0] // 2 - half_w:size[0] // 2 + half_w].reshape(-1, 3)
    body = ranks.median(core)
    # Light falls off over a bevel and glare brightens: lightness counts for less.
    # (Halves and small integers: exact in float32, so no wider type is needed.)
    distance = np.abs(lab.astype(np.float32) - body.astype(np.float32)) @ _BODY_WEIGHTS
    ring = np.concatenate([distance[:2].ravel(), distance[-2:].ravel(),
                           distance[2:-2, :2].ravel(), distance[2:-2, -2:].ravel()])
    outside = ranks.median(ring)
    if outside < 20:  # body and surroundings alike: nothing to tighten against
        return rect, 1.0, cv2.boxPoints(rect)
    # Only ever shrink: a touching neighbour of the same colour is not this tile.
    loose = cv2.transform(cv2.boxPoints(((cx, cy), (w * 1.04, h * 1.04), angle))[None], m)
    limit = np.zeros(lab.shape[:2], np.uint8)
    cv2.fillPoly(limit, [np.round(loose[0]).astype(np.int32)], 255)
    alike = (distance < outside / 2).astype(np.uint8) * 255 & limit
    # A tile's visible side and its shadow are its own colour, only darker; its top
    # face is lit evenly but for glare, which only brightens. When glare has made the
    # body's colour hard to pin down, going by colour alone is the safer choice.
    darker = ((body[0] - lab[..., 0]) > max(10.0, 0.2 * body[0])).astype(np.uint8) * 255
    # Last, the body bridged across its divider: painted nearly edge to edge, a
    # divider parts the body in two, neither of which fills the middle. Two tiles
    # side by side (aspect 1) are parted both ways, by their seam and their dividers.
    bridged = cv2.morphologyEx(alike & ~darker, cv2.MORPH_CLOSE, _ACROSS_DIVIDER)
    if aspect < 1.5:
        bridged = cv2.morphologyEx(bridged, cv2.MORPH_CLOSE, _ACROSS_DIVIDER.T)
    for body_mask in (alike & ~darker, alike, bridged):
        body_mask = cv2.morphologyEx(body_mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        count, labels = cv2.connectedComponents(body_mask, connectivity=4)
        # The body is the region filling the middle (its very centre is the divider).
        middle = labels[size[1] // 4:3 * size[1] // 4, size[0] // 4:3 * size[0] // 4]
        votes = np.bincount(middle.ravel(), minlength=count)
        votes[0] = 0
        if votes.max() >= 0.5 * middle.size:
            break
    else:
        return rect, 0.0, cv2.boxPoints(rect)
    blob = fill_holes((labels == int(votes.argmax())).astype(np.uint8) * 255)
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)
    fitted = cv2.minAreaRect(contour)
    # Glare on a glossy tile can bite into the body from its edge: judge the shape
    # by its hull, which such a bite does not change.
    fill = cv2.contourArea(cv2.convexHull(contour)) / max(fitted[1][0] * fitted[1][1], 1.0)
    back = cv2.invertAffineTransform(m)
    points = contour.reshape(-1, 2).astype(np.float32)
    points = (points @ back[:, :2].T + back[:, 2]).astype(np.float32)
    fitted = cv2.minAreaRect(points)
    return fitted, fill, quadrilateral(points, fitted)


def quadrilateral(points: np.ndarray, rect) -> np.ndarray:
    """The four corners of an outline seen under camera tilt (a trapezoid, not a
    rectangle), in boxPoints order: a straight line is fitted to the middle part of
    each side, away from the rounded corners, and neighbouring lines are crossed.
    Falls back to the rectangle's corners when the sides do not fit cleanly."""
    box = cv2.boxPoints(rect).astype(np.float32)
    sides = np.roll(box, -1, axis=0) - box
    lengths = np.linalg.norm(sides, axis=1)
    if lengths.min() < 1:
        return box
    # All four sides at once: each point's place along each side and off it.
    units = sides / lengths[:, None]
    normals = np.stack([-units[:, 1], units[:, 0]], axis=1)
    along = points @ units.T - (box * units).sum(axis=1)
    off = np.abs(points @ normals.T - (box * normals).sum(axis=1))
    near_all = (along > 0.2 * lengths) & (along < 0.8 * lengths) & (off < 0.1 * lengths + 3)
    lines = []
    for k in range(4):
        near = points[near_all[:, k]]
        if len(near) < 5:
            return box
        vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    corners = []
    for k in range(4):
        (p1, d1), (p2, d2) = lines[k - 1], lines[k]
        det = d1[0] * -d2[1] - d1[1] * -d2[0]
        if abs(det) < 1e-6:
            return box
        t = ((p2 - p1)[0] * -d2[1] - (p2 - p1)[1] * -d2[0]) / det
        corners.append(p1 + t * d1)
    quad = np.array(corners, np.float32)
    if np.linalg.norm(quad - box, axis=1).max() > 0.15 * min(rect[1]):
        return box
    return quad
