"""One domino tile of a random look, drawn flat: the pieces tools.domino_net.compose lays
on real tables to train the learned domino reader on.

A look is a body colour, pip colours (one for all numbers, or each number its own),
a divider (groove, painted line or none), a brass spinner or none, a translucent body
or not, and glare. Bodies of violet hue and yellow pips are never drawn for training:
`held_out_look` draws only them, to measure the reader on tile colours it never saw.
The bevel and the body come from tools.render.dominoes (the fixtures' renderer).
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass

import cv2
import numpy as np

from tools.render import dominoes as fixtures
from vision.dominoes.layout import pattern

S = fixtures.TEX_SHORT  # a tile is drawn S x 2S; half centres at (S/2, S/2) and (3S/2, S/2)
HALF_CENTRES = np.array([[S / 2, S / 2], [1.5 * S, S / 2]], np.float32)
TILE_CENTRE = np.array([S, S / 2], np.float32)
HELD_HUE = (0.69, 0.86)  # body hues (0..1) kept out of training: violet
HELD_PIP_HUE = (0.11, 0.19)  # pip hues kept out of training: yellow


@dataclass(frozen=True)
class Look:
    body: tuple[int, int, int]  # BGR
    pips: tuple[tuple[int, int, int], ...]  # BGR colour of the pips of 0..6 (index 0 unused)
    divider: str  # "groove", "painted" or "none"
    spinner: bool
    translucent: float  # 1: opaque; less: the table shows through the body this much
    glare: bool
    shape: fixtures.TileShape


def _bgr(h: float, s: float, v: float) -> tuple[int, int, int]:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, s, v)
    return int(b * 255), int(g * 255), int(r * 255)


def _hue(rng: np.random.Generator, held: tuple[float, float], inside: bool) -> float:
    if inside:
        return float(rng.uniform(*held))
    while True:
        h = float(rng.uniform(0, 1))
        if not held[0] <= h <= held[1]:
            return h


def _body(rng: np.random.Generator, held: bool) -> tuple[tuple[int, int, int], float]:
    """A body colour and its lightness (0..1)."""
    r = rng.random()
    if held:
        v = float(rng.uniform(0.35, 0.8))
        return _bgr(_hue(rng, HELD_HUE, True), float(rng.uniform(0.35, 0.8)), v), v
    if r < 0.3:  # white, ivory, cream
        v = float(rng.uniform(0.75, 1.0))
        return _bgr(float(rng.uniform(0.08, 0.17)), float(rng.uniform(0.0, 0.25)), v), v
    if r < 0.45:  # black, near black, dark grey
        v = float(rng.uniform(0.05, 0.3))
        return _bgr(float(rng.uniform(0, 1)), float(rng.uniform(0, 0.3)), v), v
    v = float(rng.uniform(0.3, 0.95))  # any colour: green, pink, red, blue, ...
    return _bgr(_hue(rng, HELD_HUE, False), float(rng.uniform(0.25, 0.95)), v), v


def _pip(rng: np.random.Generator, body_v: float, held: bool) -> tuple[int, int, int]:
    """A pip colour that stands out of a body of lightness body_v."""
    if held:
        return _bgr(_hue(rng, HELD_PIP_HUE, True), float(rng.uniform(0.6, 1.0)), float(rng.uniform(0.75, 1.0)))
    r = rng.random()
    if body_v > 0.55:  # a pale body: dark or coloured pips
        if r < 0.5:
            return _bgr(0, 0, float(rng.uniform(0.0, 0.25)))
        return _bgr(_hue(rng, HELD_PIP_HUE, False), float(rng.uniform(0.5, 1.0)), float(rng.uniform(0.2, 0.7)))
    if r < 0.6:  # a dark or coloured body: white or pale pips
        return _bgr(0, float(rng.uniform(0, 0.15)), float(rng.uniform(0.8, 1.0)))
    if r < 0.8 and body_v > 0.35:
        return _bgr(0, 0, float(rng.uniform(0.0, 0.15)))
    return _bgr(_hue(rng, HELD_PIP_HUE, False), float(rng.uniform(0.3, 0.9)), float(rng.uniform(0.8, 1.0)))


def random_look(rng: np.random.Generator, held: bool = False) -> Look:
    """A look for training (held=False: no violet body, no yellow pips) or only of the
    held-out colours (held=True)."""
    body, v = _body(rng, held)
    if rng.random() < 0.35:  # each number its own colour
        pips = tuple(_pip(rng, v, held) for _ in range(7))
    else:
        pips = (_pip(rng, v, held),) * 7
    divider = str(rng.choice(["groove", "painted", "none"], p=[0.45, 0.4, 0.15]))
    shape = fixtures.random_shape(rng)
    if divider == "none":
        shape = fixtures.TileShape(shape.pip_spacing, shape.pip_radius, shape.corner, shape.divider_inset, 0.0)
    return Look(body, pips, divider, bool(rng.random() < 0.25),
                float(rng.uniform(0.75, 0.95)) if rng.random() < 0.12 else 1.0, bool(rng.random() < 0.3), shape)


def tile(halves: tuple[int, int] | None, look: Look, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(BGR, alpha) of one tile lying flat and horizontal, S x 2S px: halves[0] on the
    left; halves=None draws its back (no pips, no divider)."""
    style = fixtures.TileStyle(look.body, look.pips[1], look.divider == "painted", False)
    tex, alpha = fixtures.tile_texture(None, style, rng, look.shape)
    img = tex.astype(np.float32)
    dark = np.array(look.body, np.float32) * 0.45
    if halves is not None:
        if look.divider != "none":
            fixtures._draw_divider(img, style, look.shape, dark)
        r = look.shape.pip_radius * S * rng.uniform(0.9, 1.1)
        for side, value in enumerate(halves):
            pts = pattern(value).astype(np.float32)
            if rng.random() < 0.5:
                pts = pts[:, ::-1]  # the layout turned a quarter (a 6 in rows, not columns)
            if rng.random() < 0.5:
                pts = pts * np.float32([-1, 1])
            for px, py in pts * look.shape.pip_spacing * S + HALF_CENTRES[side]:
                drill_pip(img, (px, py), r, np.array(look.pips[value], np.float32), dark)
        if look.spinner:
            c = (int(S), int(S / 2))
            cv2.circle(img, c, int(0.07 * S), (40, 120, 170), -1, cv2.LINE_AA)
            cv2.circle(img, c, int(0.05 * S), (90, 190, 230), -1, cv2.LINE_AA)
    if look.glare:
        h, w = alpha.shape
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        rx, ry = rng.uniform(0.1, 0.5) * S, rng.uniform(0.05, 0.3) * S
        img += rng.uniform(40, 140) * np.exp(-(((xs - cx) / rx) ** 2 + ((ys - cy) / ry) ** 2) / 2)[..., None]
    if look.translucent < 1.0:
        alpha = (alpha.astype(np.float32) * look.translucent).astype(np.uint8)
    return np.clip(img, 0, 255).astype(np.uint8), alpha


def drill_pip(img: np.ndarray, centre, radius: float, colour: np.ndarray, rim: np.ndarray) -> None:
    """tools.render.dominoes' drilled pip (shadowed rim, flat paint), drawn only in the
    pip's own square of a float image."""
    h, w = img.shape[:2]
    x0, y0 = max(0, int(centre[0] - 1.4 * radius)), max(0, int(centre[1] - 1.4 * radius))
    x1, y1 = min(w, int(centre[0] + 1.4 * radius) + 2), min(h, int(centre[1] + 1.4 * radius) + 2)
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    d = np.hypot(xs - centre[0], ys - centre[1]) / radius
    rim_w = np.clip(1.25 - d, 0, 0.25)[..., None] * 4
    paint = np.clip((1.0 - d) * 3, 0, 1)[..., None]
    roi = img[y0:y1, x0:x1]
    roi[:] = roi * (1 - rim_w * 0.5) + rim * rim_w * 0.5
    roi[:] = roi * (1 - paint) + colour * paint
