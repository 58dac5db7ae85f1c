"""Colours and sizes of the casino-table look, in one place.

Every size is a fraction of the screen height, so the same layout reads from two
metres on the 800x480 touchscreen and on a 1080p TV without per-screen tuning."""

from __future__ import annotations

FELT = (14, 92, 52)
FELT_DARK = (8, 58, 33)
FELT_EDGE = (5, 40, 22)
PANEL = (10, 70, 40)
PANEL_TURN = (22, 110, 64)
GOLD = (242, 196, 60)
WHITE = (248, 248, 240)
CREAM = (250, 246, 232)
MUTED = (180, 205, 185)
INK = (20, 20, 24)
RED = (200, 30, 40)
WIN = (120, 230, 120)
LOSE = (255, 120, 110)
PUSH = (225, 225, 160)
READ_OK = (80, 240, 110)
READ_BAD = (255, 90, 60)
BUTTON = (30, 30, 34)
BUTTON_EDGE = (242, 196, 60)
BUTTON_OFF = (60, 70, 64)
CARD_BACK = (28, 48, 120)
TILE_FACE = (245, 242, 228)
TILE_BACK = (38, 38, 44)
D10_FACE = (210, 90, 40)

# Seats in charts are told apart by colour AND marker shape (colour is never the only cue).
SERIES_COLOURS = ((242, 196, 60), (120, 200, 255), (255, 130, 120), (200, 160, 255), (150, 240, 150), (255, 255, 255))
SERIES_MARKERS = ("circle", "square", "triangle", "diamond", "cross", "circle")

# Font sizes as fractions of the screen height (the text is shrunk further only when
# a string does not fit its box).
# The bundled font draws capitals at about 0.7 of the requested size.
TITLE = 0.13
HEADING = 0.09
BODY = 0.07
SMALL = 0.056
MIN_TEXT = 0.04  # below this a line is cut with "..." instead of shrinking


def px(height: int, fraction: float) -> int:
    return max(1, round(height * fraction))


def outcome_colour(outcome: str) -> tuple[int, int, int]:
    word = outcome.upper()
    if word in ("WIN", "BLACKJACK", "21", "CHARLIE") or word.startswith("WIN"):
        return WIN
    if word in ("PUSH", "TIE"):
        return PUSH
    return LOSE
