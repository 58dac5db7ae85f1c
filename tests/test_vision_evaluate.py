"""Scoring rules of `tabletop21 eval`: centre-in-box matching, phantoms, double reads,
unreadable counted apart, and the generic kinds (domino halves as an unordered pair)."""

import json

import numpy as np
import pytest

from table.reads import Die, Domino, TableRead, Unreadable
from tabletop21.evaluate import KINDS, evaluate, labelled_kinds, score_kind, split_names, summary

BOXES = [{"value": 3, "box": [10, 10, 50, 50]}, {"value": 5, "box": [100, 100, 140, 140]}]


def die(value, x, y):
    return Die(value, (x, y), (x - 20, y - 20, x + 20, y + 20), 0.99)


def test_all_right():
    score, mistakes = score_kind(KINDS["dice"], BOXES, TableRead(dice=(die(3, 30, 30), die(5, 120, 120))))
    assert (score.labelled, score.found, score.value_right, score.phantoms) == (2, 2, 2, 0)
    assert mistakes == []


def test_wrong_value_missed_die_and_phantom():
    read = TableRead(dice=(die(4, 30, 30), die(2, 300, 300)))
    score, mistakes = score_kind(KINDS["dice"], BOXES, read)
    assert (score.found, score.value_right, score.phantoms) == (1, 0, 1)
    assert any("read 4, labelled 3" in m for m in mistakes)
    assert any("missed" in m for m in mistakes)
    assert any("phantom" in m for m in mistakes)


def test_double_read_is_a_phantom_and_nearest_counts():
    read = TableRead(dice=(die(1, 45, 45), die(3, 31, 29)))
    score, _ = score_kind(KINDS["dice"], BOXES[:1], read)
    assert (score.found, score.value_right, score.phantoms) == (1, 1, 1)


def test_a_double_read_is_a_phantom_whichever_half_is_right():
    read = TableRead(dice=(die(3, 45, 45), die(1, 31, 29)))
    score, mistakes = score_kind(KINDS["dice"], BOXES[:1], read)
    assert (score.found, score.value_right, score.phantoms) == (1, 1, 1)
    assert any("read again as 1" in m for m in mistakes)


def test_overlapping_boxes_each_get_their_own_read():
    # Two fanned cards: the first read lies inside both boxes and nearer the second's
    # centre, the second read only inside the second box. Both cards are read.
    labels = [{"value": 2, "box": [0, 0, 60, 100]}, {"value": 4, "box": [40, 0, 100, 100]}]
    read = TableRead(dice=(die(2, 55, 50), die(4, 90, 50)))
    score, mistakes = score_kind(KINDS["dice"], labels, read)
    assert (score.found, score.value_right, score.phantoms) == (2, 2, 0), mistakes
    # Both reads inside both boxes, each nearer the other card's centre.
    read = TableRead(dice=(die(4, 45, 50), die(2, 55, 50)))
    score, mistakes = score_kind(KINDS["dice"], labels, read)
    assert (score.found, score.value_right, score.phantoms) == (2, 2, 0), mistakes
    # A wrong value is matched all the same: found, not right, no phantom.
    read = TableRead(dice=(die(6, 55, 50), die(4, 90, 50)))
    score, mistakes = score_kind(KINDS["dice"], labels, read)
    assert (score.found, score.value_right, score.phantoms) == (2, 1, 0), mistakes


def test_unreadable_is_neither_right_nor_phantom():
    read = TableRead(unreadable=(Unreadable("die", (30, 30), "cocked"),))
    score, _ = score_kind(KINDS["dice"], BOXES[:1], read)
    assert (score.found, score.value_right, score.phantoms, score.unreadable) == (0, 0, 0, 1)


def test_domino_halves_compare_unordered():
    labels = [{"halves": [2, 5], "box": [0, 0, 80, 40]}]
    tile = Domino((5, 2), (40, 20), (0, 0, 80, 40), 0.0, 0.9)
    score, _ = score_kind(KINDS["dominoes"], labels, TableRead(dominoes=(tile,)))
    assert score.value_right == 1


def test_split_halves_are_disjoint_and_cover():
    names = [f"f{i}.jpg" for i in range(7)]
    even, odd = split_names(names, "even"), split_names(names, "odd")
    assert not set(even) & set(odd)
    assert sorted(even + odd) == sorted(names) == split_names(names, "all")


def test_evaluate_and_summary_on_a_tiny_directory(tmp_path):
    import cv2

    (tmp_path / "images").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "a.png"), np.zeros((64, 64, 3), np.uint8))
    (tmp_path / "labels.json").write_text(json.dumps({"a.png": {"width": 64, "height": 64, "dice": BOXES[:1]}}))
    results = evaluate(tmp_path, lambda frame: TableRead(dice=(die(3, 30, 30),)))
    result = summary(results)
    assert result["perfect_photos"] == 1
    assert result["kinds"]["dice"]["value_right_pct"] == 100.0


def test_photos_beside_labels_json_are_found_too(tmp_path):
    """A set laid out as DIR/labels.json with the photos beside it (no images/ folder)
    is scored like one with images/; a photo that is in neither is named where it was
    looked for first."""
    import cv2

    from vision.image_io import NotAnImage

    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((64, 64, 3), np.uint8))
    (tmp_path / "labels.json").write_text(json.dumps({"a.png": {"width": 64, "height": 64, "dice": BOXES[:1]}}))
    seen = []
    results = evaluate(tmp_path, lambda frame: seen.append(frame.shape) or TableRead(dice=(die(3, 30, 30),)))
    assert seen == [(64, 64, 3), (64, 64, 3)]  # once untimed, once scored
    assert summary(results)["kinds"]["dice"]["value_right"] == 1
    (tmp_path / "a.png").unlink()
    with pytest.raises(NotAnImage, match=r"images/a\.png"):
        evaluate(tmp_path, lambda frame: TableRead())


def test_a_kind_is_on_the_table_only_if_some_photo_holds_one():
    """A set of domino photos written with "dice": [] on every photo is a table of
    tiles: its dice reader is not run or scored (`tabletop21 eval` runs the readers
    of labelled_kinds)."""
    tiles = {"a.jpg": {"dice": [], "dominoes": [{"halves": [1, 2], "box": [0, 0, 9, 9]}]},
             "b.jpg": {"dice": [], "dominoes": []}}
    assert labelled_kinds(tiles) == ["dominoes"]
    tiles["b.jpg"]["dice"] = [{"value": 3, "box": [0, 0, 5, 5]}]
    assert labelled_kinds(tiles) == ["dice", "dominoes"]


def test_a_refusal_where_nothing_was_left_unread_spoils_the_photo():
    """The appliance asks for a re-roll on any refusal: a second, doubtful look at a die
    already read, or a refusal of bare table, costs the photo its "perfect" though
    every die was read right. A refusal of a die left unread, or of a box the labels
    mark as unreadable (a cocked die), is the right answer and costs nothing more."""
    both_read = (die(3, 30, 30), die(5, 120, 120))
    second_look = TableRead(dice=both_read, unreadable=(Unreadable("die", (40, 40), "top face unclear"),))
    score, mistakes = score_kind(KINDS["dice"], BOXES, second_look)
    assert (score.value_right, score.unreadable, score.needless_refusals) == (2, 0, 1)
    assert mistakes == ["dice refusal at (40, 40) where nothing was left unread: top face unclear"]
    bare_table = TableRead(dice=both_read, unreadable=(Unreadable("die", (300, 300), "cocked"),))
    assert score_kind(KINDS["dice"], BOXES, bare_table)[0].needless_refusals == 1
    assert score_kind(KINDS["dice"], BOXES, bare_table, [{"box": [280, 280, 320, 320], "why": "cocked"}]
                      )[0].needless_refusals == 0
    one_refused = TableRead(dice=both_read[:1], unreadable=(Unreadable("die", (120, 120), "glare"),))
    assert score_kind(KINDS["dice"], BOXES, one_refused)[0].needless_refusals == 0


def test_evaluate_counts_needless_refusals_against_a_perfect_photo(tmp_path):
    import cv2

    (tmp_path / "images").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "a.png"), np.zeros((64, 64, 3), np.uint8))
    (tmp_path / "labels.json").write_text(json.dumps({"a.png": {"dice": BOXES[:1],
                                                                 "unreadable": [{"box": [0, 0, 9, 9]}]}}))
    excused = Unreadable("die", (5, 5), "cocked")
    result = summary(evaluate(tmp_path, lambda frame: TableRead(dice=(die(3, 30, 30),), unreadable=(excused,))))
    assert result["perfect_photos"] == 1
    needless = Unreadable("die", (30, 30), "top face unclear")
    result = summary(evaluate(tmp_path, lambda frame: TableRead(dice=(die(3, 30, 30),), unreadable=(needless,))))
    assert (result["perfect_photos"], result["kinds"]["dice"]["needless_refusals"]) == (0, 1)


def test_a_malformed_unreadable_list_is_a_bad_labels_file(tmp_path):
    import pytest

    from tabletop21.evaluate import BadLabels, load_labels

    (tmp_path / "labels.json").write_text(json.dumps({"a.png": {"dice": BOXES, "unreadable": [{"why": "cocked"}]}}))
    with pytest.raises(BadLabels, match="a.png: unreadable is a list of objects with a box"):
        load_labels(tmp_path)


def test_labels_holding_no_object_cannot_be_scored(tmp_path):
    """With every list empty no kind is scored, and every photo counted as read
    perfectly: a 100% that measured nothing."""
    import cv2

    from tabletop21.evaluate import BadLabels

    (tmp_path / "images").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "a.png"), np.zeros((64, 64, 3), np.uint8))
    (tmp_path / "labels.json").write_text(json.dumps({"a.png": {"dice": [], "unreadable": [{"box": [0, 0, 9, 9]}]}}))
    with pytest.raises(BadLabels, match="labels.json: nothing labelled in any photo .*: cannot score"):
        evaluate(tmp_path, lambda frame: TableRead())


BOX = [10, 10, 50, 50]


@pytest.mark.parametrize("kind, label, words", [
    ("dice", {"value": 5.9, "box": BOX}, "a whole number 1-6"),  # was scored as a 5
    ("dice", {"value": True, "box": BOX}, "a whole number 1-6"),  # was scored as a 1
    ("dice", {"value": 9, "box": BOX}, "a whole number 1-6"),
    ("dice", {"value": 0, "box": BOX}, "a whole number 1-6"),
    ("dice", {"value": "3", "box": BOX}, "a whole number 1-6"),
    ("dice", {"value": 3, "box": [10, 10, float("nan"), 50]}, "four finite numbers"),
    ("dice", {"value": 3, "box": [50, 10, 10, 50]}, "x0 < x1 and y0 < y1"),
    ("dice", {"value": 3, "box": [10, 50, 50, 50]}, "x0 < x1 and y0 < y1"),
    ("dice", {"value": 3, "box": [10, 10, 50]}, "a box [x0, y0, x1, y1]"),
    ("dice", 3, "a box [x0, y0, x1, y1]"),
    ("d10", {"value": 10, "box": BOX}, "a whole number 0-9"),
    ("d10", {"value": -1, "box": BOX}, "a whole number 0-9"),
    ("dominoes", {"halves": [7, 1], "box": BOX}, "two whole numbers 0-6"),
    ("dominoes", {"halves": [1.5, 2], "box": BOX}, "two whole numbers 0-6"),
    ("dominoes", {"halves": [1, 2, 3], "box": BOX}, "two whole numbers 0-6"),
    ("cards", {"rank": "11", "box": BOX}, "one of A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K"),
    ("cards", {"rank": 10, "box": BOX}, "one of A, 2"),
])
def test_a_value_or_box_the_reader_could_never_give_is_a_bad_labels_file(tmp_path, kind, label, words):
    """Each refusal names the file, the photo, the kind and the object's number."""
    from tabletop21.evaluate import BadLabels, load_labels

    good = {"dice": {"value": 2, "box": BOX}, "d10": {"value": 0, "box": BOX},
            "dominoes": {"halves": [0, 6], "box": BOX}, "cards": {"rank": "10", "box": BOX}}[kind]
    (tmp_path / "labels.json").write_text(json.dumps({"a.png": {kind: [good]}, "b.png": {kind: [good, label]}}))
    with pytest.raises(BadLabels) as refused:
        load_labels(tmp_path)
    message = str(refused.value)
    assert message.startswith(f"{tmp_path / 'labels.json'}: b.png: {kind} object 2 needs ") and words in message


def test_a_whole_value_written_with_a_point_is_that_value(tmp_path):
    (tmp_path / "labels.json").write_text(json.dumps({"a.png": {"dice": [{"value": 3.0, "box": [10.0, 10, 50, 50.5]}],
                                                                 "dominoes": [{"halves": [2.0, 5], "box": BOX}]}}))
    from tabletop21.evaluate import load_labels

    labels = load_labels(tmp_path)["a.png"]
    assert KINDS["dice"].truth(labels["dice"][0]) == 3 and KINDS["dominoes"].truth(labels["dominoes"][0]) == (2, 5)
    assert score_kind(KINDS["dice"], labels["dice"], TableRead(dice=(die(3, 30, 30),)))[1] == []


def test_a_die_labelled_with_no_value_is_there_but_never_scored():
    """dice-aws labels its blurred dice with value null: eval refused the whole file."""
    from table.reads import Die, TableRead
    from tabletop21.evaluate import KINDS, score_kind

    labels = [{"value": 3, "box": [0, 0, 10, 10]}, {"value": None, "box": [20, 0, 30, 10]}]
    read = TableRead(dice=(Die(3, (5.0, 5.0), (0, 0, 10, 10), 0.9), Die(6, (25.0, 5.0), (20, 0, 30, 10), 0.9)))
    score, mistakes = score_kind(KINDS["dice"], labels, read)
    assert (score.labelled, score.value_right, score.phantoms) == (1, 1, 0) and not mistakes
