"""Turns a clean render into something that looks photographed from above: uneven
light, soft shadows, sensor noise, focus blur, a slight tilt and JPEG loss. Fixtures
need this because clean renders flatter any reader; real frames never look clean.
"""

from __future__ import annotations

import cv2
import numpy as np

BACKGROUNDS = {
    "felt": (40, 110, 30),
    "wood": (50, 90, 140),
    "tray": (150, 150, 150),
    "navy": (90, 50, 30),
}


def table_background(rng: np.random.Generator, size: int, kind: str) -> np.ndarray:
    """A textured table top: a base colour with low-frequency blotches and fine grain."""
    base = np.array(BACKGROUNDS[kind], np.float32)
    blotch = cv2.resize(rng.normal(0, 14, (8, 8, 3)).astype(np.float32), (size, size))
    grain = rng.normal(0, 6, (size, size, 3)).astype(np.float32)
    return np.clip(base + blotch + grain, 0, 255).astype(np.uint8)


def paste(scene: np.ndarray, sprite: np.ndarray, alpha: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """Warps `sprite` into `scene` (in place) and returns the warped coverage mask."""
    h, w = scene.shape[:2]
    warped = cv2.warpPerspective(sprite, homography, (w, h), flags=cv2.INTER_LINEAR)
    cover = cv2.warpPerspective(alpha, homography, (w, h), flags=cv2.INTER_LINEAR)
    a = (cover.astype(np.float32) / 255.0)[..., None]
    scene[:] = (scene * (1 - a) + warped * a).astype(np.uint8)
    return cover


def drop_shadow(scene: np.ndarray, cover: np.ndarray, rng: np.random.Generator) -> None:
    """Darkens the table where a lifted object would shade it, before the object is pasted."""
    dx, dy = rng.integers(2, 9, 2)
    shifted = np.roll(np.roll(cover, dy, axis=0), dx, axis=1)
    soft = cv2.GaussianBlur(shifted, (0, 0), 4).astype(np.float32) / 255.0
    scene[:] = (scene * (1 - 0.45 * soft[..., None])).astype(np.uint8)


def photograph(scene: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Applies light, tilt, blur, noise and JPEG; returns the image and the tilt homography
    (so label boxes can be moved with it)."""
    h, w = scene.shape[:2]
    light = cv2.resize(rng.uniform(0.55, 1.15, (3, 3)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    tint = rng.uniform(0.9, 1.08, 3).astype(np.float32)
    lit = np.clip(scene.astype(np.float32) * light[..., None] * tint, 0, 255)
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    tilt = cv2.getPerspectiveTransform(corners, corners + rng.uniform(-18, 18, (4, 2)).astype(np.float32))
    img = cv2.warpPerspective(lit, tilt, (w, h), borderMode=cv2.BORDER_REFLECT)
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.1))
    img = np.clip(img + rng.normal(0, rng.uniform(2, 6), img.shape), 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 90))])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR), tilt


def box_after(points: np.ndarray, homography: np.ndarray) -> list[float]:
    """Axis-aligned box of points (N x 2) after a homography, rounded for labels.json."""
    moved = cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float32), homography).reshape(-1, 2)
    x0, y0 = moved.min(axis=0)
    x1, y1 = moved.max(axis=0)
    return [round(float(v), 1) for v in (x0, y0, x1, y1)]
