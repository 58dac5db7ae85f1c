"""Turning one TableView into pixels: the entry points the rest of the project uses."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame

from display.buttons import draw_buttons
from display.canvas import Canvas, TextBox
from display.panels import draw_frame, regions
from display.screens import draw_body
from table.view import TableView


def draw_view(surface: pygame.Surface, view: TableView, frame: np.ndarray | None = None, t: float = 0.0) -> list[TextBox]:
    """Draw the whole screen onto surface; returns the text boxes drawn (for layout checks)."""
    if not pygame.font.get_init():
        pygame.font.init()
    canvas = Canvas(surface)
    areas = regions(surface.get_size())
    draw_frame(canvas, view, areas)
    draw_body(canvas, view, areas["body"], frame, t)
    draw_buttons(canvas, view.prompt)
    return canvas.texts


def render_screen(view: TableView, size: tuple[int, int], frame: np.ndarray | None = None, t: float = 0.0) -> pygame.Surface:
    surface = pygame.Surface(size)
    draw_view(surface, view, frame, t)
    return surface


def save_png(view: TableView, size: tuple[int, int], path: str | Path, frame: np.ndarray | None = None, t: float = 0.0) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(render_screen(view, size, frame, t), str(path))
    return path
