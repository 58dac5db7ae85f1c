"""Shared test set-up: headless pygame, and the real photos in ../shared when present."""

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DICE_PHOTOS = SHARED / "data" / "dice-d6-photos"


@pytest.fixture
def dice_photos() -> Path:
    """The 200 labelled real dice photos; they live beside the clone, never in it."""
    if not (DICE_PHOTOS / "labels.json").is_file():
        pytest.skip(f"real dice photos not found at {DICE_PHOTOS} (../shared is absent)")
    return DICE_PHOTOS
