"""Rendered dice for the face classifier, drawn onto patches of real table.

The photo sources hold a few dozen dice designs; a die from a shop is likely none of
them. These patches show the standard pip layouts on faces of any colour, with pips
that are dark, light, coloured or gold, marbled, glittering, half see-through, with
glare, at the crop size and position the run-time reader cuts. Each is drawn over a
bare-table patch cut from a real photo (the face trainer's "not a die" patches), so
the die sits on a real surface. Renders are training data only: every figure is
measured on real photos."""

from __future__ import annotations

import math

import cv2
import numpy as np

from tools.render.scene import SceneDie, draw_die

PIP_COLOURS = ((20, 20, 20), (240, 240, 240), (40, 180, 220), (30, 30, 200), (200, 60, 30), (40, 150, 40))


def _colour(rng: np.random.Generator) -> tuple[int, int, int]:
    hsv = np.array([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(25, 256)]]], np.uint8)
    return tuple(int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])


def _pips_for(face: tuple[int, int, int], rng: np.random.Generator) -> tuple[int, int, int]:
    """A pip colour that stands out from the face by at least 90 grey levels in some channel."""
    for _ in range(20):
        pips = PIP_COLOURS[int(rng.integers(len(PIP_COLOURS)))] if rng.random() < 0.7 else _colour(rng)
        if max(abs(a - b) for a, b in zip(face, pips)) >= 90 and abs(sum(face) - sum(pips)) >= 120:
            return pips
    return (20, 20, 20) if sum(face) > 380 else (240, 240, 240)


def rendered_patch(background: np.ndarray, value: int, rng: np.random.Generator, box_share: float) -> np.ndarray:
    """`background` (a square BGR patch) with a die showing `value` drawn in its middle,
    its box `box_share` of the patch's side (the share a labelled die's box has)."""
    size = background.shape[0]
    angle = float(rng.uniform(0, 90))
    turn = abs(math.cos(math.radians(angle))) + abs(math.sin(math.radians(angle)))
    side = size * box_share / (1.12 * turn) * rng.uniform(0.85, 1.05)
    face = _colour(rng)
    die = SceneDie(value=value, x=size / 2, y=size / 2, side=side, angle=angle, face=face, pips=_pips_for(face, rng),
                   marbled=bool(rng.random() < 0.3), glare=bool(rng.random() < 0.3))
    img = background.astype(np.float32)
    drawn = img.copy()
    draw_die(drawn, die, rng)
    if rng.random() < 0.2:  # glitter: bright specks over the die
        specks = (rng.random(img.shape[:2]) < 0.03).astype(np.float32)
        specks = cv2.GaussianBlur(specks, (0, 0), 0.6)[..., None] * 255 * rng.uniform(0.5, 1.5)
        inside = np.zeros(img.shape[:2], np.float32)
        cv2.circle(inside, (size // 2, size // 2), int(side * 0.7), 1.0, -1)
        drawn = drawn + specks * inside[..., None]
    if rng.random() < 0.2:  # see-through plastic: the table shows through the die
        drawn = drawn * rng.uniform(0.55, 0.8) + img * rng.uniform(0.2, 0.45)
    if rng.random() < 0.5:  # a camera's softness
        drawn = cv2.GaussianBlur(drawn, (0, 0), rng.uniform(0.4, 1.2))
    return np.clip(drawn, 0, 255).astype(np.uint8)


def rendered_patches(backgrounds: np.ndarray, n: int, rng: np.random.Generator, box_share: float,
                     draw=rendered_patch) -> tuple[np.ndarray, np.ndarray]:
    """n patches (values 1..6, evenly) over backgrounds picked at random, each drawn by
    `draw(background, value, rng, box_share)`; (patches, values)."""
    values = np.arange(n) % 6 + 1
    out = np.stack([draw(backgrounds[int(rng.integers(len(backgrounds)))], int(v), rng, box_share)
                    for v in values]) if n else np.zeros((0,) + backgrounds.shape[1:], np.uint8)
    return out, values.astype(np.int64)
