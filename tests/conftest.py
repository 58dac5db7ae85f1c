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


@pytest.fixture
def weights_moved(monkeypatch):
    """`weights_moved(module, MODEL_PATH=path, ...)` points a reader's shipped weight
    files elsewhere, with the networks it loaded (its cached `shipped_*` functions)
    forgotten before and after: how the tests show a partial install."""
    moved = []

    def move(module, **paths) -> None:
        for name, path in paths.items():
            monkeypatch.setattr(module, name, path)
        _forget_networks(module)
        moved.append(module)

    yield move
    for module in moved:
        _forget_networks(module)


@pytest.fixture
def broken_weights(tmp_path):
    """`broken_weights(shipped, content)`: a file named as the weight file `shipped`
    that is `content` (bytes: a file that is no network, or a cut one) or, given a
    path, a copy of that other network file. Returns its path."""
    def write(shipped: Path, content) -> Path:
        path = tmp_path / shipped.name
        path.write_bytes(content if isinstance(content, bytes) else Path(content).read_bytes())
        return path

    return write


def _forget_networks(module) -> None:
    for name in dir(module):
        if name.startswith("shipped_") and hasattr(getattr(module, name), "cache_clear"):
            getattr(module, name).cache_clear()
