"""One drawing routine per item kind (die, d10, tile, card, and their backs).

Every game's hand is a row of these, so the five games share all of this code. The
shapes are drawn, not taken from font glyphs: the bundled font has no suit symbols,
and drawn pips and kites stay crisp from 40 px to 400 px."""

from __future__ import annotations

import pygame

from display import theme
from display.canvas import Canvas
from table.view import Hand, Item

# Pip centres on a 3x3 grid, shared by die faces and domino halves.
PIPS = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
}
# Width of each kind's slot as a fraction of the row height.
ASPECT = {"die": 0.82, "d10": 0.82, "tile": 0.5, "card": 0.7}
GAP = 0.12
RED_SUITS = ("H", "D")


def draw_hand(canvas: Canvas, hand: Hand, rect: pygame.Rect, max_height: int | None = None) -> None:
    """Items in a centred row, shrunk together until the row fits the rect's width."""
    if not hand.items:
        return
    height = min(rect.h, max_height or rect.h)
    units = sum(ASPECT[item.kind] for item in hand.items) + GAP * (len(hand.items) - 1)
    height = max(4, min(height, int(rect.w / units)))
    x = rect.centerx - round(units * height) // 2
    top = rect.centery - height // 2
    for item in hand.items:
        width = round(ASPECT[item.kind] * height)
        draw_item(canvas, item, pygame.Rect(x, top, width, height))
        x += width + round(GAP * height)


def draw_item(canvas: Canvas, item: Item, slot: pygame.Rect) -> None:
    if item.kind == "die":
        _die(canvas, item, slot)
    elif item.kind == "d10":
        _d10(canvas, item, slot)
    elif item.kind == "tile":
        _tile(canvas, item, slot)
    else:
        _card(canvas, item, slot)


def _shadowed(surface: pygame.Surface, rect: pygame.Rect, colour, radius: int) -> None:
    offset = max(1, rect.w // 14)
    pygame.draw.rect(surface, theme.FELT_EDGE, rect.move(offset, offset), border_radius=radius)
    pygame.draw.rect(surface, colour, rect, border_radius=radius)


def _pips(surface: pygame.Surface, count: int, square: pygame.Rect, colour) -> None:
    cell = square.w / 4
    radius = max(1, round(square.w * 0.09))
    for col, row in PIPS[count]:
        centre = (round(square.x + cell * (col + 0.5) + cell / 2), round(square.y + cell * (row + 0.5) + cell / 2))
        pygame.draw.circle(surface, colour, centre, radius)


def _die(canvas: Canvas, item: Item, slot: pygame.Rect) -> None:
    side = min(slot.w, slot.h)
    square = pygame.Rect(0, 0, side, side)
    square.center = slot.center
    radius = max(2, side // 6)
    _shadowed(canvas.surface, square, theme.CREAM if item.face_up else theme.BUTTON_OFF, radius)
    pygame.draw.rect(canvas.surface, theme.INK, square, width=max(1, side // 24), border_radius=radius)
    if item.face_up:
        assert item.value is not None  # Item requires a face-up die's value
        _pips(canvas.surface, item.value, square, theme.INK)
    else:
        canvas.text("?", square.inflate(-side // 4, -side // 4), 1.0, theme.WHITE, align="center", min_size=0.0)


def _d10(canvas: Canvas, item: Item, slot: pygame.Rect) -> None:
    """A kite: the shape of a d10 seen from above, numeral on the upper face."""
    left, right, top, bottom = slot.left, slot.right - 1, slot.top, slot.bottom - 1
    waist = top + round(slot.h * 0.62)
    outline = [(slot.centerx, top), (right, waist), (slot.centerx, bottom), (left, waist)]
    shadow = [(x + max(1, slot.w // 14), y + max(1, slot.w // 14)) for x, y in outline]
    pygame.draw.polygon(canvas.surface, theme.FELT_EDGE, shadow)
    pygame.draw.polygon(canvas.surface, theme.D10_FACE if item.face_up else theme.BUTTON_OFF, outline)
    pygame.draw.polygon(canvas.surface, theme.INK, outline, width=max(1, slot.w // 22))
    facet = round(slot.h * 0.86)
    pygame.draw.lines(canvas.surface, theme.INK, False, [(left + slot.w // 8, waist + slot.h // 30), (slot.centerx, top + facet), (right - slot.w // 8, waist + slot.h // 30)], max(1, slot.w // 30))
    label = pygame.Rect(0, 0, round(slot.w * 0.56), round(slot.h * 0.46))
    label.center = (slot.centerx, top + round(slot.h * 0.5))
    numeral = str(item.value) if item.face_up else "?"
    drawn = canvas.text(numeral, label, 1.0, theme.WHITE, align="center", min_size=0.0)
    if item.face_up and item.value in (6, 9):  # underline so 6 and 9 cannot be confused
        pygame.draw.line(canvas.surface, theme.WHITE, (drawn.left, drawn.bottom), (drawn.right, drawn.bottom), max(1, slot.w // 30))


def _tile(canvas: Canvas, item: Item, slot: pygame.Rect) -> None:
    """An upright domino: top half over bottom half, split by a bar."""
    width = min(slot.w, slot.h // 2)
    tile = pygame.Rect(0, 0, width, width * 2)
    tile.center = slot.center
    radius = max(2, width // 8)
    _shadowed(canvas.surface, tile, theme.TILE_FACE if item.face_up else theme.TILE_BACK, radius)
    pygame.draw.rect(canvas.surface, theme.INK, tile, width=max(1, width // 20), border_radius=radius)
    if not item.face_up:
        pygame.draw.circle(canvas.surface, theme.GOLD, tile.center, max(2, width // 7))
        return
    assert item.halves is not None  # Item requires a face-up tile's halves
    pygame.draw.line(canvas.surface, theme.INK, (tile.left + width // 8, tile.centery), (tile.right - width // 8, tile.centery), max(1, width // 16))
    _pips(canvas.surface, item.halves[0], pygame.Rect(tile.left, tile.top, width, width), theme.INK)
    _pips(canvas.surface, item.halves[1], pygame.Rect(tile.left, tile.centery, width, width), theme.INK)


def _card(canvas: Canvas, item: Item, slot: pygame.Rect) -> None:
    card = pygame.Rect(0, 0, min(slot.w, round(slot.h * 0.7)), slot.h)
    card.center = slot.center
    radius = max(2, card.w // 10)
    if not item.face_up:
        _shadowed(canvas.surface, card, theme.CARD_BACK, radius)
        inner = card.inflate(-card.w // 4, -card.w // 4)
        pygame.draw.rect(canvas.surface, theme.CREAM, inner, width=max(1, card.w // 20), border_radius=radius // 2)
        pygame.draw.line(canvas.surface, theme.CREAM, inner.topleft, inner.bottomright, max(1, card.w // 24))
        pygame.draw.line(canvas.surface, theme.CREAM, inner.topright, inner.bottomleft, max(1, card.w // 24))
        return
    assert item.rank is not None  # Item requires a face-up card's rank
    _shadowed(canvas.surface, card, theme.CREAM, radius)
    pygame.draw.rect(canvas.surface, theme.INK, card, width=max(1, card.w // 30), border_radius=radius)
    colour = theme.RED if item.suit in RED_SUITS else theme.INK
    pad = max(1, card.w // 14)
    corner = pygame.Rect(card.left + pad, card.top + pad, card.w - 2 * pad, round(card.h * 0.4))
    if item.suit is None:  # a rank-only card: the rank is all there is to read
        canvas.text(item.rank, card.inflate(-2 * pad, -card.h // 3), 1.0, colour, align="center", min_size=0.0)
        return
    canvas.text(item.rank, corner, 1.0, colour, align="left", min_size=0.0)
    pip = pygame.Rect(0, 0, round(card.w * 0.62), round(card.h * 0.44))
    pip.bottomright = (card.right - pad, card.bottom - pad)
    draw_suit(canvas.surface, item.suit, pip, colour)


def draw_suit(surface: pygame.Surface, suit: str, box: pygame.Rect, colour) -> None:
    """Suit symbols from circles and polygons, sized to the smaller side of box."""
    size = min(box.w, box.h)
    cx, cy = box.center
    r = size / 4
    if suit == "D":
        pygame.draw.polygon(surface, colour, [(cx, cy - size / 2), (cx + size * 0.36, cy), (cx, cy + size / 2), (cx - size * 0.36, cy)])
    elif suit == "H":
        for dx in (-r, r):
            pygame.draw.circle(surface, colour, (round(cx + dx), round(cy - r * 0.6)), round(r * 1.05))
        pygame.draw.polygon(surface, colour, [(cx - 2 * r, cy - r * 0.35), (cx + 2 * r, cy - r * 0.35), (cx, cy + size / 2)])
    elif suit == "S":
        for dx in (-r, r):
            pygame.draw.circle(surface, colour, (round(cx + dx), round(cy + r * 0.3)), round(r * 1.05))
        pygame.draw.polygon(surface, colour, [(cx - 2 * r, cy + r * 0.05), (cx + 2 * r, cy + r * 0.05), (cx, cy - size / 2)])
        pygame.draw.polygon(surface, colour, [(cx, cy + r * 0.5), (cx - r * 0.8, cy + size / 2), (cx + r * 0.8, cy + size / 2)])
    else:  # clubs
        for dx, dy in ((0, -r * 0.95), (-r, r * 0.3), (r, r * 0.3)):
            pygame.draw.circle(surface, colour, (round(cx + dx), round(cy + dy)), round(r * 0.95))
        pygame.draw.polygon(surface, colour, [(cx, cy), (cx - r * 0.8, cy + size / 2), (cx + r * 0.8, cy + size / 2)])
