"""Pictures to train the learned domino reader on: rendered tiles (tools.domino_net.render)
laid out on the real tables of the d6 photo sources and of d10-photos, whose dice stay
in the picture, unlabelled, as things that are not tiles.

A scene is drawn flat (the table seen from straight above): single tiles, lines of
tiles touching end to end or side by side, loose groups, some tiles face down (never
labelled). Each tile shows its thickness towards one side. The whole layer is then
seen through a camera tilted up to 30 degrees (tools.render.dominoes.tilt_homography),
shadowed and pasted on a window of a real table (tools.d10_net.compose.table_canvas).
Every face-up tile carries its two halves' values, centres and boxes and its own box.
Nothing here is shipped."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tools.d10_net.compose import SmallTable, paste_at, small_tables, table_canvas
from tools.d10_net.data import Table, load_d10, tables
from tools.dice_net.data import DEFAULT_DATA, REPO, photometric, rot_flip
from tools.domino_net import render
from tools.render.dominoes import tilt_homography

DEFAULT_CACHE = REPO / "runs" / "dominocache"  # git ignores runs/
SHORT_RANGE = (12.0, 110.0)  # a tile's short side (= a half's side) in px, in a 320 px frame
MAX_TILT = 30.0
_HALF_CORNERS = np.array([[[0, 0], [render.S, 0], [render.S, render.S], [0, render.S]],
                          [[render.S, 0], [2 * render.S, 0], [2 * render.S, render.S], [render.S, render.S]]],
                         np.float32)
_TILE_CORNERS = np.array([[0, 0], [2 * render.S, 0], [2 * render.S, render.S], [0, render.S]], np.float32)


@dataclass
class PlacedTile:
    halves: tuple[int, int] | None  # None: face down
    centre: np.ndarray  # (2,) the tile's centre in the picture
    box: np.ndarray  # (4,) x0, y0, x1, y1 of its outline
    half_centres: np.ndarray  # (2, 2): halves[0]'s centre, then halves[1]'s
    half_boxes: np.ndarray  # (2, 4)
    corners: np.ndarray  # (4, 2)
    seen: bool = True  # at least 70% of the tile lies on the table in the picture
    halves_seen: tuple[bool, bool] = (True, True)  # the same for each half


def all_tables(data: Path = DEFAULT_DATA, cache: Path = DEFAULT_CACHE) -> list[SmallTable]:
    """The d6 sources' tables and the d10 photos' tables, shrunk once into the cache."""
    d10 = [Table(p.path, np.zeros((0, 4), np.float32)) for p in load_d10(data)]
    return small_tables(tables(data) + d10, cache)


def _pick(tabs: list[SmallTable], rng: np.random.Generator) -> SmallTable:
    """A table, the d6 sources' (they come first, with dice on them) twice as often as
    the d10 photos' (a d10 on a plain surface, nearly all alike)."""
    d6 = [i for i, t in enumerate(tabs) if len(t.d6_boxes)]
    if d6 and rng.random() < 0.67:
        return tabs[d6[int(rng.integers(len(d6)))]]
    return tabs[int(rng.integers(len(tabs)))]


def _box(points: np.ndarray) -> np.ndarray:
    return np.array([*points.min(0), *points.max(0)], np.float32)


def _layout(rng: np.random.Generator, size: int, short: float, crowd: int = 7) -> list[tuple[float, float, float, bool]]:
    """Tiles (centre x, y, angle in degrees, face up) on a flat layer of size x size, not
    overlapping: groups of one to four, in a line end to end, side by side, or loose."""
    taken = np.zeros((size, size), np.uint8)
    out: list[tuple[float, float, float, bool]] = []
    for _ in range(int(rng.integers(1, crowd + 1))):
        s = short * rng.uniform(0.9, 1.1)
        n = int(rng.choice([1, 2, 3, 4], p=[0.45, 0.25, 0.18, 0.12]))
        kind = rng.choice(["end", "side", "loose"])
        base = float(rng.uniform(0, 180)) if rng.random() < 0.7 else float(rng.choice([0, 90]))
        u = np.array([math.cos(math.radians(base)), -math.sin(math.radians(base))])
        v = np.array([-u[1], u[0]])
        x0, y0 = rng.uniform(0.05 * size, 0.95 * size, 2)
        group = []
        for k in range(n):
            gap = rng.uniform(0, 0.15) * s if rng.random() < 0.7 else rng.uniform(0.15, 1.0) * s
            if kind == "end":
                c = np.array([x0, y0]) + k * (2 * s + gap) * u
            elif kind == "side":
                c = np.array([x0, y0]) + k * (s + gap) * v
            else:
                c = np.array([x0, y0]) + rng.uniform(-2.2, 2.2, 2) * s
            ang = base + rng.normal(0, 1.5) if kind != "loose" else float(rng.uniform(0, 180))
            group.append((float(c[0]), float(c[1]), float(ang), bool(rng.random() < 0.85)))
        for x, y, ang, up in group:  # a tile that would overlap one already laid is left out
            box = cv2.boxPoints(((x, y), (2 * s * 0.97, s * 0.97), -ang)).astype(np.int32)
            one = np.zeros_like(taken)
            cv2.fillConvexPoly(one, box, 1)
            if not (one & taken).any():
                taken |= one
                out.append((x, y, ang, up))
    return out


def scene(rng: np.random.Generator, size: int, tabs: list[SmallTable], held: bool = False,
          short_range: tuple[float, float] = SHORT_RANGE, frame_side: int = 320,
          max_tilt: float = MAX_TILT, table: SmallTable | None = None,
          crowd: int = 7) -> tuple[np.ndarray, list[PlacedTile]]:
    """A size x size picture of tiles on a real table, and every tile in it (face down
    ones too, with halves None). held: only the held-out looks (render.HELD_HUE bodies,
    yellow pips). Up to `crowd` groups of tiles; a tile's short side is drawn from
    short_range (px in a frame_side frame)."""
    tab = table if table is not None else _pick(tabs, rng)
    canvas, _, (tx0, ty0, tx1, ty1) = table_canvas(tab, rng, size, frame_side)
    if rng.random() < 0.08:
        return canvas, []  # a bare table
    short = math.exp(rng.uniform(math.log(short_range[0]), math.log(short_range[1]))) * size / frame_side
    looks = [render.random_look(rng, held) for _ in range(int(rng.integers(1, 3)))]
    places = _layout(rng, size, short, crowd)
    layer = np.zeros((size, size, 3), np.float32)
    cover = np.zeros((size, size), np.float32)
    tops: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    infos = []
    # thickness: the tile's side shows towards where the camera leans
    th_ang = rng.uniform(0, 2 * math.pi)
    thick = rng.uniform(0.0, 0.3) * short if rng.random() < 0.8 else 0.0
    foot_shift = (thick * math.cos(th_ang), thick * math.sin(th_ang))
    for x, y, ang, up in places:
        look = looks[int(rng.integers(len(looks)))]
        halves = (int(rng.integers(7)), int(rng.integers(7))) if up else None
        tex, alpha = render.tile(halves, look, rng)
        scale = short / render.S
        m = cv2.getRotationMatrix2D((float(render.TILE_CENTRE[0]), float(render.TILE_CENTRE[1])), ang, scale)
        m[:, 2] += np.array([x, y]) - render.TILE_CENTRE
        flags = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        pts = _TILE_CORNERS @ m[:, :2].T + m[:, 2]
        pad = thick + 2
        x0, y0 = (max(0, int(v - pad)) for v in pts.min(0))
        x1, y1 = (min(size, int(v + pad) + 2) for v in pts.max(0))
        if x1 <= x0 or y1 <= y0:
            continue
        mr = m.copy()
        mr[:, 2] -= (x0, y0)
        t = cv2.warpAffine(tex, mr, (x1 - x0, y1 - y0), flags=flags).astype(np.float32)
        a = cv2.warpAffine(alpha, mr, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR).astype(np.float32) / 255.0
        tint = rng.uniform(0.75, 1.2) * rng.uniform(0.93, 1.07, 3)
        tops.append((t * tint, a, np.array(look.body, np.float32) * tint, (y0, y1, x0, x1)))
        infos.append((halves, m))
    # the sides first, under every top: a tile's side never covers its neighbour's face
    for _, a, body, (y0, y1, x0, x1) in tops:
        if thick >= 0.5:
            foot = np.zeros_like(a)
            for f in np.linspace(0, 1, min(6, max(2, int(thick)))):
                sh = np.float32([[1, 0, foot_shift[0] * f], [0, 1, foot_shift[1] * f]])
                foot = np.maximum(foot, cv2.warpAffine(a, sh, (x1 - x0, y1 - y0)))
            side = body * rng.uniform(0.5, 0.75)
            roi = layer[y0:y1, x0:x1]
            layer[y0:y1, x0:x1] = roi * (1 - foot[..., None]) + side * foot[..., None]
            cover[y0:y1, x0:x1] = np.maximum(cover[y0:y1, x0:x1], foot)
    for t, a, _, (y0, y1, x0, x1) in tops:
        roi = layer[y0:y1, x0:x1]
        layer[y0:y1, x0:x1] = roi * (1 - a[..., None]) + t * a[..., None]
        cover[y0:y1, x0:x1] = np.maximum(cover[y0:y1, x0:x1], a)
    hom = tilt_homography((size, size), float(rng.uniform(0, max_tilt)), float(rng.uniform(0, 360)))
    layer_w = cv2.warpPerspective(np.clip(layer, 0, 255).astype(np.uint8), hom, (size, size), flags=cv2.INTER_LINEAR)
    cover_w = cv2.warpPerspective((cover * 255).astype(np.uint8), hom, (size, size), flags=cv2.INTER_LINEAR)
    region = np.zeros_like(cover_w)
    region[max(0, ty0):ty1, max(0, tx0):tx1] = 1
    cover_w *= region  # a tile past the table photo's edge is cut off there
    if cover_w.any():
        paste_at(canvas, layer_w, cover_w, 0, 0, rng)
    placed = []
    for halves, m in infos:
        def to_pic(p: np.ndarray, m: np.ndarray = m) -> np.ndarray:
            flat = p.reshape(-1, 2) @ m[:, :2].T + m[:, 2]
            return cv2.perspectiveTransform(flat[None].astype(np.float64), hom)[0].astype(np.float32)
        corners = to_pic(_TILE_CORNERS)
        centre = to_pic(render.TILE_CENTRE[None])[0]
        if not (tx0 - 0.5 * short <= centre[0] < tx1 + 0.5 * short and ty0 - 0.5 * short <= centre[1] < ty1 + 0.5 * short):
            continue
        box = _box(corners)
        hc = to_pic(render.HALF_CENTRES)
        hb = np.stack([_box(to_pic(c)) for c in _HALF_CORNERS])
        view = (tx0, ty0, tx1, ty1)
        placed.append(PlacedTile(halves, centre, np.clip(box, 0, size), hc, np.clip(hb, 0, size), corners,
                                 seen(box, view), (seen(hb[0], view), seen(hb[1], view))))
    return canvas, placed


def seen(box: np.ndarray, view: tuple[int, int, int, int], share: float = 0.7) -> bool:
    """Whether at least `share` of a box lies in the view (x0, y0, x1, y1)."""
    inside = np.clip(box, [view[0], view[1], view[0], view[1]], [view[2], view[3], view[2], view[3]])
    area = max(1e-3, float((box[2] - box[0]) * (box[3] - box[1])))
    return float((inside[2] - inside[0]) * (inside[3] - inside[1])) >= share * area


def det_boxes(placed: list[PlacedTile]) -> tuple[np.ndarray, np.ndarray]:
    """The detector's two kinds of boxes: each face-up half and each face-up tile that
    is at least 70% in view."""
    up = [p for p in placed if p.halves is not None]
    halves = [b for p in up for b, s in zip(p.half_boxes, p.halves_seen) if s]
    tiles_ = [p.box for p in up if p.seen]
    return np.array(halves, np.float32).reshape(-1, 4), np.array(tiles_, np.float32).reshape(-1, 4)


def det_sample(rng: np.random.Generator, size: int, tabs: list[SmallTable]):
    """A training picture for the detector: (size x size BGR, half boxes, tile boxes),
    turned, mirrored and given the photo faults of tools.dice_net.data.photometric."""
    img, placed = scene(rng, size, tabs)
    halves, tiles_ = det_boxes(placed)
    img, both = rot_flip(img, np.concatenate([halves, tiles_]), rng)
    return photometric(img, rng), both[:len(halves)], both[len(halves):]
