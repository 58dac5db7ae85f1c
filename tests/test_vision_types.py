"""A read can only hold pieces the table can show: a reader (or a damaged recording)
that makes a d6 showing 9 or a NaN confidence is stopped where the read is made, not
where the round takes it in."""

import math

import pytest

from table.reads import D10, Card, Die, Domino, FaceDown, Unreadable

CENTRE, BOX = (10.0, 20.0), (0.0, 5.0, 20.0, 35.0)


@pytest.mark.parametrize("make", [
    lambda: Die(9, CENTRE, BOX, 0.9),
    lambda: Die(0, CENTRE, BOX, 0.9),
    lambda: Die(True, CENTRE, BOX, 0.9),
    lambda: Die(3.0, CENTRE, BOX, 0.9),
    lambda: D10(10, CENTRE, BOX, 0.9),
    lambda: D10(-1, CENTRE, BOX, 0.9),
    lambda: Domino((7, 1), CENTRE, BOX, 0.0, 0.9),
    lambda: Domino((1, 2, 3), CENTRE, BOX, 0.0, 0.9),
    lambda: Card("1", None, CENTRE, BOX, 0.0, 0.9),
    lambda: Card("Q", "X", CENTRE, BOX, 0.0, 0.9),
    lambda: Die(3, CENTRE, BOX, 1.01),
    lambda: Die(3, CENTRE, BOX, -0.1),
    lambda: Die(3, CENTRE, BOX, math.nan),
    lambda: Die(3, (math.nan, 1.0), BOX, 0.9),
    lambda: Die(3, (1.0,), BOX, 0.9),
    lambda: D10(3, CENTRE, (0.0, 0.0, math.inf, 1.0), 0.9),
    lambda: Domino((1, 2), CENTRE, BOX, math.nan, 0.9),
    lambda: Card("Q", None, CENTRE, BOX, math.inf, 0.9),
    lambda: FaceDown("card", (math.inf, 1.0), BOX),
    lambda: Unreadable("die", CENTRE, "cocked", (0.0, 0.0, math.nan, 1.0)),
])
def test_a_piece_that_cannot_be_is_refused_where_it_is_made(make):
    with pytest.raises(ValueError):
        make()


@pytest.mark.parametrize("make, words", [
    (lambda: FaceDown("die", CENTRE, BOX), "kind is one of 'domino', 'card', not 'die'"),
    (lambda: FaceDown("tile", CENTRE, BOX), "kind is one of 'domino', 'card', not 'tile'"),
    (lambda: FaceDown(None, CENTRE, BOX), "kind is one of 'domino', 'card', not None"),
    (lambda: Unreadable("dice", CENTRE, "cocked"), "kind is one of 'die', 'd10', 'domino', 'card', not 'dice'"),
    (lambda: Unreadable("", CENTRE, "cocked"), "kind is one of 'die', 'd10', 'domino', 'card', not ''"),
    (lambda: Unreadable("die", CENTRE, ""), "a reason is some words, not ''"),
    (lambda: Unreadable("die", CENTRE, "  "), "a reason is some words, not '  '"),
    (lambda: Unreadable("die", CENTRE, None), "a reason is some words, not None"),
])
def test_a_face_down_or_unreadable_piece_of_no_kind_or_with_no_reason_is_refused(make, words):
    """The round takes a face-down piece in by its kind (a tile's is "domino") and
    tells the table why a read was refused: a kind no reader makes counted no piece,
    and a reason of nothing told nobody what to fix."""
    with pytest.raises(ValueError, match=words):
        make()


def test_every_piece_the_table_can_show_is_taken():
    for value in range(1, 7):
        assert Die(value, CENTRE, BOX, 0.0).value == value
    for value in range(10):
        assert D10(value, CENTRE, BOX, 1.0).value == value
    assert Domino((6, 0), CENTRE, BOX, -35.0, 0.5).halves == (6, 0)  # halves stay in reading order
    assert Card("10", "H", CENTRE, BOX, 359.0, 0.9).rank == "10" and Card("A", None, CENTRE, BOX, 0, 1).suit is None
    assert Unreadable("die", CENTRE, "cocked").box is None
    assert [Unreadable(kind, CENTRE, "unclear").kind for kind in ("die", "d10", "domino", "card")] == [
        "die", "d10", "domino", "card"]
    assert [FaceDown(kind, CENTRE, BOX).kind for kind in ("domino", "card")] == ["domino", "card"]
