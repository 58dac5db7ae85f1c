"""Drawing a top-down table with dice on it, the way the overhead camera sees it.

What is modelled is what breaks readers: dice of any colour with dark or light pips
(marbled and translucent-looking ones too), any rotation, the walls of a die visible
towards the edge of the view (perspective), soft shadows, glare spots, dice touching,
cocked and stacked dice, a hand or shaker over the table, motion blur, sensor noise,
uneven light and JPEG artefacts."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# Pip centres on a unit face (-1..1), the standard western layouts.
PIP_LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
DIE_STYLES = [  # (face BGR, pip BGR)
    ((235, 238, 240), (20, 20, 20)), ((30, 30, 30), (235, 235, 235)), ((40, 40, 200), (240, 240, 240)),
    ((40, 210, 230), (20, 20, 20)), ((60, 150, 30), (240, 240, 240)), ((150, 40, 40), (240, 240, 240)),
    ((120, 30, 110), (230, 230, 230)), ((60, 60, 160), (40, 200, 230)), ((40, 80, 140), (20, 20, 20)),
    ((200, 200, 205), (40, 40, 200)),
]


@dataclass(frozen=True)
class SceneDie:
    value: int
    x: float
    y: float
    side: float  # top-face side, pixels
    angle: float  # degrees
    face: tuple[int, int, int]
    pips: tuple[int, int, int]
    marbled: bool = False
    glare: bool = False
    cocked: bool = False  # leaning on something: the top face is seen skewed, two faces show
    raised: float = 0.0  # height in die sides (a die stacked on another is at 1.0)
    blur: tuple[float, float] = (0.0, 0.0)  # motion in pixels while the shutter is open

    @property
    def box(self) -> tuple[float, float, float, float]:
        half = self.side * 0.5 * (abs(np.cos(np.radians(self.angle))) + abs(np.sin(np.radians(self.angle))))
        half *= 1.12  # the visible walls
        return (round(self.x - half, 1), round(self.y - half, 1), round(self.x + half, 1), round(self.y + half, 1))


def table(rng: np.random.Generator, size: int, tray: bool) -> tuple[np.ndarray, tuple]:
    """A table surface (felt, wood-ish or plain) with uneven light, and optionally a
    tray rim; returns the image and the play-area rectangle (x0, y0, x1, y1)."""
    base = np.array(rng.choice([(200, 202, 205), (60, 110, 40), (150, 120, 100), (90, 60, 40), (215, 215, 210)]),
                    np.float32)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
    light = 1.0 + 0.12 * (xx - 0.5) * rng.uniform(-1, 1) + 0.12 * (yy - 0.5) * rng.uniform(-1, 1)
    light -= 0.15 * ((xx - 0.5) ** 2 + (yy - 0.5) ** 2)
    grain = cv2.GaussianBlur(rng.normal(0, 6, (size, size)).astype(np.float32), (0, 0), 1.2)
    img = base[None, None, :] * light[..., None] + grain[..., None]
    area = (0.0, 0.0, float(size - 1), float(size - 1))
    if tray:
        m = int(size * rng.uniform(0.05, 0.1))
        rim = np.array(rng.choice([(30, 30, 30), (40, 20, 90), (20, 60, 20)]), np.float32)
        img[:m], img[-m:], img[:, :m], img[:, -m:] = rim, rim, rim, rim
        w = max(3, m // 2)
        wall = base * 1.1
        img[m:m + w, m:-m] = wall
        img[-m - w:-m, m:-m] = wall * 0.85
        img[m:-m, m:m + w] = wall * 0.95
        img[m:-m, -m - w:-m] = wall * 0.9
        area = (float(m + w), float(m + w), float(size - m - w - 1), float(size - m - w - 1))
    return np.clip(img, 0, 255), area


def _rotated_square(cx: float, cy: float, side: float, angle: float) -> np.ndarray:
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    corners = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], np.float32) * side / 2
    return corners @ np.array([[c, s], [-s, c]], np.float32) + (cx, cy)


def _paint(img: np.ndarray, poly: np.ndarray, colour, alpha: np.ndarray | None = None) -> None:
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(poly * 4).astype(np.int32), 255, cv2.LINE_AA, shift=2)
    a = (mask.astype(np.float32) / 255)[..., None]
    if alpha is not None:
        a = a * alpha[..., None]
    img[:] = img * (1 - a) + np.asarray(colour, np.float32) * a


def draw_die(img: np.ndarray, die: SceneDie, rng: np.random.Generator) -> None:
    """Draw one die (shadow, walls, top face, pips) into a float32 image in place."""
    canvas = img if die.blur == (0.0, 0.0) else img.copy()
    size = img.shape[0]
    # Perspective: the top face is nearer the camera, so it sits further from the
    # view centre than the base, and the walls facing the centre show.
    push = (np.array([die.x, die.y]) - size / 2) / size * die.side * (0.5 + die.raised)
    top_c = np.array([die.x, die.y]) + push
    base = _rotated_square(die.x - push[0] * 0.2, die.y - push[1] * 0.2, die.side, die.angle)
    shadow = _rotated_square(die.x + die.side * 0.12, die.y + die.side * 0.15, die.side * 1.05, die.angle)
    shade = np.zeros(img.shape[:2], np.float32)
    cv2.fillConvexPoly(shade, np.round(shadow).astype(np.int32), 1.0)
    shade = cv2.GaussianBlur(shade, (0, 0), die.side * 0.12)
    canvas *= (1 - 0.35 * shade)[..., None]
    face = np.asarray(die.face, np.float32)
    top = _rotated_square(*top_c, die.side, die.angle)
    if die.cocked:
        skew = np.array([[1.0, 0.45], [0.0, 0.7]], np.float32)
        top = (top - top_c) @ skew.T + top_c
    for i in range(4):  # walls between base and top outlines, darker than the face
        wall = np.array([base[i], base[(i + 1) % 4], top[(i + 1) % 4], top[i]], np.float32)
        _paint(canvas, cv2.convexHull(wall).reshape(-1, 2), face * rng.uniform(0.55, 0.8))
    _paint(canvas, top, face)
    if die.marbled:
        swirl = cv2.GaussianBlur(rng.random(img.shape[:2]).astype(np.float32), (0, 0), die.side * 0.15)
        swirl = (swirl - swirl.min()) / (np.ptp(swirl) + 1e-6)
        tint = face[::-1] * 0.8 + 30
        mask = np.zeros(img.shape[:2], np.float32)
        cv2.fillConvexPoly(mask, np.round(top).astype(np.int32), 1.0)
        a = (mask * swirl * 0.5)[..., None]
        canvas[:] = canvas * (1 - a) + tint * a
    pip_r = die.side * 0.1
    for u, v in PIP_LAYOUT[die.value]:
        off = np.array([u, v], np.float32) * die.side * 0.27
        c, s = np.cos(np.radians(die.angle)), np.sin(np.radians(die.angle))
        p = np.array([off[0] * c - off[1] * s, off[0] * s + off[1] * c])
        if die.cocked:
            p = np.array([[1.0, 0.45], [0.0, 0.7]]) @ p
        centre = tuple(int(round(q * 4)) for q in top_c + p)
        cv2.circle(canvas, centre, int(round(pip_r * 4)), die.pips, -1, cv2.LINE_AA, shift=2)
    if die.glare:
        spot = np.zeros(img.shape[:2], np.float32)
        g = top_c + rng.uniform(-0.25, 0.25, 2) * die.side
        cv2.circle(spot, (int(g[0]), int(g[1])), int(die.side * 0.15), 1.0, -1)
        spot = cv2.GaussianBlur(spot, (0, 0), die.side * 0.06) * 0.6
        canvas[:] = canvas * (1 - spot[..., None]) + 255 * spot[..., None]
    if die.blur != (0.0, 0.0):
        dx, dy = die.blur
        n = int(max(abs(dx), abs(dy))) * 2 + 1
        kernel = np.zeros((n, n), np.float32)
        cv2.line(kernel, (n // 2 - int(dx), n // 2 - int(dy)), (n // 2 + int(dx), n // 2 + int(dy)), 1.0, 1)
        kernel /= kernel.sum()
        blurred = cv2.filter2D(canvas, -1, kernel)
        region = np.zeros(img.shape[:2], np.float32)
        cv2.circle(region, (int(die.x), int(die.y)), int(die.side + n), 1.0, -1)
        region = cv2.GaussianBlur(region, (0, 0), 3)[..., None]
        img[:] = img * (1 - region) + blurred * region


def draw_hand(img: np.ndarray, x: float, y: float, scale: float, rng: np.random.Generator) -> None:
    """A hand (palm and fingers) holding a shaker cup, entering from the bottom edge."""
    skin = np.array(rng.choice([(120, 150, 200), (90, 120, 170), (60, 80, 120)]), np.float32)
    size = img.shape[0]
    cup = _rotated_square(x, y, scale * 0.9, rng.uniform(0, 90))
    _paint(img, cv2.convexHull(cup.astype(np.float32)).reshape(-1, 2), (40, 40, 60))
    arm = np.array([(x - scale * 0.35, y), (x + scale * 0.35, y), (x + scale * 0.5, size + scale),
                    (x - scale * 0.5, size + scale)], np.float32)
    _paint(img, arm, skin * 0.9)
    palm = cv2.ellipse2Poly((int(x), int(y + scale * 0.3)), (int(scale * 0.45), int(scale * 0.55)), 0, 0, 360, 10)
    _paint(img, palm.astype(np.float32), skin)


def finish(img: np.ndarray, rng: np.random.Generator, noise: float = 3.0) -> np.ndarray:
    """Sensor noise and 8-bit conversion."""
    img = img + rng.normal(0, noise, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def perspective(img: np.ndarray, rng: np.random.Generator, strength: float) -> tuple[np.ndarray, np.ndarray]:
    """A slightly tilted camera; returns the warped image and the 3x3 homography."""
    size = img.shape[0]
    src = np.array([(0, 0), (size, 0), (size, size), (0, size)], np.float32)
    dst = src + rng.uniform(-strength, strength, (4, 2)).astype(np.float32) * size
    h = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(img, h, (size, size), borderMode=cv2.BORDER_REPLICATE), h
