"""Pictures to train on: real d10s (cut from d10-photos) and rendered ones pasted onto
the real tables of the d6 photo sources, d6 dice and all.

Tables are shrunk once to at most TABLE_SIDE px and kept under the cache folder (the
phone photos are 4000 px wide: decoding them for every sample would starve the
trainer). Nothing here is shipped."""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tools.d10_net.data import Table, tables
from tools.d10_net.other_dice import other_die
from tools.dice_net.batches import parallel_map
from tools.dice_net.data import PAD_VALUE
from tools.render import camera_look, fonts
from tools.render import d10 as render
from tools.train.d10 import TRAINING_STYLE

TABLE_SIDE = 640


@dataclass
class SmallTable:
    image: np.ndarray
    d6_boxes: np.ndarray


def _table_name(t: Table) -> str:
    return hashlib.sha1(str(t.path).encode()).hexdigest()[:16] + ".jpg"


def _shrunk(t: Table) -> tuple[np.ndarray, float]:
    full = t.load()
    s = min(1.0, TABLE_SIDE / max(full.shape[:2]))
    img = cv2.resize(full, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1 else full
    return img, img.shape[1] / full.shape[1]


def small_tables(tabs: list[Table], cache: Path, workers: int = 0) -> list[SmallTable]:
    """Each table at most TABLE_SIDE px long (JPEG in the cache), its d6 boxes scaled; the
    missing ones shrunk in `workers` forked processes where more than one. The run that
    fills the cache gets the tables as decoded from it, as every later run does."""
    root = cache / "tables"
    root.mkdir(parents=True, exist_ok=True)
    index_f = root / "scales.json"
    scales = json.loads(index_f.read_text()) if index_f.exists() else {}
    names = [_table_name(t) for t in tabs]
    images = {}
    for name in names:
        img = cv2.imread(str(root / name), cv2.IMREAD_COLOR) if name in scales else None
        if img is not None:
            images[name] = img
    todo = [(t, name) for t, name in zip(tabs, names) if name not in images]
    for (_, name), (img, scale) in zip(todo, parallel_map(_shrunk, [t for t, _ in todo], workers)):
        ok, jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 92])
        if not ok:
            raise OSError(f"cannot encode the shrunk table {name}")
        (root / name).write_bytes(jpeg.tobytes())
        scales[name] = scale
        images[name] = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)  # as a later run reads it from the cache
    index_f.with_suffix(".tmp").write_text(json.dumps(scales))
    index_f.with_suffix(".tmp").replace(index_f)  # whole, for runs reading it meanwhile
    return [SmallTable(images[name], t.d6_boxes * np.float32(scales[name])) for t, name in zip(tabs, names)]


def kept_tables(data: Path, cache: Path, hold: list[str]) -> list[SmallTable]:
    """The d6 sources' tables, shrunk, but for the sources in `hold` (--hold-tables)."""
    return small_tables([t for t in tables(data) if not any(f"/{s}/" in str(t.path) for s in hold)], cache)


def rendered_d10(rng: np.random.Generator, value: int, side: float) -> tuple[np.ndarray, np.ndarray]:
    """(sprite, alpha) of a rendered d10 showing `value`, about `side` px across, cut to its extent."""
    faces = fonts.available(list(TRAINING_STYLE.fonts))
    font = faces[int(rng.integers(len(faces)))]
    canvas = int(side * 1.6) + 8
    sprite, alpha = render.render_die(value, side, float(rng.uniform(0, 360)), TRAINING_STYLE.colour(rng), font,
                                      TRAINING_STYLE.marker(rng), rng, canvas)
    if TRAINING_STYLE.finish is not None:
        TRAINING_STYLE.finish(sprite, alpha, rng)
    ys, xs = np.nonzero(alpha)
    return sprite[ys.min():ys.max() + 1, xs.min():xs.max() + 1].copy(), alpha[ys.min():ys.max() + 1, xs.min():xs.max() + 1].copy()


def placed_sprite(sprite, alpha, side: float, rng: np.random.Generator, tilt: float = 0.25):
    """The sprite scaled so its long side is `side`, turned by any angle and squashed a
    little (a camera that is not straight above): (sprite, alpha) on their own canvas."""
    h, w = alpha.shape
    s = side / max(h, w)
    ang = math.radians(rng.uniform(0, 360))
    squash = rng.uniform(1 - tilt, 1.0)
    a = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]]) * s
    a = a @ np.array([[1.0, 0.0], [0.0, squash]]) if rng.random() < 0.5 else np.array([[squash, 0], [0, 1.0]]) @ a
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) @ a.T
    lo = corners.min(0)
    out_w, out_h = (int(math.ceil(v)) + 2 for v in corners.max(0) - lo)
    m = np.hstack([a, (-lo + 1)[:, None]]).astype(np.float32)
    sp = cv2.warpAffine(sprite, m, (out_w, out_h), flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    al = cv2.warpAffine(alpha, m, (out_w, out_h), flags=cv2.INTER_LINEAR)
    # a die has its own light: brighter or darker than in its photo, a slight tint
    x = sp.astype(np.float32) * rng.uniform(0.7, 1.25) * rng.uniform(0.92, 1.08, 3)
    return np.clip(x, 0, 255).astype(np.uint8), al


def paste_at(canvas: np.ndarray, sprite, alpha, x: int, y: int, rng: np.random.Generator, shadow: bool = True):
    """Paste in place with its top-left at (x, y); the tight box of what was pasted, or None."""
    H, W = canvas.shape[:2]
    h, w = alpha.shape
    x0, y0, x1, y1 = max(0, x), max(0, y), min(W, x + w), min(H, y + h)
    if x1 <= x0 or y1 <= y0:
        return None
    a = alpha[y0 - y:y1 - y, x0 - x:x1 - x]
    if shadow and rng.random() < 0.7:
        cover = np.zeros((H, W), np.uint8)
        cover[y0:y1, x0:x1] = a
        camera_look.drop_shadow(canvas, cover, rng)
    f = (a.astype(np.float32) / 255.0)[..., None]
    region = canvas[y0:y1, x0:x1]
    canvas[y0:y1, x0:x1] = (region * (1 - f) + sprite[y0 - y:y1 - y, x0 - x:x1 - x] * f).astype(np.uint8)
    ys, xs = np.nonzero(a > 127)
    if not len(ys) or len(ys) < 0.5 * (alpha > 127).sum():
        return None  # mostly off the canvas: neither a d10 to find nor one to forget
    return np.array([x0 + xs.min(), y0 + ys.min(), x0 + xs.max() + 1, y0 + ys.max() + 1], np.float32)


def free_spot(taken: np.ndarray, w: int, h: int, area, rng: np.random.Generator, tries: int = 12):
    """A top-left corner (x, y) for a w x h sprite whose box covers nothing `taken`
    marks, at most a third of it outside `area` (x0, y0, x1, y1); None after `tries`."""
    tx0, ty0, tx1, ty1 = area
    for _ in range(tries):
        x = int(rng.integers(tx0 - w // 3, max(tx0 - w // 3 + 1, tx1 - 2 * w // 3)))
        y = int(rng.integers(ty0 - h // 3, max(ty0 - h // 3 + 1, ty1 - 2 * h // 3)))
        if not taken[max(0, y):y + h, max(0, x):x + w].any():
            return x, y
    return None


def table_canvas(table: SmallTable, rng: np.random.Generator, size: int, frame_side: int = 320):
    """A size x size window of the table scaled as the run-time letterbox would show it
    (its long side frame_side px, times 0.6..1.6); returns (canvas, d6 boxes in it)."""
    img = table.image
    h, w = img.shape[:2]
    s = frame_side / max(h, w) * math.exp(rng.uniform(math.log(0.6), math.log(1.6)))
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    im = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    if rng.random() < 0.25:
        ox = oy = 0  # the letterbox's corner
    else:
        ox = int(rng.integers(min(0, nw - size), max(1, nw - size + 1)))
        oy = int(rng.integers(min(0, nh - size), max(1, nh - size + 1)))
    canvas = np.full((size, size, 3), PAD_VALUE, np.uint8)
    x0, y0, x1, y1 = max(ox, 0), max(oy, 0), min(ox + size, nw), min(oy + size, nh)
    canvas[y0 - oy:y1 - oy, x0 - ox:x1 - ox] = im[y0:y1, x0:x1]
    b = table.d6_boxes * np.float32(s) - np.array([ox, oy, ox, oy], np.float32)
    return canvas, b, (x0 - ox, y0 - oy, x1 - ox, y1 - oy)


def composite(rng: np.random.Generator, size: int, tabs: list[SmallTable], cuts: list, cut_values: list[int],
              max_d10: int = 5, side_range=(14.0, 120.0), others: float = 0.4):
    """A training picture: a table window with 0..max_d10 d10s pasted on it (real cut-outs
    or renders) and, on a share `others` of pictures, one to three d8, d12 or d20 dice that
    are not to be found. Returns (canvas, boxes, values) with boxes N x 4 of the d10s."""
    canvas, d6, (tx0, ty0, tx1, ty1) = table_canvas(tabs[int(rng.integers(len(tabs)))], rng, size)
    n = int(rng.integers(0, max_d10 + 1)) if rng.random() > 0.1 else 0
    if len(d6) and rng.random() < 0.7:  # d10s beside d6s of about their size, as in a mixed bag
        common = float(np.median(np.maximum(d6[:, 2] - d6[:, 0], d6[:, 3] - d6[:, 1]))) * rng.uniform(0.8, 1.4)
    else:  # any camera height
        common = math.exp(rng.uniform(math.log(side_range[0]), math.log(side_range[1])))
    boxes, values, taken = [], [], np.zeros((size, size), np.uint8)
    kinds = [None] * n + ["other"] * (int(rng.integers(1, 4)) if rng.random() < others else 0)
    rng.shuffle(kinds)
    for kind in kinds:
        side = float(np.clip(common * rng.uniform(0.8, 1.25), *side_range))
        if kind == "other":
            sprite, alpha = other_die(rng, max(24.0, side))
            value = None
        elif cuts and rng.random() < 0.65:
            i = int(rng.integers(len(cuts)))
            sprite, alpha = cuts[i]
            value = cut_values[i]
        else:
            value = int(rng.integers(10))
            sprite, alpha = rendered_d10(rng, value, max(24.0, side))
        sp, al = placed_sprite(sprite, alpha, side, rng)
        h, w = al.shape
        spot = free_spot(taken, w, h, (tx0, ty0, tx1, ty1), rng)
        if spot is None:
            continue
        x, y = spot
        box = paste_at(canvas, sp, al, x, y, rng)
        if box is None:
            continue
        taken[max(0, y):y + h, max(0, x):x + w] = 1
        if value is None:
            continue
        boxes.append(box)
        values.append(value)
    return canvas, np.array(boxes, np.float32).reshape(-1, 4), values


