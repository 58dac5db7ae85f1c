"""The committed, seeded set of labelled domino fixtures in calibration_images/dominoes.

Re-running `python -m tools.render.domino_fixtures calibration_images/dominoes` rebuilds
the same pictures (in images/) and labels.json, the layout `tabletop21 eval` reads, so
the fixtures are reviewable as code rather than as opaque JPEGs.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from tools.render import dominoes as render
from vision.dominoes.layout import ALL_TILES

SEED = 21
SIZE = (640, 640)
BACKGROUNDS = ("felt", "wood", "tray")
SCATTER_STYLES = ("ivory", "ivory_rainbow", "pink", "red", "black", "white")
SCATTERED_PER_IMAGE = 8


def build(out_dir: Path) -> dict:
    rng = np.random.default_rng(SEED)
    (out_dir / "images").mkdir(parents=True, exist_ok=True)
    labels = {}
    order = list(ALL_TILES) * 4
    plans = []
    for i in range(12):
        chunk = order[i * SCATTERED_PER_IMAGE:(i + 1) * SCATTERED_PER_IMAGE]
        chunk = list(dict.fromkeys(chunk))  # one set holds each tile once
        plans.append(Plan(f"scatter_{i:02d}.jpg", SCATTER_STYLES[i % 6], BACKGROUNDS[i % 3],
                          chunk, rng.uniform(34, 60), 2))
    for i, tile in enumerate([(5, 6), (0, 0), (3, 4), (2, 6)]):
        plans.append(Plan(f"single_{i:02d}.jpg", SCATTER_STYLES[(i * 2) % 6], BACKGROUNDS[i % 3],
                          [tile], rng.uniform(90, 130) if i < 3 else 200.0, 0))
    for plan in plans:
        labels[plan.name] = write_photo(out_dir, plan, rng)
    # The gap cases draw from a stream of their own, so the scenes above stay as they were.
    gap_rng = np.random.default_rng((SEED, 1))
    for plan in _gap_plans(gap_rng):
        labels[plan.name] = write_photo(out_dir, plan, gap_rng)
    # Glare on a black tile can look like the grey tray and cut a notch into its
    # blob. Its own stream too, so the gap scenes above stay as they were.
    glare_rng = np.random.default_rng((SEED, 2))
    tiles = [ALL_TILES[k] for k in glare_rng.permutation(len(ALL_TILES))[:6]]
    plan = Plan("glare_00.jpg", "black", "tray", tiles, glare_rng.uniform(32, 48), 1)
    labels[plan.name] = write_photo(out_dir, plan, glare_rng)
    (out_dir / "labels.json").write_text(json.dumps(labels, indent=1))
    return labels


@dataclass(frozen=True)
class Plan:
    """One fixture photo: which tiles, how they look, how the camera sees them."""

    name: str
    style: str
    background: str
    tiles: list
    short_px: float
    face_down: int
    tilt: tuple[float, float] = (0.0, 20.0)  # degrees off vertical
    divider: bool = True  # False: a worn or glare-covered divider that cannot be seen


def _gap_plans(rng) -> list[Plan]:
    """Scenes for the reader's known gaps (docs/vision-dominoes.md, Known limits):
    lone tiles from small to close-up, lone tiles without a visible divider, small
    tiles, white and ivory tiles on a white cloth, black tiles seen well off vertical."""
    def some(n):
        return [ALL_TILES[k] for k in rng.permutation(len(ALL_TILES))[:n]]
    plans = [Plan(f"lone_{i:02d}.jpg", style, background, some(1), short_px, 0)
             for i, (style, background, short_px) in enumerate(
                 [("pink", "felt", 26.0), ("red", "wood", 75.0), ("ivory_rainbow", "tray", 140.0),
                  ("ivory", "cloth", 190.0)])]
    plans += [Plan(f"nodivider_{i:02d}.jpg", style, background, some(1), short_px, 0,
                   divider=False)
              for i, (style, background, short_px) in enumerate(
                  [("ivory", "wood", 60.0), ("black", "felt", 110.0)])]
    plans += [Plan(f"small_{i:02d}.jpg", style, background, some(SCATTERED_PER_IMAGE),
                   rng.uniform(24, 32), 2)
              for i, (style, background) in enumerate([("ivory_rainbow", "felt"), ("pink", "tray")])]
    plans += [Plan(f"cloth_{i:02d}.jpg", style, "cloth", some(6), rng.uniform(34, 60), 2)
              for i, style in enumerate(["white", "ivory"])]
    plans.append(Plan("steep_00.jpg", "black", "wood", some(6), rng.uniform(40, 60), 2,
                      tilt=(16.0, 20.0)))
    return plans


def write_photo(out_dir: Path, plan: Plan, rng) -> dict:
    image, label = fixture_photo(rng, plan)
    cv2.imwrite(str(out_dir / "images" / plan.name), image,
                [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 88))])
    return label


def fixture_photo(rng, plan: Plan):
    style, short_px = render.STYLES[plan.style], plan.short_px
    scene = render.table_background(plan.background, SIZE, rng)
    occupied = np.zeros(SIZE[::-1], np.uint8)
    placed = []  # (halves or None, corners in the flat table, texture-half centres)
    groups = _groups(rng, plan.tiles, plan.face_down)
    shape = render.random_shape(rng)  # one maker per set
    if not plan.divider:
        shape = replace(shape, divider_width=0.0)
    shadow_depth = rng.uniform(0.35, 0.65)
    # Where the camera's foot is on the table: tiles away from it show a side.
    nadir = np.array(SIZE) / 2 + rng.uniform(-250, 250, 2)
    rise = rng.uniform(0.35, 0.45) * short_px / 1000.0  # tile thickness / camera height
    for group in groups:
        for _ in range(400):
            spots = _spots(rng, group, short_px)
            if spots is not None and _fits(occupied, spots, short_px):
                break
        else:
            raise RuntimeError("could not place fixture tiles; lower the count")
        for halves, (centre, angle) in zip(group, spots):
            texture, alpha = render.tile_texture(halves, style, rng, shape)
            side = tuple((nadir - np.array(centre)) * rise)
            corners = render.place_tile(scene, texture, alpha, centre, short_px, angle,
                                        shadow_depth, side)
            cv2.fillPoly(occupied, [_grown(corners, 6)], 255)
            placed.append((halves, corners))
    for _ in range(50):
        tilt = render.tilt_homography(SIZE, rng.uniform(*plan.tilt), rng.uniform(0, 360))
        if all(_inside(_seen(corners, tilt)) for _, corners in placed):
            break
    else:
        raise RuntimeError("no camera tilt keeps every fixture tile in the frame")
    photo = cv2.warpPerspective(scene, tilt, SIZE, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    glare = []
    label = {"width": SIZE[0], "height": SIZE[1], "dice": [], "dominoes": [], "face_down": []}
    for halves, corners in placed:
        seen = _seen(corners, tilt)
        box = [round(float(v), 1) for v in (*seen.min(0), *seen.max(0))]
        if rng.random() < 0.3:
            spot = seen.mean(0) + rng.uniform(-0.25, 0.25, 2) * short_px
            glare.append((spot[0], spot[1], 0.3 * short_px))
        if halves is None:
            label["face_down"].append({"box": box})
            continue
        label["dominoes"].append({"halves": list(_reading_order(halves, seen)), "box": box})
    return render.finish_photo(photo, rng, glare), label


def _seen(corners, tilt):
    flat = corners.reshape(-1, 1, 2).astype(np.float64)
    return cv2.perspectiveTransform(flat, tilt).reshape(-1, 2)


def _inside(points, margin=4) -> bool:
    return bool(points.min() >= margin and (points.max(0) <= np.array(SIZE) - margin).all())


def _groups(rng, tiles, face_down):
    """Tiles placed alone or as a touching pair (side by side or end to end)."""
    items: list = list(tiles) + [None] * face_down
    rng.shuffle(items)
    if len(items) >= 4:
        return [items[:2]] + [[t] for t in items[2:]]
    return [[t] for t in items]


def _spots(rng, group, short_px):
    margin = 1.3 * short_px + 30
    centre = rng.uniform(margin, SIZE[0] - margin, 2)
    angle = rng.uniform(0, 180)
    if len(group) == 1:
        return [(tuple(centre), angle)]
    along = rng.random() < 0.5
    rad = math.radians(-angle)
    axis = np.array([math.cos(rad), math.sin(rad)])
    normal = np.array([-axis[1], axis[0]])
    gap = rng.uniform(1.0, 2.0)  # real neighbours never close up: bevels leave a groove
    step = axis * (2 * short_px + gap) if along else normal * (short_px + gap)
    return [(tuple(centre - step / 2), angle), (tuple(centre + step / 2), angle)]


def _fits(occupied, spots, short_px) -> bool:
    probe = np.zeros_like(occupied)
    for centre, angle in spots:
        corners = render.tile_corners(centre, short_px, angle)
        if corners.min() < 25 or corners.max() > min(SIZE) - 25:
            return False
        cv2.fillPoly(probe, [_grown(corners, 6)], 255)
    return not np.any(occupied & probe)


def _grown(corners, px):
    c = corners.mean(0)
    grown = c + (corners - c) * (1 + px / np.linalg.norm(corners - c, axis=1).mean())
    return np.round(grown).astype(np.int32)


def _reading_order(halves, seen):
    """halves[0] is the left end (the top end for an upright tile), as the reader reports."""
    first = (seen[0] + seen[3]) / 2
    second = (seen[1] + seen[2]) / 2
    dx, dy = second - first
    angle = math.degrees(math.atan2(dy, dx))
    return tuple(halves) if -90 < angle <= 90 else tuple(halves[::-1])


if __name__ == "__main__":
    build(Path(sys.argv[1] if len(sys.argv) > 1 else "calibration_images/dominoes"))
