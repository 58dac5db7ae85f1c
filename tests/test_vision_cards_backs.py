"""Full-bleed card backs (no white frame) are counted face down from their outline alone,
and shapes that are not card backs (a 2:1 domino tile) are not."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from table.reads import inside
from tools.render import cards as render
from tools.render.camera_look import drop_shadow, paste, photograph, table_background
from vision.cards import read_cards

FIXTURES = Path(__file__).resolve().parents[1] / "calibration_images" / "cards"
LABELS = json.loads((FIXTURES / "labels.json").read_text())
BORDERLESS = ("cards_20.jpg", "cards_21.jpg")  # render.borderless_scenes(2, seed=88)


def _on_table(sprite: np.ndarray, alpha: np.ndarray, table: str, angle: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    scene = table_background(rng, 640, table)
    h, w = alpha.shape
    hom = render.placement(w, h, 190 / max(h, w), angle, (320.0, 320.0), (w / 2, h / 2))
    drop_shadow(scene, cv2.warpPerspective(alpha, hom, (640, 640)), rng)
    paste(scene, sprite, alpha, hom)
    return photograph(scene, rng)[0]


def _plain_back(ink: str, shape: str) -> tuple[np.ndarray, np.ndarray]:
    w, h = render.WIDTHS[shape], render.CARD_H
    return np.full((h, w, 3), render.BACK_INKS[ink], np.uint8), render.rounded_alpha(w, h)


def test_the_borderless_fixtures_count_every_back():
    for name in BORDERLESS:
        read = read_cards(cv2.imread(str(FIXTURES / "images" / name)))
        backs = LABELS[name]["face_down"]
        assert backs and len(read.face_down) == len(backs), name
        for back in backs:
            assert sum(inside(d.center, back["box"]) for d in read.face_down) == 1, name


@pytest.mark.parametrize("ink,table", [("red", "felt"), ("black", "felt"), ("blue", "wood"), ("red", "tray"),
                                       ("black", "tray"), ("blue", "felt")])
@pytest.mark.parametrize("shape", ["poker", "bridge"])
def test_a_plain_full_bleed_back_is_counted_where_it_lies(ink, table, shape):
    frame = _on_table(*_plain_back(ink, shape), table, angle=35.0, seed=5)
    read = read_cards(frame)
    assert read.cards == () and read.unreadable == ()
    assert len(read.face_down) == 1
    down = read.face_down[0]
    assert down.kind == "card" and np.hypot(down.center[0] - 320, down.center[1] - 320) < 25


def test_a_patterned_back_is_counted():
    frame = _on_table(*render.borderless_back("poker", np.random.default_rng(4)), "felt", angle=100.0, seed=6)
    assert len(read_cards(frame).face_down) == 1


def test_a_domino_shaped_coloured_tile_is_not_a_card_back():
    tile = np.full((180, 360, 3), render.BACK_INKS["black"], np.uint8)
    alpha = np.full((180, 360), 255, np.uint8)
    read = read_cards(_on_table(tile, alpha, "felt", angle=20.0, seed=7))
    assert read.face_down == () and read.cards == ()
