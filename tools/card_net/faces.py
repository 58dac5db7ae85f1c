"""Card faces for the learned card reader's training pictures, with where each prints
its corner indices.

Two kinds of design:
- the card themes of GNOME Aisleriot (Debian's gnome-cards-data: scans and redrawings
  of printed decks), read from the installed package at run time and cut as
  tools/real_decks.py cuts them; their indices are found on each face (`find_index`);
- the project's own renderer (tools/render/cards.card_face) in many typefaces, whose
  index layout is known.

Designs named in HELD_OUT are never drawn for training: they measure the reader on
faces it never saw. Nothing here is shipped, and no theme art is in the repository.

    python -m tools.card_net.faces --show anglo runs/cardnet/index_anglo.png
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from table.rules.cards import RANKS
from tools.real_decks import DECKS, THEMES, cut_sheet, load_sheet
from tools.render import cards as render_cards
from tools.render import fonts
from tools.train.rank_net import TYPEFACES

SUITS = "CDHS"
# Designs kept out of training, to measure on: five Aisleriot themes of different
# looks (a modern Anglo deck, two French-pattern decks, a four-colour deck, an Italian
# redrawing) and the two condensed faces the renderer's fixtures print.
HELD_OUT = ("anglo_modern", "bellot", "paris", "neoclassical_4_color", "tigullio",
            "DejaVuSansCondensed-Bold", "DejaVuSerifCondensed-Bold")
# Themes whose indices sit beside the suit or in a coloured frame: kept out of both
# training and measuring (tools/real_decks.py: the hand-built reader reads none).
ODD_THEMES = ("tango", "tango_nuevo", "ornamental")


@dataclass
class Face:
    """One card face, upright: image and alpha CARD_H high, and its indices, each as
    (centre, down, height) in card pixels: the middle of the rank-and-suit block, the
    card's "down" there (rank to suit), and the block's height."""

    image: np.ndarray
    alpha: np.ndarray
    rank: str
    suit: str
    design: str
    indices: list[tuple[np.ndarray, np.ndarray, float]] = field(default_factory=list)


def ink_mask(face: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """Printed ink on a card's stock: darker than the stock by 70 in its darkest
    channel, or strongly coloured."""
    dark = face.min(axis=2).astype(np.int16)
    stock = np.percentile(dark[alpha > 200], 90) if (alpha > 200).any() else 255
    hsv = cv2.cvtColor(face, cv2.COLOR_BGR2HSV)
    return (((stock - dark) > 70) | (hsv[..., 1] > 110)) & (alpha > 200)


def find_index(face: np.ndarray, alpha: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The top-left index of an upright card face: (centre, height) of the block the
    rank and the suit under it make, or None where none stands there. Ink blobs in
    the corner are joined, starting from the one nearest the corner, with each blob
    that lies under or beside the block so far, while the block stays index-sized."""
    h, w = alpha.shape
    ink = ink_mask(face, alpha)
    region = np.zeros_like(ink)
    region[: int(0.36 * h), : int(0.3 * w)] = ink[: int(0.36 * h), : int(0.3 * w)]
    n, _, stats, _ = cv2.connectedComponentsWithStats(region.astype(np.uint8), 8)
    blobs = [tuple(int(v) for v in stats[i, :4]) for i in range(1, n)
             if stats[i, 4] >= 8 and stats[i, 3] >= 0.012 * h
             and not (stats[i, 2] > 0.25 * w or stats[i, 3] > 0.3 * h)]  # frames and borders
    blobs = [b for b in blobs if b[0] > 1 and b[1] > 1]
    if not blobs:
        return None
    first = min(blobs, key=lambda b: b[0] + b[1])
    x0, y0, x1, y1 = first[0], first[1], first[0] + first[2], first[1] + first[3]
    joined = {first}
    grew = True
    while grew:
        grew = False
        for b in blobs:
            if b in joined:
                continue
            bx0, by0, bx1, by1 = b[0], b[1], b[0] + b[2], b[1] + b[3]
            under = bx0 < x1 + 0.01 * w and bx1 > x0 - 0.01 * w and by0 < y1 + 0.05 * h and by1 > y0
            beside = by0 < y1 and by1 > y0 and bx0 < x1 + 0.03 * w and bx1 > x0 - 0.03 * w
            nx0, ny0, nx1, ny1 = min(x0, bx0), min(y0, by0), max(x1, bx1), max(y1, by1)
            if (under or beside) and nx1 - nx0 <= 0.24 * w and ny1 - ny0 <= 0.3 * h:
                x0, y0, x1, y1 = nx0, ny0, nx1, ny1
                joined.add(b)
                grew = True
    if len(joined) < 2 or (y1 - y0) < 0.08 * h:
        return None  # a rank with no suit under it: not an index this reader knows
    return np.float32([(x0 + x1) / 2, (y0 + y1) / 2]), float(y1 - y0)


def with_indices(face: Face) -> Face:
    """The face with its two indices: the top-left one found, and the same one on the
    card turned round (printed decks repeat the index in the opposite corner)."""
    found = find_index(face.image, face.alpha)
    if found is None:
        return face
    centre, height = found
    h, w = face.alpha.shape
    far = np.float32([w, h]) - centre
    face.indices = [(centre, np.float32([0, 1]), height), (far, np.float32([0, -1]), height)]
    # Some decks (Dondorf, most poker decks) print the index in all four corners: one
    # as tall, as high and as far from its edge in the top-right corner is one too.
    mirror = find_index(np.ascontiguousarray(face.image[:, ::-1]), np.ascontiguousarray(face.alpha[:, ::-1]))
    if mirror is not None:
        m_centre, m_height = mirror
        if (abs(m_height - height) <= 0.15 * height and abs(m_centre[1] - centre[1]) <= 0.03 * h
                and abs(m_centre[0] - centre[0]) <= 0.03 * w):
            right = np.float32([w - m_centre[0], m_centre[1]])
            face.indices += [(right, np.float32([0, 1]), height),
                             (np.float32([w, h]) - right, np.float32([0, -1]), height)]
    return face


def theme_faces(names: tuple[str, ...] = DECKS) -> dict[str, list[Face]]:
    """design -> its 52 faces with indices, for the installed themes among `names`
    ({} without gnome-cards-data or rsvg-convert)."""
    if not THEMES.is_dir() or shutil.which("rsvg-convert") is None:
        return {}
    out: dict[str, list[Face]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            if name in ODD_THEMES or not (THEMES / f"{name}.svgz").is_file():
                continue
            cards = cut_sheet(load_sheet(THEMES / f"{name}.svgz", Path(tmp)))
            faces = [with_indices(Face(img, alpha, rank, suit, name)) for (rank, suit), (img, alpha) in cards.items()]
            out[name] = [f for f in faces if f.indices]
    return out


def rendered_faces(rng: np.random.Generator, per_design: int = 52) -> dict[str, list[Face]]:
    """design -> `per_design` faces drawn by the renderer in that typeface, for every
    installed typeface of the rank network's and the fixtures'."""
    out: dict[str, list[Face]] = {}
    specs = list({f.name: f for f in fonts.available(list(TYPEFACES) + list(render_cards.FIXTURE_FONTS))}.values())
    for font in specs:
        faces = []
        for k in range(per_design):
            rank, suit = RANKS[k % 13], SUITS[(k // 13) % 4]
            shape = str(rng.choice(list(render_cards.WIDTHS)))
            scale = 1.0 if rng.random() < 0.7 else 1.25
            img, alpha = render_cards.card_face(rank, suit, font, shape, scale, rng)
            face = Face(img, alpha, rank, suit, font.name)
            h, w = alpha.shape
            for _, down, outline in render_cards.index_layout(w, h, scale):
                middle = outline.mean(0)
                face.indices.append((np.float32(middle), down, float(np.ptp(outline[:, 1]))))
            faces.append(face)
        out.setdefault(font.name, []).extend(faces)
    return out


def all_faces(rng: np.random.Generator) -> dict[str, list[Face]]:
    return {**theme_faces(), **rendered_faces(rng)}


def split(designs: dict[str, list[Face]]) -> tuple[dict[str, list[Face]], dict[str, list[Face]]]:
    """(training designs, held-out designs)."""
    held = {k: v for k, v in designs.items() if k in HELD_OUT}
    return {k: v for k, v in designs.items() if k not in HELD_OUT}, held


def card_geometry(designs: dict[str, list[Face]]) -> dict[str, float]:
    """How a card lies from one of its indices, in index heights, averaged over every
    face: the card's centre along `down` and along `right` (down turned a quarter to
    the left), and its long and short sides. The reader places a card it saw one index
    of with these."""
    along_d, along_r, long_, short = [], [], [], []
    for faces in designs.values():
        for f in faces:
            h, w = f.alpha.shape
            c, _, hi = f.indices[0]
            along_d.append((h / 2 - c[1]) / hi)
            along_r.append((w / 2 - c[0]) / hi)
            long_.append(h / hi)
            short.append(w / hi)
    return {"centre_down": float(np.median(along_d)), "centre_right": float(np.median(along_r)),
            "long": float(np.median(long_)), "short": float(np.median(short))}


def show(design: str, out: Path) -> None:
    """A contact sheet of one theme's faces with the found index boxes drawn."""
    faces = theme_faces((design,)).get(design) or rendered_faces(np.random.default_rng(0)).get(design, [])
    tiles = []
    for f in faces[:52]:
        img = f.image.copy()
        for c, _, hi in f.indices:
            cv2.rectangle(img, (int(c[0] - 0.3 * hi), int(c[1] - hi / 2)), (int(c[0] + 0.3 * hi), int(c[1] + hi / 2)),
                          (0, 200, 0), 2)
        tiles.append(cv2.resize(img, (114, 175)))
    rows = [np.hstack(tiles[i:i + 13] + [np.zeros_like(tiles[0])] * (13 - len(tiles[i:i + 13])))
            for i in range(0, len(tiles), 13)]
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), np.vstack(rows))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--show", nargs=2, metavar=("DESIGN", "PNG"))
    a = ap.parse_args(argv)
    if a.show:
        show(a.show[0], Path(a.show[1]))
        return
    designs = all_faces(np.random.default_rng(0))
    for name, faces in designs.items():
        print(f"{name:30s} {len(faces):3d} faces with indices")
    print(card_geometry(split(designs)[0]))


if __name__ == "__main__":
    main()
