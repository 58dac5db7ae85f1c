"""The body of each screen kind. Each function fills the body rect from the view
alone; none of them knows which game is being played."""

from __future__ import annotations

import math

import numpy as np
import pygame

from display import theme
from display.camera import draw_camera, list_text
from display.canvas import Canvas, natural_width
from display.chart import draw_chart, marker, series_style
from display.items import draw_hand
from display.panels import draw_seat, grid, hand_caption, hands_row, panel, seat_header, split_rows
from table.view import Advisor, Hand, SeatResult, TableView


def attract(canvas: Canvas, view: TableView, body: pygame.Rect, frame, t: float) -> None:
    title, subtitle, items = split_rows(body, (0.34, 0.22, 0.44))
    canvas.text(view.game_name, title, theme.TITLE * 1.3, theme.GOLD, align="center")
    seats = ", ".join(seat.name for seat in view.seats)
    canvas.text(f"Seats: {seats}" if seats else "", subtitle, theme.BODY, theme.WHITE, align="center")
    bob = round(math.sin(t * 2.0) * items.h * 0.06)  # the table's pieces float gently while idle
    shared_row(canvas, view.shared, items.inflate(0, -items.h // 5).move(0, bob), labelled=False)


def bets(canvas: Canvas, view: TableView, body: pygame.Rect, frame, t: float) -> None:
    seat_grid(canvas, view, body)


def play(canvas: Canvas, view: TableView, body: pygame.Rect, frame, t: float) -> None:
    area = body.copy()
    gap = canvas.px(0.02)
    if view.advisor is not None and view.advisor.visible:
        strip = pygame.Rect(body.left, body.bottom - canvas.px(theme.BODY * 1.7), body.w, canvas.px(theme.BODY * 1.7))
        advisor_strip(canvas, view.advisor, strip)
        area.h = strip.top - gap - area.top
    if view.shared:
        top = pygame.Rect(area.left, area.top, area.w, area.h * 3 // 10)
        shared_row(canvas, view.shared, top, labelled=True)
        area.h -= top.h + gap
        area.top = top.bottom + gap
    seat_grid(canvas, view, area)


def reading(canvas: Canvas, view: TableView, body: pygame.Rect, frame, t: float) -> None:
    gap = canvas.px(0.02)
    picture = pygame.Rect(body.left, body.top, body.w * 62 // 100, body.h)
    draw_camera(canvas, view.camera, frame, picture, t)
    side = pygame.Rect(picture.right + gap, body.top, body.right - picture.right - gap, body.h)
    inner = panel(canvas, side)
    overlays = view.camera.overlays if view.camera else ()
    heading, rest = split_rows(inner, (0.2, 0.8))
    if view.camera is None:
        title = "Waiting for a read"
    elif view.camera.hand:
        title = "Hand over the table"
    elif view.camera.rolling:
        title = "Dice still rolling"
    else:
        unsure = sum(overlay.unreadable for overlay in overlays)
        title = f"Read {len(overlays) - unsure}, unsure {unsure}" if unsure else f"Read {len(overlays)} object{'s' if len(overlays) != 1 else ''}"
    canvas.text(title, heading, theme.BODY, theme.GOLD)
    if view.camera is not None and (view.camera.rolling or view.camera.hand):
        waits = ("The table is read once hands and the cup are clear of it." if view.camera.hand else
                 "The table is read as soon as the dice stop moving.")
        canvas.text(waits, rest.inflate(0, -rest.h // 3), theme.SMALL, theme.WHITE, wrap=True, valign="top")
    text_list(canvas, [list_text(overlay, n) for n, overlay in enumerate(overlays, start=1)], rest, [theme.READ_BAD if o.unreadable else theme.WHITE for o in overlays])


def results(canvas: Canvas, view: TableView, body: pygame.Rect, frame, t: float) -> None:
    """Payout per seat: the figure counts up from 0 over the first second and winning
    panels pulse. Both are functions of t only, so a test can render any instant."""
    area = body.copy()
    if view.shared:
        top = pygame.Rect(body.left, body.top, body.w, body.h // 4)
        shared_row(canvas, view.shared, top, labelled=True)
        area.top = top.bottom + canvas.px(0.02)
        area.h = body.bottom - area.top
    seats = {seat.name: seat for seat in view.seats}
    cells = grid(area, len(view.results), canvas.px(0.02))
    progress = min(1.0, max(0.0, t / 1.0))
    eased = 1 - (1 - progress) ** 3
    for result, cell in zip(view.results, cells):
        won = result.net > 0
        pulse = 0.5 + 0.5 * math.sin(t * 6.0) if won else 0.0
        inner = panel(canvas, cell, pulse if won else 0.0)
        if won:
            rising_chips(canvas, inner, t)  # behind the words, so they stay readable
        seat = seats.get(result.seat)
        rows = split_rows(inner, (0.22, 0.34, 0.26, 0.18) if seat and seat.hands else (0.3, 0.0, 0.45, 0.25))
        if seat is None:
            canvas.text(result.seat, rows[0], theme.BODY)
        else:
            seat_header(canvas, seat, rows[0])
        if seat is not None and seat.hands:
            hands_row(canvas, seat, rows[1])
        outcome_line(canvas, result, round(result.net * eased), rows[2])
        detail = result.detail or (hand_caption(seat.hands[0]) if seat and seat.hands else "")
        canvas.text(detail, rows[3], theme.SMALL, theme.MUTED, align="center", wrap=bool(result.lines))


def rising_chips(canvas: Canvas, rect: pygame.Rect, t: float, count: int = 6) -> None:
    """Chips float up a winner's panel for the first 1.5 s, then are gone; each chip's
    path depends only on its index and t."""
    if not 0.0 <= t < 1.5:
        return
    radius = max(3, canvas.px(0.014))
    for index in range(count):
        start = index * 0.12
        if t < start:
            continue
        rise = (t - start) / (1.5 - start)
        x = rect.left + radius + (rect.w - 2 * radius) * ((index * 0.37 + 0.1) % 1.0)
        y = rect.bottom - radius - (rect.h - 2 * radius) * rise
        pygame.draw.circle(canvas.surface, theme.GOLD, (round(x), round(y)), radius)
        pygame.draw.circle(canvas.surface, theme.INK, (round(x), round(y)), radius, width=max(1, radius // 3))


def outcome_line(canvas: Canvas, result: SeatResult, shown_net: int, row: pygame.Rect) -> None:
    """'WIN +20' / 'LOSE -10' / 'PUSH 0': the word and the sign carry the meaning, the colour repeats it."""
    colour = theme.outcome_colour(result.outcome)
    word = pygame.Rect(row.left, row.top, row.w // 2, row.h)
    canvas.text(result.outcome.upper(), word, theme.HEADING, colour, align="right")
    figure = pygame.Rect(word.right + row.w // 20, row.top, row.w - word.w - row.w // 20, row.h)
    canvas.text(f"{shown_net:+d}" if shown_net else "0", figure, theme.HEADING, colour, align="left")


def paytable(canvas: Canvas, view: TableView, body: pygame.Rect, frame, t: float) -> None:
    cells = grid(body, len(view.paytables), canvas.px(0.02))
    for table, cell in zip(view.paytables, cells):
        inner = panel(canvas, cell)
        title, rest = split_rows(inner, (0.16, 0.84))
        canvas.text(table.title, title, theme.BODY, theme.GOLD, align="center")
        row_h = min(rest.h // max(1, len(table.rows)), canvas.px(theme.BODY * 1.4))
        for index, pay in enumerate(table.rows):
            row = pygame.Rect(rest.left, rest.top + index * row_h, rest.w, row_h)
            hand, pays = canvas.split(row, pay.hand, pay.pays, theme.BODY)
            canvas.text(pay.hand, hand, theme.BODY, theme.WHITE)
            canvas.text(pay.pays, pays, theme.BODY, theme.GOLD, align="right")
            pygame.draw.line(canvas.surface, theme.FELT_EDGE, row.bottomleft, (row.right, row.bottom - 1), 1)


def stats(canvas: Canvas, view: TableView, body: pygame.Rect, frame, t: float) -> None:
    session = view.stats
    assert session is not None  # TableView requires Stats on a stats screen
    gap = canvas.px(0.02)
    chart = pygame.Rect(body.left, body.top, body.w * 64 // 100, body.h)
    draw_chart(canvas, session, chart)
    side = pygame.Rect(chart.right + gap, body.top, body.right - chart.right - gap, body.h)
    inner = panel(canvas, side)
    histories = session.histories
    heading, legend, facts = split_rows(inner, (0.16, 0.5, 0.34))
    canvas.text(f"After {session.rounds} rounds", heading, theme.BODY, theme.GOLD)
    rows = split_rows(legend, tuple(1.0 for _ in histories)) if histories else []
    for index, (history, row) in enumerate(zip(histories, rows)):
        colour, shape = series_style(index)
        size = max(3, min(row.h // 3, canvas.px(0.015)))
        marker(canvas.surface, shape, (row.left + size + 1, row.centery), size, colour)
        last = history.bankrolls[-1] if history.bankrolls else 0
        change = last - history.bankrolls[0] if history.bankrolls else 0
        words = pygame.Rect(row.left + 3 * size + 2, row.top, row.w - 3 * size - 2, row.h)
        canvas.text(f"{history.seat} {last} ({change:+d})", words, theme.SMALL, theme.WHITE)
    text_list(canvas, list(session.facts), facts, [theme.MUTED] * len(session.facts))


def error(canvas: Canvas, view: TableView, body: pygame.Rect, frame, t: float) -> None:
    problem = view.error
    assert problem is not None  # TableView requires an ErrorInfo on an error screen
    inner = panel(canvas, body, 1.0)
    icon = pygame.Rect(inner.left, inner.top, inner.h * 2 // 5, inner.h * 2 // 5)
    warning_sign(canvas, icon)
    words = pygame.Rect(icon.right + inner.w // 30, inner.top, inner.right - icon.right - inner.w // 30, inner.h)
    title, todo, detail = split_rows(words, (0.3, 0.45, 0.25))
    canvas.text(problem.title, title, theme.TITLE, theme.GOLD, wrap=True)
    canvas.text(problem.todo, todo, theme.HEADING, theme.WHITE, wrap=True, valign="top")
    canvas.text(problem.detail, detail, theme.SMALL, theme.MUTED, wrap=True, valign="top")


def warning_sign(canvas: Canvas, box: pygame.Rect) -> None:
    points = [(box.centerx, box.top), (box.right, box.bottom), (box.left, box.bottom)]
    pygame.draw.polygon(canvas.surface, theme.GOLD, points)
    pygame.draw.polygon(canvas.surface, theme.INK, points, width=max(2, box.w // 25))
    mark = pygame.Rect(0, 0, box.w // 3, box.h // 2)
    mark.midbottom = (box.centerx, box.bottom - box.h // 12)
    canvas.text("!", mark, 1.0, theme.INK, align="center", min_size=0.0)


def seat_grid(canvas: Canvas, view: TableView, rect: pygame.Rect) -> None:
    for seat, cell in zip(view.seats, grid(rect, len(view.seats), canvas.px(0.02))):
        draw_seat(canvas, seat, cell)


def shared_row(canvas: Canvas, hands: tuple[Hand, ...], rect: pygame.Rect, labelled: bool) -> None:
    """Hands that belong to the table (community dice, the dealer's cards), side by side."""
    if not hands:
        return
    width = rect.w // len(hands)
    for index, hand in enumerate(hands):
        cell = pygame.Rect(rect.left + index * width, rect.top, width, rect.h).inflate(-canvas.px(0.02), 0)
        if labelled:
            caption, items = split_rows(cell, (0.28, 0.72))
            words = " - ".join(part for part in (hand.label, hand.total and f"total {hand.total}") if part)
            canvas.text(words, caption, theme.SMALL, theme.GOLD, align="center")
            draw_hand(canvas, hand, items.inflate(0, -items.h // 10))
        else:
            draw_hand(canvas, hand, cell)


ADVISOR_CHOICES = 3  # the most choices the advisor strip names


def advisor_strip(canvas: Canvas, advisor: Advisor, rect: pygame.Rect) -> None:
    """Expected net chips per chip staked for each legal action, in one strip under
    the seats; the best action is boxed AND marked 'best', not just coloured."""
    inner = panel(canvas, rect)
    best = max((line.ev for line in advisor.lines), default=None)
    # A Dicey 21 raise offers a choice per chip amount: only the best few fit a strip
    # at 800x480, so the rest are left out (in the order the engine lists them).
    kept = sorted(sorted(advisor.lines, key=lambda line: -line.ev)[:ADVISOR_CHOICES], key=advisor.lines.index)
    words = [f"Advisor, {advisor.seat}:"] + [f"{line.action} {line.ev:+.2f}" + (" best" if line.ev == best else "") for line in kept]
    widths = [natural_width(word, canvas.px(theme.SMALL)) + canvas.px(0.04) for word in words]
    scale = inner.w / sum(widths)
    x = inner.left
    for index, (word, width) in enumerate(zip(words, widths)):
        cell = pygame.Rect(x, inner.top, round(width * scale), inner.h)
        x = cell.right
        is_best = index > 0 and kept[index - 1].ev == best
        if is_best:
            pygame.draw.rect(canvas.surface, theme.GOLD, cell.inflate(-2, 0), width=max(2, canvas.px(0.005)), border_radius=cell.h // 4)
        colour = theme.GOLD if index == 0 or is_best else theme.WHITE
        canvas.text(word, cell.inflate(-canvas.px(0.03), -max(4, canvas.px(0.01))), theme.SMALL, colour, align="center")


def text_list(canvas: Canvas, lines: list[str], rect: pygame.Rect, colours: list) -> None:
    if not lines:
        return
    row_h = min(rect.h // len(lines), canvas.px(theme.BODY * 1.3))
    for index, (line, colour) in enumerate(zip(lines, colours)):
        row = pygame.Rect(rect.left, rect.top + index * row_h, rect.w, row_h)
        canvas.text(line, row, theme.SMALL, colour)


BODIES = {
    "attract": attract,
    "bets": bets,
    "play": play,
    "reading": reading,
    "results": results,
    "paytable": paytable,
    "stats": stats,
    "error": error,
}


def draw_body(canvas: Canvas, view: TableView, body: pygame.Rect, frame: np.ndarray | None, t: float) -> None:
    BODIES[view.screen](canvas, view, body, frame, t)
