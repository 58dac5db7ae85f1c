"""Pictures to train the learned card reader on: card faces of many designs
(tools.card_net.faces) laid out as players lay them, on the real tables of the d6
photo sources and of d10-photos (their dice stay in the picture, unlabelled, as things
that are not cards).

A scene is drawn flat (the table seen from straight above): lone cards, two-card hands
overlapping as a dealer deals them, a community row, fans held open, face-down cards
and hands, casino chips. Each card above another shades it. The layer is then seen
through a camera tilted up to 30 degrees, shadowed and pasted on a window of a real
table; glare, colour casts, blur, noise and JPEG come last. Every index left in view
carries its card, centre, height and "down" direction; an index mostly but not wholly
covered is marked unclear (neither taught as an index nor as no index). Nothing here
is shipped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from tools.card_net.faces import Face
from tools.d10_net.compose import SmallTable, paste_at, table_canvas
from tools.dice_net.data import photometric
from tools.domino_net.compose import _pick
from tools.render import cards as render_cards
from tools.render.dominoes import tilt_homography

LONG_RANGE = (40.0, 240.0)  # a card's long side in px, in a frame shown to the detector at 448
FRAME_SIDE = 448
SHOWN, UNCLEAR = 0.85, 0.35  # visible share of an index: at least SHOWN is in view, under UNCLEAR is hidden
CHIP_COLOURS = [(40, 40, 200), (40, 140, 40), (170, 60, 30), (30, 30, 30), (230, 230, 230), (40, 160, 220),
                (140, 40, 140)]  # BGR


@dataclass
class Index:
    """One corner index in the picture."""

    rank: str
    suit: str
    centre: np.ndarray  # (2,)
    down: np.ndarray  # (2,) unit vector, rank to suit
    height: float  # the rank-and-suit block's height in px
    visible: float  # share of the block not covered by what lies on it
    card: int  # which card of the scene

    @property
    def shown(self) -> bool:
        return self.visible >= SHOWN

    @property
    def unclear(self) -> bool:
        return UNCLEAR <= self.visible < SHOWN


def _affine(scale: float, angle: float, at, pivot) -> np.ndarray:
    """2x3 map putting card point `pivot` at layer point `at`, scaled and turned `angle` deg."""
    a = math.radians(angle)
    c, s = math.cos(a) * scale, math.sin(a) * scale
    return np.array([[c, -s, at[0] - c * pivot[0] + s * pivot[1]],
                     [s, c, at[1] - s * pivot[0] - c * pivot[1]]], np.float64)


def _quad(m: np.ndarray, w: int, h: int) -> np.ndarray:
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) @ m[:, :2].T + m[:, 2]


def _back(rng: np.random.Generator, shape: str) -> tuple[np.ndarray, np.ndarray]:
    return (render_cards.borderless_back if rng.random() < 0.4 else render_cards.card_back)(shape, rng)


def _group(rng: np.random.Generator, kind: str, long_px: float, at, base: float) -> list[tuple[np.ndarray, bool]]:
    """(affine map from a CARD_H-high card, face up) for each card of a group, bottom first."""
    s = long_px / render_cards.CARD_H
    w = render_cards.WIDTHS["poker"] * s
    mid = (render_cards.WIDTHS["poker"] / 2, render_cards.CARD_H / 2)
    out = []
    if kind == "lone":
        out.append((_affine(s, base, at, mid), rng.random() < 0.9))
    elif kind == "hand":  # a dealt hand: each card a little right and down of the last
        n = int(rng.choice([2, 2, 2, 3, 4]))
        dx, dy = rng.uniform(0.15, 0.45) * w, rng.uniform(0.0, 0.3) * long_px
        down_first = rng.random() < 0.15  # a dealer's hole card under the face-up one
        for k in range(n):
            a = math.radians(base)
            off = np.array([dx * k * math.cos(a) - dy * k * math.sin(a), dx * k * math.sin(a) + dy * k * math.cos(a)])
            out.append((_affine(s, base + rng.normal(0, 4), np.asarray(at) + off, mid), not (down_first and k == 0)))
    elif kind == "row":  # a community row
        n = int(rng.integers(3, 6))
        gap = rng.uniform(-0.25, 0.25) * w if rng.random() < 0.4 else rng.uniform(0.02, 0.3) * w
        a = math.radians(base)
        for k in range(n):
            off = (w + gap) * k * np.array([math.cos(a), math.sin(a)])
            out.append((_affine(s, base + rng.normal(0, 2), np.asarray(at) + off, mid), rng.random() < 0.93))
    elif kind == "fan":  # a hand held open round a corner
        n = int(rng.integers(3, 7))
        step = rng.uniform(8, 22)
        pivot = (mid[0] * rng.uniform(0.6, 1.4), render_cards.CARD_H * rng.uniform(0.8, 0.95))
        for k in range(n):
            out.append((_affine(s, base + k * step, at, pivot), True))
    else:  # a face-down hand
        for k in range(int(rng.integers(1, 3))):
            out.append((_affine(s, base + rng.normal(0, 6), np.asarray(at) + k * rng.uniform(0.1, 0.4) * w, mid), False))
    return out


def _chip(rng: np.random.Generator, r: float) -> tuple[np.ndarray, np.ndarray]:
    """A casino chip seen from above: a coloured disc with paler inserts round its rim."""
    side = int(2 * r) + 3
    img = np.zeros((side, side, 3), np.uint8)
    alpha = np.zeros((side, side), np.uint8)
    c = (side // 2, side // 2)
    colour = CHIP_COLOURS[int(rng.integers(len(CHIP_COLOURS)))]
    cv2.circle(img, c, int(r), colour, -1, cv2.LINE_AA)
    cv2.circle(alpha, c, int(r), 255, -1, cv2.LINE_AA)
    stripe = (235, 235, 235) if sum(colour) < 500 else (40, 40, 170)
    for k in range(int(rng.choice([4, 6, 8]))):
        a = 2 * math.pi * k / 8 + rng.uniform(0, 0.3)
        p = (int(c[0] + 0.85 * r * math.cos(a)), int(c[1] + 0.85 * r * math.sin(a)))
        cv2.circle(img, p, max(1, int(0.14 * r)), stripe, -1)
    cv2.circle(img, c, int(0.6 * r), tuple(int(v * 0.85) for v in colour), max(1, int(0.06 * r)))
    return img, alpha


def scene(rng: np.random.Generator, size: int, tabs: list[SmallTable], designs: dict[str, list[Face]],
          long_range: tuple[float, float] = LONG_RANGE, max_tilt: float = 30.0,
          frame_side: int = FRAME_SIDE, cards: list | None = None) -> tuple[np.ndarray, list[Index]]:
    """A size x size BGR picture of cards on a real table and every index of its
    face-up cards (shown, unclear or hidden). One or two designs a scene. `cards`, if
    given, receives each card laid: {"rank", "suit" ("" face down), "quad" (4 x 2 in the
    picture)}, bottom first."""
    canvas, _, (tx0, ty0, tx1, ty1) = table_canvas(_pick(tabs, rng), rng, size, frame_side)
    if rng.random() < 0.06:
        return photometric(canvas, rng, grey_p=0.05), []
    names = list(designs)
    deck = [f for n in rng.choice(names, min(len(names), int(rng.integers(1, 3))), replace=False) for f in designs[n]]
    long_px = math.exp(rng.uniform(*np.log(long_range)))
    layer = np.zeros((size, size, 3), np.uint8)
    cover = np.zeros((size, size), np.uint8)
    top = np.full((size, size), -1, np.int32)  # which card (or -2: a chip) lies on top
    taken = np.zeros((size, size), np.uint8)
    placed: list[tuple[Face, np.ndarray]] = []
    n_groups = int(rng.integers(1, 6))
    kinds = ["lone", "hand", "row", "fan", "down"]
    for _ in range(n_groups):
        kind = str(rng.choice(kinds, p=[0.3, 0.3, 0.12, 0.18, 0.1]))
        for _try in range(15):
            at = (rng.uniform(tx0, tx1), rng.uniform(ty0, ty1))
            base = float(rng.uniform(0, 360))
            group = _group(rng, kind, long_px * rng.uniform(0.95, 1.05), at, base)
            mask = np.zeros_like(taken)
            for m, _ in group:
                cv2.fillConvexPoly(mask, np.round(_quad(m, render_cards.WIDTHS["poker"], render_cards.CARD_H)).astype(np.int32), 1)
            if mask.any() and not (mask & taken).any():
                break
        else:
            continue
        taken |= cv2.dilate(mask, np.ones((5, 5), np.uint8))
        for m, up in group:
            if up:
                face = deck[int(rng.integers(len(deck)))]
                img, alpha = face.image, face.alpha
            else:
                face = None
                img, alpha = _back(rng, "poker")
            h, w = alpha.shape
            mm = m.copy()
            if w != render_cards.WIDTHS["poker"]:  # a bridge card: keep its centre where the poker one's was
                mm[:, 2] += mm[:, :2] @ np.array([(render_cards.WIDTHS["poker"] - w) / 2, 0.0])
            a = cv2.warpAffine(alpha, mm.astype(np.float32), (size, size), flags=cv2.INTER_LINEAR)
            if not a.any():
                continue
            tint = rng.uniform(0.85, 1.08) * rng.uniform(0.96, 1.04, 3)
            t = cv2.warpAffine(img, mm.astype(np.float32), (size, size),
                               flags=cv2.INTER_AREA if long_px < h else cv2.INTER_LINEAR)
            if cover.any() and rng.random() < 0.8:  # the card above shades the one under it
                render_cards.camera_look.drop_shadow(layer, a, rng)
            ys, xs = np.nonzero(a)
            roi = (slice(ys.min(), ys.max() + 1), slice(xs.min(), xs.max() + 1))  # blend where the card is
            f = (a[roi].astype(np.float32) / 255.0)[..., None]
            layer[roi] = np.clip(layer[roi] * (1 - f) + t[roi] * tint * f, 0, 255).astype(np.uint8)
            cover[roi] = np.maximum(cover[roi], a[roi])
            idx = len(placed)
            top[a > 127] = idx
            placed.append((face, mm) if face is not None else (Face(img, alpha, "", "", "back"), mm))
    for _ in range(int(rng.integers(0, 6)) if rng.random() < 0.5 else 0):  # chips
        r = long_px * rng.uniform(0.16, 0.24)
        chip, ca = _chip(rng, r)
        x, y = (int(v) for v in rng.uniform(0, size - 2 * r, 2))
        ch, cw = min(ca.shape[0], size - y), min(ca.shape[1], size - x)
        chip, ca = chip[:ch, :cw], ca[:ch, :cw]
        if rng.random() < 0.75 and taken[y:y + ch, x:x + cw].any():
            continue  # most chips lie beside the cards
        region = (slice(y, y + ch), slice(x, x + cw))
        f = (ca.astype(np.float32) / 255.0)[..., None]
        layer[region] = (layer[region] * (1 - f) + chip * f).astype(np.uint8)
        cover[region] = np.maximum(cover[region], ca)
        top[region][ca > 127] = -2
    hom = tilt_homography((size, size), float(rng.uniform(0, max_tilt)), float(rng.uniform(0, 360)))
    layer_w = cv2.warpPerspective(layer, hom, (size, size), flags=cv2.INTER_LINEAR)
    cover_w = cv2.warpPerspective(cover, hom, (size, size), flags=cv2.INTER_LINEAR)
    region_mask = np.zeros_like(cover_w)
    region_mask[max(0, ty0):ty1, max(0, tx0):tx1] = 1
    cover_w *= region_mask
    if cover_w.any():
        paste_at(canvas, layer_w, cover_w, 0, 0, rng)
    indices = []
    for face, m in placed:
        if cards is not None:
            h, w = face.alpha.shape
            quad = cv2.perspectiveTransform(_quad(m, w, h)[None], hom)[0]
            cards.append({"rank": face.rank, "suit": face.suit, "quad": quad.astype(np.float32)})
    for k, (face, m) in enumerate(placed):
        for centre, down, height in face.indices:
            w_half = 0.3 * height
            block = np.array([centre + p for p in ([-w_half, -height / 2], [w_half, -height / 2],
                                                   [w_half, height / 2], [-w_half, height / 2])])
            flat = block @ m[:, :2].T + m[:, 2]
            shown = np.zeros((size, size), np.uint8)
            cv2.fillConvexPoly(shown, np.round(flat).astype(np.int32), 1)
            inside = shown > 0
            vis = float((top[inside] == k).mean()) if inside.any() else 0.0
            ends = np.array([centre - down * height / 2, centre + down * height / 2]) @ m[:, :2].T + m[:, 2]
            e = cv2.perspectiveTransform(ends[None], hom)[0]
            c = e.mean(0)
            v = e[1] - e[0]
            hgt = float(np.hypot(*v))
            lo, hi = (max(tx0, 0), max(ty0, 0)), (min(tx1, size), min(ty1, size))
            out_by = max(lo[0] - c[0], c[0] - hi[0], lo[1] - c[1], c[1] - hi[1])
            if out_by > -0.5 * hgt:  # at or past the edge of the table photo or of the picture
                vis = min(vis, 0.5) if out_by < 0.5 * hgt else 0.0
            indices.append(Index(face.rank, face.suit, c.astype(np.float32), (v / max(hgt, 1e-6)).astype(np.float32),
                                 hgt, vis, k))
    img = canvas
    if rng.random() < 0.3:  # glare: a soft bright patch, as a lamp makes on a glossy card
        g = np.zeros((size, size), np.float32)
        p = tuple(int(v) for v in rng.uniform(0, size, 2))
        cv2.ellipse(g, p, tuple(int(v) for v in rng.uniform(0.05, 0.25, 2) * size), float(rng.uniform(0, 180)),
                    0, 360, 1.0, -1)
        g = cv2.GaussianBlur(g, (0, 0), size * 0.03) * rng.uniform(0.3, 0.85)
        img = np.clip(img + (255 - img.astype(np.float32)) * g[..., None], 0, 255).astype(np.uint8)
    return photometric(img, rng, grey_p=0.05), indices
