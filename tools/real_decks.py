"""How the card reader does on the designs real decks print, not only on its renders.

The card reader learnt its indices from cards the project renders in a few dozen
typefaces. Real decks draw their indices, pips and court frames their own way, so this
lays out the art of GNOME Aisleriot's card themes (Debian's gnome-cards-data: scans and
redrawings of printed decks such as Dondorf, Bellot, Paris and several Anglo-American
ones) on the renderer's tables, photographs them with camera_look (uneven light,
shadows, tilt, blur, noise, JPEG) and scores `read_cards` (or, with --net, the learned
`read_cards_net`) on them as `tabletop21 eval` scores a labelled folder. The art is read
from the installed package at run time: none of it is in the repository. The
hand-built reader never trained on it; the learned one (tools/card_net) trains on the
themes not in tools.card_net.faces.HELD_OUT, so score it on those:
`--net --decks anglo_modern,bellot,paris,neoclassical_4_color,tigullio`.

    sudo apt-get install gnome-cards-data librsvg2-bin
    python -m tools.real_decks [--scenes 10] [--seed 0] [--fans] [--decks anglo,paris]

Without the package it says so and stops (exit 0): it is a measure, not a test.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

from table.rules.cards import RANKS
from tabletop21.evaluate import evaluate, summary
from tools.render.card_fixture_set import write_set
from tools.render.cards import CARD_H, WIDTHS, FaceChoice, laid_out
from vision.cards import read_cards

THEMES = Path("/usr/share/aisleriot/cards")
# The themes with French suits and A, 2-10, J, Q, K indices: the kind of deck the
# games here are played with. (Others print B/D/K, V/D/R, Cyrillic or Swiss suits.)
DECKS = ("anglo", "anglo_modern", "anglo_modern_4_color", "anglo_poker", "bellot", "dondorf", "gnomangelo",
         "guyenne-classic", "neoclassical", "neoclassical_4_color", "orell", "ornamental", "paris", "plastic",
         "simplistic", "tango", "tango_nuevo", "tigullio")
SUIT_ROWS = "CDHS"  # a theme's sheet: 13 ranks across, rows of clubs, diamonds, hearts, spades, then extras
SHEET_ROWS = 5
SHAPE = "bridge"  # the themes' cards are about 1.55 times as high as wide, as bridge cards are
SHEET_WIDTH = 13 * 300  # pixels the sheet is drawn at: each card comes out bigger than CARD_H, then shrinks
# The themes' outlines are 2-5 of those pixels (a card is 300 wide); a rim whose median is
# under this share of the stock's white is outline (anti-aliasing leaves its last ring paler).
MAX_OUTLINE, OUTLINE_DARKER = 12, 0.9


def cut_sheet(sheet: np.ndarray) -> dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]:
    """(rank, suit) -> (BGR face, alpha) at the renderer's bridge size, cut from a
    theme's sheet (BGRA, or BGR with the corners left square)."""
    height, width = sheet.shape[:2]
    size = (WIDTHS[SHAPE], CARD_H)
    cards = {}
    for row, suit in enumerate(SUIT_ROWS):
        for column, rank in enumerate(RANKS):
            x0, x1 = round(column * width / 13), round((column + 1) * width / 13)
            y0, y1 = round(row * height / SHEET_ROWS), round((row + 1) * height / SHEET_ROWS)
            card = cv2.resize(without_outline(sheet[y0:y1, x0:x1]), size, interpolation=cv2.INTER_AREA)
            alpha = card[..., 3] if card.shape[2] == 4 else np.full(card.shape[:2], 255, np.uint8)
            cards[rank, suit] = np.ascontiguousarray(card[..., :3]), np.ascontiguousarray(alpha)
    return cards


def without_outline(card: np.ndarray) -> np.ndarray:
    """The card with the dark line the themes draw round each card's edge made transparent.
    Printed cards have no such line, and in a fan it runs right beside every index, where
    on a photographed card there is only the soft shade of the card above: left on, it
    measures the reader against a drawing convention, not a deck. Rings of the card's
    rim are peeled off while they are darker than its stock (a card with no alpha, or no
    dark rim, comes back as it is)."""
    if card.shape[2] != 4:
        return card
    alpha = card[..., 3].copy()
    grey = cv2.cvtColor(card[..., :3], cv2.COLOR_BGR2GRAY)
    stock = np.percentile(grey[alpha == 255], 90) if (alpha == 255).any() else 255.0
    for _ in range(MAX_OUTLINE):
        inner = cv2.erode(alpha, np.ones((3, 3), np.uint8), borderType=cv2.BORDER_CONSTANT, borderValue=0)
        rim = (alpha > 127) & (inner <= 127)
        if not rim.any() or np.median(grey[rim]) >= OUTLINE_DARKER * stock:
            break
        alpha = inner
    return np.dstack([card[..., :3], alpha])


def deck_faces(name: str, cards: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]) -> FaceChoice:
    """The renderer's face choice for one deck: a random suit, and a random rank where
    the scene does not ask for one."""
    def face(rng: np.random.Generator, shape: str, rank: str | None):
        if shape != SHAPE:
            raise ValueError(f"a deck's cards come in the {SHAPE} shape only, not {shape}")
        rank = rank or str(rng.choice(RANKS))
        suit = str(rng.choice(list(SUIT_ROWS)))
        sprite, alpha = cards[rank, suit]
        return sprite, alpha, {"rank": rank, "suit": suit, "index_scale": 1.0}
    return lambda rng: (face, name)


def load_sheet(theme: Path, work: Path) -> np.ndarray:
    """A theme's sheet drawn with rsvg-convert (it reads the gzipped SVG as it is)."""
    png = work / f"{theme.stem}.png"
    subprocess.run(["rsvg-convert", "-w", str(SHEET_WIDTH), str(theme), "-o", str(png)], check=True)
    sheet = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
    if sheet is None:
        raise RuntimeError(f"{theme}: rsvg-convert drew nothing OpenCV can read")
    return sheet


def scenes(faces: FaceChoice, count: int, seed: int, fans: bool):
    """`count` scenes of three loose cards, or of one fan of three to five cards."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        ranks = [] if fans else [str(r) for r in rng.choice(RANKS, 3)]
        yield laid_out(rng, ranks, faces, shapes=(SHAPE,), fan=1.0 if fans else 0.0)


def _line(name: str, cards: dict) -> str:
    found, right, refused, phantoms = cards["found"], cards["value_right"], cards["unreadable"], cards["phantoms"]
    missed = cards["labelled"] - found - refused
    return (f"{name:22s} {cards['labelled']:4d} cards: {right:4d} right, {found - right:3d} wrong, "
            f"{refused:4d} refused, {missed:4d} missed, {phantoms:3d} phantoms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=10, help="scenes per deck")
    parser.add_argument("--seed", type=int, default=0, help="the scenes' seed (the same for every deck)")
    parser.add_argument("--fans", action="store_true", help="fans of three to five instead of three loose cards")
    parser.add_argument("--decks", help=f"comma-separated themes (default: {', '.join(DECKS)})")
    parser.add_argument("--net", action="store_true", help="score the learned card reader (vision.cards.net)")
    parser.add_argument("--config", help="with --net: a card_net.json other than the shipped one")
    args = parser.parse_args(argv)
    if not THEMES.is_dir() or shutil.which("rsvg-convert") is None:
        print(f"no deck art: {THEMES} or rsvg-convert is missing "
              "(sudo apt-get install gnome-cards-data librsvg2-bin); nothing measured")
        return 0
    decks = args.decks.split(",") if args.decks else list(DECKS)
    if missing := [d for d in decks if not (THEMES / f"{d}.svgz").is_file()]:
        parser.error(f"no such theme in {THEMES}: {', '.join(missing)}")
    cv2.setNumThreads(1)
    reader = read_cards
    if args.net:
        from vision.cards.net import read_cards_net

        def reader(frame, calibration=None):
            return read_cards_net(frame, calibration, args.config)
    totals: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for deck in decks:
            faces = deck_faces(deck, cut_sheet(load_sheet(THEMES / f"{deck}.svgz", work)))
            folder = work / deck
            write_set(folder, deck, scenes(faces, args.scenes, args.seed, args.fans))
            cards = summary(evaluate(folder, reader))["kinds"]["cards"]
            print(_line(deck, cards), flush=True)
            for key in ("labelled", "found", "value_right", "unreadable", "phantoms"):
                totals[key] = totals.get(key, 0) + cards[key]
    print(_line("all decks", totals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
