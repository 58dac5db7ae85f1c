"""Builds glyph_atlas.png/json, the templates vision.cards.glyphs matches against.

Run `python -m tools.train.glyph_atlas` after changing the font list. The condensed
DejaVu faces are deliberately left out so the fixtures rendered with them measure how
the matcher does on a font it has never seen.
"""

from __future__ import annotations

import json

import cv2
import numpy as np

from tools.render import fonts
from vision.cards.glyphs import ATLAS_JSON, ATLAS_PNG, square_glyph

RANK_TEXTS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DIGITS = tuple(str(d) for d in range(10))
TEMPLATE_FONTS = [
    *fonts.HERSHEY,
    fonts.ttf("freesansbold"),
    fonts.ttf("DejaVuSans-Bold"),
    fonts.ttf("DejaVuSans"),
    fonts.ttf("DejaVuSerif-Bold"),
    fonts.ttf("DejaVuSerif"),
    fonts.ttf("DejaVuSansMono-Bold"),
]


def _weights(mask: np.ndarray) -> list[np.ndarray]:
    """The same glyph thinner and bolder, as blur and exposure change stroke width."""
    kernel = np.ones((3, 3), np.uint8)
    return [mask, cv2.dilate(mask, kernel), cv2.erode(mask, kernel)]


def build() -> tuple[list[str], np.ndarray]:
    labels: list[str] = []
    squares: list[np.ndarray] = []
    for font in fonts.available(TEMPLATE_FONTS):
        for text in dict.fromkeys(RANK_TEXTS + DIGITS):
            if text == "0" and font.hershey is not None:
                continue  # Hershey zeros are slashed; the lone digit 0 only matters on d10s
            for variant in _weights(fonts.glyph_mask(text, font, 48)):
                squares.append(square_glyph(variant > 100))
                labels.append(text)
    for suit in "SCHD":
        for variant in _weights(fonts.suit_mask(suit, 48)):
            squares.append(square_glyph(variant > 100))
            labels.append(suit)
    return labels, np.concatenate(squares, axis=0)


def main() -> None:
    labels, sheet = build()
    cv2.imwrite(str(ATLAS_PNG), sheet)
    ATLAS_JSON.write_text(json.dumps(labels))
    print(f"{len(labels)} templates -> {ATLAS_PNG}")


if __name__ == "__main__":
    main()
