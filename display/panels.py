"""The pieces every screen is built from: the frame around the body (header and
prompt line), a seat's panel, chip stacks and the grid that places panels."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pygame

from display import theme
from display.buttons import FOOTER
from display.canvas import Canvas, natural_width
from display.items import ASPECT, GAP, draw_hand
from table.view import Hand, Seat, TableView

HEADER = 0.12
MESSAGE = 0.085
SCREEN_TITLES = {
    "attract": "WELCOME",
    "bets": "PLACE YOUR BETS",
    "play": "PLAY",
    "reading": "READING THE TABLE",
    "results": "RESULTS",
    "paytable": "PAY TABLE",
    "stats": "SESSION",
    "error": "PROBLEM",
}


def regions(size: tuple[int, int]) -> dict[str, pygame.Rect]:
    """Header, body and prompt line; the buttons take the strip below (display.buttons)."""
    width, height = size
    margin = theme.px(height, 0.02)
    header = pygame.Rect(0, 0, width, theme.px(height, HEADER))
    footer_top = height - theme.px(height, FOOTER)
    message = pygame.Rect(margin, footer_top - theme.px(height, MESSAGE), width - 2 * margin, theme.px(height, MESSAGE))
    body = pygame.Rect(margin, header.bottom + margin, width - 2 * margin, message.top - header.bottom - 2 * margin)
    return {"header": header, "body": body, "message": message}


@lru_cache(maxsize=4)
def background(size: tuple[int, int]) -> pygame.Surface:
    """Felt with a darker rim, computed once per screen size (it is the biggest fill)."""
    width, height = size
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    distance = np.hypot((xs - width / 2) / (width / 2), (ys - height / 2) / (height / 2)) / math.sqrt(2)
    mix = np.clip(distance, 0, 1)[..., None]
    pixels = np.array(theme.FELT, np.float32) * (1 - mix) + np.array(theme.FELT_DARK, np.float32) * mix
    return pygame.surfarray.make_surface(pixels.transpose(1, 0, 2).astype(np.uint8))


def draw_frame(canvas: Canvas, view: TableView, areas: dict[str, pygame.Rect]) -> None:
    canvas.surface.blit(background((canvas.width, canvas.height)), (0, 0))
    header = areas["header"]
    pygame.draw.rect(canvas.surface, theme.FELT_EDGE, header)
    rule = max(2, canvas.px(0.006))
    pygame.draw.rect(canvas.surface, theme.GOLD, (0, header.bottom - rule, header.w, rule))
    inner = header.inflate(-2 * canvas.px(0.03), -canvas.px(0.02))
    name_box = pygame.Rect(inner.left, inner.top, inner.w * 11 // 20, inner.h)
    canvas.text(view.game_name, name_box, theme.HEADING, theme.GOLD)
    title = SCREEN_TITLES[view.screen]
    if view.round_no and view.screen not in ("attract", "error"):
        title = f"ROUND {view.round_no} - {title}"
    if view.leds:  # the lamps in words, for a table without GPIO LEDs
        title = f"{title}  [{' '.join(led.upper() for led in view.leds)}]"
    right = pygame.Rect(name_box.right + inner.w // 40, inner.top, inner.right - name_box.right - inner.w // 40, inner.h)
    canvas.text(title, right, theme.BODY, theme.WHITE, align="right")
    canvas.text(view.prompt.message, areas["message"], theme.BODY, theme.WHITE, align="center")


def grid(rect: pygame.Rect, count: int, gap: int) -> list[pygame.Rect]:
    """Panels in up to three columns (four or more seats wrap to a second row)."""
    if count == 0:
        return []
    columns = count if count <= 3 else math.ceil(count / 2)
    rows = math.ceil(count / columns)
    width = (rect.w - gap * (columns - 1)) // columns
    height = (rect.h - gap * (rows - 1)) // rows
    cells = []
    for index in range(count):
        row, col = divmod(index, columns)
        in_row = min(columns, count - row * columns)
        offset = (rect.w - in_row * width - (in_row - 1) * gap) // 2  # centre a short last row
        cells.append(pygame.Rect(rect.left + offset + col * (width + gap), rect.top + row * (height + gap), width, height))
    return cells


def split_rows(rect: pygame.Rect, weights: tuple[float, ...]) -> list[pygame.Rect]:
    total = sum(weights)
    rows, top = [], rect.top
    for weight in weights:
        height = round(rect.h * weight / total)
        rows.append(pygame.Rect(rect.left, top, rect.w, height))
        top += height
    return rows


def panel(canvas: Canvas, rect: pygame.Rect, highlight: float = 0.0) -> pygame.Rect:
    """A rounded panel; highlight (0..1) thickens and brightens the border."""
    radius = max(4, min(rect.w, rect.h) // 10)
    pygame.draw.rect(canvas.surface, theme.PANEL_TURN if highlight else theme.PANEL, rect, border_radius=radius)
    border = max(1, canvas.px(0.004 + 0.01 * highlight))
    pygame.draw.rect(canvas.surface, theme.GOLD if highlight else theme.MUTED, rect, width=border, border_radius=radius)
    pad = max(border + 2, canvas.px(0.018))
    return rect.inflate(-2 * pad, -2 * pad)


def turn_marker(canvas: Canvas, box: pygame.Rect) -> None:
    """A gold arrow beside the name of the seat to act: a shape, not just a colour."""
    size = min(box.w, box.h)
    x, y = box.left, box.centery
    pygame.draw.polygon(canvas.surface, theme.GOLD, [(x, y - size // 2), (x + size * 0.8, y), (x, y + size // 2)])


def seat_header(canvas: Canvas, seat: Seat, row: pygame.Rect) -> None:
    """Name (after a turn arrow when it is this seat's turn), bankroll on the right."""
    name_box = row.copy()
    if seat.is_turn:
        size = min(row.h * 2 // 3, canvas.px(theme.BODY * 0.6))
        marker = pygame.Rect(row.left, row.centery - size // 2, size, size)
        turn_marker(canvas, marker)
        name_box.left = marker.right + size // 3
        name_box.w = row.right - name_box.left
    bank = f"bank {seat.bankroll}"
    name_box, bank_box = canvas.split(name_box, seat.name, bank, theme.BODY)
    canvas.text(seat.name, name_box, theme.BODY, theme.GOLD if seat.is_turn else theme.WHITE)
    canvas.text(bank, bank_box, theme.SMALL, theme.MUTED, align="right")


def bets_text(seat: Seat) -> str:
    return "  ".join(f"{bet.label} {bet.chips}" for bet in seat.bets) or seat.role.upper() or "no bet"


def hands_row(canvas: Canvas, seat: Seat, rect: pygame.Rect, captions: pygame.Rect | None = None) -> None:
    """Each hand side by side, widths by how many pieces it holds; with a captions
    row, each hand's label and total is written under its own pieces."""
    if not seat.hands:
        draw_chip_stacks(canvas, [bet.chips for bet in seat.bets], rect)
        return
    widths = hand_widths(canvas, seat.hands, rect.w)
    for index, (hand, cell) in enumerate(zip(seat.hands, split_columns(rect, widths))):
        if index:  # a split or several hands: a rule between them shows where each ends
            pygame.draw.line(canvas.surface, theme.MUTED, (cell.left, cell.top), (cell.left, cell.bottom), max(1, canvas.px(0.004)))
        draw_hand(canvas, hand, cell.inflate(-rect.h // 8, 0))
    if captions is None:
        return
    for hand, cell in zip(seat.hands, split_columns(captions, widths)):
        cell = cell.inflate(-canvas.px(0.02), 0)
        words = hand_caption(hand)
        if hand.total and not canvas.fits(words, cell, theme.SMALL, wrap=True):
            words = hand.total  # a narrow cell keeps the figure and drops the label
        canvas.text(words, cell, theme.SMALL, theme.WHITE, align="center", wrap=True)


def hand_widths(canvas: Canvas, hands: tuple[Hand, ...], width: int) -> tuple[float, ...]:
    """Every hand first gets room for its shortest caption (the total, else the label)
    at the smallest text size; what is left is shared by how many pieces each holds."""
    floors = [natural_width(hand.total or hand.label, canvas.px(theme.MIN_TEXT)) + canvas.px(0.03) for hand in hands]
    pieces = [sum(ASPECT[item.kind] + GAP for item in hand.items) for hand in hands]
    spare = width - sum(floors)
    if spare <= 0 or not sum(pieces):
        return tuple(floor + max(spare, 0) / len(hands) for floor in floors) if spare > 0 else tuple(floors)
    return tuple(floor + spare * share / sum(pieces) for floor, share in zip(floors, pieces))


def split_columns(rect: pygame.Rect, weights: tuple[float, ...]) -> list[pygame.Rect]:
    total = sum(weights)
    cells, left = [], rect.left
    for weight in weights:
        width = round(rect.w * weight / total)
        cells.append(pygame.Rect(left, rect.top, width, rect.h))
        left += width
    return cells


def hand_caption(hand: Hand) -> str:
    if not hand.total:
        return hand.label
    return f"{hand.label}: {hand.total}" if hand.label else f"total {hand.total}"


def draw_seat(canvas: Canvas, seat: Seat, rect: pygame.Rect) -> None:
    inner = panel(canvas, rect, 1.0 if seat.is_turn else 0.0)
    status = seat.status or ("YOUR TURN" if seat.is_turn else "")
    totals = hand_caption(seat.hands[0]) if len(seat.hands) == 1 else ""
    if inner.w >= 2.4 * inner.h:  # wide and short: name across the top, then words left, pieces right
        name, rest = split_rows(inner, (0.27, 0.73))
        seat_header(canvas, seat, name)
        words = pygame.Rect(rest.left, rest.top, rest.w * 9 // 20, rest.h)
        bets, total, state = split_rows(words, (1, 1, 1))
        canvas.text(bets_text(seat), bets, theme.SMALL, theme.WHITE)
        if len(seat.hands) > 1:  # no room for a caption under each hand: totals left to right
            totals = "totals " + " / ".join(hand.total or "-" for hand in seat.hands)
        canvas.text(totals, total, theme.SMALL, theme.WHITE)
        canvas.text(status, state, theme.SMALL, theme.GOLD if seat.is_turn else theme.MUTED)
        pieces = pygame.Rect(words.right, rest.top, rest.right - words.right, rest.h)
        hands_row(canvas, seat, pieces.inflate(0, -pieces.h // 10))
        return
    name, bets, hands, bottom = split_rows(inner, (0.22, 0.17, 0.41, 0.2))
    seat_header(canvas, seat, name)
    wager = bets_text(seat)
    left, right = canvas.split(bets, wager, status, theme.SMALL)
    if len(seat.hands) == 1 and not (canvas.fits(wager, left, theme.SMALL) and canvas.fits(status, right, theme.SMALL)):
        # many bets: they get the whole row, the status shares the bottom row with the total
        canvas.text(wager, bets, theme.SMALL, theme.WHITE)
        hands_row(canvas, seat, hands.inflate(0, -hands.h // 10))
        left, right = canvas.split(bottom, totals, status, theme.SMALL)
        canvas.text(totals, left, theme.SMALL, theme.WHITE)
    else:
        canvas.text(wager, left, theme.SMALL, theme.WHITE)
        hands_row(canvas, seat, hands.inflate(0, -hands.h // 10), captions=bottom)
    canvas.text(status, right, theme.SMALL, theme.GOLD if seat.is_turn else theme.MUTED, align="right")


def draw_chip_stacks(canvas: Canvas, amounts: list[int], rect: pygame.Rect) -> None:
    """One stack per bet, taller for bigger bets (log scale), striped like casino chips."""
    if not amounts:
        return
    chip_w = min(rect.h * 6 // 5, rect.w // (len(amounts) * 2))
    chip_h = max(2, chip_w // 6)
    x = rect.centerx - (len(amounts) * 2 - 1) * chip_w // 2
    for amount in amounts:
        count = max(1, min(8, 1 + int(math.log2(max(1, amount)))))
        for level in range(count):
            disc = pygame.Rect(x, rect.bottom - (level + 1) * chip_h - chip_h, chip_w, chip_h * 2)
            if disc.top < rect.top:
                break
            pygame.draw.ellipse(canvas.surface, theme.RED if level % 2 else theme.CREAM, disc)
            pygame.draw.ellipse(canvas.surface, theme.INK, disc, width=1)
        x += chip_w * 2
