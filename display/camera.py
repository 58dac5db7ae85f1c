"""The latest camera frame with what the vision read found on it.

Objects are outlined and tagged with a number; the list beside the frame says what
each number was read as. Numbered tags stay small, so they never cover the dice they
label, and the full words (and any reason a thing was unreadable) get the room of
the side list. Unreadable objects are dashed and their tag says "?": colour is not
the only cue."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pygame

from display import theme
from display.canvas import Canvas
from table.view import CameraView, Overlay


def fit_frame(frame_size: tuple[int, int], rect: pygame.Rect) -> pygame.Rect:
    width, height = frame_size
    scale = min(rect.w / width, rect.h / height)
    shown = pygame.Rect(0, 0, max(1, int(width * scale)), max(1, int(height * scale)))
    shown.center = rect.center
    return shown


def frame_surface(frame: np.ndarray, size: tuple[int, int]) -> pygame.Surface:
    """BGR array -> pygame surface of the given size (OpenCV resizes faster than pygame)."""
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    rgb = cv2.cvtColor(small, cv2.COLOR_BGR2RGB)
    return pygame.image.frombuffer(rgb.tobytes(), size, "RGB")


def draw_camera(canvas: Canvas, camera: CameraView | None, frame: np.ndarray | None, rect: pygame.Rect, t: float) -> None:
    """Outlines are placed in the read's frame size; a view whose size cannot be scaled
    (zero, from a damaged recording) still shows the picture, without outlines."""
    placeable = camera is not None and all(side > 0 for side in camera.frame_size)
    frame_size = camera.frame_size if camera is not None and placeable else (frame.shape[1], frame.shape[0]) if frame is not None else (4, 3)
    shown = fit_frame(frame_size, rect)
    if frame is None:
        pygame.draw.rect(canvas.surface, theme.INK, shown)
        canvas.text("no camera image yet", shown.inflate(-shown.w // 5, -shown.h // 2), theme.BODY, theme.MUTED, align="center", wrap=True)
    else:
        canvas.surface.blit(frame_surface(frame, shown.size), shown)
    pygame.draw.rect(canvas.surface, theme.GOLD, shown.inflate(4, 4), width=2)
    if camera is None:
        return
    scale = shown.w / frame_size[0]
    placed: list[pygame.Rect] = []
    for number, overlay in enumerate(camera.overlays, start=1):
        # A box with NaN or infinity has no place; the side list still names it by number.
        if placeable and all(math.isfinite(side) for side in overlay.box):
            _outline(canvas, overlay, number, shown, scale, placed)
    if camera.rolling:
        _rolling_banner(canvas, shown, t)


def _outline(canvas: Canvas, overlay: Overlay, number: int, shown: pygame.Rect, scale: float, placed: list[pygame.Rect]) -> None:
    x0, y0, x1, y1 = overlay.box
    box = pygame.Rect(shown.left + round(x0 * scale), shown.top + round(y0 * scale), max(2, round((x1 - x0) * scale)), max(2, round((y1 - y0) * scale)))
    box = box.clip(shown)
    colour = theme.READ_BAD if overlay.unreadable else theme.READ_OK
    thickness = max(2, canvas.px(0.006))
    if overlay.unreadable:
        _dashed_rect(canvas.surface, colour, box, thickness, max(4, canvas.px(0.02)))
    else:
        pygame.draw.rect(canvas.surface, colour, box, width=thickness)
    tag = _place_tag(canvas, box, shown, placed)
    pygame.draw.rect(canvas.surface, colour, tag, border_radius=tag.h // 4)
    canvas.text(tag_text(overlay, number), tag.inflate(-tag.h // 5, -tag.h // 8), 1.0, theme.INK, align="center", min_size=0.0)


def tag_text(overlay: Overlay, number: int) -> str:
    return f"{number}?" if overlay.unreadable else str(number)


def list_text(overlay: Overlay, number: int) -> str:
    if overlay.unreadable:
        return f"{tag_text(overlay, number)} {overlay.label}: {overlay.reason}" if overlay.reason else f"{tag_text(overlay, number)} {overlay.label}"
    return f"{number}  {overlay.label}"


def _place_tag(canvas: Canvas, box: pygame.Rect, shown: pygame.Rect, placed: list[pygame.Rect]) -> pygame.Rect:
    """Above the box, else below, else inside its corner: the first spot clear of other tags."""
    height = canvas.px(0.05)
    tag = pygame.Rect(0, 0, height * 3 // 2, height)
    candidates = (
        {"bottomleft": box.topleft},
        {"topleft": box.bottomleft},
        {"topleft": box.topleft},
        {"bottomright": box.topright},
        {"topright": box.bottomright},
    )
    for where in candidates:
        spot = tag.copy()
        setattr(spot, *next(iter(where.items())))
        spot.clamp_ip(shown)
        if spot.collidelist(placed) == -1:
            placed.append(spot)
            return spot
    spot = tag.copy()
    spot.topleft = box.topleft
    spot.clamp_ip(shown)
    while spot.collidelist(placed) != -1 and spot.bottom < shown.bottom:
        spot.y += height
    placed.append(spot)
    return spot


def _dashed_rect(surface: pygame.Surface, colour, rect: pygame.Rect, width: int, dash: int) -> None:
    corners = (rect.topleft, rect.topright, rect.bottomright, rect.bottomleft, rect.topleft)
    for (ax, ay), (bx, by) in zip(corners, corners[1:]):
        length = max(abs(bx - ax), abs(by - ay))
        for start in range(0, length, dash * 2):
            end = min(length, start + dash)
            f0, f1 = start / length, end / length
            pygame.draw.line(surface, colour, (ax + (bx - ax) * f0, ay + (by - ay) * f0), (ax + (bx - ax) * f1, ay + (by - ay) * f1), width)


def _rolling_banner(canvas: Canvas, shown: pygame.Rect, t: float) -> None:
    """"ROLLING..." across the frame, with three dots that pulse in turn (a function of t)."""
    band = pygame.Rect(shown.left, shown.centery - shown.h // 8, shown.w, shown.h // 4)
    shade = pygame.Surface(band.size, pygame.SRCALPHA)
    shade.fill((0, 0, 0, 170))
    canvas.surface.blit(shade, band)
    words = band.inflate(-band.w // 5, -band.h // 4)
    words.w = words.w * 3 // 4
    drawn = canvas.text("ROLLING... wait", words, theme.HEADING, theme.GOLD, align="center")
    radius = max(3, band.h // 10)
    for index in range(3):
        glow = 0.5 + 0.5 * math.sin(2 * math.pi * (t * 1.5 - index / 3))
        centre = (drawn.right + radius * (3 + 3 * index), band.centery)
        if centre[0] + radius < band.right:
            pygame.draw.circle(canvas.surface, theme.GOLD, centre, max(2, round(radius * (0.5 + 0.5 * glow))))
