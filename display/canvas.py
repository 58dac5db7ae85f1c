"""A drawing surface that fits every string into its box and remembers where it put it.

Text is the only thing that can overflow a layout when a seat name is long or the
screen is small, so all text goes through `Canvas.text`: it shrinks the font, wraps
words if allowed, and as a last resort cuts the line with "...". The rects it drew
are recorded so tests can prove that no text is clipped or overlaps other text at
any screen size. Fonts and rendered strings are cached because re-rendering text
is the main cost of a frame.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import pygame

from display import theme

ELLIPSIS = "..."
# pygame draws neither a NUL nor half a surrogate pair, and a damaged recording's JSON
# can hold either in a seat's name: they are drawn as U+FFFD instead of stopping the screen.
UNDRAWABLE = re.compile("[\x00\ud800-\udfff]")


@dataclass(frozen=True)
class TextBox:
    text: str
    rect: tuple[int, int, int, int]  # x, y, w, h actually covered by the rendered line
    box: tuple[int, int, int, int]  # the box the text had to fit in
    cut: bool = False  # the string did not fit even at the smallest size and was shortened


@lru_cache(maxsize=256)
def font(size: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, size)  # pygame's bundled font: works on any machine


@lru_cache(maxsize=4096)
def rendered(text: str, size: int, colour: tuple[int, ...]) -> pygame.Surface:
    return font(size).render(text, True, colour)


def line_height(face: pygame.font.Font) -> int:
    """Height of a rendered line (taller than Font.get_height() for the bundled font)."""
    return face.size("Ag")[1]


def _wrap(text: str, face: pygame.font.Font, width: int) -> list[str]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if line and face.size(candidate)[0] > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


def _cut(text: str, face: pygame.font.Font, width: int) -> str:
    if face.size(text)[0] <= width:
        return text
    while text and face.size(text + ELLIPSIS)[0] > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS if text else ""


@lru_cache(maxsize=4096)
def fit(text: str, width: int, height: int, size: int, min_size: int, wrap: bool) -> tuple[int, tuple[str, ...], bool]:
    """The largest font size <= size (and >= min_size) at which text fits the box,
    the lines to draw, and whether they had to be cut with '...' at min_size."""
    text = UNDRAWABLE.sub("\ufffd", text)
    trial = max(min_size, min(size, int(height / 0.7) + 2))  # taller fonts cannot fit the box
    while True:
        face = font(trial)
        height_per_line = line_height(face)
        lines = _wrap(text, face, width) if wrap else text.split("\n")
        if len(lines) * height_per_line <= height and all(face.size(line)[0] <= width for line in lines):
            return trial, tuple(lines), False
        if trial <= min_size:
            break
        trial = max(min_size, min(trial - 1, int(trial * 0.93)))
    trial = min_size
    while trial > 6 and line_height(font(trial)) > height:
        trial -= 1  # a box too short even for the minimum size: never spill out of it
    face = font(trial)
    if line_height(face) > height:
        return trial, (), True  # not even the tiniest font fits: draw nothing rather than spill
    room = height // line_height(face)
    lines = _wrap(text, face, width) if wrap else text.split("\n")
    kept = lines[:room]
    if len(lines) > room:
        kept[-1] = kept[-1] + ELLIPSIS
    shown = tuple(line for line in (_cut(line, face, width) for line in kept) if line)
    return trial, shown, shown != tuple(lines)


def natural_width(text: str, size: int) -> int:
    return font(size).size(UNDRAWABLE.sub("\ufffd", text))[0] if text else 0


class Canvas:
    """A pygame surface plus the text boxes drawn on it so far."""

    def __init__(self, surface: pygame.Surface) -> None:
        self.surface = surface
        self.width, self.height = surface.get_size()
        self.texts: list[TextBox] = []

    def px(self, fraction: float) -> int:
        return theme.px(self.height, fraction)

    def split(self, row: pygame.Rect, left: str, right: str, size: float) -> tuple[pygame.Rect, pygame.Rect]:
        """Share a row between a left and a right string in proportion to their
        natural widths, so neither is cut while the other has room to spare."""
        gap = max(2, row.w // 30)
        wide_left, wide_right = natural_width(left, self.px(size)), natural_width(right, self.px(size))
        share = wide_left / (wide_left + wide_right) if wide_left + wide_right else 0.5
        left_w = round((row.w - gap) * share)
        return pygame.Rect(row.left, row.top, left_w, row.h), pygame.Rect(row.left + left_w + gap, row.top, row.w - left_w - gap, row.h)

    def fits(self, text: str, box: pygame.Rect, size: float, wrap: bool = False, min_size: float = theme.MIN_TEXT) -> bool:
        """Whether text would be drawn whole (not cut) in box."""
        wanted = self.px(size)
        return not fit(text, box.w, box.h, wanted, min(wanted, self.px(min_size)), wrap)[2]

    def text(
        self,
        text: str,
        box: pygame.Rect,
        size: float,
        colour: tuple[int, ...] = theme.WHITE,
        *,
        align: str = "left",
        valign: str = "center",
        wrap: bool = False,
        min_size: float = theme.MIN_TEXT,
    ) -> pygame.Rect:
        """Draw text inside box; returns the rect covered (empty at box.topleft if nothing)."""
        box = pygame.Rect(box)
        if not text or box.w <= 0 or box.h <= 0:
            return pygame.Rect(box.topleft, (0, 0))
        wanted = self.px(size)
        floor = min(wanted, self.px(min_size))
        chosen, lines, cut = fit(text, box.w, box.h, wanted, floor, wrap)
        step = line_height(font(chosen))
        block = len(lines) * step
        top = {"top": box.top, "bottom": box.bottom - block}.get(valign, box.top + (box.h - block) // 2)
        covered = pygame.Rect(box.centerx, top, 0, 0)
        for index, line in enumerate(lines):
            image = rendered(line, chosen, tuple(colour))
            rect = image.get_rect(top=top + index * step)
            if align == "center":
                rect.centerx = box.centerx
            elif align == "right":
                rect.right = box.right
            else:
                rect.left = box.left
            # A line's own glyphs can reach a pixel past line_height's measure (a '(' above
            # a 'g'), which a box only just tall enough for the line must not show.
            shown = rect.clip(box)
            self.surface.blit(image, shown, pygame.Rect(shown.x - rect.x, shown.y - rect.y, shown.w, shown.h))
            self.texts.append(TextBox(line, (shown.x, shown.y, shown.w, shown.h), (box.x, box.y, box.w, box.h), cut))
            covered = covered.union(shown) if covered.w else shown.copy()
        return covered
