"""The default card reader: the faces read by the learned reader (vision.cards.net, from
the corner indices), the backs found by the hand-built reader's back finder
(vision.cards.read.read_backs), which the learned reader does not look for.

Measured on real tables with printed designs neither reader was built on, the learned
reader reads several times as many cards as the hand-built one (docs/vision-cards-d10.md);
the hand-built reader stays by name (`cards-hand`) to compare with. A back found where a
card was read (the card's middle in the back's box, or the back's in the card's) is
that card, read: the learned reader reads a face only from a sure index, and a face-up
card the back finder took for a back would otherwise be counted twice. A refusal of the
learned reader centred on a back is that back (an index half seen through a back's
pattern)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from table.reads import TableRead, inside
from vision.calibration import Calibration, checked_frame
from vision.cards.net import read_cards_net
from vision.cards.read import read_backs
from vision.colour import grey_refusal


def read_cards_learned(frame_bgr: np.ndarray, calibration: Calibration | None = None,
                       read_faces: Callable[[np.ndarray, Calibration | None], TableRead] | None = None) -> TableRead:
    """Cards, face-down cards and unreadable cards in a BGR frame (inside the play area
    when a calibration is given). A grey frame is refused over the whole view, as the
    hand-built reader refuses it. Anything but an image is a ValueError
    (vision.image_io.NotAnImage). `read_faces`: the face reader (a taught one,
    vision.teach_cards, in place of the shipped networks, read_cards_net)."""
    frame_bgr = checked_frame(frame_bgr, calibration, min_side=32)
    if (refusal := grey_refusal(frame_bgr, "card", "cards")) is not None:
        return refusal
    faces = (read_faces or read_cards_net)(frame_bgr, calibration)
    backs = read_backs(frame_bgr, calibration)
    face_down = tuple(b for b in backs.face_down
                      if not any(inside(c.center, b.box) or inside(b.center, c.box) for c in faces.cards))
    unreadable = tuple(u for u in faces.unreadable if not any(inside(u.center, b.box) for b in face_down))
    return dataclasses.replace(faces, face_down=face_down, unreadable=unreadable + backs.unreadable)
