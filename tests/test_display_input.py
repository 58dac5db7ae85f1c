"""Taps, clicks and keys all become the same two button names, and the live Display
hands them out without ever blocking."""

from __future__ import annotations

import pygame
import pytest

from display import NEXT, QUIT, SHAKE, Display, button_for_event, button_rects
from display.examples import all_views, example_frame

SIZES = ((800, 480), (1920, 1080))


@pytest.mark.parametrize("size", SIZES)
def test_buttons_sit_side_by_side_along_the_bottom_inside_the_screen(size):
    rects = button_rects(size)
    screen = pygame.Rect((0, 0), size)
    assert screen.contains(rects[SHAKE]) and screen.contains(rects[NEXT])
    assert not rects[SHAKE].colliderect(rects[NEXT])
    assert rects[SHAKE].right < rects[NEXT].left
    assert rects[SHAKE].bottom > size[1] * 0.9
    assert rects[SHAKE].h >= size[1] * 0.1  # a thumb-sized target on the 7-inch screen


def key(code):
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="")


def test_keys_map_to_buttons():
    size = (800, 480)
    assert button_for_event(key(pygame.K_SPACE), size) == SHAKE
    assert button_for_event(key(pygame.K_RETURN), size) == NEXT
    assert button_for_event(key(pygame.K_KP_ENTER), size) == NEXT
    assert button_for_event(key(pygame.K_ESCAPE), size) == QUIT
    assert button_for_event(key(pygame.K_a), size) is None
    assert button_for_event(pygame.event.Event(pygame.QUIT), size) == QUIT


@pytest.mark.parametrize("size", SIZES)
def test_clicks_and_taps_press_the_button_under_them(size):
    for name, rect in button_rects(size).items():
        click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1, touch=False)
        assert button_for_event(click, size) == name
        tap = pygame.event.Event(pygame.FINGERDOWN, x=rect.centerx / size[0], y=rect.centery / size[1], touch_id=0, finger_id=0, pressure=1.0, dx=0, dy=0)
        assert button_for_event(tap, size) == name
    middle = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(size[0] // 2, size[1] // 3), button=1, touch=False)
    assert button_for_event(middle, size) is None


def test_a_tap_is_counted_once_not_also_as_its_emulated_mouse_click():
    rect = button_rects((800, 480))[SHAKE]
    emulated = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1, touch=True)
    assert button_for_event(emulated, (800, 480)) is None


def test_display_shows_frames_and_polls_presses_in_order():
    display = Display((800, 480))
    try:
        view = all_views()["dicey21/reading"]
        display.show(view, example_frame(view))
        assert display.surface.get_at((5, 5)) != pygame.Color(0, 0, 0)  # something was drawn
        pygame.event.post(key(pygame.K_SPACE))
        pygame.event.post(key(pygame.K_RETURN))
        display.show(all_views()["dicey21/play"])  # drawing also gathers presses
        assert display.poll() == [SHAKE, NEXT]
        assert display.poll() == []
    finally:
        display.close()
