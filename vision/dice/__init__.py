"""Reading six-sided dice: where they are and which face is up."""

from vision.dice.reader import read_dice

__all__ = ["read_dice"]
