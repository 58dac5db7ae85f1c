"""The screen on which the owner confirms or corrects what the camera read: teaching
the table their dice (`tabletop21 teach dice` at the table) and correcting a round
from its results screen.

It is given plain data (`CheckScreen`: the boxes in the frame's pixels, the value to
show on each, which one is selected, the words for the buttons) and the frame as an
array; it knows nothing of what a roll check is. Each die's value stands over its box,
a die not read is dashed with "?", one said to be no die is crossed out, and the
selected die has a thick gold frame and an arrow: shape as well as colour. Touch
targets (each die, and the words in the side panel) are returned by `draw_check`, so
a tap is turned into what it touched (`target_at`); on a screen that takes added dice
(`CheckScreen.addable`) a tap on the picture off every die is said as the point it
touched in the frame's pixels, through the very transform the picture is drawn with
(`PictureFit`).

While a piece is selected the screen also shows a value picker (`CheckScreen.picker`):
rows of targets across the foot of the body, as many as the screen names (a die's
values; a card's 13 ranks over its 4 suits; a tile's halves), each said as its word
when touched. A target's mark is drawn in shape as well as colour: the piece's value
now (or the part touched first) filled gold, a value still to show with a gold dot in
its corner, one only other pieces have struck through. The picture and the side panel
take what is left above it, the side panel's targets then side by side."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pygame

from display import theme
from display.buttons import draw_buttons
from display.camera import _dashed_rect, fit_frame, frame_surface
from display.canvas import Canvas, TextBox
from display.items import RED_SUITS, draw_suit
from display.panels import background, panel, regions, split_rows
from table.view import Prompt

Box = tuple[float, float, float, float]
PICTURE_TAP = "frame"  # a tap on the picture off every die: "frame:X,Y", X and Y in the frame's pixels
PICK_ROW = 0.085  # of the screen height: one row of the value picker (41 px at 800x480: a fingertip)
PICK_GAP = 0.012  # of the screen height: between the picker's targets and rows
# Percent of the body's width the picture takes beside the side panel while the picker
# is shown (62 without): the side panel's words then have fewer lines and need more width.
PICK_PICTURE = 58
PICK_MARKS = ("", "on", "new", "used")  # plain; the value now; still to show; only other pieces have it


@dataclass(frozen=True)
class PickTarget:
    """One target of the value picker: `word` is what a touch on it is said as
    (`target_at`), `label` what it says, `mark` one of PICK_MARKS; `suit` (a card's
    C, D, H or S) is drawn as its shape beside the label."""

    word: str
    label: str
    mark: str = ""
    suit: str | None = None


@dataclass(frozen=True)
class CheckScreen:
    title: str  # "TEACH YOUR DICE - ROLL 3 OF 15"
    message: str  # what to do now, or what could not be done
    boxes: tuple[Box, ...] = ()  # in the frame's own pixels
    labels: tuple[str, ...] = ()  # shown over each box: "4", "?", "no die"
    unread: tuple[bool, ...] = ()  # the camera could not read it (dashed)
    absent: tuple[bool, ...] = ()  # said to be no die (crossed out)
    changed: tuple[bool, ...] = ()  # given another value than the camera read (marked *)
    selected: int | None = None
    frame_size: tuple[int, int] | None = None  # (width, height) the boxes are in; None: the frame's own
    shake: str = ""  # what SHAKE does now ("" dims it)
    next: str = ""  # what NEXT does now
    targets: tuple[tuple[str, str], ...] = ()  # touch targets in the side panel: (word, label)
    side: str = ""  # the side panel's longer words (how the buttons work)
    addable: bool = False  # a tap on the picture off every die adds one there (said as PICTURE_TAP)
    picker: tuple[tuple[PickTarget, ...], ...] = ()  # rows of the value picker under the picture; () none


@dataclass(frozen=True)
class PictureFit:
    """Where the picture stands: `region` (x, y, w, h) is the part of the frame shown, in
    the boxes' frame pixels; `shown` (x, y, w, h) is where it is drawn, in screen pixels.
    One scale for both axes (the picture keeps its aspect), shown.w / region.w."""

    region: tuple[int, int, int, int]
    shown: tuple[int, int, int, int]

    @property
    def scale(self) -> float:
        return self.shown[2] / self.region[2] if self.region[2] > 0 else 0.0

    def to_screen(self, point: tuple[float, float]) -> tuple[float, float]:
        """A point of the frame (the boxes' pixels) where it is drawn on the screen."""
        scale = self.scale
        return (self.shown[0] + (point[0] - self.region[0]) * scale,
                self.shown[1] + (point[1] - self.region[1]) * scale)

    def to_frame(self, point: tuple[float, float]) -> tuple[float, float] | None:
        """A point of the screen as a point of the frame; None off the picture drawn."""
        x, y, w, h = self.shown
        scale = self.scale
        if scale <= 0 or not (x <= point[0] < x + w and y <= point[1] < y + h):
            return None
        return self.region[0] + (point[0] - x) / scale, self.region[1] + (point[1] - y) / scale


def check_rects(size: tuple[int, int], picker_rows: int = 0) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
    """Where a check screen of `size` puts the picture (the left of its body), the side
    panel (right of it) and the value picker of `picker_rows` rows (across the foot of
    the body; empty at its bottom when there are none)."""
    body = regions(size)["body"]
    height = size[1]
    row, gap = theme.px(height, PICK_ROW), theme.px(height, PICK_GAP)
    strip_h = picker_rows * row + max(0, picker_rows - 1) * gap
    strip = pygame.Rect(body.left, body.bottom - strip_h, body.w, strip_h)
    upper_h = body.h - strip_h - (theme.px(height, 0.02) if picker_rows else 0)
    picture = pygame.Rect(body.left, body.top, body.w * (PICK_PICTURE if picker_rows else 62) // 100, upper_h)
    gap_x = theme.px(height, 0.02)
    side = pygame.Rect(picture.right + gap_x, body.top, body.right - picture.right - gap_x, upper_h)
    return picture, side, strip


def picture_rect(size: tuple[int, int], picker_rows: int = 0) -> pygame.Rect:
    """The part of a screen of `size` the picture is fitted into: the left of its body,
    above the value picker's `picker_rows` rows."""
    return check_rects(size, picker_rows)[0]


def fit_picture(rect: pygame.Rect, frame_size: tuple[int, int], boxes: tuple[Box, ...] = ()) -> PictureFit:
    """Where `draw_check` draws the frame in `rect`: the part round the dice
    (`view_region`; the whole frame without boxes), as large as fits, centred."""
    region = view_region(boxes, frame_size, rect.w / rect.h)
    shown = fit_frame(region[2:], rect)
    return PictureFit(region, (shown.x, shown.y, shown.w, shown.h))


@dataclass(frozen=True)
class CheckLayout:
    """Where `draw_check` put what a tap can touch, in screen pixels, and the picture's
    fit where a tap on it adds a die (None: it adds none)."""

    dice: tuple[tuple[int, int, int, int], ...]
    targets: tuple[tuple[str, tuple[int, int, int, int]], ...]
    picture: PictureFit | None = None


def target_at(layout: CheckLayout, point: tuple[float, float]) -> str | None:
    """What a tap at `point` touched: "die:N" (N from 0), a side-panel target's word,
    "frame:X,Y" (PICTURE_TAP: the picture off every die, X and Y in the frame's pixels,
    where the layout has a picture that takes added dice), or None. Of dice whose boxes
    hold the point, the one whose centre is nearest."""
    for word, rect in layout.targets:
        if pygame.Rect(rect).collidepoint(point):
            return word
    hits = [(math.hypot(point[0] - (x + w / 2), point[1] - (y + h / 2)), n)
            for n, (x, y, w, h) in enumerate(layout.dice) if pygame.Rect(x, y, w, h).inflate(8, 8).collidepoint(point)]
    if hits:
        return f"die:{min(hits)[1]}"
    where = layout.picture.to_frame(point) if layout.picture is not None else None
    return None if where is None else f"{PICTURE_TAP}:{where[0]:.1f},{where[1]:.1f}"


def draw_check(surface: pygame.Surface, screen: CheckScreen, frame: np.ndarray | None) -> tuple[CheckLayout, list[TextBox]]:
    """The whole check screen onto `surface`; returns the touch layout and the text boxes drawn."""
    if not pygame.font.get_init():
        pygame.font.init()
    canvas = Canvas(surface)
    areas = regions(surface.get_size())
    canvas.surface.blit(background((canvas.width, canvas.height)), (0, 0))
    header = areas["header"]
    pygame.draw.rect(canvas.surface, theme.FELT_EDGE, header)
    rule = max(2, canvas.px(0.006))
    pygame.draw.rect(canvas.surface, theme.GOLD, (0, header.bottom - rule, header.w, rule))
    canvas.text(screen.title, header.inflate(-2 * canvas.px(0.03), -canvas.px(0.02)), theme.HEADING, theme.GOLD)
    picture, side, strip = check_rects(surface.get_size(), len(screen.picker))
    dice, fit = _picture(canvas, screen, frame, picture)
    targets = _side(canvas, screen, side, across=bool(screen.picker)) + _picker(canvas, screen.picker, strip)
    canvas.text(screen.message, areas["message"], theme.BODY, theme.WHITE, align="center")
    draw_buttons(canvas, Prompt(shake=screen.shake, next=screen.next))
    return CheckLayout(dice, targets, fit if screen.addable and frame is not None else None), canvas.texts


def view_region(boxes: tuple[Box, ...], frame_size: tuple[int, int], aspect: float) -> tuple[int, int, int, int]:
    """The part of the frame shown, (x, y, w, h): the dice with a margin of two dice
    round them, widened to the picture's aspect, at least a third of the frame a side
    and never outside it; the whole frame when no die has a place."""
    width, height = frame_size
    places = [box for box in boxes if all(math.isfinite(side) for side in box) and box[2] > box[0] and box[3] > box[1]]
    if not places or width <= 0 or height <= 0:
        return 0, 0, width, height
    side = max(max(box[2] - box[0], box[3] - box[1]) for box in places)
    x0 = min(box[0] for box in places) - 2 * side
    y0 = min(box[1] for box in places) - 2 * side
    x1 = max(box[2] for box in places) + 2 * side
    y1 = max(box[3] for box in places) + 2 * side
    w, h = max(x1 - x0, width / 3), max(y1 - y0, height / 3)
    if w / h < aspect:
        w = h * aspect
    else:
        h = w / aspect
    w, h = min(w, width), min(h, height)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    left = min(max(0.0, cx - w / 2), width - w)
    top = min(max(0.0, cy - h / 2), height - h)
    return round(left), round(top), max(1, round(w)), max(1, round(h))


def _picture(canvas: Canvas, screen: CheckScreen, frame: np.ndarray | None,
             rect: pygame.Rect) -> tuple[tuple[tuple[int, int, int, int], ...], PictureFit]:
    size = screen.frame_size or ((frame.shape[1], frame.shape[0]) if frame is not None else (4, 3))
    fit = fit_picture(rect, size, screen.boxes if frame is not None else ())
    region, shown = fit.region, pygame.Rect(fit.shown)
    if frame is None:
        pygame.draw.rect(canvas.surface, theme.INK, shown)
        canvas.text("no camera picture yet", shown.inflate(-shown.w // 5, -shown.h // 2), theme.BODY, theme.MUTED,
                    align="center", wrap=True)
    else:
        fx, fy = frame.shape[1] / size[0], frame.shape[0] / size[1]  # the boxes' pixels to the array's
        x, y, w, h = region
        part = frame[round(y * fy):round((y + h) * fy), round(x * fx):round((x + w) * fx)]
        canvas.surface.blit(frame_surface(part if part.size else frame, shown.size), shown)
    pygame.draw.rect(canvas.surface, theme.GOLD, shown.inflate(4, 4), width=2)
    scale = fit.scale
    outlines: list[pygame.Rect | None] = []
    for box in screen.boxes:
        if not all(math.isfinite(side) for side in box) or scale <= 0:
            outlines.append(None)
            continue
        x0, y0, x1, y1 = box
        outline = pygame.Rect(shown.left + round((x0 - region[0]) * scale), shown.top + round((y0 - region[1]) * scale),
                              max(2, round((x1 - x0) * scale)), max(2, round((y1 - y0) * scale))).clip(shown)
        outlines.append(outline if outline.w and outline.h else None)
    order = [n for n in range(len(outlines)) if n != screen.selected] + \
        ([screen.selected] if screen.selected is not None and screen.selected < len(outlines) else [])
    drawn = [(number, place) for number in order if (place := outlines[number]) is not None]
    for number, place in drawn:  # the selected die last, so its frame and tag are on top
        _outline(canvas, screen, number, place)
    tags: list[pygame.Rect] = []
    others = [place for _, place in drawn]
    for number, place in drawn:
        _tag(canvas, screen, number, place, shown, tags, others)
    return tuple((o.x, o.y, o.w, o.h) if o is not None else (0, 0, 0, 0) for o in outlines), fit


def _flag(values: tuple[bool, ...], number: int) -> bool:
    return number < len(values) and values[number]


def _colour(screen: CheckScreen, number: int) -> tuple[int, int, int]:
    return theme.MUTED if _flag(screen.absent, number) else theme.READ_BAD if _flag(screen.unread, number) \
        else theme.READ_OK


def _outline(canvas: Canvas, screen: CheckScreen, number: int, outline: pygame.Rect) -> None:
    colour = _colour(screen, number)
    thickness = max(2, canvas.px(0.006))
    if screen.selected == number:
        pygame.draw.rect(canvas.surface, theme.GOLD, outline.inflate(3 * thickness, 3 * thickness),
                         width=thickness + 1)
        tip = (outline.left - 2 * thickness, outline.centery)  # an arrow at the selected die: not colour alone
        size = max(6, canvas.px(0.03))
        pygame.draw.polygon(canvas.surface, theme.GOLD,
                            [tip, (tip[0] - size, tip[1] - size // 2), (tip[0] - size, tip[1] + size // 2)])
    if _flag(screen.unread, number):
        _dashed_rect(canvas.surface, colour, outline, thickness, max(4, canvas.px(0.015)))
    else:
        pygame.draw.rect(canvas.surface, colour, outline, width=thickness)
    if _flag(screen.absent, number):
        pygame.draw.line(canvas.surface, colour, outline.topleft, outline.bottomright, thickness)
        pygame.draw.line(canvas.surface, colour, outline.topright, outline.bottomleft, thickness)


def _tag(canvas: Canvas, screen: CheckScreen, number: int, outline: pygame.Rect, shown: pygame.Rect,
         tags: list[pygame.Rect], dice: list[pygame.Rect]) -> None:
    """The die's value over it: above, else below, right or left, at the first spot
    clear of the tags drawn and of other dice (else of the tags alone, else above)."""
    label = screen.labels[number] if number < len(screen.labels) else "?"
    text = f"{label}*" if _flag(screen.changed, number) else label
    height = canvas.px(0.05)
    tag = pygame.Rect(0, 0, max(height * 5 // 4, height * (len(text) + 1) * 9 // 20), height)
    spots = []
    for where in ("midbottom", "midtop", "midleft", "midright"):
        spot = tag.copy()
        setattr(spot, where, {"midbottom": outline.midtop, "midtop": outline.midbottom,
                              "midleft": outline.midright, "midright": outline.midleft}[where])
        spot.clamp_ip(shown)
        spots.append(spot)
    others = [die for die in dice if die != outline]
    spot = next((s for s in spots if s.collidelist(tags) == -1 and s.collidelist(others) == -1),
                next((s for s in spots if s.collidelist(tags) == -1), spots[0]))
    tags.append(spot)
    selected = screen.selected == number
    pygame.draw.rect(canvas.surface, theme.GOLD if selected else _colour(screen, number), spot,
                     border_radius=spot.h // 4)
    if selected:
        pygame.draw.rect(canvas.surface, theme.INK, spot, width=2, border_radius=spot.h // 4)
    canvas.text(text, spot.inflate(-spot.h // 5, -spot.h // 8), 1.0, theme.INK, align="center", min_size=0.0)


def _side(canvas: Canvas, screen: CheckScreen, side: pygame.Rect,
          across: bool = False) -> tuple[tuple[str, tuple[int, int, int, int]], ...]:
    """The side panel: its words over its targets, one under the other, or side by side
    in one row (`across`, while the value picker takes the foot of the screen)."""
    inner = panel(canvas, side)
    count = len(screen.targets)
    rows = 1 if across else count
    words, buttons = split_rows(inner, (1.0, 0.42 * rows)) if count else (inner, pygame.Rect(inner.bottomleft, (0, 0)))
    canvas.text(screen.side, words, theme.SMALL, theme.WHITE, wrap=True, valign="top")
    placed = []
    if count:
        gap = canvas.px(0.015)
        height = (buttons.h - gap * (rows - 1)) // rows
        width = (buttons.w - gap * (count - 1)) // count if across else buttons.w
        for index, (word, label) in enumerate(screen.targets):
            rect = (pygame.Rect(buttons.left + index * (width + gap), buttons.top, width, height) if across else
                    pygame.Rect(buttons.left, buttons.top + index * (height + gap), width, height))
            pygame.draw.rect(canvas.surface, theme.BUTTON, rect, border_radius=rect.h // 4)
            pygame.draw.rect(canvas.surface, theme.BUTTON_EDGE, rect, width=max(2, rect.h // 16),
                             border_radius=rect.h // 4)
            canvas.text(label, rect.inflate(-rect.h // 3, -rect.h // 4), theme.BODY, theme.GOLD, align="center")
            placed.append((word, (rect.x, rect.y, rect.w, rect.h)))
    return tuple(placed)


def _picker(canvas: Canvas, rows: tuple[tuple[PickTarget, ...], ...],
            strip: pygame.Rect) -> tuple[tuple[str, tuple[int, int, int, int]], ...]:
    """The value picker's rows in `strip`, each row's targets side by side across it;
    returns where each target was drawn, with its word."""
    if not rows:
        return ()
    gap = canvas.px(PICK_GAP)
    height = (strip.h - gap * (len(rows) - 1)) // len(rows)
    placed = []
    for number, row in enumerate(rows):
        top = strip.top + number * (height + gap)
        width = (strip.w - gap * (len(row) - 1)) / max(1, len(row))
        for index, target in enumerate(row):
            left = strip.left + round(index * (width + gap))
            rect = pygame.Rect(left, top, strip.left + round(index * (width + gap) + width) - left, height)
            _pick_target(canvas, target, rect)
            placed.append((target.word, (rect.x, rect.y, rect.w, rect.h)))
    return tuple(placed)


def _pick_target(canvas: Canvas, target: PickTarget, rect: pygame.Rect) -> None:
    """One picker target, its mark drawn in shape as well as colour: filled (the value
    now), a dot in its corner (still to show), struck through (only other pieces)."""
    radius = rect.h // 4
    edge = max(2, rect.h // 16)
    on, new, used = target.mark == "on", target.mark == "new", target.mark == "used"
    pygame.draw.rect(canvas.surface, theme.GOLD if on else theme.BUTTON_OFF if used else theme.BUTTON, rect,
                     border_radius=radius)
    pygame.draw.rect(canvas.surface, theme.INK if on else theme.GOLD if new else theme.MUTED, rect,
                     width=edge + (1 if new else 0), border_radius=radius)
    colour = theme.INK if on else theme.MUTED if used else theme.GOLD if new else theme.WHITE
    inner = rect.inflate(-max(4, rect.h // 5), -rect.h // 4)
    if target.suit is not None:
        side = min(inner.h, inner.w // 2)
        face = pygame.Rect(0, 0, side, side)
        label_w = min(inner.w - side, canvas.px(theme.BODY))
        face.midleft = (inner.centerx - (side + label_w) // 2, inner.centery)
        pygame.draw.rect(canvas.surface, theme.CREAM, face, border_radius=max(2, side // 6))
        draw_suit(canvas.surface, target.suit, face.inflate(-side // 5, -side // 5),
                  theme.RED if target.suit in RED_SUITS else theme.INK)
        inner = pygame.Rect(face.right, inner.top, max(1, label_w), inner.h)
    canvas.text(target.label, inner, theme.BODY, colour, align="center")
    if new:
        dot = max(3, rect.h // 9)
        pygame.draw.circle(canvas.surface, theme.GOLD, (rect.right - 3 * dot, rect.top + 3 * dot), dot)
    if used:
        pygame.draw.line(canvas.surface, theme.MUTED, (rect.left + radius, rect.bottom - edge - 2),
                         (rect.right - radius, rect.top + edge + 2), edge)


def render_check(screen: CheckScreen, size: tuple[int, int], frame: np.ndarray | None = None) -> pygame.Surface:
    """The check screen drawn off screen (screenshots, tests)."""
    surface = pygame.Surface(size)
    draw_check(surface, screen, frame)
    return surface
