"""Glyph masks from the fonts on this machine, for the renderers and for building the
template atlas. Real decks use many index fonts, so everything that draws text goes
through one function that knows both OpenCV's Hershey fonts and TrueType files.

Only build-time code imports this module: it needs pygame, which the readers never do.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

_FONTS = Path("/usr/share/fonts")
_DEJAVU = _FONTS / "truetype" / "dejavu"


@dataclass(frozen=True)
class FontSpec:
    name: str
    hershey: int | None = None  # cv2.FONT_HERSHEY_* id, or None for a TrueType file
    thickness: int = 2
    path: str | None = None  # TrueType file ("" for freesansbold where pygame is not installed)


def _pygame_font_path() -> str:
    """Where pygame keeps freesansbold, found without importing pygame, so that trainers
    which import the renderers but draw no text run where pygame is not installed; ""
    there (`available` leaves the face out)."""
    spec = importlib.util.find_spec("pygame")
    if spec is None or spec.origin is None:
        return ""
    return str(Path(spec.origin).parent / "freesansbold.ttf")


HERSHEY = (
    FontSpec("hershey-simplex", cv2.FONT_HERSHEY_SIMPLEX, 3),
    FontSpec("hershey-duplex", cv2.FONT_HERSHEY_DUPLEX, 3),
    FontSpec("hershey-complex", cv2.FONT_HERSHEY_COMPLEX, 3),
    FontSpec("hershey-triplex", cv2.FONT_HERSHEY_TRIPLEX, 3),
)


def ttf(name: str) -> FontSpec:
    """A TrueType or OpenType face by its file name without extension: DejaVu's, pygame's
    bundled freesansbold, or any under /usr/share/fonts (the Debian font packages the
    rank network's trainer names)."""
    if name == "freesansbold":
        return FontSpec(name, None, 0, _pygame_font_path())
    return FontSpec(name, None, 0, _font_files().get(name, str(_DEJAVU / f"{name}.ttf")))


@lru_cache(maxsize=1)
def _font_files() -> dict[str, str]:
    return {path.stem: str(path) for suffix in ("otf", "ttf") for path in sorted(_FONTS.rglob(f"*.{suffix}"))}


def available(specs: list[FontSpec]) -> list[FontSpec]:
    """TrueType fonts missing on this machine are skipped rather than failing a build."""
    return [s for s in specs if s.hershey is not None or Path(s.path or "").is_file()]


def glyph_mask(text: str, font: FontSpec, height: int) -> np.ndarray:
    """Tightly cropped uint8 mask (255 = ink) of `text`, scaled so its ink is `height` tall."""
    if font.hershey is not None:
        big = np.zeros((200, 80 + 120 * len(text)), np.uint8)
        cv2.putText(big, text, (20, 150), font.hershey, 4.0, 255, font.thickness * 3, cv2.LINE_AA)
    else:
        import pygame.freetype

        pygame.freetype.init()
        face = pygame.freetype.Font(font.path, 120)
        surface, _ = face.render(text, (255, 255, 255), (0, 0, 0))
        import pygame.surfarray

        big = np.ascontiguousarray(pygame.surfarray.array3d(surface)[:, :, 0].T)
    ys, xs = np.nonzero(big > 60)
    crop = big[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    width = max(1, round(crop.shape[1] * height / crop.shape[0]))
    return cv2.resize(crop, (width, height), interpolation=cv2.INTER_AREA)


SUIT_CHARS = {"S": "\u2660", "C": "\u2663", "H": "\u2665", "D": "\u2666"}


def suit_mask(suit: str, height: int) -> np.ndarray:
    """Suit symbols come from DejaVu Sans, the one font here that has all four."""
    return glyph_mask(SUIT_CHARS[suit], ttf("DejaVuSans"), height)
