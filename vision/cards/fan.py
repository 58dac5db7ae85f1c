"""Cards in a fanned or overlapping hand, where often only a corner index shows.

There is no whole card to cut out, so the index is found first: a rank glyph with a
suit symbol just below it. The direction from rank to suit is the card's "down", which
turns the index upright for reading wherever the card points. Only clear reads are
kept (no pip count is possible here, so what lies under the rank must look like a suit
symbol); a card whose two corners both show is reported once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from table.reads import Card, Unreadable
from vision.cards import index
from vision.cards.colour import low_high, percentiles
from vision.cards.components import components, components_with_stats
from vision.cards.find import Region, whiteness
from vision.cards.glyphs import best_of, label_scores
from vision.cards.rank_net import rank_crop, rank_probabilities

PATCH = 96  # an index is read from a PATCH x PATCH upright cut-out
FAN_RANK_SCORE, FAN_RANK_MARGIN = 0.72, 0.06
FAN_NO_SUIT_SCORE = 0.85  # a rank whose suit symbol is not legible must match this well
FAN_NET_SURE = 0.97  # the network alone reads a fan card, its suit symbol legible, at this probability
FAN_NET_NO_SUIT = 0.995  # or at this without a legible suit symbol
FAN_NET_TEMPLATE = 0.65  # if the templates rate that rank this well (a card edge beside a Q is no "10")
FAN_SUIT_MARGIN = 0.1  # lead of the suit over the other of its colour before it is reported
RANK_OVER_SUIT = 1.15  # least height of the rank over that of the suit symbol under it
SUIT_STEP = (0.6, 1.6)  # rank centre to suit centre, in rank heights (0.81-1.05 in 600 reads on renders)
PLAIN_SHARE = 0.5  # of the index's surroundings that must be plain card stock
SUIT_LIKE = 0.8  # what sits under a rank must look this much like some suit symbol
TWIN_ANGLE = 30.0  # two reads of one card's two indices face opposite ways within this many degrees
TWIN_NEAR = 0.3  # and put its centre within this share of the card's estimated extent
UNNAMED_SUIT_FIT = 0.5  # added to a pair's misfit when one of the two reads names no suit
# A rank and its suit run together make a blob about 2.7 times longer than wide (rank
# 0.07, gap 0.015 and suit 0.05 card lengths long, some 0.05 wide); a blob under 2 is not one.
MERGED_ELONGATION = 2.0
MERGED_STEP = 0.075 / 0.135  # rank centre to suit centre, per length of the two run together
# Measured on renders, such blobs were 1.6-3.6 times as long as wide and filled 0.50-0.73
# of their box; of the rest, half were longer or fuller (edges, shadows, pips run together).
MERGED_MAX_ELONGATION, MERGED_FILL = 4.0, (0.45, 0.8)
SHADE_REACH, SHADE_STEP, EDGE_LINE = 0.8, 20, 6  # see hand_stock (EDGE_LINE in frame pixels)
MAX_SHADE_REACH = 0.15  # of the frame's side: about half a card's length (a wide bright blob is no hand)
REALIGN_DEGREES = 8.0  # an index read this far askew of its proposal is cut out again along its own axis
CARD_PER_GLYPH = 12.0  # a card is about this many rank-glyph heights tall
INDEX_INSET = 0.1  # an index's centre lies this share of the card's length and width in from its corner
# so one card's two indices lie 0.8 of its length apart along it and 0.8 of its width across
# (poker cards 63/88 as wide as long, bridge 57/88; a little more either way for tilt).
TWIN_SHAPE = (0.55, 0.85)
TWIN_LENGTH = (5.0, 20.0)  # in rank-glyph heights (cards print 8-14 of them along their length)


@dataclass(frozen=True)
class _Blob:
    centre: np.ndarray
    size: float  # larger side of its box
    area: int
    labels: np.ndarray  # the component labels it was found in
    label: int

    def mask(self, x0: int, y0: int) -> np.ndarray:
        """0/1 mask of the blob in a window from (x0, y0), 2 sizes across."""
        span = int(2 * self.size) + 2
        return (self.labels[y0 : y0 + span, x0 : x0 + span] == self.label).astype(np.uint8)


@dataclass(frozen=True)
class _Index:
    rank: str
    suit: str | None
    score: float
    centre: np.ndarray
    down: np.ndarray  # unit vector, the card's "down" in frame pixels
    glyph: float  # rank glyph height in frame pixels


def glyph_blobs(ink: np.ndarray, *ranges: tuple[float, float]) -> list[list[_Blob]]:
    """The ink blobs whose larger side lies in each (low, high) range, one list per range.
    Vectorised: a textured table can hold thousands of specks."""
    n, labels, stats, centroids = components_with_stats(ink)
    sizes = stats[:, 2:4].max(axis=1)
    found = []
    for low, high in ranges:
        keep = np.flatnonzero((sizes >= low) & (sizes <= high) & (stats[:, 4] >= 8))
        found.append([_Blob(centroids[i], float(sizes[i]), int(stats[i][4]), labels, int(i)) for i in keep if i])
    return found


def _patch_matrix(centre: np.ndarray, down: np.ndarray, span: float) -> np.ndarray:
    """The affine map from frame to a PATCH x PATCH cut-out of `span` frame pixels around
    `centre`, turned so `down` points down."""
    angle = np.degrees(np.arctan2(down[0], down[1]))  # turning by this brings `down` to +y
    m: np.ndarray = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), -angle, PATCH / span)
    m[:, 2] += PATCH / 2 - centre
    return m


def _upright_patch(image: np.ndarray, centre: np.ndarray, down: np.ndarray, span: float,
                   nearest: bool = False) -> np.ndarray:
    """The cut-out of _patch_matrix (`nearest` for masks, whose values must stay 0 or 1).
    A colour frame comes as BGRA and its patch goes back as BGR: OpenCV 5 warps four
    channels about twice as quickly as three, to the same values."""
    patch = cv2.warpAffine(image, _patch_matrix(centre, down, span), (PATCH, PATCH),
                           flags=cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.cvtColor(patch, cv2.COLOR_BGRA2BGR) if patch.ndim == 3 else patch


def _on_plain_stock(low: np.ndarray, high: np.ndarray, ink: np.ndarray, glyphs: np.ndarray) -> bool:
    """Most of the middle of the patch (its darkest and brightest channels `low`, `high`)
    round the index's own glyphs (and the tinted halo blur leaves round them) is bright
    unsaturated stock: a wide "10" may fill half the middle, a patterned back or a
    picture fills it with other marks."""
    mid = slice(PATCH // 4, 3 * PATCH // 4)
    low, high = low[mid, mid], high[mid, mid]
    plain = (cv2.subtract(high, low) < 50) & (low > 0.6 * percentiles(low, 95)[0]) & (ink[mid, mid] == 0)
    around = cv2.dilate(glyphs[mid, mid], np.ones((5, 5), np.uint8)) == 0
    return float(plain[around].sum()) >= PLAIN_SHARE * max(int(around.sum()), 1)


def _crowded_row(stats: np.ndarray, rank_parts: list[int]) -> bool:
    """Whether a glyph-like mark sits level with the rank and close beside it: part of the
    rank may be missing (a "10" whose "1" runs into the edge of the card above would
    otherwise be read from what is left)."""
    x0 = min(stats[i][0] for i in rank_parts)
    y0 = min(stats[i][1] for i in rank_parts)
    x1 = max(stats[i][0] + stats[i][2] for i in rank_parts)
    y1 = max(stats[i][1] + stats[i][3] for i in rank_parts)
    height = y1 - y0
    for i in range(1, len(stats)):
        if i in rank_parts or stats[i][4] < 10:
            continue
        x, y, w, h = stats[i][:4]
        if not 0.6 * height <= h <= 1.4 * height or w > 1.5 * height:
            continue  # not glyph-like: a card's edge or shadow, which fans are full of
        level = min(y + h, y1) - max(y, y0) >= 0.5 * height
        gap = max(x - x1, x0 - (x + w))
        if level and gap < 0.5 * height:
            return True
    return False


@dataclass(frozen=True)
class PatchRead:
    """A rank over a suit symbol found in the middle of an upright patch."""

    rank: str  # the templates' favourite
    score: float
    margin: float
    scores: dict[str, float]  # the templates' score of every rank
    suit: str | None
    suit_margin: float
    height: float  # rank glyph height in patch pixels
    crop: np.ndarray  # the rank glyph for the network (rank_net.rank_crop)
    pip_like: bool  # the rank glyph matches a suit symbol at least as well as any rank
    rank_at: np.ndarray  # centres of rank and suit symbol in patch pixels
    suit_at: np.ndarray


def _middle(mask: np.ndarray) -> np.ndarray:
    """Centre of a mask's bounding box (a "10" printed over its suit is centred over it)."""
    x, y, w, h = cv2.boundingRect(mask)
    return np.array([x + w / 2, y + h / 2])


def part_rank_from_suit(ink: np.ndarray) -> bool:
    """Cuts the ink in place along the emptiest row across the middle of the patch's
    middle column, where the gap between rank and suit lies: blur may have bridged it.
    Whether there was ink to cut."""
    band, column = slice(int(0.4 * PATCH), int(0.6 * PATCH) + 1), slice(int(0.38 * PATCH), int(0.62 * PATCH) + 1)
    rows = ink[band, column].sum(axis=1)
    row = int(np.argmin(rows))
    ink[band.start + row, column] = 0
    return bool(rows[row] > 0)


def _read_patch(patch: np.ndarray, stock: np.ndarray) -> PatchRead | None:
    """The index in the middle of an upright patch, or None when the thing under the glyph
    is not a suit symbol at all. Only ink on the card stock (`stock`, 1 on the cards)
    counts: dark table beside a card would swallow glyphs near its edge."""
    low, high = low_high(patch)
    ink = index.darkest_ink_mask(low, reach=PATCH // 6) & stock  # only the stock right round the index
    cut = part_rank_from_suit(ink)
    n, labels, stats, centroids = components_with_stats(ink)
    mid, reach = PATCH / 2, PATCH * 0.12
    usable = [i for i in range(1, n) if stats[i][4] >= 10 and stats[i][0] > index.EDGE and stats[i][1] > index.EDGE
              and stats[i][0] + stats[i][2] < PATCH - index.EDGE and stats[i][1] + stats[i][3] < PATCH - index.EDGE]
    column = [i for i in usable if stats[i][0] <= mid + reach and stats[i][0] + stats[i][2] >= mid - reach]
    upper = [i for i in column if centroids[i][1] < mid]
    lower = [i for i in column if centroids[i][1] >= mid]
    if not upper or not lower:
        return None
    first = min(upper, key=lambda i: stats[i][1])
    rank_parts = [i for i in usable if centroids[i][1] < mid and stats[i][1] < stats[first][1] + stats[first][3] / 2
                  and abs(centroids[i][0] - mid) < PATCH * 0.3]
    if _crowded_row(stats, rank_parts):
        return None  # ink right beside the rank: part of it may be hidden or run into an edge
    suit_mask = (labels == min(lower, key=lambda i: stats[i][1])).astype(np.uint8)
    suit_scores = label_scores(suit_mask, index.SUITS)
    if max(suit_scores.values(), default=0.0) < SUIT_LIKE:
        return None
    rank_mask = index.pick_labels(labels, n, rank_parts)
    if not _on_plain_stock(low, high, ink, rank_mask | suit_mask):
        return None  # an index is printed on plain white, not on a patterned back or picture
    rank_height = float(np.ptp(np.flatnonzero(rank_mask.any(axis=1)))) + 1
    if rank_height < RANK_OVER_SUIT * (float(np.ptp(np.flatnonzero(suit_mask.any(axis=1)))) + 1):
        return None  # indices print the rank taller than the suit; two pips are alike
    rank_at, suit_at = _middle(rank_mask), _middle(suit_mask)
    if not SUIT_STEP[0] * rank_height <= float(np.hypot(*(suit_at - rank_at))) <= SUIT_STEP[1] * rank_height:
        return None  # the suit is printed just under its rank, not a pip's length away
    colour = index.ink_colour(patch, rank_mask)
    if colour is None or index.ink_colour(patch, suit_mask) != colour:
        return None  # an index is printed in one colour, red or black
    glyph_scores = label_scores(rank_mask, index.RANKS + index.SUITS)
    scores = {k: glyph_scores[k] for k in index.RANKS if k in glyph_scores}
    rank, score, margin = best_of(scores)
    if rank is None:
        return None
    crop = rank_crop(patch, rank_mask)
    if crop is None:
        return None
    suit, s_score, s_margin = best_of({k: suit_scores[k] for k in (("H", "D") if colour == "red" else ("S", "C"))})
    legible = s_score >= index.SUIT_SCORE and not cut  # a symbol cut from its rank may have lost its tip
    pip_like = max(glyph_scores[k] for k in index.SUITS) >= score
    return PatchRead(rank, score, margin, scores, suit if legible else None, s_margin, rank_height, crop, pip_like,
                     rank_at, suit_at)


def glyph_pairs(blobs: list[_Blob]) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """(centre, down, distance from rank to suit) of every rank-over-suit a pair of blobs
    could be: a glyph, and something beside it shorter along the way from one to the
    other but with up to twice its ink (a solid heart under the thin strokes of a "4" has
    more; two pips are as long as each other). A "10" is two glyphs over one symbol
    centred under both, so a glyph with a partner level beside it also proposes the
    pair's middle as the rank."""
    if not blobs:
        return []
    centres = np.array([blob.centre for blob in blobs])
    sizes = np.array([blob.size for blob in blobs])
    areas = np.array([blob.area for blob in blobs], float)
    steps = centres[None, :, :] - centres[:, None, :]  # [i, j]: from blob i to blob j
    dists = np.hypot(steps[..., 0], steps[..., 1])
    near = (dists >= 0.5 * sizes[:, None]) & (dists <= 1.6 * sizes[:, None])
    under = near & (sizes[None, :] <= sizes[:, None]) & (areas[None, :] >= 0.15 * areas[:, None]) & (areas[None, :] <= 2.0 * areas[:, None])
    beside = (dists >= 0.3 * sizes[:, None]) & (dists <= 1.2 * sizes[:, None]) & (sizes[None, :] >= 0.5 * sizes[:, None]) & (sizes[None, :] <= 1.5 * sizes[:, None])
    np.fill_diagonal(under, False)
    np.fill_diagonal(beside, False)
    found = []
    for i, j in zip(*np.nonzero(under)):
        a, b, step, dist = blobs[i], blobs[j], steps[i, j], dists[i, j]
        if _extent(b, step) >= _extent(a, step):
            continue
        found.append(((a.centre + b.centre) / 2, step / dist, float(dist)))
        for k in np.flatnonzero(beside[i]):
            if k != j and abs(float(steps[i, k] @ step)) < 0.4 * dists[i, k] * dist:
                rank = (a.centre + blobs[k].centre) / 2
                middle = b.centre - rank
                length = float(np.hypot(*middle))
                found.append(((rank + b.centre) / 2, middle / length, length))
    return found


def _extent(blob: _Blob, direction: np.ndarray) -> float:
    """The blob's length along `direction`, in pixels."""
    ys, xs = np.nonzero(blob.mask(max(0, int(blob.centre[0] - blob.size)), max(0, int(blob.centre[1] - blob.size))))
    along = (xs * direction[0] + ys * direction[1]) / max(float(np.hypot(*direction)), 1e-6)
    return float(np.ptp(along)) + 1 if len(along) else 0.0


def _merged(blobs: list[_Blob]) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """The same for single blobs shaped like a rank and its suit run together (blur joins
    them when they are printed close), either way along their long axis."""
    found = []
    for blob in blobs:
        x0, y0 = max(0, int(blob.centre[0] - blob.size)), max(0, int(blob.centre[1] - blob.size))
        mask = blob.mask(x0, y0)
        m = cv2.moments(mask, binaryImage=True)
        if m["m00"] == 0:
            continue
        cov = np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]]) / m["m00"]
        (short, long), vectors = np.linalg.eigh(cov)
        if long < MERGED_ELONGATION ** 2 * max(short, 1e-6):
            continue
        ys, xs = np.nonzero(mask)
        length = float(np.ptp(xs * vectors[0, 1] + ys * vectors[1, 1])) + 1
        width = float(np.ptp(xs * vectors[0, 0] + ys * vectors[1, 0])) + 1
        if length > MERGED_MAX_ELONGATION * width or not MERGED_FILL[0] <= blob.area / (length * width) <= MERGED_FILL[1]:
            continue  # a card's edge or shadow (long, thin or solid), not two glyphs
        for down in (vectors[:, 1], -vectors[:, 1]):
            found.append((blob.centre, down, MERGED_STEP * length))
    return found


def hand_stock(frame: np.ndarray, region: Region, others: list[np.ndarray]) -> np.ndarray:
    """0/1 mask of the hand's card stock, a little inside its edges. The cards lowest in a
    hand lie in the shade of those above, parted from them by the dark line of a card's
    edge, and at the brightness that keeps the hand apart from a pale table they may fall
    away; so stock up to SHADE_STEP darker also counts within SHADE_REACH of the hand,
    where it joins the hand across such a line, but only where it is nearer the hand than
    any of the outlines `others` (other cards and hands, which read it themselves)."""
    reach = int(min(SHADE_REACH * min(region.rect[1]), MAX_SHADE_REACH * min(frame.shape[:2])))
    x, y, w, h = cv2.boundingRect(region.contour)
    x0, y0 = max(0, x - reach) // 2 * 2, max(0, y - reach) // 2 * 2
    x1, y1 = min(frame.shape[1], x + w + reach) // 2 * 2, min(frame.shape[0], y + h + reach) // 2 * 2
    # Worked out at half resolution, as the hand was found: four times quicker, and the
    # stock's edge is kept a few pixels inside anyway.
    window = cv2.resize(frame[y0:y1, x0:x1], ((x1 - x0) // 2, (y1 - y0) // 2), interpolation=cv2.INTER_AREA)
    to_half = np.array([x0, y0])
    hand = np.zeros(window.shape[:2], np.uint8)
    cv2.drawContours(hand, [((region.contour - to_half) // 2).astype(np.int32)], -1, 1, -1)
    elsewhere = np.ones_like(hand)
    cv2.drawContours(elsewhere, [((c - to_half) // 2).astype(np.int32) for c in others], -1, 0, -1)
    to_hand = cv2.distanceTransform(1 - hand, cv2.DIST_L2, 3)
    near = to_hand <= reach / 2
    if not elsewhere.all():
        near &= to_hand < cv2.distanceTransform(elsewhere, cv2.DIST_L2, 3)
    shaded = ((whiteness(window) >= region.level - SHADE_STEP) & near).astype(np.uint8) | hand
    bridged = cv2.morphologyEx(shaded, cv2.MORPH_CLOSE, np.ones((EDGE_LINE // 2,) * 2, np.uint8))
    n, labels = components(bridged)
    joined = np.flatnonzero(np.bincount(labels[hand > 0], minlength=n)[1:]) + 1
    outlines, _ = cv2.findContours(index.pick_labels(labels, n, joined) & shaded, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    stock = np.zeros(frame.shape[:2], np.uint8)
    cv2.drawContours(stock, [c * 2 + to_half.astype(np.int32) for c in outlines], -1, 1, -1)  # ink holes filled
    stock[y0:y1, x0:x1] = cv2.erode(stock[y0:y1, x0:x1], np.ones((7, 7), np.uint8))
    return stock


def index_reads(frame: np.ndarray, region: Region, done: Sequence[np.ndarray] = (),
                others: Sequence[np.ndarray] = ()) -> list[tuple[np.ndarray, np.ndarray, float, PatchRead]]:
    """(centre, down, span, read) for every place in the region that looks like a rank
    over a suit, leaving out centres inside the outlines `done`."""
    stock = hand_stock(frame, region, list(others))
    x, y, w, h = cv2.boundingRect(stock)
    if w == 0 or h == 0:
        return []  # a sliver of stock, all nearer other cards or lost to the margin
    crop = frame[y : y + h, x : x + w]
    ink = index.ink_mask(crop) & stock[y : y + h, x : x + w]
    card_h = min(region.rect[1])
    glyphs, merged = glyph_blobs(ink, (0.03 * card_h, 0.15 * card_h), (0.08 * card_h, 0.24 * card_h))
    proposals = glyph_pairs(glyphs) + _merged(merged)
    frame_bgra = cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA)  # for _upright_patch
    found = []
    for centre, down, dist in proposals:
        centre = centre + [x, y]
        if any(cv2.pointPolygonTest(hull, (float(centre[0]), float(centre[1])), False) >= 0 for hull in done):
            continue
        span = 3.2 * dist
        read = _read_patch(_upright_patch(frame_bgra, centre, down, span),
                           _upright_patch(stock, centre, down, span, nearest=True))
        if read is None:
            continue
        # The index's own axis, rank to suit: the pair that proposed it may lie askew (the
        # "0" of a "10" and the suit symbol), and a glyph read askew matches its templates
        # worse, so it is cut out again along that axis.
        centre, axis = _index_axis(read, centre, down, span)
        if np.degrees(np.arccos(np.clip(float(axis @ down), -1.0, 1.0))) > REALIGN_DEGREES:
            again = _read_patch(_upright_patch(frame_bgra, centre, axis, span),
                                _upright_patch(stock, centre, axis, span, nearest=True))
            if again is not None:
                read, (centre, axis) = again, _index_axis(again, centre, axis, span)
        found.append((centre, axis, span, read))
    return found


def _index_axis(read: PatchRead, centre: np.ndarray, down: np.ndarray, span: float) -> tuple[np.ndarray, np.ndarray]:
    """Frame centre and unit rank-to-suit direction of an index read in the patch cut at
    (centre, down, span)."""
    back = cv2.invertAffineTransform(_patch_matrix(centre, down, span))
    rank_at, suit_at = (back[:, :2] @ p + back[:, 2] for p in (read.rank_at, read.suit_at))
    axis = suit_at - rank_at
    return (rank_at + suit_at) / 2, axis / max(float(np.hypot(*axis)), 1e-6)


def _candidates(frame: np.ndarray, region: Region, done: list[np.ndarray], others: list[np.ndarray]) -> list[_Index]:
    """Indices read by the templates or the network, and not doubted by the other."""
    reads = index_reads(frame, region, done, others)
    probs = rank_probabilities([read.crop for _, _, _, read in reads])
    found: list[_Index] = []
    for (centre, down, span, read), p in zip(reads, probs):
        top = int(np.argmax(p))
        net_rank = index.RANKS[top] if top < len(index.RANKS) else None
        legible_suit = read.suit is not None and read.suit_margin >= index.SUIT_MARGIN
        # A rank glyph as like a suit symbol as a rank (a pip over a pip, or a 6 whose loop
        # blur has filled) is left to the network, which learnt pips as "no rank".
        by_templates = (not read.pip_like and read.score >= FAN_RANK_SCORE and read.margin >= FAN_RANK_MARGIN
                        and (legible_suit or read.score >= FAN_NO_SUIT_SCORE))
        if by_templates:
            if net_rank != read.rank and p[top] >= index.NET_DOUBT:
                continue  # the network leans to another rank
            rank, score = read.rank, read.score
        elif (net_rank is not None and p[top] >= FAN_NET_SURE and read.scores[net_rank] >= FAN_NET_TEMPLATE
              and (legible_suit or p[top] >= FAN_NET_NO_SUIT)):
            rank, score = net_rank, float(p[top])
        else:
            continue
        # The small index symbol is named only when spade/club (heart/diamond) is plain.
        found.append(_Index(rank, read.suit if read.suit_margin >= FAN_SUIT_MARGIN else None, score,
                            centre, down, read.height * span / PATCH))
    return found


def card_geometry(found: _Index, size: tuple[float, float] | None) -> tuple[tuple[float, float], tuple[float, float, float, float], float, np.ndarray]:
    """Centre, box, angle and corners of the whole card, estimated from where its index
    sits and the card's (length, width) when known, else from the index glyph's height
    (decks print indices of different sizes, so that guess may be a fifth out)."""
    card_h, card_w = size or (CARD_PER_GLYPH * found.glyph, CARD_PER_GLYPH * found.glyph * 63 / 88)
    down = found.down
    right = _right_of(down)
    top_left = found.centre - right * INDEX_INSET * card_w - down * INDEX_INSET * card_h
    corners = np.array([top_left + right * u * card_w + down * v * card_h for u, v in ((0, 0), (1, 0), (1, 1), (0, 1))])
    centre = corners.mean(axis=0)
    angle = float(np.degrees(np.arctan2(-down[0], down[1])) % 360)
    return (float(centre[0]), float(centre[1])), (float(corners[:, 0].min()), float(corners[:, 1].min()),
                                                  float(corners[:, 0].max()), float(corners[:, 1].max())), angle, corners


def _right_of(down: np.ndarray) -> np.ndarray:
    """The card's "right" when "down" points down the page: where its index's card lies across."""
    return np.array([down[1], -down[0]])


def _same_face(a: _Index | Card, b: _Index | Card) -> bool:
    """Two reads may be of one card: the same rank, and the same suit where both name one."""
    return a.rank == b.rank and (a.suit == b.suit or None in (a.suit, b.suit))


def spanned_by_twins(found: list[_Index]) -> dict[int, tuple[float, float]]:
    """(length, width) of the card for each index that is one of a card's two: the same
    face facing the other way, lying where the card's far corner is whatever its size (its
    distance across the card a share within TWIN_SHAPE of its distance along it).
    The size the glyph height gives may be a fifth out on decks that print big indices, and
    the two reads of one top card then put its centre in two places, too far apart to be
    merged: one card read as two. The distance between its two indices is the card's own
    size (the indices sit a tenth of the card in from each corner)."""
    spans: dict[int, tuple[float, float]] = {}
    for i, a in enumerate(found):
        right = _right_of(a.down)
        for j, b in enumerate(found):
            if j == i or not _same_face(a, b):
                continue
            if float(a.down @ b.down) > -np.cos(np.radians(TWIN_ANGLE)):
                continue  # not facing the other way
            along, across = float((b.centre - a.centre) @ a.down), float((b.centre - a.centre) @ right)
            if along < TWIN_LENGTH[0] * a.glyph or along > TWIN_LENGTH[1] * a.glyph:
                continue
            if TWIN_SHAPE[0] <= across / along <= TWIN_SHAPE[1]:
                spans[i] = (along / (1 - 2 * INDEX_INSET), across / (1 - 2 * INDEX_INSET))
    return spans


def read_fan(frame_bgr: np.ndarray, region: Region, done: Sequence[np.ndarray] = (),
             size: tuple[float, float] | None = None,
             others: Sequence[np.ndarray] = ()) -> tuple[list[tuple[Card, np.ndarray]], list[tuple[Unreadable, np.ndarray]]]:
    """Cards whose index shows inside a bright region that is not one lone card, leaving
    out indices inside the outlines `done` (cards already read on their own, such as the
    top card of a hand, whose (length, width) is then `size` of every card in it) and
    never taking in the outlines `others` (other cards and hands in the frame). Each
    comes with the corners of its card as far as it is seen, for read_cards to judge the
    play area's edge by: the card estimated from its index, cut to the hand's outline
    (the estimate may stand a fifth past the card, even past the frame; the hand's
    outline is the cards themselves)."""
    groups: list[list[_Index]] = []
    for found in sorted(_candidates(frame_bgr, region, list(done), list(others)), key=lambda f: -f.score):
        home = next((g for g in groups if np.hypot(*(g[0].centre - found.centre)) < 1.5 * found.glyph), None)
        if home is None:
            groups.append([found])
        else:
            home.append(found)
    cards: list[tuple[Card, np.ndarray]] = []
    unreadable: list[tuple[Unreadable, np.ndarray]] = []
    hand = cv2.convexHull(region.contour).reshape(-1, 2).astype(np.float32)
    spans = spanned_by_twins([group[0] for group in groups]) if size is None else {}
    for n, group in enumerate(groups):
        best = group[0]
        rivals = [f for f in group if f.rank != best.rank and best.score - f.score < FAN_RANK_MARGIN]
        centre, box, angle, corners = card_geometry(best, spans.get(n, size))
        shown, seen = cv2.intersectConvexConvex(corners.astype(np.float32), hand)
        corners = seen.reshape(-1, 2) if shown > 0 else corners
        if rivals:
            unreadable.append((Unreadable("card", centre, f"corner reads {best.rank} or {rivals[0].rank}", box), corners))
        else:
            cards.append((Card(best.rank, best.suit, centre, box, angle, round(min(1.0, best.score), 3)), corners))
    return cards, unreadable


def merge_both_ends(cards: list[Card]) -> list[Card]:
    """The top card of a hand shows both indices; two reads of one card face opposite ways
    (angles as read_fan gives them, 0-360) and put the card's centre in about the same
    place. The pairs that fit best are merged first, so a neighbour of the same rank is
    not taken for the top card's other end. The two may come from two regions (a top card
    found on its own and the hand round it), so read_cards merges once over all hands."""
    return [card for card, _ in merge_outlined([(card, np.empty((0, 2))) for card in cards])]


def merge_outlined(reads: list[tuple[Card, np.ndarray]]) -> list[tuple[Card, np.ndarray]]:
    """merge_both_ends for cards with their corners (read_fan's); a card read from both
    ends keeps both estimates of its corners, so that the play area must hold the two."""
    cards = [card for card, _ in reads]
    pairs = []
    for i, a in enumerate(cards):
        for j, b in enumerate(cards[:i]):
            askew = abs((a.angle - b.angle) % 360 - 180) / TWIN_ANGLE
            apart = np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]) / (
                TWIN_NEAR * max(a.box[2] - a.box[0], a.box[3] - a.box[1]))
            if _same_face(a, b) and askew < 1 and apart < 1:
                unnamed = UNNAMED_SUIT_FIT if None in (a.suit, b.suit) else 0.0  # a named suit on both fits better
                pairs.append((askew + apart + unnamed, j, i))
    merged, used = [], set()
    for _, j, i in sorted(pairs):
        if i in used or j in used:
            continue
        used |= {i, j}
        a, b = cards[j], cards[i]
        centre = ((a.center[0] + b.center[0]) / 2, (a.center[1] + b.center[1]) / 2)
        box = (min(a.box[0], b.box[0]), min(a.box[1], b.box[1]), max(a.box[2], b.box[2]), max(a.box[3], b.box[3]))
        merged.append((Card(a.rank, a.suit or b.suit, centre, box, a.angle, max(a.confidence, b.confidence)),
                       np.vstack([reads[j][1], reads[i][1]])))
    return [read for k, read in enumerate(reads) if k not in used] + merged
