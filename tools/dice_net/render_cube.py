"""Dice drawn as cubes seen from any height, for the face classifier.

A phone photo of dice on a table sees them at an angle: the top face foreshortened and
one or two side faces below it, with pips of their own. Only one photo source
(dice-aws) shows dice so, and with it left out the classifier has never seen a side
face and reads the face towards the camera (docs/vision-dice-net.md). These patches
show a cube with pips on every face (opposite faces summing to 7), turned about its
upright axis and seen from 30 to 88 degrees above the table through a perspective
camera, each face lit by one light, on a patch of real bare table, its box (the whole
cube's) the share of the patch a labelled die's box has. The label is the top face;
the top of the patch is up, as in the photos, so the trainer keeps them upright.

    patches, values = cube_patches(backgrounds, 6000, rng, 1 / PATCH_SCALE)

Training data only: every figure is measured on real photos."""

from __future__ import annotations

import math

import cv2
import numpy as np

from tools.dice_net.render_faces import _colour, _pips_for, rendered_patches

TEXTURE = 96  # px, one face's texture
SPOTS = {1: ((0.5, 0.5),), 2: ((0.27, 0.27), (0.73, 0.73)), 3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
         4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
         5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
         6: ((0.27, 0.25), (0.27, 0.5), (0.27, 0.75), (0.73, 0.25), (0.73, 0.5), (0.73, 0.75))}
# The cube's faces: outward normal, and two edge directions (u along the texture's
# columns, v along its rows) from the face's first corner.
FACES = {"top": ((0, 0, 1), (1, 0, 0), (0, 1, 0)), "bottom": ((0, 0, -1), (1, 0, 0), (0, -1, 0)),
         "front": ((0, -1, 0), (1, 0, 0), (0, 0, -1)), "back": ((0, 1, 0), (-1, 0, 0), (0, 0, -1)),
         "right": ((1, 0, 0), (0, 1, 0), (0, 0, -1)), "left": ((-1, 0, 0), (0, -1, 0), (0, 0, -1))}
ELEVATION = (30.0, 88.0)  # degrees above the table


def face_texture(value: int, body, pips, rng: np.random.Generator) -> np.ndarray:
    """A TEXTURE x TEXTURE float32 face: body colour, rounded darker edges, pips of
    `value` turned by a random quarter."""
    s = TEXTURE
    tex = np.empty((s, s, 3), np.float32)
    tex[:] = body
    edge = np.ones((s, s), np.float32)
    r = int(s * rng.uniform(0.08, 0.2))
    cv2.rectangle(edge, (0, 0), (s - 1, s - 1), 0.75, max(2, r // 2))
    edge = cv2.GaussianBlur(edge, (0, 0), max(1.0, r / 2))
    tex *= edge[..., None]
    radius = s * rng.uniform(0.075, 0.11)
    turn = int(rng.integers(4))
    for fx, fy in SPOTS[value]:
        for _ in range(turn):
            fx, fy = 1 - fy, fx
        cv2.circle(tex, (round(fx * s), round(fy * s)), round(radius), tuple(float(c) for c in pips), -1,
                   lineType=cv2.LINE_AA)
    return tex


def _values(top: int, rng: np.random.Generator) -> dict[str, int]:
    """A die's faces with `top` up: opposite faces sum to 7, the four sides in a random
    turn (and either handedness)."""
    a, b = (int(v) for v in rng.permutation([v for v in range(1, 7) if v not in (top, 7 - top)][:2]))
    if a + b == 7:  # two opposite faces cannot be neighbours
        b = next(v for v in range(1, 7) if v not in (top, 7 - top, a, 7 - a))
    return {"top": top, "bottom": 7 - top, "front": a, "back": 7 - a, "right": b, "left": 7 - b}


def _camera(yaw: float, elevation: float, distance: float) -> tuple[np.ndarray, np.ndarray]:
    """The cube's turn by `yaw` about its upright axis, and the camera's place:
    `elevation` degrees above the table, `distance` cube sides from its centre."""
    c, s = math.cos(yaw), math.sin(yaw)
    e = math.radians(elevation)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64), np.array([0.0, -math.cos(e), math.sin(e)]) * distance


def _project(points: np.ndarray, yaw: float, elevation: float, distance: float) -> tuple[np.ndarray, np.ndarray]:
    """Image points (x right, y down) and depths of 3D points of the cube turned by
    `yaw` about its upright axis, seen from `elevation` degrees above the table at
    `distance` cube sides, looking at its centre."""
    spin, eye = _camera(yaw, elevation, distance)
    turned = points @ spin.T
    forward = -eye / np.linalg.norm(eye)
    right = np.array([1.0, 0.0, 0.0])
    up = np.cross(right, forward)
    rel = turned - eye
    x, y, z = rel @ right, rel @ up, rel @ forward
    return np.stack([x / z, -y / z], 1), z


def cube_patch(background: np.ndarray, value: int, rng: np.random.Generator, box_share: float,
               boxed: bool = False):
    """`background` (a square BGR patch) with a cube showing `value` on top in its
    middle, the cube's box `box_share` of the patch's side (and, `boxed`, that box:
    x0, y0, x1, y1)."""
    size = background.shape[0]
    body = _colour(rng)
    pips = _pips_for(body, rng)
    values = _values(value, rng)
    yaw = float(rng.uniform(0, 2 * math.pi))
    elevation = float(rng.uniform(*ELEVATION))
    distance = float(rng.uniform(4.0, 14.0))
    spin, eye = _camera(yaw, elevation, distance)
    light = rng.normal(size=3) + np.array([0.0, 0.0, 2.0])
    light /= np.linalg.norm(light)
    quads, shades, textures = [], [], []
    for name, (normal, u, v) in FACES.items():
        n, du, dv = (np.array(a, np.float64) for a in (normal, u, v))
        centre = 0.5 * n
        if (spin @ n) @ (eye - spin @ centre) <= 0:
            continue  # faces away from the camera
        corner = centre - 0.5 * du - 0.5 * dv
        quad3 = np.stack([corner, corner + du, corner + du + dv, corner + dv])
        quads.append(_project(quad3, yaw, elevation, distance)[0])
        shades.append(0.45 + 0.55 * max(0.0, float((spin @ n) @ light)))
        textures.append(face_texture(values[name], body, pips, rng))
    every = np.concatenate(quads)
    lo, hi = every.min(0), every.max(0)
    scale = size * box_share * rng.uniform(0.85, 1.05) / max(float((hi - lo).max()), 1e-6)
    offset = size / 2 - (lo + hi) / 2 * scale
    img = background.astype(np.float32)
    # a soft shadow on the table below and beside the cube
    shadow = np.zeros((size, size), np.float32)
    w, h = (hi - lo) * scale
    cv2.ellipse(shadow, (int(size / 2 + rng.uniform(-0.1, 0.2) * w), int(size / 2 + 0.25 * h)),
                (max(1, int(0.55 * w)), max(1, int(0.3 * h))), 0, 0, 360, 1.0, -1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, 0.1 * w))
    img *= (1 - rng.uniform(0.2, 0.45) * shadow)[..., None]
    src = np.float32([[0, 0], [TEXTURE, 0], [TEXTURE, TEXTURE], [0, TEXTURE]])
    for quad, shade, tex in zip(quads, shades, textures):
        dst = (quad * scale + offset).astype(np.float32)
        m = cv2.getPerspectiveTransform(src, dst)
        drawn = cv2.warpPerspective(tex * shade, m, (size, size), flags=cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(np.ones((TEXTURE, TEXTURE), np.float32), m, (size, size), flags=cv2.INTER_LINEAR)
        img = img * (1 - mask[..., None]) + drawn * mask[..., None]
    if rng.random() < 0.3:  # a glare spot on the die
        spot = np.zeros((size, size), np.float32)
        at = (offset + quads[0][int(rng.integers(4))] * scale * 0.6 + (lo + hi) / 2 * scale * 0.4).astype(int)
        cv2.circle(spot, (int(at[0]), int(at[1])), max(1, int(0.08 * w)), 1.0, -1)
        img += cv2.GaussianBlur(spot, (0, 0), max(1.0, 0.05 * w))[..., None] * rng.uniform(60, 160)
    if rng.random() < 0.5:  # a camera's softness
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.2))
    out = np.clip(img, 0, 255).astype(np.uint8)
    return (out, (*(lo * scale + offset), *(hi * scale + offset))) if boxed else out


def cube_patches(backgrounds: np.ndarray, n: int, rng: np.random.Generator,
                 box_share: float) -> tuple[np.ndarray, np.ndarray]:
    """n patches (values 1..6, evenly) over backgrounds picked at random; (patches, values)."""
    return rendered_patches(backgrounds, n, rng, box_share, draw=cube_patch)
