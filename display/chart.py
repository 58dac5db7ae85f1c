"""Each seat's bankroll over the session as a line chart. Series differ by colour
AND marker shape, and the legend spells out names and figures."""

from __future__ import annotations

import pygame

from display import theme
from display.canvas import Canvas
from table.view import Stats


def marker(surface: pygame.Surface, shape: str, centre: tuple[int, int], size: int, colour) -> None:
    x, y = centre
    if shape == "square":
        pygame.draw.rect(surface, colour, (x - size, y - size, 2 * size, 2 * size))
    elif shape == "triangle":
        pygame.draw.polygon(surface, colour, [(x, y - size - 1), (x + size + 1, y + size), (x - size - 1, y + size)])
    elif shape == "diamond":
        pygame.draw.polygon(surface, colour, [(x, y - size - 1), (x + size + 1, y), (x, y + size + 1), (x - size - 1, y)])
    elif shape == "cross":
        pygame.draw.line(surface, colour, (x - size, y - size), (x + size, y + size), max(2, size // 2))
        pygame.draw.line(surface, colour, (x - size, y + size), (x + size, y - size), max(2, size // 2))
    else:
        pygame.draw.circle(surface, colour, centre, size)


def series_style(index: int) -> tuple[tuple[int, int, int], str]:
    return theme.SERIES_COLOURS[index % len(theme.SERIES_COLOURS)], theme.SERIES_MARKERS[index % len(theme.SERIES_MARKERS)]


def draw_chart(canvas: Canvas, stats: Stats, rect: pygame.Rect) -> None:
    values = [value for history in stats.histories for value in history.bankrolls]
    low, high = (min(values), max(values)) if values else (0, 1)
    if high == low:
        low, high = low - 10, high + 10
    label_w = rect.w // 7
    label_h = canvas.px(theme.SMALL)
    plot = pygame.Rect(rect.left + label_w, rect.top + label_h // 2, rect.w - label_w, rect.h - label_h * 2)
    pygame.draw.rect(canvas.surface, theme.FELT_EDGE, plot)
    rounds = max(1, max((len(h.bankrolls) for h in stats.histories), default=1) - 1)

    def at(index: int, value: int) -> tuple[int, int]:
        return (plot.left + round(plot.w * index / rounds), plot.bottom - round(plot.h * (value - low) / (high - low)))

    for fraction in (0.0, 0.5, 1.0):
        value = round(low + (high - low) * fraction)
        y = at(0, value)[1]
        pygame.draw.line(canvas.surface, theme.MUTED, (plot.left, y), (plot.right, y), 1)
        label = pygame.Rect(rect.left, y - label_h // 2, label_w - label_w // 8, label_h)
        canvas.text(str(value), label, theme.SMALL, theme.MUTED, align="right")
    below = pygame.Rect(plot.left, plot.bottom + label_h // 4, plot.w, label_h)
    canvas.text("round 0", below.inflate(-plot.w // 2, 0).move(-plot.w // 4, 0), theme.SMALL, theme.MUTED, align="left")
    canvas.text(f"round {rounds}", below.inflate(-plot.w // 2, 0).move(plot.w // 4, 0), theme.SMALL, theme.MUTED, align="right")
    width = max(2, canvas.px(0.008))
    size = max(3, canvas.px(0.012))
    for index, history in enumerate(stats.histories):
        colour, shape = series_style(index)
        points = [at(i, value) for i, value in enumerate(history.bankrolls)]
        if len(points) > 1:
            pygame.draw.lines(canvas.surface, colour, False, points, width)
        step = max(1, len(points) // 12)  # markers on every point until they would crowd
        for point in points[::step] + points[-1:]:
            marker(canvas.surface, shape, point, size, colour)
