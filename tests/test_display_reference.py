"""Each example screen compared with its reference picture, so an unintended change
to the look shows up in review.

References are the 800x480 renders stored at half resolution (to keep the repo
small). Regenerate them after an intended change with

    UPDATE_REFERENCES=1 .venv/bin/python -m pytest tests/test_display_reference.py

and look at the new PNGs before committing them."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pygame
import pytest

from display import render_screen
from display.examples import all_views, example_frame
from tabletop21.screenshots import PICKS
from vision.image_io import load_bgr

REFERENCES = Path(__file__).parent / "display_reference"
SIZE = (800, 480)
SETTLED = 2.0
VIEWS = all_views()


def half_size_bgr(surface: pygame.Surface) -> np.ndarray:
    rgb = pygame.surfarray.array3d(surface).transpose(1, 0, 2)
    bgr = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
    return cv2.resize(bgr, (SIZE[0] // 2, SIZE[1] // 2), interpolation=cv2.INTER_AREA)


def difference(image: np.ndarray, reference: np.ndarray) -> tuple[float, float, float]:
    """Mean absolute difference, the fraction of pixels off by more than 40, and that
    fraction in the worst 10x10 block: a wrong figure or die changes few pixels
    overall but many in one place, while font anti-aliasing noise is spread thin."""
    delta = np.abs(image.astype(np.int16) - reference.astype(np.int16)).max(axis=2)
    far = delta > 40
    height, width = (far.shape[0] // 10) * 10, (far.shape[1] // 10) * 10
    blocks = far[:height, :width].reshape(height // 10, 10, width // 10, 10).mean(axis=(1, 3))
    return float(delta.mean()), float(far.mean()), float(blocks.max())


def looks_the_same(image: np.ndarray, reference: np.ndarray) -> bool:
    if image.shape != reference.shape:
        return False
    mean, far, worst_block = difference(image, reference)
    return mean < 2 and far < 0.01 and worst_block < 0.05


def render(key: str, view=None) -> np.ndarray:
    view = view or VIEWS[key]
    return half_size_bgr(render_screen(view, SIZE, example_frame(view), t=SETTLED))


@pytest.mark.parametrize("key", sorted(VIEWS))
def test_screen_matches_its_reference(key):
    path = REFERENCES / (key.replace("/", "_") + ".png")
    image = render(key)
    if os.environ.get("UPDATE_REFERENCES") == "1":
        path.parent.mkdir(exist_ok=True)
        cv2.imwrite(str(path), image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    if not path.is_file():
        pytest.fail(f"no reference {path.name}; run with UPDATE_REFERENCES=1 and review it")
    reference = load_bgr(path)
    mean, far, block = difference(image, reference)
    same = looks_the_same(image, reference)
    assert same, f"{key}: mean difference {mean:.2f}, {far:.2%} pixels far off, {block:.0%} in the worst block"


def test_the_comparison_catches_a_changed_bankroll_and_any_changed_die():
    """The tolerance must not be so loose that a wrong figure or piece slips through."""
    view = VIEWS["blackjack-dice/play"]
    reference = render("blackjack-dice/play")
    gus = view.seats[1]
    richer = replace(view, seats=(view.seats[0], replace(gus, bankroll=9070)) + view.seats[2:])
    assert not looks_the_same(render("", richer), reference)
    hand = gus.hands[0]
    for value in range(1, 10):  # the reference shows a 0 there
        other = replace(hand, items=(hand.items[0], replace(hand.items[1], value=value)))
        rerolled = replace(view, seats=(view.seats[0], replace(gus, hands=(other,))) + view.seats[2:])
        assert not looks_the_same(render("", rerolled), reference), f"a d10 showing {value} passed for 0"


@pytest.mark.parametrize("key", PICKS)
def test_the_readmes_screenshots_are_what_the_code_draws_now(key):
    """docs/screenshots is the README's gallery; remake it after a change to the look
    with `python -m tabletop21.screenshots docs/screenshots`."""
    path = Path(__file__).resolve().parents[1] / "docs" / "screenshots" / (key.replace("/", "-") + ".png")
    shown = cv2.resize(load_bgr(path), (SIZE[0] // 2, SIZE[1] // 2), interpolation=cv2.INTER_AREA)
    assert looks_the_same(render(key), shown), f"{path.name} is stale: run python -m tabletop21.screenshots"
