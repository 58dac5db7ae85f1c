"""The domino reader's blob outlines (vision.dominoes.segment): the shapes that decide
whether a blob gets a second look, on masks drawn here so each case is exact."""

from __future__ import annotations

import cv2
import numpy as np

from vision.dominoes import segment


def _mask(*rects):
    """A mask of turned rectangles ((cx, cy), (w, h), angle) drawn together."""
    mask = np.zeros((240, 320), np.uint8)
    for rect in rects:
        cv2.fillPoly(mask, [cv2.boxPoints(rect).astype(np.int32)], 255)
    return mask


def test_two_tiles_touching_corner_to_corner_part_at_the_neck():
    mask = _mask(((100, 100), (100, 50), 30.0), ((185, 150), (100, 50), -40.0))
    parts = segment.necked_parts(mask, np.array([0, 0]))
    assert len(parts) == 2
    centres = sorted(tuple(np.round(p.rect[0])) for p in parts)
    assert abs(centres[0][0] - 100) < 12 and abs(centres[1][0] - 185) < 12
    assert all(p.fill >= segment.NECKED_FILL and 1.6 < p.aspect < 2.4 for p in parts)


def test_one_tile_and_a_notched_tile_are_not_parted():
    assert segment.necked_parts(_mask(((160, 120), (100, 50), 20.0)), np.array([0, 0])) == ()
    notched = _mask(((160, 120), (100, 50), 0.0))
    notched[95:120, 150:175] = 0  # glare eating into one long side
    assert segment.necked_parts(notched, np.array([0, 0])) == ()


def test_an_outline_knows_how_much_its_hull_fills_its_rectangle():
    notched = _mask(((160, 120), (100, 50), 0.0))
    notched[95:120, 150:175] = 0
    outline = segment.outline_of(notched, np.array([5, 7]))
    assert outline.fill < 0.9 < outline.hull <= 1.0
    assert np.allclose(outline.rect[0], (165, 127), atol=1.5)


def test_a_ragged_piece_holding_a_face_is_that_face_and_the_rest():
    """Two tiles side by side, offset along their length, whose sides and shadows
    join one face to its neighbour's rim: the ragged piece is the ringed face and
    what is left of it, which is the other tile."""
    other = ((225, 80), (120, 56), 0.0)
    ringed = ((160, 140), (120, 56), 0.0)
    piece = cv2.dilate(_mask(ringed), np.ones((7, 7), np.uint8)) | _mask(other)
    ragged = segment.outline_of(piece, np.array([0, 0]))
    face = segment.outline_of(_mask(((160, 140), (112, 48), 0.0)), np.array([0, 0]))
    assert ragged.fill < segment.NECKED_FILL <= face.fill
    parts = segment.parts_beside_faces(ragged, piece, [(face, _mask(((160, 140), (112, 48), 0.0)))],
                                  np.array([0, 0]))
    assert parts[0] == face and len(parts) == 2
    assert np.allclose(parts[1].rect[0], (225, 80), atol=6) and 1.8 < parts[1].aspect < 2.4
    assert segment.parts_beside_faces(ragged, piece, [], np.array([0, 0])) == ()
