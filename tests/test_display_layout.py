"""Every screen of every game must fit both target screens: no text spilling out of
its box or off the screen, no text on top of other text, nothing cut short, and
nothing too small to read from two metres."""

from __future__ import annotations

import pygame
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from display.canvas import Canvas
from display.examples import all_views, example_frame
from display.render import draw_view

SIZES = ((800, 480), (1920, 1080))
VIEWS = all_views()
# The smallest text allowed: inside card corners and die kites text is sized to the
# piece, elsewhere it is at least this fraction of the screen height.
MIN_HEIGHT = 0.025


def layout(key: str, size: tuple[int, int], t: float):
    view = VIEWS[key]
    return draw_view(pygame.Surface(size), view, example_frame(view), t)


def overlapping(texts):
    rects = [pygame.Rect(text.rect) for text in texts]
    return [(texts[i].text, texts[j].text) for i in range(len(rects)) for j in range(i + 1, len(rects)) if rects[i].colliderect(rects[j])]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("key", sorted(VIEWS))
def test_every_screen_fits_without_clipping_or_overlap(key, size):
    times = (0.3, 2.0) if key.endswith("/results") else (0.0,)
    for t in times:
        texts = layout(key, size, t)
        assert texts, "a screen with no text cannot tell anyone what to do"
        screen = pygame.Rect((0, 0), size)
        for text in texts:
            rect = pygame.Rect(text.rect)
            assert screen.contains(rect), f"{text.text!r} runs off the screen at {rect}"
            assert pygame.Rect(text.box).contains(rect), f"{text.text!r} spills out of its box {text.box}"
            assert not text.cut, f"{text.text!r} had to be cut short in box {text.box}"
            assert rect.h >= MIN_HEIGHT * size[1] * 0.5, f"{text.text!r} is {rect.h}px high"
        assert overlapping(texts) == []


@pytest.mark.parametrize("key", sorted(k for k in VIEWS if not k.endswith(("/attract", "/reading"))))
def test_body_text_is_readable_from_two_metres(key):
    """Outside the pieces themselves (card ranks, d10 numerals), no line is tiny."""
    texts = layout(key, (800, 480), 2.0)
    lines = [text for text in texts if len(text.text) > 2]
    assert min(pygame.Rect(text.rect).h for text in lines) >= 12


def test_header_shows_game_name_and_screen_title():
    texts = [text.text for text in layout("domino21/results", (800, 480), 2.0)]
    assert "Domino 21" in texts
    assert "ROUND 3 - RESULTS" in texts


@settings(max_examples=40, deadline=None)
@given(
    text=st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=80),
    width=st.integers(1, 400),
    height=st.integers(1, 120),
    wrap=st.booleans(),
)
@example(text="@", width=5, height=6, wrap=False)  # drawn 7 pixels tall once: a '@' reaches past "Ag"
def test_any_string_stays_inside_any_box(text, width, height, wrap):
    canvas = Canvas(pygame.Surface((420, 140)))
    box = pygame.Rect(10, 10, width, height)
    canvas.text(text, box, 0.2, wrap=wrap)
    for drawn in canvas.texts:
        assert box.contains(pygame.Rect(drawn.rect))
    assert overlapping(canvas.texts) == []


def test_a_long_name_shrinks_then_is_cut_rather_than_spilling():
    canvas = Canvas(pygame.Surface((800, 480)))
    box = pygame.Rect(0, 0, 120, 30)
    canvas.text("Bartholomew the Magnificent of the Northern Seat", box, 0.07)
    (drawn,) = canvas.texts
    assert drawn.cut and drawn.text.endswith("...")
    assert box.contains(pygame.Rect(drawn.rect))


def test_wrapping_uses_several_lines_before_cutting():
    canvas = Canvas(pygame.Surface((800, 480)))
    box = pygame.Rect(0, 0, 300, 200)
    canvas.text("Check the camera cable, then press NEXT to try again.", box, 0.07, wrap=True)
    assert len(canvas.texts) >= 2
    assert not any(text.cut for text in canvas.texts)
    assert " ".join(text.text for text in canvas.texts) == "Check the camera cable, then press NEXT to try again."
