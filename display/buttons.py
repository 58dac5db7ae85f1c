"""The two table buttons, on screen and off: where they are drawn, and which pygame
events press them. A tap on the 7-inch touchscreen, a mouse click, the space and
enter keys and the physical buttons all end up as the same names, so the round
driver handles one kind of input."""

from __future__ import annotations

import pygame

from display import theme
from display.canvas import Canvas
from table.driver import NEXT, SHAKE
from table.view import Prompt

QUIT = "quit"  # the display's own: it closes the window and is never fed to the driver
KEYS = {pygame.K_SPACE: SHAKE, pygame.K_RETURN: NEXT, pygame.K_KP_ENTER: NEXT, pygame.K_ESCAPE: QUIT}
FOOTER = 0.17  # of the screen height


def button_rects(size: tuple[int, int]) -> dict[str, pygame.Rect]:
    """SHAKE on the left, NEXT on the right, along the bottom edge, big enough for a thumb."""
    width, height = size
    margin = theme.px(height, 0.02)
    top = height - theme.px(height, FOOTER) + margin
    half = (width - 3 * margin) // 2
    button_height = height - top - margin
    return {
        SHAKE: pygame.Rect(margin, top, half, button_height),
        NEXT: pygame.Rect(2 * margin + half, top, half, button_height),
    }


def button_for_event(event: pygame.event.Event, size: tuple[int, int]) -> str | None:
    """The button an event presses, or None. Taps outside both buttons press nothing."""
    if event.type == pygame.KEYDOWN:
        return KEYS.get(event.key)
    if event.type == pygame.QUIT:
        return QUIT
    if event.type == pygame.MOUSEBUTTONDOWN:
        if getattr(event, "touch", False):
            return None  # SDL also sends FINGERDOWN for this tap; count it once
        point = event.pos
    elif event.type == pygame.FINGERDOWN:
        point = (event.x * size[0], event.y * size[1])  # fingers report 0..1
    else:
        return None
    for name, rect in button_rects(size).items():
        if rect.collidepoint(point):
            return name
    return None


def tap_point(event: pygame.event.Event, size: tuple[int, int]) -> tuple[float, float] | None:
    """Where on the screen a tap or click landed, or None for any other event (and for
    the mouse click SDL makes of a tap, which the tap itself already gave)."""
    if event.type == pygame.MOUSEBUTTONDOWN and not getattr(event, "touch", False):
        return event.pos
    if event.type == pygame.FINGERDOWN:
        return event.x * size[0], event.y * size[1]
    return None


def draw_buttons(canvas: Canvas, prompt: Prompt) -> None:
    """A button with nothing to do now is dimmed AND says so ("-"), not colour alone."""
    rects = button_rects((canvas.width, canvas.height))
    for name, action in ((SHAKE, prompt.shake), (NEXT, prompt.next)):
        rect = rects[name]
        live = bool(action)
        radius = rect.h // 4
        pygame.draw.rect(canvas.surface, theme.BUTTON if live else theme.BUTTON_OFF, rect, border_radius=radius)
        pygame.draw.rect(canvas.surface, theme.BUTTON_EDGE if live else theme.MUTED, rect, width=max(2, rect.h // 16), border_radius=radius)
        inner = rect.inflate(-rect.h // 2, -rect.h // 4)
        key = inner.copy()
        key.w = inner.w * 2 // 5
        canvas.text(name.upper(), key, theme.HEADING, theme.GOLD if live else theme.MUTED, align="left")
        what = inner.copy()
        what.left = key.right + inner.w // 20
        what.w = inner.right - what.left
        canvas.text(action or "-", what, theme.BODY, theme.WHITE if live else theme.MUTED, align="left", wrap=True)
