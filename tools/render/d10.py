"""Renders the labelled ten-sided-die fixtures in calibration_images/d10/ (fixed seed).

Each die is a real pentagonal trapezohedron (ten kite faces) resting on a face, so the
face opposite is level and seen square-on from above: the kite the reader must read.
Neighbouring faces show foreshortened and shaded with their own numbers, as on a real
die. 6 and 9 carry an underline or a dot. Run `python -m tools.render.d10`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tools.render import camera_look, fonts
from tools.render.card_fixture_set import write_set

OUT = Path(__file__).resolve().parents[2] / "calibration_images" / "d10"
APEX = 1.1
RING_Z = APEX * (5 - 2 * np.sqrt(5)) / 5  # makes every kite flat
TEXTURE = 120
# (body, ink) in BGR: the common colours of bought d10s.
COLOURS = [
    ((235, 235, 235), (20, 20, 20)),
    ((25, 25, 25), (235, 235, 235)),
    ((30, 30, 180), (240, 240, 240)),
    ((170, 80, 20), (240, 240, 240)),
    ((40, 150, 40), (15, 15, 15)),
    ((40, 200, 230), (20, 20, 20)),
    ((140, 40, 110), (60, 200, 230)),
    ((30, 120, 230), (20, 20, 20)),
]
FIXTURE_FONTS = [  # TrueType only: every Hershey font slashes its zero, which dice never do
    fonts.ttf("freesansbold"),
    fonts.ttf("DejaVuSans"),
    fonts.ttf("DejaVuSans-Bold"),
    fonts.ttf("DejaVuSerif-Bold"),
    fonts.ttf("DejaVuSansCondensed-Bold"),  # not in the template atlas
]


def _faces() -> list[np.ndarray]:
    """The ten kites, each as 4 x 3 vertices: apex, ring, equator, ring (counter-clockwise
    seen from outside)."""
    top, bottom = np.array([0, 0, APEX]), np.array([0, 0, -APEX])
    up = [np.array([np.cos(np.radians(72 * k)), np.sin(np.radians(72 * k)), RING_Z]) for k in range(5)]
    low = [np.array([np.cos(np.radians(36 + 72 * k)), np.sin(np.radians(36 + 72 * k)), -RING_Z]) for k in range(5)]
    faces = [np.array([top, up[k], low[k], up[(k + 1) % 5]]) for k in range(5)]
    faces += [np.array([bottom, low[(k + 1) % 5], up[(k + 1) % 5], low[k]]) for k in range(5)]
    return faces


def _normal(face: np.ndarray) -> np.ndarray:
    n = np.cross(face[1] - face[0], face[3] - face[0])
    n = n / np.linalg.norm(n)
    return n if n @ face.mean(axis=0) > 0 else -n


def _turn_face_up(face: np.ndarray) -> np.ndarray:
    """Rotation matrix bringing this face's outward normal to +z (towards the camera)."""
    n = _normal(face)
    axis = np.cross(n, [0, 0, 1.0])
    s, c = np.linalg.norm(axis), n[2]
    if s < 1e-9:
        return np.eye(3)
    k = axis / s
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + s * kx + (1 - c) * kx @ kx


def _kite_texture(face: np.ndarray, value: int, body, ink, font: fonts.FontSpec, marker: str) -> tuple[np.ndarray, np.ndarray]:
    """The face flattened into a TEXTURE-pixel image with its number written along the
    apex-to-equator axis, top of the digit towards the apex; and the face's corners in it."""
    e1 = face[2] - face[0]
    e1 = e1 / np.linalg.norm(e1)
    e2 = np.cross(e1, _normal(face))  # x to the right seen from outside, so digits are not mirrored
    flat = np.array([[(v - face[0]) @ e2, (v - face[0]) @ e1] for v in face])
    flat -= flat.min(axis=0)
    flat *= (TEXTURE - 1) / flat.max()
    flat[:, 0] += (TEXTURE - 1 - flat[:, 0].max()) / 2
    tex = np.full((TEXTURE, TEXTURE, 3), body, np.uint8)
    glyph = fonts.glyph_mask(str(value), font, round(0.4 * TEXTURE))  # numbers fill much of a face
    gh, gw = glyph.shape
    cx, cy = round(flat[0, 0]), round(0.52 * TEXTURE)
    x0, y0 = cx - gw // 2, cy - gh // 2
    alpha = np.zeros((TEXTURE, TEXTURE), np.uint8)
    alpha[y0 : y0 + gh, x0 : x0 + gw] = glyph
    if marker == "underline":
        gap = max(6, gh // 5)  # printed clear of the digit, as on real dice
        cv2.rectangle(alpha, (x0, y0 + gh + gap), (x0 + gw, y0 + gh + gap + max(3, gh // 9)), 255, -1)
    elif marker == "dot":
        cv2.circle(alpha, (x0 + gw + max(7, gh // 4), y0 + gh - 3), max(3, gh // 8), 255, -1, cv2.LINE_AA)
    a = (alpha.astype(np.float32) / 255)[..., None]
    tex = (tex * (1 - a) + np.array(ink, np.float32) * a).astype(np.uint8)
    return tex, flat.astype(np.float32)


def render_die(value: int, size: float, spin: float, colour, font: fonts.FontSpec, marker: str,
               rng: np.random.Generator, canvas: int) -> tuple[np.ndarray, np.ndarray]:
    """(sprite, alpha) of a d10 showing `value` on top, about `size` pixels across."""
    faces = _faces()
    body, ink = colour
    turn = _turn_face_up(faces[0])
    spin_m = cv2.Rodrigues(np.array([0, 0, np.radians(spin)]))[0]
    others = [v for v in range(10) if v != value]
    rng.shuffle(others)
    values = [value] + others
    sprite = np.zeros((canvas, canvas, 3), np.uint8)
    alpha = np.zeros((canvas, canvas), np.uint8)
    placed = [(spin_m @ turn @ f.T).T for f in faces]
    reach = max(np.abs(p[:, :2]).max() for p in placed)
    light = np.array([-0.3, -0.4, 0.87])
    for face, v in sorted(zip(placed, values), key=lambda fv: fv[0][:, 2].mean()):
        n = _normal(face)
        if n[2] <= 0.02:
            continue
        shade = 0.45 + 0.55 * max(0.0, float(n @ light))
        pts = (face[:, :2] / reach * size / 2 + canvas / 2).astype(np.float32)
        tex, flat = _kite_texture(face, v, body, ink, font, marker if v in (6, 9) else "none")
        hom = cv2.getPerspectiveTransform(flat, pts)
        warped = cv2.warpPerspective(tex, hom, (canvas, canvas), flags=cv2.INTER_AREA)
        mask = np.zeros((canvas, canvas), np.uint8)
        cv2.fillConvexPoly(mask, np.round(pts * 4).astype(np.int32), 255, cv2.LINE_AA, shift=2)
        shaded = np.clip(warped.astype(np.float32) * shade, 0, 255).astype(np.uint8)
        sprite[mask > 0] = shaded[mask > 0]
        cv2.polylines(sprite, [np.round(pts).astype(np.int32)], True, tuple(int(c * shade * 0.7) for c in body), 1, cv2.LINE_AA)
        alpha = cv2.max(alpha, mask)
    return sprite, alpha


@dataclass(frozen=True)
class Style:
    """What varies between rendered dice: the fixtures use a few fonts and the common
    colours; the network's training renders vary far more (tools.train.d10)."""

    fonts: tuple[fonts.FontSpec, ...]
    colour: Callable[[np.random.Generator], tuple]  # (body, ink) in BGR
    sizes: tuple[float, float]  # die width range in pixels
    marker: Callable[[np.random.Generator], str]  # "underline", "dot" or "none" for a scene's 6 and 9
    finish: Callable[[np.ndarray, np.ndarray, np.random.Generator], None] | None = None  # (sprite, alpha, rng): marbling, glare


FIXTURE_STYLE = Style(
    fonts=tuple(FIXTURE_FONTS),
    colour=lambda rng: COLOURS[int(rng.integers(len(COLOURS)))],
    sizes=(42.0, 90.0),  # a phone 40 cm above the table sees a d10 ~45 px across
    marker=lambda rng: "underline" if rng.random() < 0.7 else "dot",
)


def render_scene(rng: np.random.Generator, values: list[int], style: Style = FIXTURE_STYLE) -> tuple[np.ndarray, dict]:
    size = 640
    scene = camera_look.table_background(rng, size, str(rng.choice(list(camera_look.BACKGROUNDS))))
    faces = fonts.available(list(style.fonts))
    font = faces[int(rng.integers(len(faces)))]
    marker = style.marker(rng)
    taken = np.zeros((size, size), np.uint8)
    placed = []
    for value in values:
        colour = style.colour(rng)
        die = rng.uniform(*style.sizes)
        sprite, alpha = render_die(value, die, rng.uniform(0, 360), colour, font, marker, rng, 128)
        if style.finish is not None:
            style.finish(sprite, alpha, rng)
        for _ in range(200):
            x, y = rng.uniform(70, size - 70 - 128, 2).astype(int)
            spot = np.zeros_like(taken)
            spot[y : y + 128, x : x + 128] = alpha
            if not (cv2.dilate(spot, np.ones((21, 21), np.uint8)) & taken).any():
                break
        hom = np.array([[1, 0, x], [0, 1, y], [0, 0, 1]], np.float64)
        cover = cv2.warpPerspective(alpha, hom, (size, size))
        camera_look.drop_shadow(scene, cover, rng)
        camera_look.paste(scene, sprite, alpha, hom)
        taken |= cover
        ys, xs = np.nonzero(alpha)
        placed.append((value, np.array([[xs.min() + x, ys.min() + y], [xs.max() + x, ys.max() + y]], np.float32)))
    image, tilt = camera_look.photograph(scene, rng)
    label = {"width": size, "height": size, "dice": [], "cards": [], "face_down": [], "font": font.name,
             "marker": marker, "d10": [
        {"value": value, "box": camera_look.box_after(np.array([c[0], [c[1][0], c[0][1]], c[1], [c[0][0], c[1][1]]]), tilt)}
        for value, c in placed]}
    return image, label


def scenes(count: int, seed: int, style: Style = FIXTURE_STYLE):
    """`count` scenes of two to five dice that between them show every value several times."""
    rng = np.random.default_rng(seed)
    pool = list(range(10)) * 6
    rng.shuffle(pool)
    for _ in range(count):
        take = int(rng.integers(2, 6))
        values, pool = pool[:take], pool[take:] or list(range(10))
        yield render_scene(rng, values, style)


if __name__ == "__main__":
    write_set(OUT, "d10", scenes(16, seed=10))
