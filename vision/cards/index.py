"""Reading one card once it has been cut out and turned upright (long side vertical).

Printed decks put the index (rank over suit) in the top-left corner and again, turned
round, in the bottom-right, so an upright card can be read at its top-left corner
whichever way up it lies: turning it round brings the other index there. Both are read
and must agree; for 2-10 the pips in the middle are counted as a cross-check.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards.glyphs import best_match

W, H = 200, 280  # the upright card every lone card is warped to
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_SCORE, RANK_MARGIN = 0.55, 0.04
SUIT_SCORE, SUIT_MARGIN = 0.6, 0.04


@dataclass(frozen=True)
class IndexRead:
    rank: str | None
    suit: str | None
    score: float
    reason: str = ""


def ink_mask(card_bgr: np.ndarray, white: float) -> np.ndarray:
    """Ink is whatever is clearly darker or more coloured than the card's own white."""
    gray = cv2.cvtColor(card_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    spread = card_bgr.max(axis=2).astype(np.float32) - card_bgr.min(axis=2)
    return ((gray < 0.72 * white) | (spread > 70)).astype(np.uint8)


def card_white(card_bgr: np.ndarray) -> float:
    """The stock's brightness, from a band just inside the edge where nothing is printed."""
    gray = cv2.cvtColor(card_bgr, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    band = np.concatenate([gray[4:8, 10:-10].ravel(), gray[-8:-4, 10:-10].ravel(),
                           gray[10:-10, 4:8].ravel(), gray[10:-10, -8:-4].ravel()])
    return float(np.percentile(band, 75))


def is_red(card_bgr: np.ndarray, ink: np.ndarray) -> bool:
    pixels = card_bgr[ink > 0].astype(np.int16)
    if len(pixels) == 0:
        return False
    redness = pixels[:, 2] - np.maximum(pixels[:, 0], pixels[:, 1])
    return float(np.median(redness)) > 35


def _components(ink: np.ndarray) -> list[tuple[int, int, int, int, int, np.ndarray]]:
    """(x, y, w, h, area, mask) of each ink blob, not touching the crop's right or bottom edge."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    rows, cols = ink.shape
    out = []
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if area < 6 or x + w >= cols - 1 or y + h >= rows - 1 or x <= 0 or y <= 0:
            continue
        out.append((x, y, w, h, area, labels == i))
    return out


def read_corner(card_bgr: np.ndarray, white: float, scale: float = 1.0) -> IndexRead:
    """Rank and suit from the top-left index of an upright card. `scale` is card height / H."""
    zone = card_bgr[: round(0.3 * H * scale), : round(0.27 * W * scale)]
    ink = ink_mask(zone, white)
    parts = [c for c in _components(ink) if c[3] >= 0.025 * H * scale]
    if len(parts) < 2:
        return IndexRead(None, None, 0.0, "no index in the corner")
    parts.sort(key=lambda c: c[1])
    rank_top = parts[0]
    row = [c for c in parts if c[1] < rank_top[1] + rank_top[3] * 0.5]  # the rank's glyphs ("1" and "0")
    row_bottom = max(c[1] + c[3] for c in row)
    row_x0 = min(c[0] for c in row)
    row_x1 = max(c[0] + c[2] for c in row)
    below = [c for c in parts if c[1] >= row_bottom - 1 and row_x0 - 4 <= c[0] + c[2] / 2 <= row_x1 + 4]
    if not below:
        return IndexRead(None, None, 0.0, "no suit under the rank")
    suit_part = below[0]
    rank_mask = np.zeros_like(ink)
    for c in row:
        rank_mask |= c[5]
    rank, r_score, r_margin = best_match(rank_mask, RANKS)
    red = is_red(zone, rank_mask)
    suit, s_score, s_margin = best_match(suit_part[5], ("H", "D") if red else ("S", "C"))
    if rank is None or r_score < RANK_SCORE or r_margin < RANK_MARGIN:
        return IndexRead(None, None, r_score, f"rank glyph unclear (best {rank} {r_score:.2f}, margin {r_margin:.2f})")
    if s_score < SUIT_SCORE or s_margin < SUIT_MARGIN:
        suit = None
    return IndexRead(rank, suit, r_score)


def count_pips(card_bgr: np.ndarray, white: float) -> int:
    """Pips in the middle of an upright card: ink blobs of pip size away from the indices."""
    ink = ink_mask(card_bgr, white)
    n, _, stats, centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
    blobs = [(stats[i][4], centroids[i]) for i in range(1, n)
             if 0.2 * W < centroids[i][0] < 0.8 * W and 0.1 * H < centroids[i][1] < 0.9 * H]
    if not blobs:
        return 0
    biggest = max(a for a, _ in blobs)
    return sum(1 for a, _ in blobs if a >= 0.4 * biggest)


def looks_face_down(card_bgr: np.ndarray, white: float) -> bool:
    """A back is pattern right up to its narrow border; a face is plain white in its corners
    around the index, court cards included."""
    gray = cv2.cvtColor(card_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    spread = card_bgr.max(axis=2).astype(np.float32) - card_bgr.min(axis=2)
    plain = (gray > 0.8 * white) & (spread < 50)
    corners = [plain[round(0.06 * H): round(0.3 * H), round(0.08 * W): round(0.2 * W)],
               plain[round(0.7 * H): round(0.94 * H), round(0.8 * W): round(0.92 * W)]]
    return all(float(c.mean()) < 0.45 for c in corners)
