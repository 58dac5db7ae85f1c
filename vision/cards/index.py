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

from table.rules.cards import RANKS
from vision.cards.colour import column_percentiles, low_high, percentiles
from vision.cards.components import components_with_stats
from vision.cards.glyphs import best_match, label_scores, label_scores_many
from vision.cards.rank_net import rank_crop, rank_probabilities

W, H = 200, 280  # the upright card every lone card is warped to
EDGE = 5  # pixels at the rim of a cut-out card that are never ink
CORNER = 0.08  # table past a rounded corner stays lower than this share of the card
RANK_SCORE, RANK_MARGIN = 0.7, 0.04
INDEX_SLACK = 0.03  # how far below the index's favourite the rank the middle shows may score
SUIT_SCORE, SUIT_MARGIN = 0.6, 0.04
SUITS = ("S", "C", "H", "D")
NET_SURE = 0.9  # the network alone reads a lone card (the middle agreeing) at this probability
NET_DOUBT = 0.5  # and vetoes a template read when this sure of another rank
PIP_LIKE = 0.75  # every blob counted as a pip must match some suit symbol this well
FRAME_LINE, FRAME_REACH = 0.14, 0.4  # a court frame's side: this long and down to here
SUIT_HUE_SPREAD = 15  # OpenCV hue units (of 180) a four-colour deck's pips stray from its index's hue
PICTURE_CHROMA = 40  # a court picture's blue, yellow or green differs by this much between channels


@dataclass(frozen=True)
class IndexRead:
    """What one corner index says: a score per rank (empty when no index was found)."""

    ranks: dict[str, float]
    suit: str | None
    reason: str = ""
    crop: np.ndarray | None = None  # the rank glyph for the network (rank_net.rank_crop)


def ink_mask(card_bgr: np.ndarray, reach: int = 41) -> np.ndarray:
    """Ink is whatever is clearly darker or more coloured than the white around it. The white
    is measured locally (a max filter `reach` pixels wide, wider than the widest mark)
    because light falls unevenly across one card, and cards in a fan shade each other."""
    gray8 = cv2.cvtColor(card_bgr, cv2.COLOR_BGR2GRAY)
    local_white = _local_white(gray8, reach)
    gray = gray8.astype(np.float32)
    low, high = low_high(card_bgr)
    spread = cv2.subtract(high, low).astype(np.float32)
    return _clear_rim(((gray < 0.78 * local_white) | (spread > 0.25 * local_white)).astype(np.uint8))


def darkest_ink_mask(darkest: np.ndarray, reach: int) -> np.ndarray:
    """Ink judged by the darkest channel (colour.low_high) alone, for index glyphs only
    10-15 pixels tall. Both inks are dark in it, while the pale pink that blur leaves
    inside a small red glyph (the hole of a Q, the gap between a 5 and its heart) is not:
    judged by colour as well, as ink_mask does, those fill up and the glyph loses its shape."""
    return _clear_rim((darkest.astype(np.float32) < 0.78 * _local_white(darkest, reach)).astype(np.uint8))


def index_ink(card_bgr: np.ndarray) -> np.ndarray:
    """Ink of an upright card's corner indices: small glyphs, so judged as darkest_ink_mask
    does (the pips and a court picture keep ink_mask, whose colour test they need)."""
    return darkest_ink_mask(low_high(card_bgr)[0], 41)


def _local_white(gray: np.ndarray, reach: int) -> np.ndarray:
    """Float32 of the uint8 `gray`'s max filter, blurred. The max is taken in uint8, where
    OpenCV's filter is several times quicker and gives exactly the same values."""
    return cv2.blur(cv2.dilate(gray, np.ones((reach, reach), np.uint8)).astype(np.float32), (reach // 3, reach // 3))


def _clear_rim(ink: np.ndarray) -> np.ndarray:
    """The cut-out may take in a sliver of table at its rim: never ink."""
    ink[:EDGE, :] = ink[-EDGE:, :] = 0
    ink[:, :EDGE] = ink[:, -EDGE:] = 0
    return ink


def card_white(card_bgr: np.ndarray) -> float:
    """The stock's brightness, from a band just inside the edge where nothing is printed."""
    gray = cv2.cvtColor(card_bgr, cv2.COLOR_BGR2GRAY)
    band = np.concatenate([gray[EDGE : 2 * EDGE, 10:-10].ravel(), gray[-2 * EDGE : -EDGE, 10:-10].ravel(),
                           gray[10:-10, EDGE : 2 * EDGE].ravel(), gray[10:-10, -2 * EDGE : -EDGE].ravel()])
    return percentiles(band, 75)[0]


def is_red(card_bgr: np.ndarray, ink: np.ndarray) -> bool:
    return ink_colour(card_bgr, ink) == "red"


def ink_colour(card_bgr: np.ndarray, ink: np.ndarray) -> str | None:
    """"red", "black", or None for any other colour: indices are printed in one of the two
    suit colours, so blue or yellow marks are pieces of a court picture, not an index.
    Only the darker half of the mark is looked at: blur mixes a small glyph's rim with the
    stock, and a tinted stock would pull a pale red rim towards grey. The mark's bounding
    box is cut out first: masking the whole card cost more than the rest of the work."""
    return _named(_darker_half(card_bgr, ink))


def _named(pixels: np.ndarray) -> str | None:
    """ink_colour of a mark's darker half (grey ink, however tinted, is "black")."""
    if len(pixels) == 0:
        return None
    b, g, r = column_percentiles(pixels, 50)
    if r - max(b, g) > 35:
        return "red"
    if max(b, g, r) - min(b, g, r) < 45:
        return "black"
    return None


def _darker_half(card_bgr: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """(n, 3) int16 BGR of the darker half of a mark's pixels (see ink_colour)."""
    x, y, w, h = cv2.boundingRect((ink > 0).astype(np.uint8))
    pixels = card_bgr[y : y + h, x : x + w][ink[y : y + h, x : x + w] > 0].astype(np.int16)
    if len(pixels) == 0:
        return pixels
    darkest = np.minimum(np.minimum(pixels[:, 0], pixels[:, 1]), pixels[:, 2])  # min(axis=1) is slower on 3 columns
    return pixels[darkest <= percentiles(darkest, 50)[0]]


def _index_hue(card_bgr: np.ndarray, card_ink: np.ndarray) -> float | None:
    """The OpenCV hue (0-180) of a corner index printed neither red nor black, as
    four-colour decks print diamonds blue and clubs green; None for a red or black one
    (black takes in grey ink, so the hue returned is always that of a clear colour)."""
    corner = corner_without_frame_lines(card_ink)
    pixels = _darker_half(np.ascontiguousarray(card_bgr[: corner.shape[0], : corner.shape[1]]), corner)
    if len(pixels) == 0 or _named(pixels) is not None:
        return None
    hues = cv2.cvtColor(pixels.astype(np.uint8)[None], cv2.COLOR_BGR2HSV)[0, :, 0]
    return percentiles(hues, 50)[0]


def _round_corner(stat: np.ndarray) -> bool:
    """A low mark at the very corner is table showing past the card's rounded corner, or
    a sliver of it along the cut-out's rim; a tall one there is a rank glyph printed close
    to the edge, as some decks print their index (the cut-out then starts right at its
    top-left)."""
    x, y, h = stat[0], stat[1], stat[3]
    return x <= EDGE and y <= EDGE and h < CORNER * H


def _column(ink: np.ndarray) -> np.ndarray | None:
    """The index column: ink under and beside the top-most glyph-sized blob of the corner."""
    n, labels, stats, _ = components_with_stats(ink)
    rows, cols = ink.shape
    keep = [i for i in range(1, n) if stats[i][3] >= 0.025 * H and stats[i][4] >= 6
            and stats[i][0] > 0 and stats[i][1] > 0
            and not _round_corner(stats[i])
            and stats[i][0] + stats[i][2] < cols - 1 and stats[i][1] + stats[i][3] < rows - 1]
    if not keep:
        return None
    top = min(keep, key=lambda i: stats[i][1])
    tx, ty, tw, th = stats[top][:4]
    row = [i for i in keep if stats[i][1] < ty + th / 2 and abs(stats[i][0] + stats[i][2] / 2 - tx - tw / 2) < th]
    x0 = min(stats[i][0] for i in row) - 4  # the row holds both glyphs of a "10"
    x1 = max(stats[i][0] + stats[i][2] for i in row) + 4
    members = [i for i in keep if x0 <= stats[i][0] + stats[i][2] / 2 <= x1]
    return pick_labels(labels, n, members)


def pick_labels(labels: np.ndarray, count: int, wanted: list[int] | np.ndarray) -> np.ndarray:
    """0/1 mask of the connected components `wanted` (a lookup table: np.isin is slower)."""
    table = np.zeros(count, np.uint8)
    table[wanted] = 1
    return table[labels]


def _split_rows(column: np.ndarray) -> list[np.ndarray]:
    """Rank and suit as separate masks, cut at blank rows or, where blur has joined them,
    at the thinnest row of a blob too tall to be one glyph."""
    profile = column.sum(axis=1)
    rows = np.flatnonzero(profile)
    runs = np.split(rows, np.flatnonzero(np.diff(rows) > 1) + 1)
    pieces: list[tuple[int, int]] = []
    for run in runs:
        y0, y1 = run[0], run[-1] + 1
        xs = np.flatnonzero(column[y0:y1].any(axis=0))
        height, width = y1 - y0, xs[-1] - xs[0] + 1
        if height > 1.7 * width and not pieces:
            lo, hi = y0 + round(0.4 * height), y0 + round(0.75 * height)
            cut = lo + int(np.argmin(profile[lo:hi]))
            pieces += [(y0, cut), (cut + 1, y1)]
        elif height >= 3:
            pieces.append((y0, y1))
    masks = []
    for y0, y1 in pieces:
        m = np.zeros_like(column)
        m[y0:y1] = column[y0:y1]
        masks.append(m)
    return masks


def corner_without_frame_lines(card_ink: np.ndarray) -> np.ndarray:
    """The corner's ink less the straight lines that run on down the card: a court picture's
    frame, which many real decks draw right beside the index, so that the suit symbol
    touches it and the two are one blob (the corner then shows no suit under the rank).
    No glyph of an index reaches that far down, so nothing of the index is lost."""
    rows, cols = round(0.3 * H), round(0.27 * W)
    reach = round(FRAME_REACH * H)
    strip = np.ascontiguousarray(card_ink[: reach + 1, :cols])
    lines = cv2.morphologyEx(strip, cv2.MORPH_OPEN, np.ones((round(FRAME_LINE * H), 1), np.uint8))
    ink = strip[:rows].copy()
    if lines[reach].any():
        count, labels = cv2.connectedComponents(lines)
        running_on = pick_labels(labels, count, list(np.unique(labels[reach][labels[reach] > 0])))
        ink[cv2.dilate(running_on[:rows], np.ones((1, 3), np.uint8)) > 0] = 0  # and the line's blurred rim
    return ink


def read_corner(card_bgr: np.ndarray, card_ink: np.ndarray) -> IndexRead:
    """Rank scores and suit from the top-left index of an upright card (which may be a
    view of the card turned round: only the corner is copied)."""
    ink = corner_without_frame_lines(card_ink)
    zone = np.ascontiguousarray(card_bgr[: ink.shape[0], : ink.shape[1]])
    column = _column(ink)
    pieces = _split_rows(column) if column is not None else []
    if len(pieces) < 2:
        return IndexRead({}, None, "no rank over suit in the corner")
    rank_mask, suit_mask = pieces[0], pieces[1]
    ranks = label_scores(rank_mask, RANKS)
    if not ranks:  # a sliver (a 1-pixel line cut in two), too little ink to be a glyph
        return IndexRead({}, None, "no rank over suit in the corner")
    red = is_red(zone, rank_mask)
    suit, s_score, s_margin = best_match(suit_mask, ("H", "D") if red else ("S", "C"))
    if s_score < SUIT_SCORE or s_margin < SUIT_MARGIN:
        suit = None
    return IndexRead(ranks, suit, crop=rank_crop(zone, rank_mask))


def middle_allows(card_bgr: np.ndarray, ink: np.ndarray, pips: Pips) -> set[str]:
    """Ranks the middle of an upright card is consistent with: court ranks for a picture,
    otherwise the rank its pip count gives (an ace shows one pip)."""
    if has_picture(card_bgr, ink):
        return {"J", "Q", "K"}
    if not all(max(scores.values(), default=0.0) >= PIP_LIKE for scores in pips.scores):
        return set()  # blobs that are not suit symbols: a picture too plain to tell, or worse
    if len(pips.scores) == 1:
        return {"A"}
    return {str(len(pips.scores))} if 2 <= len(pips.scores) <= 10 else set()


def decide_rank(reads: list[IndexRead], allowed: set[str]) -> tuple[str | None, float, str]:
    """(rank, score, reason) from two witnesses of the index, the templates and the
    network, each checked against what the middle of the card allows. Either may read
    the card; if one reads it and the other leans to another rank, it is unreadable."""
    by_templates = _templates_decide(reads, allowed)
    crops = [r.crop for r in reads if r.crop is not None]
    if not crops:
        return by_templates
    probs = rank_probabilities(crops).mean(axis=0)
    top = int(np.argmax(probs))
    net_rank = RANKS[top] if top < len(RANKS) else None
    if by_templates[0] is not None:
        if net_rank != by_templates[0] and probs[top] >= NET_DOUBT:
            return None, by_templates[1], f"templates say {by_templates[0]}, the network {net_rank or 'no rank'}"
        return by_templates
    if net_rank in allowed and probs[top] >= NET_SURE:
        return net_rank, float(probs[top]), ""
    return by_templates


def _templates_decide(reads: list[IndexRead], allowed: set[str]) -> tuple[str | None, float, str]:
    """Small index glyphs can leave two ranks close (5 and 6, say); the middle of the card
    settles that, but only between ranks the index rates near the top, and only if no
    other rank the middle allows comes close."""
    found = [r.ranks for r in reads if r.ranks]
    if not found:
        return None, 0.0, reads[0].reason
    mean = {k: sum(f[k] for f in found) / len(found) for k in RANKS}
    top = max(mean, key=mean.__getitem__)
    candidates = sorted((k for k in allowed if k in mean), key=lambda k: -mean[k])
    if not candidates:
        return None, mean[top], f"index says {top} but nothing countable in the middle"
    best = candidates[0]
    if mean[best] < RANK_SCORE or mean[top] - mean[best] > INDEX_SLACK:
        return None, mean[best], f"index says {top} ({mean[top]:.2f}) but the middle shows {'/'.join(candidates)}"
    if len(candidates) > 1 and mean[best] - mean[candidates[1]] < RANK_MARGIN:
        return None, mean[best], f"index between {best} and {candidates[1]}"
    return best, mean[best], ""


@dataclass(frozen=True)
class Pips:
    """The pips in the middle of an upright card: how much each looks like each suit
    symbol, and their colour. Decks print the pips of the upper half upright and those of
    the lower half on their heads, so whichever way up the card lies, a pip is looked at
    the way it should stand where it is (either way in the middle row)."""

    scores: list[dict[str, float]]
    red: bool


def find_pips(card_bgr: np.ndarray, ink: np.ndarray) -> Pips:
    """Ink blobs of pip size in the middle of an upright card, away from the indices."""
    n, labels, stats, centroids = components_with_stats(ink)
    blobs = [i for i in range(1, n)
             if 0.2 * W < centroids[i][0] < 0.8 * W and 0.1 * H < centroids[i][1] < 0.9 * H
             and stats[i][4] < 0.12 * W * H]
    if not blobs:
        return Pips([], False)
    biggest = max(blobs, key=lambda i: stats[i][4])
    views, owners = [], []
    for pip, i in enumerate(i for i in blobs if stats[i][4] >= 0.4 * stats[biggest][4]):
        x, y, w, h = stats[i][:4]
        mask = (labels[y : y + h, x : x + w] == i).astype(np.uint8)
        ways = [mask] if centroids[i][1] < 0.45 * H else []  # printed upright in the upper half,
        ways += [mask[::-1, ::-1].copy()] if centroids[i][1] > 0.55 * H else []  # on its head in the lower
        ways = ways or [mask, mask[::-1, ::-1].copy()]
        views += ways
        owners += [pip] * len(ways)
    seen = label_scores_many(views, SUITS)
    scores = [{k: max(s.get(k, 0.0) for s, o in zip(seen, owners) if o == pip) for k in SUITS}
              for pip in range(max(owners) + 1)]
    return Pips(scores, is_red(card_bgr, (labels == biggest).astype(np.uint8)))


def pip_suit(pips: Pips) -> str | None:
    """The suit from the pips, which are printed several times larger than the symbol in
    the index and so much easier to tell (spade from club above all). Every pip is a
    witness: each must name the same suit, and together by a clear lead."""
    if not pips.scores:
        return None
    allowed = ("H", "D") if pips.red else ("S", "C")
    totals = dict.fromkeys(allowed, 0.0)
    for scores in pips.scores:
        if max(allowed, key=lambda k: scores[k]) != max(allowed, key=lambda k: totals[k] + scores[k]):
            return None  # the pips do not all say the same suit
        for k in allowed:
            totals[k] += scores[k] / len(pips.scores)
    ranked = sorted(totals, key=lambda k: -totals[k])
    if totals[ranked[0]] < SUIT_SCORE or totals[ranked[0]] - totals[ranked[1]] < SUIT_MARGIN:
        return None
    return ranked[0]


def has_picture(card_bgr: np.ndarray, card_ink: np.ndarray) -> bool:
    """Court cards carry a picture printed in several colours (blue, yellow as well as red
    and black) inside a frame; pips and aces are printed in the suit's one colour, and no
    pip spans most of the middle the way a frame or a picture does. The colour is judged by
    how far the channels differ, not by saturation: black pips under a tinted lamp are dark
    pixels of a faint hue, whose saturation (relative to their brightness) is high, and would
    pass for a picture, letting the index be read as J, Q or K. Nor is the colour of
    an index printed blue or green (a four-colour deck) a picture's: such a deck's pips
    are printed in it, and its 8s and 9s would be read as queens (docs/tried/cards.md)."""
    middle = card_bgr[round(0.15 * H): round(0.85 * H), round(0.22 * W): round(0.78 * W)]
    ink = card_ink[round(0.15 * H): round(0.85 * H), round(0.22 * W): round(0.78 * W)] > 0
    hsv = cv2.cvtColor(middle, cv2.COLOR_BGR2HSV)
    low, high = low_high(middle)
    other_hue = (hsv[..., 0] > 15) & (hsv[..., 0] < 165) & (cv2.subtract(high, low) > PICTURE_CHROMA)
    if (suit_hue := _index_hue(card_bgr, card_ink)) is not None:
        gap = np.abs(hsv[..., 0].astype(np.int16) - int(suit_hue))
        other_hue &= np.minimum(gap, 180 - gap) > SUIT_HUE_SPREAD
    if ink.sum() > 0 and float((ink & other_hue).sum()) / float(ink.sum()) > 0.1:
        return True
    n, _, stats, _ = components_with_stats(ink.astype(np.uint8))
    return any(stats[i][2] > 0.85 * ink.shape[1] or stats[i][3] > 0.85 * ink.shape[0] for i in range(1, n))


def looks_face_down(card_bgr: np.ndarray, white: float) -> bool:
    """A back is pattern right up to its narrow border; a face is plain white in its corners
    around the index, court cards included."""
    gray = cv2.cvtColor(card_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    low, high = low_high(card_bgr)
    spread = cv2.subtract(high, low)
    plain = (gray > 0.8 * white) & (spread < 50)
    corners = [plain[round(0.06 * H): round(0.3 * H), round(0.08 * W): round(0.2 * W)],
               plain[round(0.7 * H): round(0.94 * H), round(0.8 * W): round(0.92 * W)]]
    return all(float(c.mean()) < 0.45 for c in corners)
