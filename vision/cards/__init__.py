"""Playing cards seen from above: rank from the corner index (cross-checked against the
pips for 2-10), suit where legible, face-down cards counted, doubtful ones reported."""

from vision.cards.read import read_cards

__all__ = ["read_cards"]
