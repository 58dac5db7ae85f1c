"""Frames from a camera set to grey (or an infrared night mode), refused by every
reader: the d6 networks read such frames with confident wrong values, and the d10,
domino and card readers, which find their objects by colour as well as by light,
miss a fifth to two fifths of them without a word (docs/vision.md, "Weak colour").
One refusal of the whole view says what to fix, where a short count would only make
the round ask again and again."""

from __future__ import annotations

import cv2
import numpy as np

from table.reads import TableRead, Unreadable, UnreadableKind

# A frame whose three channels never differ by more than this is grey. The least
# colourful fixture differs by 9 somewhere, the least colourful photo by 15; a grey
# JPEG stays at 0.
GREY_SPREAD = 3


def is_grey(frame_bgr: np.ndarray) -> bool:
    """Whether no pixel's channels differ by more than GREY_SPREAD, judged on every
    fourth pixel of every fourth row (a colour camera's chroma noise alone exceeds it
    in hundreds of those). A sparser sample answers first for the usual colour frame."""
    return all(_spread(frame_bgr[::step, ::step]) <= GREY_SPREAD for step in (16, 4))


def _spread(pixels: np.ndarray) -> float:
    b, g, r = cv2.split(np.ascontiguousarray(pixels))
    return cv2.minMaxLoc(cv2.max(cv2.max(cv2.absdiff(b, g), cv2.absdiff(g, r)), cv2.absdiff(b, r)))[1]


def grey_refusal(frame_bgr: np.ndarray, kind: UnreadableKind, things: str) -> TableRead | None:
    """One Unreadable of `kind` over the whole view when the frame is grey, else None."""
    if not is_grey(frame_bgr):
        return None
    reason = f"the picture has no colour, and {things} are found and read by colour as well as by light: set the camera to colour"
    return TableRead(unreadable=(whole_view(frame_bgr, kind, reason),))


def leaning(light_bgr: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The light's colour (B, G, R means of what shows it) scaled to a mean of 1, and
    how far its furthest channel lies from 1 (0 for grey); None when a channel is dark,
    which says nothing of the light. The card and dice readers each measure a cast so,
    from the pixels each takes to show the light."""
    light = np.asarray(light_bgr)
    if light.min() <= 0:
        return None
    light = light / light.mean()
    return light, float(np.abs(light - 1).max())


def uncast(frame_bgr: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """The frame with each channel scaled by its gain (B, G, R), clipped: a lamp's
    colour cast taken out. One lookup table per channel, the same values as scaling
    the frame in floats at a tenth of the time."""
    levels = np.arange(256, dtype=np.float32)[:, None] * np.asarray(gains, np.float32)
    table = np.clip(levels, 0, 255).astype(np.uint8).reshape(1, 256, 3)
    return cv2.LUT(np.ascontiguousarray(frame_bgr), table)


def whole_view(frame_bgr: np.ndarray, kind: UnreadableKind, reason: str) -> Unreadable:
    h, w = frame_bgr.shape[:2]
    return Unreadable(kind, (w / 2, h / 2), reason, (0.0, 0.0, float(w), float(h)))
