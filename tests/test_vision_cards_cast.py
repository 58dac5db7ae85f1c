"""Cards under a lamp whose colour the camera did not balance: the cast is taken out
before card stock is looked for, and only where the brightest things lean off grey."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import vision.cards.read as card_read
from vision.cards import read_cards
from vision.cards.white_stock import CLEAR_CAST, stock_gains
from vision.colour import uncast
from vision.image_io import load_bgr

FIXTURES = Path(__file__).resolve().parents[1] / "calibration_images" / "cards"
LABELS = json.loads((FIXTURES / "labels.json").read_text())
# A few scenes of every sort: lone cards, fanned hands, bordered and full-bleed backs.
SCENES = ["cards_00.jpg", "cards_02.jpg", "cards_09.jpg", "cards_13.jpg", "cards_20.jpg"]
CASTS = {"warm": (0.55, 0.90, 1.20), "cool": (1.15, 1.0, 0.80), "green": (0.9, 1.12, 0.9)}  # B, G, R


def _lit(frame: np.ndarray, gains) -> np.ndarray:
    return np.clip(frame * np.asarray(gains, np.float32), 0, 255).astype(np.uint8)


def _ranks(read) -> list[str]:
    return sorted(card.rank for card in read.cards)


def test_uncast_scales_each_channel_as_float_arithmetic_would():
    frame = np.random.default_rng(3).integers(0, 256, (40, 50, 3), dtype=np.uint8)
    for gains in CASTS.values():
        g = np.float32(1) / np.asarray(gains, np.float32)
        assert np.array_equal(uncast(frame, g), np.clip(frame * g, 0, 255).astype(np.uint8))


@pytest.mark.parametrize("cast", sorted(CASTS))
def test_cards_under_a_cast_read_as_they_do_under_white_light(cast):
    for name in SCENES:
        frame = load_bgr(FIXTURES / "images" / name)
        assert _ranks(read_cards(_lit(frame, CASTS[cast]))) == _ranks(read_cards(frame)), (name, cast)


def test_without_the_correction_a_warm_cast_hides_the_cards(monkeypatch):
    # What the correction is for: card stock is found by being white in every channel.
    frame = _lit(load_bgr(FIXTURES / "images" / "cards_00.jpg"), CASTS["warm"])
    monkeypatch.setattr(card_read, "neutral", lambda f: f)
    assert read_cards(frame).cards == ()
    monkeypatch.undo()
    assert len(read_cards(frame).cards) == len(LABELS["cards_00.jpg"]["cards"])


def test_clipped_pixels_do_not_set_the_gains():
    # A white card under a green lamp: its green channel clips at 255, so its colour
    # there says nothing of the light; the stock just short of clipping tells it.
    frame = np.full((160, 200, 3), (40, 90, 40), np.uint8)  # green cloth
    frame[20:140, 30:110] = (196, 245, 196)  # card stock in the shade, unclipped
    frame[20:140, 110:170] = (230, 255, 230)  # card stock in the light, green clipped
    gains = stock_gains(frame)
    assert gains is not None
    light = np.array((196, 245, 196), np.float32) * gains
    assert np.abs(light / light.mean() - 1).max() < 0.01


def test_a_cast_within_the_clear_bar_is_not_touched():
    frame = np.full((160, 200, 3), (60, 60, 60), np.uint8)
    frame[20:140, 30:170] = (230, 230, 230)
    slight = 1 + CLEAR_CAST * 0.5
    assert stock_gains(_lit(frame, (1 / slight, 1.0, slight))) is None
    assert stock_gains(_lit(frame, (0.8, 1.0, 1.2))) is not None


def test_a_frame_of_clipped_white_only_is_left_as_it_is():
    assert stock_gains(np.full((64, 64, 3), 255, np.uint8)) is None
