"""Domino tiles on the table: read their halves, count face-down ones, refuse the rest.

Entry point: read_dominoes(frame_bgr, calibration) -> TableRead, filling only
`dominoes`, `face_down` (kind "domino") and `unreadable` (kind "domino").
"""

from vision.dominoes.reader import read_dominoes

__all__ = ["read_dominoes"]
