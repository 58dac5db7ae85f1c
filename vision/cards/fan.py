"""Cards in a fanned or overlapping hand, where often only a corner index shows."""

from __future__ import annotations

import numpy as np

from vision.cards.find import Region
from vision.types import Card, Unreadable


def read_fan(frame_bgr: np.ndarray, region: Region) -> tuple[list[Card], list[Unreadable]]:
    return [], []
