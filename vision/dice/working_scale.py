"""The size dice are read at: a frame whose dice are much bigger than in the
training photos is shrunk first (vision.resized_read), and the read is mapped back
to the frame's own pixels.

Why: everything before the networks counts in pixels (the foreground's closings,
the table estimate, the smallest blob), and the networks saw dice 20-37 pixels on a
side. Big dice (as a camera mounted low gives) read as they are give fewer right
values, more phantoms and slower frames than the same frames shrunk first (measured
on the photos enlarged, docs/vision.md, "How the d6 reader reads a frame")."""

from __future__ import annotations

LARGEST = 42.0  # typical die side (pixels) still read as it is: the photos' 20-37 and a margin
TARGET = 30.0  # ...and the side a frame of bigger dice is shrunk to
# A bigger frame's measuring copy (vision.resized_read.look_factor) is read itself
# when its dice are this near TARGET (a share of it).
CLOSE_ENOUGH = 0.15


def working_factor(side: float) -> float:
    """How much to shrink a frame whose typical die side is `side` pixels (1: not at
    all). Smaller dice are not enlarged: on shrunk photos, enlarging read fewer dice
    than reading them as they were."""
    return 1.0 if side <= LARGEST else TARGET / side

