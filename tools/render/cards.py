"""Renders the labelled card fixtures in calibration_images/cards/ (fixed seed).

Cards are drawn the way printed decks are laid out (corner index with the suit under
the rank, pips in the standard arrangement, framed court pictures, patterned backs),
in poker and bridge proportions and several index fonts, then placed loose, fanned and
face down on a table and put through camera_look. Run `python -m tools.render.cards`.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from pathlib import Path

import cv2
import numpy as np

from table.rules.cards import RANKS
from tools.render import camera_look, fonts
from tools.render.card_fixture_set import write_set

OUT = Path(__file__).resolve().parents[2] / "calibration_images" / "cards"
CARD_H = 350
WIDTHS = {"poker": 250, "bridge": 227}
RED, BLACK = (40, 30, 200), (30, 25, 25)
FIXTURE_FONTS = [
    fonts.HERSHEY[0],
    fonts.HERSHEY[3],
    fonts.ttf("freesansbold"),
    fonts.ttf("DejaVuSans-Bold"),
    fonts.ttf("DejaVuSerif-Bold"),
    fonts.ttf("DejaVuSansCondensed-Bold"),  # not in the template atlas
    fonts.ttf("DejaVuSerifCondensed-Bold"),  # not in the template atlas
]
# Pip centres as (fraction of width, fraction of height), the usual printed layout.
PIPS = {
    2: [(0.5, 0.2), (0.5, 0.8)],
    3: [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
    4: [(x, y) for x in (0.3, 0.7) for y in (0.2, 0.8)],
    5: [(x, y) for x in (0.3, 0.7) for y in (0.2, 0.8)] + [(0.5, 0.5)],
    6: [(x, y) for x in (0.3, 0.7) for y in (0.2, 0.5, 0.8)],
    7: [(x, y) for x in (0.3, 0.7) for y in (0.2, 0.5, 0.8)] + [(0.5, 0.35)],
    8: [(x, y) for x in (0.3, 0.7) for y in (0.2, 0.5, 0.8)] + [(0.5, 0.35), (0.5, 0.65)],
    9: [(x, y) for x in (0.3, 0.7) for y in (0.2, 0.4, 0.6, 0.8)] + [(0.5, 0.5)],
    10: [(x, y) for x in (0.3, 0.7) for y in (0.2, 0.4, 0.6, 0.8)] + [(0.5, 0.3), (0.5, 0.7)],
}


def _stamp(canvas: np.ndarray, mask: np.ndarray, top_left: tuple[int, int], colour: tuple[int, int, int]) -> None:
    x, y = top_left
    h, w = mask.shape
    region = canvas[y : y + h, x : x + w]
    a = (mask[: region.shape[0], : region.shape[1]].astype(np.float32) / 255.0)[..., None]
    region[:] = (region * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


def rounded_alpha(w: int, h: int) -> np.ndarray:
    alpha = np.zeros((h, w), np.uint8)
    r = w // 14
    cv2.rectangle(alpha, (r, 0), (w - r - 1, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - r - 1), 255, -1)
    for cx, cy in ((r, r), (w - r - 1, r), (r, h - r - 1), (w - r - 1, h - r - 1)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return alpha


def card_face(rank: str, suit: str, font: fonts.FontSpec, shape: str, index_scale: float,
              rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    w, h = WIDTHS[shape], CARD_H
    colour = RED if suit in "HD" else BLACK
    card = np.full((h, w, 3), rng.integers(232, 250), np.uint8)
    rank_mask = fonts.glyph_mask(rank, font, round(0.07 * h * index_scale))
    if rank_mask.shape[1] > 0.17 * w * index_scale:  # a wide "10" is squeezed, as printers do
        rank_mask = cv2.resize(rank_mask, (round(0.17 * w * index_scale), rank_mask.shape[0]))
    suit_small = fonts.suit_mask(suit, round(0.05 * h * index_scale))
    cx = round(0.1 * w * index_scale)
    for _ in range(2):  # index in the top-left corner, then the card turned round for the other
        top = round(0.035 * h)
        _stamp(card, rank_mask, (cx - rank_mask.shape[1] // 2, top), colour)
        top += rank_mask.shape[0] + round(0.015 * h)
        _stamp(card, suit_small, (cx - suit_small.shape[1] // 2, top), colour)
        card = np.ascontiguousarray(card[::-1, ::-1])
    if rank in ("J", "Q", "K"):  # the picture's frame keeps clear of the index, as printers do
        index_right = cx + max(rank_mask.shape[1], suit_small.shape[1]) // 2
        _court_picture(card, suit, colour, max(round(0.2 * w), index_right + round(0.04 * w)), rng)
    else:
        pip_h = round((0.3 if rank == "A" else 0.12) * h)
        pip = fonts.suit_mask(suit, pip_h)
        for fx, fy in PIPS.get(int(rank) if rank != "A" else 0, [(0.5, 0.5)]):
            glyph = pip[::-1, ::-1] if fy > 0.55 else pip
            _stamp(card, glyph, (round(fx * w - glyph.shape[1] / 2), round(fy * h - glyph.shape[0] / 2)), colour)
    return card, rounded_alpha(w, h)


def _court_picture(card: np.ndarray, suit: str, colour: tuple[int, int, int], x0: int,
                   rng: np.random.Generator) -> None:
    """A framed, busy, many-coloured picture: what makes court cards hard for pip counting."""
    h, w = card.shape[:2]
    y0, x1, y1 = round(0.12 * h), w - x0, round(0.88 * h)
    palette = [(40, 40, 190), (160, 70, 30), (30, 190, 230), (30, 30, 30), (200, 200, 200)]
    art = card.copy()
    for _ in range(14):
        c = palette[int(rng.integers(len(palette)))]
        p = (int(rng.integers(x0, x1)), int(rng.integers(y0, (y0 + y1) // 2)))
        if rng.random() < 0.5:
            cv2.ellipse(art, p, (int(rng.integers(5, 30)), int(rng.integers(5, 30))), float(rng.uniform(0, 180)), 0, 360, c, -1)
        else:
            cv2.rectangle(art, p, (p[0] + int(rng.integers(5, 40)), p[1] + int(rng.integers(5, 40))), c, -1)
    top = art[y0 : (y0 + y1) // 2, x0:x1]
    card[y0 : (y0 + y1) // 2, x0:x1] = top
    card[(y0 + y1) // 2 : y1, x0:x1] = top[::-1, ::-1][: y1 - (y0 + y1) // 2]
    cv2.rectangle(card, (x0, y0), (x1, y1), colour, 2)
    _stamp(card, fonts.suit_mask(suit, round(0.05 * h)), (x0 + 4, y0 + 4), colour)


def card_back(shape: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    w, h = WIDTHS[shape], CARD_H
    card = np.full((h, w, 3), 240, np.uint8)
    ink = (40, 40, 170) if rng.random() < 0.5 else (150, 70, 30)
    b = round(0.06 * w)
    cv2.rectangle(card, (b, b), (w - b, h - b), ink, -1)
    for t in range(-h, w + h, 14):
        cv2.line(card, (b + t, b), (b + t + h, b + h), (235, 235, 235), 2)
        cv2.line(card, (b + t, b), (b + t - h, b + h), (235, 235, 235), 2)
    cv2.rectangle(card, (0, 0), (w, h), (240, 240, 240), b)
    return card, rounded_alpha(w, h)


BACK_INKS = {"red": (35, 30, 165), "blue": (140, 60, 25), "black": (30, 28, 28)}


def borderless_back(shape: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A full-bleed back, printed to the card's edge as on many casino and diamond-back
    decks: a plain colour, or a lattice of paler lines on it. No white frame, so the
    card's outline is only where its colour meets the table's."""
    w, h = WIDTHS[shape], CARD_H
    ink = np.array(BACK_INKS[str(rng.choice(list(BACK_INKS)))], np.float64)
    card = np.empty((h, w, 3), np.uint8)
    card[:] = ink.astype(np.uint8)
    if rng.random() < 0.7:
        line = tuple(int(v) for v in np.clip(ink + rng.uniform(50, 110), 0, 255))
        step, thick = int(rng.integers(10, 20)), int(rng.integers(1, 4))
        for t in range(-h, w + h, step):
            cv2.line(card, (t, 0), (t + h, h), line, thick)
            cv2.line(card, (t, 0), (t - h, h), line, thick)
    return card, rounded_alpha(w, h)


def placement(w: int, h: int, scale: float, angle: float, at: tuple[float, float],
               pivot: tuple[float, float]) -> np.ndarray:
    """Homography putting card point `pivot` at scene point `at`, scaled and turned by `angle` deg."""
    a = np.deg2rad(angle)
    rot = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    return (np.array([[1, 0, at[0]], [0, 1, at[1]], [0, 0, 1]]) @ rot
            @ np.diag([scale, scale, 1.0]) @ np.array([[1, 0, -pivot[0]], [0, 1, -pivot[1]], [0, 0, 1]]))


def _corners(w: int, h: int) -> np.ndarray:
    return np.float32([[0, 0], [w, 0], [w, h], [0, h]])


# A card face maker: (rng, shape, rank or None for any) -> sprite, alpha, label
# ({"rank", "suit", "index_scale"}); the sprite is CARD_H high and as wide as the shape.
FaceMaker = Callable[[np.random.Generator, str, "str | None"], tuple[np.ndarray, np.ndarray, dict]]
# What a scene's cards look like, chosen once the table is drawn: a face maker and its name.
FaceChoice = Callable[[np.random.Generator], tuple[FaceMaker, str]]


class _Scene:
    def __init__(self, rng: np.random.Generator, faces: FaceChoice, shapes: tuple[str, ...] = tuple(WIDTHS),
                 size: int = 640):
        self.rng = rng
        self.shapes = shapes  # the card shapes this scene's faces come in
        self.size = size
        self.image = camera_look.table_background(rng, size, str(rng.choice(list(camera_look.BACKGROUNDS))))
        self.face, self.name = faces(rng)
        self.taken = np.zeros((size, size), np.uint8)
        self.items: list[tuple[str, dict, np.ndarray]] = []  # (kind, label, quad)
        self.placed: list[tuple[np.ndarray, int, int, np.ndarray]] = []  # (homography, w, h, coverage)

    def fits(self, quads: list[np.ndarray]) -> bool:
        mask = np.zeros_like(self.taken)
        for quad in quads:
            cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 255)
        inside = all(((q >= 8) & (q <= self.size - 8)).all() for q in quads)
        return inside and not (cv2.dilate(mask, np.ones((15, 15), np.uint8)) & self.taken).any()

    def put(self, sprite: np.ndarray, alpha: np.ndarray, homography: np.ndarray, kind: str, label: dict) -> None:
        h, w = alpha.shape
        quad = cv2.perspectiveTransform(_corners(w, h).reshape(-1, 1, 2), homography).reshape(-1, 2)
        cover = cv2.warpPerspective(alpha, homography, (self.size, self.size))
        camera_look.drop_shadow(self.image, cover, self.rng)
        camera_look.paste(self.image, sprite, alpha, homography)
        cv2.fillConvexPoly(self.taken, np.round(quad).astype(np.int32), 255)
        self.items.append((kind, label, quad))
        self.placed.append((homography, w, h, cover))

    def index_truth(self, tilt: np.ndarray) -> list[dict]:
        """For each face-up card (in label order), where its two indices ended up in the
        photo and how much of each is left uncovered by the cards put on it later."""
        found = []
        for k, ((kind, label, _), (hom, w, h, _)) in enumerate(zip(self.items, self.placed)):
            if kind != "card":
                continue
            later = np.zeros_like(self.taken)
            for _, _, _, cover in self.placed[k + 1:]:
                later = np.maximum(later, cover)
            corners = []
            for centre, down, outline in index_layout(w, h, label["index_scale"]):
                ends = np.float32([centre, centre + down]).reshape(-1, 1, 2)
                a, b = cv2.perspectiveTransform(ends, tilt @ hom).reshape(-1, 2)
                scale = float(np.linalg.norm(b - a))
                shown = np.zeros_like(self.taken)
                cv2.fillConvexPoly(shown, np.round(cv2.perspectiveTransform(outline.reshape(-1, 1, 2), hom)).astype(np.int32), 1)
                visible = 1.0 - float((later[shown > 0] > 128).mean()) if shown.any() else 0.0
                corners.append({"centre": a, "down": (b - a) / scale,
                                "glyph": scale * round(0.07 * h * label["index_scale"]), "visible": visible})
            found.append({"rank": label["rank"], "suit": label["suit"], "corners": corners})
        return found


def _random_face(rng: np.random.Generator, shape: str, font: fonts.FontSpec, rank: str | None = None):
    rank = rank or str(rng.choice(RANKS))
    suit = str(rng.choice(list("CDHS")))
    scale = 1.0 if rng.random() < 0.7 else 1.25
    sprite, alpha = card_face(rank, suit, font, shape, scale, rng)
    return sprite, alpha, {"rank": rank, "suit": suit, "index_scale": scale}


def index_layout(w: int, h: int, index_scale: float) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Where card_face prints the two indices, in card pixels: for each, the rank glyph's
    centre, the card's "down" there, and the outline of rank and suit together."""
    cx = round(0.1 * w * index_scale)
    rank_h, suit_h, top = round(0.07 * h * index_scale), round(0.05 * h * index_scale), round(0.035 * h)
    half = 0.085 * w * index_scale
    bottom = top + rank_h + round(0.015 * h) + suit_h
    outline = np.float32([[cx - half, top], [cx + half, top], [cx + half, bottom], [cx - half, bottom]])
    centre = np.float32([cx, top + rank_h / 2])
    far = np.float32([w, h])
    return [(centre, np.float32([0, 1]), outline), (far - centre, np.float32([0, -1]), far - outline)]


def _in_a_typeface(typefaces: list[fonts.FontSpec]) -> FaceChoice:
    """The renderer's own faces, in one of `typefaces` (those installed) drawn at random."""
    def choose(rng: np.random.Generator) -> tuple[FaceMaker, str]:
        installed = fonts.available(typefaces)
        font = installed[int(rng.integers(len(installed)))]
        return (lambda rng, shape, rank: _random_face(rng, shape, font, rank)), font.name
    return choose


def _loose(scene: _Scene, rank: str | None, face_up: bool, back=card_back) -> None:
    rng = scene.rng
    shape = str(rng.choice(list(scene.shapes)))
    w, h = WIDTHS[shape], CARD_H
    if face_up:
        sprite, alpha, label = scene.face(rng, shape, rank)
    else:
        (sprite, alpha), label = back(shape, rng), {}
    for _ in range(200):
        hom = placement(w, h, rng.uniform(155, 215) / h, rng.uniform(0, 360),
                         tuple(rng.uniform(90, scene.size - 90, 2)), (w / 2, h / 2))
        quad = cv2.perspectiveTransform(_corners(w, h).reshape(-1, 1, 2), hom).reshape(-1, 2)
        if scene.fits([quad]):
            scene.put(sprite, alpha, hom, "card" if face_up else "face_down", label)
            return


def _fan(scene: _Scene, count: int) -> None:
    """A hand held open: each card turned a little further and lying on the one before."""
    rng = scene.rng
    shape = str(rng.choice(list(scene.shapes)))
    w, h = WIDTHS[shape], CARD_H
    scale = rng.uniform(160, 210) / h
    curved = rng.random() < 0.6
    for _ in range(200):
        base, at = rng.uniform(0, 360), rng.uniform(150, scene.size - 150, 2)
        step = rng.uniform(13, 20)
        homs = []
        for i in range(count):
            if curved:
                homs.append(placement(w, h, scale, base + i * step, tuple(at), (w / 2, 0.9 * h)))
            else:
                a = np.deg2rad(base)
                shift = at + i * 0.3 * w * scale * np.array([np.cos(a), np.sin(a)])
                homs.append(placement(w, h, scale, base, tuple(shift), (w / 2, h / 2)))
        quads = [cv2.perspectiveTransform(_corners(w, h).reshape(-1, 1, 2), m).reshape(-1, 2) for m in homs]
        if scene.fits(quads):
            for hom in homs:
                sprite, alpha, label = scene.face(rng, shape, None)
                scene.put(sprite, alpha, hom, "card", label)
            return


def render_scene(rng: np.random.Generator, ranks: list[str], indices: list | None = None,
                 typefaces: list[fonts.FontSpec] = FIXTURE_FONTS) -> tuple[np.ndarray, dict]:
    """A photographed scene and its labels, in one of `typefaces`; `indices`, if given,
    receives _Scene.index_truth."""
    return laid_out(rng, ranks, _in_a_typeface(typefaces), indices=indices)


def laid_out(rng: np.random.Generator, ranks: list[str], faces: FaceChoice,
             shapes: tuple[str, ...] = tuple(WIDTHS), fan: float = 0.6,
             indices: list | None = None) -> tuple[np.ndarray, dict]:
    """A photographed scene of cards that `faces` makes: a fan of three to five (with
    chance `fan`), the loose `ranks`, perhaps a card face down. Faces other than the
    renderer's own (a real deck's art, as tools/real_decks.py lays out) print
    their indices elsewhere, so `indices` is for the renderer's faces only."""
    scene = _Scene(rng, faces, shapes)
    if rng.random() < fan:
        _fan(scene, int(rng.integers(3, 6)))
    for rank in ranks:
        _loose(scene, rank, face_up=True)
    if rng.random() < 0.4:
        _loose(scene, None, face_up=False)
    image, tilt = camera_look.photograph(scene.image, rng)
    if indices is not None:
        indices.extend(scene.index_truth(tilt))
    return image, _labels(scene, tilt)


def _labels(scene: _Scene, tilt: np.ndarray) -> dict:
    label = {"width": scene.size, "height": scene.size, "dice": [], "cards": [], "d10": [], "face_down": [],
             "font": scene.name}
    for kind, item, quad in scene.items:
        box = camera_look.box_after(quad, tilt)
        if kind == "card":
            label["cards"].append({"rank": item["rank"], "suit": item["suit"], "box": box})
        else:
            label["face_down"].append({"box": box})
    return label


def borderless_scene(rng: np.random.Generator, backs: int, ranks: list[str],
                     typefaces: list[fonts.FontSpec] = FIXTURE_FONTS) -> tuple[np.ndarray, dict]:
    """A photographed scene with `backs` full-bleed backs among face-up cards of `ranks`."""
    scene = _Scene(rng, _in_a_typeface(typefaces))
    for rank in ranks:
        _loose(scene, rank, face_up=True)
    for _ in range(backs):
        _loose(scene, None, face_up=False, back=borderless_back)
    image, tilt = camera_look.photograph(scene.image, rng)
    return image, _labels(scene, tilt)


def scenes(count: int, seed: int):
    """`count` scenes that between them show every rank several times."""
    rng = np.random.default_rng(seed)
    deck = list(RANKS) * 4
    rng.shuffle(deck)
    for _ in range(count):
        ranks, deck = deck[:3], deck[3:] or list(RANKS)
        yield render_scene(rng, ranks)


def borderless_scenes(count: int, seed: int):
    """`count` scenes with one to three full-bleed backs each, among up to two face-up cards."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        ranks = [str(rng.choice(RANKS)) for _ in range(int(rng.integers(0, 3)))]
        yield borderless_scene(rng, int(rng.integers(1, 4)), ranks)


if __name__ == "__main__":
    write_set(OUT, "cards", chain(scenes(20, seed=21), borderless_scenes(2, seed=88)))
