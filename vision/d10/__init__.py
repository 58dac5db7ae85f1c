"""Ten-sided dice (0-9) seen from above: the number on the kite-shaped top face, with 6
and 9 told apart by their underline or dot, and nothing reported that is not a d10."""

from vision.d10.read import read_d10

__all__ = ["read_d10"]
