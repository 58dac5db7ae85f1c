"""Drawing domino tiles and tables the way an overhead camera sees them.

The fixtures must look like real tiles, not like clean diagrams, or a reader tuned
on them fails on the table: so tiles get rounded corners, a shaded bevel, drilled
pips with soft dark rims, a divider groove or painted line, an optional brass
spinner and a drop shadow, and the whole frame gets camera tilt, uneven light,
glare, noise, blur and JPEG loss.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.dominoes.layout import pattern

TEX_SHORT = 96  # canonical tile texture: TEX_SHORT x 2*TEX_SHORT pixels

# Each number its own colour, as on common "coloured pip" sets (BGR).
RAINBOW_PIPS = {
    1: (200, 120, 30), 2: (40, 140, 40), 3: (40, 40, 200),
    4: (120, 60, 20), 5: (160, 40, 140), 6: (20, 110, 200),
}


@dataclass(frozen=True)
class TileShape:
    """A maker's geometry, as fractions of the tile's short side."""

    pip_spacing: float = 0.27
    pip_radius: float = 0.075
    corner: float = 0.13
    divider_inset: float = 0.13
    divider_width: float = 0.035  # 0: no divider can be seen


def random_shape(rng: np.random.Generator) -> TileShape:
    return TileShape(pip_spacing=rng.uniform(0.24, 0.3), pip_radius=rng.uniform(0.06, 0.095),
                     corner=rng.uniform(0.06, 0.18), divider_inset=rng.uniform(0.08, 0.2),
                     divider_width=rng.uniform(0.02, 0.045))


@dataclass(frozen=True)
class TileStyle:
    body: tuple[int, int, int]  # BGR
    pips: tuple[int, int, int] | None  # None: each number its own colour
    painted_divider: bool
    spinner: bool


STYLES = {
    "ivory": TileStyle((200, 228, 238), (25, 25, 25), False, True),
    "ivory_rainbow": TileStyle((205, 232, 240), None, True, False),
    "pink": TileStyle((190, 170, 240), (30, 30, 30), True, False),
    "red": TileStyle((40, 40, 175), (235, 235, 235), True, True),
    "black": TileStyle((32, 30, 30), (235, 235, 235), True, True),
    "white": TileStyle((242, 242, 242), (20, 20, 20), False, True),
}


def tile_texture(halves: tuple[int, int] | None, style: TileStyle, rng: np.random.Generator,
                 shape: TileShape = TileShape()):
    """BGR texture and alpha of one tile lying horizontally; halves=None draws its back."""
    s = TEX_SHORT
    h, w = s, 2 * s
    alpha = np.zeros((h, w), np.uint8)
    radius = max(2, int(shape.corner * s))
    cv2.rectangle(alpha, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (w - 1 - radius, radius), (radius, h - 1 - radius),
                   (w - 1 - radius, h - 1 - radius)):
        cv2.circle(alpha, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    body = np.array(style.body, np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = body
    img += rng.normal(0, 2.0, img.shape).astype(np.float32)
    # Bevel: light from the top-left, so the far edges fall into shade.
    inside = cv2.distanceTransform((alpha > 0).astype(np.uint8), cv2.DIST_L2, 3)
    bevel = np.clip(inside / (0.08 * s), 0, 1)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    slope = ((xs / w - 0.5) + (ys / h - 0.5)) * (1 - bevel)
    shade = 1.0 - 0.35 * np.clip(slope * 2, 0, 1) + 0.12 * np.clip(-slope * 2, 0, 1)
    img *= shade[..., None] * (0.82 + 0.18 * bevel[..., None])
    if halves is not None:
        _draw_face(img, halves, style, shape, rng)
    return np.clip(img, 0, 255).astype(np.uint8), alpha


def _draw_face(img: np.ndarray, halves: tuple[int, int], style: TileStyle, shape: TileShape,
               rng) -> None:
    s = TEX_SHORT
    dark = np.array(style.body, np.float32) * 0.45
    if shape.divider_width > 0:  # 0: worn off or lost under glare, none to be seen
        _draw_divider(img, style, shape, dark)
    pip_r = shape.pip_radius * s * rng.uniform(0.95, 1.05)
    for side, value in enumerate(halves):
        colour = np.array(style.pips or RAINBOW_PIPS.get(value, (0, 0, 0)), np.float32)
        centre = np.array([s * (0.5 + side), 0.5 * s], np.float32)
        for px, py in pattern(value) * shape.pip_spacing * s + centre:
            _drill_pip(img, (px, py), pip_r, colour, dark)
    if style.spinner:
        c = (int(s), int(s / 2))
        cv2.circle(img, c, int(0.07 * s), (40, 120, 170), -1, cv2.LINE_AA)
        cv2.circle(img, c, int(0.05 * s), (90, 190, 230), -1, cv2.LINE_AA)
        cv2.circle(img, (c[0] - 2, c[1] - 2), int(0.02 * s), (200, 240, 250), -1, cv2.LINE_AA)


def _draw_divider(img: np.ndarray, style: TileStyle, shape: TileShape, dark: np.ndarray) -> None:
    s = TEX_SHORT
    body = np.array(style.body, np.float32)
    top, bottom = int(shape.divider_inset * s), int((1 - shape.divider_inset) * s)
    width = max(2, int(shape.divider_width * s))
    if style.painted_divider and style.pips:
        cv2.line(img, (s, top), (s, bottom), style.pips, width, cv2.LINE_AA)
    else:  # a groove: shaded on the side away from the light, caught on the other
        cv2.line(img, (s - 1, top), (s - 1, bottom), tuple(dark.tolist()), width, cv2.LINE_AA)
        cv2.line(img, (s + width // 2 + 1, top), (s + width // 2 + 1, bottom),
                 tuple(np.minimum(body * 1.15, 255).tolist()), 1, cv2.LINE_AA)


def _drill_pip(img, centre, radius, colour, rim) -> None:
    """A drilled, painted pip: soft shadowed rim, flat paint, a faint catch-light."""
    h, w = img.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    d = np.hypot(xs - centre[0], ys - centre[1]) / radius
    rim_w = np.clip(1.25 - d, 0, 0.25)[..., None] * 4
    paint = np.clip((1.0 - d) * 3, 0, 1)[..., None]
    img[:] = img * (1 - rim_w * 0.5) + rim * rim_w * 0.5
    img[:] = img * (1 - paint) + colour * paint


WOODS = {"wood": (60, 110, 160), "walnut": (35, 55, 85), "oak": (140, 185, 215)}  # BGR


def table_background(kind: str, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Green felt, wood (mid, dark walnut, pale oak), a grey dice tray, a pale or a
    blue cloth, or speckled granite, with the texture each really has."""
    w, h = size
    if kind == "felt":
        base = np.array([50, 110, 30], np.float32)
        tex = cv2.GaussianBlur(rng.normal(0, 10, (h, w)).astype(np.float32), (0, 0), 1.2)
        img = base + tex[..., None] * np.array([0.5, 1.0, 0.4], np.float32)
    elif kind in WOODS:
        base = np.array(WOODS[kind], np.float32)
        ys = np.arange(h, dtype=np.float32)[:, None]
        xs = np.arange(w, dtype=np.float32)[None, :]
        warp = 12 * np.sin(xs / rng.uniform(80, 160)) + rng.normal(0, 3, (h, w))
        grain = np.sin((ys + warp) / rng.uniform(3, 6)) * 12 + rng.normal(0, 5, (h, w))
        img = base + grain[..., None] * np.array([0.5, 0.8, 1.0], np.float32)
    elif kind == "tray":
        img = np.full((h, w, 3), 165, np.float32) + rng.normal(0, 4, (h, w, 1))
        rim = int(0.05 * min(w, h))
        img[:rim] *= 0.6
        img[:, :rim] *= 0.7
        img[-rim:] *= 0.85
        img[:, -rim:] *= 0.8
    elif kind == "cloth":  # white linen: a weave and soft folds, barely off the tiles' white
        base = np.array([228, 232, 234], np.float32)
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        weave = 3 * np.sin(xs * 1.9) * np.sin(ys * 1.7) + rng.normal(0, 3, (h, w))
        folds = 10 * np.sin(xs / rng.uniform(60, 120) + ys / rng.uniform(90, 200))
        img = base + (weave + folds)[..., None]
    elif kind == "bluecloth":  # a dyed cloth: the weave, no folds
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        weave = 4 * np.sin(xs * 1.9) * np.sin(ys * 1.7) + rng.normal(0, 3, (h, w))
        img = np.array([140, 80, 40], np.float32) + weave[..., None]
    elif kind == "granite":  # a busy stone: fine speckle over broad clouds
        speckle = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.5)
        clouds = cv2.resize(cv2.GaussianBlur(rng.normal(0, 1, (h // 8, w // 8)).astype(np.float32),
                                             (0, 0), 2), (w, h))
        grey = 120 + 45 * speckle + 25 * clouds
        img = np.stack([grey * 0.95, grey, grey * 1.02], axis=-1)
    else:
        raise ValueError(f"unknown table background {kind!r}")
    return np.clip(img, 0, 255).astype(np.float32)


def place_tile(scene: np.ndarray, texture: np.ndarray, alpha: np.ndarray,
               centre: tuple[float, float], short_px: float, angle_deg: float,
               shadow_depth: float = 0.45, side=(0.0, 0.0)) -> np.ndarray:
    """Composite a tile (with its drop shadow) into the float scene; returns its 4 corners.

    `side` (pixels) is where the foot of the tile shows beside its top face: a camera
    that is not straight above a tile sees one or two of its sides."""
    scale = short_px / TEX_SHORT
    h, w = alpha.shape
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle_deg, scale)
    m[:, 2] += np.array(centre) - np.array([w / 2, h / 2])
    size = (scene.shape[1], scene.shape[0])
    a = cv2.warpAffine(alpha, m, size, flags=cv2.INTER_AREA).astype(np.float32) / 255
    shadow = cv2.GaussianBlur(a, (0, 0), 0.12 * short_px)
    shadow = np.roll(shadow, (int(0.06 * short_px), int(0.08 * short_px)), axis=(0, 1))
    scene *= 1 - shadow_depth * shadow[..., None]
    if np.hypot(*side) >= 0.5:
        body = np.median(texture[alpha > 0], axis=0).astype(np.float32)
        steps = max(2, int(np.hypot(*side) * 2))
        foot = np.zeros_like(a)
        for t in np.linspace(0, 1, steps):
            shift = np.float32([[1, 0, side[0] * t], [0, 1, side[1] * t]])
            foot = np.maximum(foot, cv2.warpAffine(a, shift, size))
        scene[:] = scene * (1 - foot[..., None]) + body * 0.62 * foot[..., None]
    tex = cv2.warpAffine(texture, m, size, flags=cv2.INTER_AREA).astype(np.float32)
    scene[:] = scene * (1 - a[..., None]) + tex * a[..., None]
    return tile_corners(centre, short_px, angle_deg)


def tile_corners(centre, short_px: float, angle_deg: float) -> np.ndarray:
    """Corners of a placed tile, starting at the top-left of its first half, clockwise."""
    rad = np.radians(-angle_deg)
    axis = np.array([np.cos(rad), np.sin(rad)]) * short_px
    normal = np.array([-axis[1], axis[0]]) / 2
    c = np.asarray(centre, np.float64)
    return np.array([c - axis - normal, c + axis - normal, c + axis + normal,
                     c - axis + normal], np.float32)


def tilt_homography(size: tuple[int, int], tilt_deg: float, azimuth_deg: float) -> np.ndarray:
    """Homography of a camera turned `tilt_deg` off vertical towards `azimuth_deg`."""
    w, h = size
    f = 1.1 * max(w, h)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    axis = np.array([np.cos(np.radians(azimuth_deg)), np.sin(np.radians(azimuth_deg)), 0.0])
    rot, _ = cv2.Rodrigues(axis * np.radians(tilt_deg))
    h_turned = k @ rot @ np.linalg.inv(k)
    # Keep the table's centre in the middle of the frame, as a person aiming would.
    mid = h_turned @ np.array([w / 2, h / 2, 1.0])
    shift = np.array([[1, 0, w / 2 - mid[0] / mid[2]], [0, 1, h / 2 - mid[1] / mid[2]], [0, 0, 1]])
    return shift @ h_turned


def finish_photo(scene: np.ndarray, rng: np.random.Generator, glare_at=()) -> np.ndarray:
    """Uneven light, glare spots, sensor noise and lens blur on a float scene."""
    h, w = scene.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2)
    light = 1.0 + 0.14 * (gx * (xs / w - 0.5) + gy * (ys / h - 0.5)) * 2
    out = scene * light[..., None]
    for cx, cy, r in glare_at:
        out += 70 * np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * r * r))[..., None]
    out += rng.normal(0, rng.uniform(2, 5), out.shape)
    sigma = rng.uniform(0.3, 1.1)
    out = cv2.GaussianBlur(out, (0, 0), sigma)
    return np.clip(out, 0, 255).astype(np.uint8)
