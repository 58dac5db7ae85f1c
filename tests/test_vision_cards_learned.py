"""The default card reader (vision.cards.learned): faces by the learned reader, backs by
the hand-built back finder, and how the two are put together."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from table.reads import Card, FaceDown, TableRead, Unreadable
from tabletop21.evaluate import evaluate, load_labels, summary
from vision.cards import learned
from vision.cards import read_cards as hand_built
from vision.cards.read import read_backs
from vision.image_io import NotAnImage, load_bgr

FIXTURES = Path(__file__).resolve().parents[1] / "calibration_images" / "cards"


def _in(point, box) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def test_the_card_fixtures_are_read_with_no_card_wrong_and_every_back_counted():
    labels = load_labels(FIXTURES)
    cards = summary(evaluate(FIXTURES, learned.read_cards_learned))["kinds"]["cards"]
    assert cards["labelled"] == 109 and cards["value_right"] >= 100
    assert cards["found"] == cards["value_right"] and cards["phantoms"] == 0
    backs = [lab["box"] for entry in labels.values() for lab in entry.get("face_down", [])]
    assert len(backs) == 14
    counted = extra = 0
    for name, entry in labels.items():
        read = learned.read_cards_learned(load_bgr(FIXTURES / "images" / name))
        boxes = [lab["box"] for lab in entry.get("face_down", [])]
        hits = [b for b in read.face_down if any(_in(b.center, box) for box in boxes)]
        counted += len(hits)
        extra += len(read.face_down) - len(hits)
    assert (counted, extra) == (14, 0)


def test_the_back_finder_counts_the_backs_the_hand_built_reader_counts():
    for path in sorted((FIXTURES / "images").glob("*.jpg")):
        frame = load_bgr(path)
        found, counted = read_backs(frame), hand_built(frame)
        assert not found.cards and not found.unreadable, path.name
        assert sorted(b.center for b in found.face_down) == sorted(b.center for b in counted.face_down), path.name


def _faces_and_backs(monkeypatch, faces: TableRead, backs: TableRead) -> TableRead:
    monkeypatch.setattr(learned, "read_cards_net", lambda frame, calibration=None: faces)
    monkeypatch.setattr(learned, "read_backs", lambda frame, calibration=None: backs)
    rng = np.random.default_rng(0)
    return learned.read_cards_learned(rng.integers(0, 255, (200, 200, 3), dtype=np.uint8))


def test_a_back_found_where_a_card_was_read_is_that_card(monkeypatch):
    card = Card("7", "H", (100.0, 100.0), (70.0, 55.0, 130.0, 145.0), 0.0, 0.99)
    on_card = FaceDown("card", (104.0, 98.0), (72.0, 52.0, 136.0, 144.0))
    beside = FaceDown("card", (170.0, 100.0), (145.0, 60.0, 195.0, 140.0))
    read = _faces_and_backs(monkeypatch, TableRead(cards=(card,)), TableRead(face_down=(on_card, beside)))
    assert read.cards == (card,) and read.face_down == (beside,)


def test_a_refusal_centred_on_a_back_is_that_back_and_others_stay(monkeypatch):
    back = FaceDown("card", (50.0, 50.0), (20.0, 10.0, 80.0, 90.0))
    on_back = Unreadable("card", (48.0, 40.0), "cannot read this card's corner for sure", (40.0, 30.0, 56.0, 50.0))
    elsewhere = Unreadable("card", (150.0, 150.0), "cannot read this card's corner for sure", (140.0, 140.0, 160.0, 160.0))
    read = _faces_and_backs(monkeypatch, TableRead(unreadable=(on_back, elsewhere)), TableRead(face_down=(back,)))
    assert read.face_down == (back,) and read.unreadable == (elsewhere,)


def test_a_grey_frame_is_refused_over_the_whole_view():
    grey = cv2.cvtColor(cv2.cvtColor(load_bgr(sorted((FIXTURES / "images").glob("*.jpg"))[0]), cv2.COLOR_BGR2GRAY),
                        cv2.COLOR_GRAY2BGR)
    read = learned.read_cards_learned(grey)
    assert not read.cards and not read.face_down
    (refusal,) = read.unreadable
    assert refusal.kind == "card" and "colour" in refusal.reason


@pytest.mark.parametrize("bad", [np.zeros((10, 10, 3), np.uint8), np.zeros((64, 64), np.float64), "a.jpg"])
def test_bad_frames_are_a_plain_error(bad):
    with pytest.raises((NotAnImage, ValueError)):
        learned.read_cards_learned(bad)


def test_small_indices_in_a_big_frame_are_found_again_at_its_own_resolution(monkeypatch):
    from vision import dice_net
    from vision.cards import net

    det = {"input": 448, "max_input": 896}
    assert net.working_enlarge((640, 640, 3), det) == 1.0, "a 640 frame has too few pixels more to show"
    assert net.working_enlarge((720, 1280, 3), det) == 2.0 and net.working_enlarge((700, 700, 3), det) == 700 / 448
    assert net.working_enlarge((4000, 3000, 3), {"input": 448}) == 1.0, "no max_input: one look"
    looks = []

    def finds(height):
        def detect_at(frame, nets, threshold, enlarge):
            looks.append(enlarge)
            return [{"centre": (10.0, 10.0), "height": height if enlarge == 1.0 else 2 * height, "down": (0.0, 1.0),
                     "score": 0.9}]
        return detect_at

    nets = dice_net.load_nets(net.CONFIG)
    frame = np.zeros((1792, 1792, 3), np.uint8)  # 4x the input: an index of h px is h / 4 at the input
    monkeypatch.setattr(net, "_detect_at", finds(4 * 8.0))
    assert net.detect(frame, nets, 0.3)[0]["height"] == 64.0 and looks == [1.0, 2.0], "small: the closer look's"
    looks.clear()
    monkeypatch.setattr(net, "_detect_at", finds(4 * 20.0))
    assert net.detect(frame, nets, 0.3)[0]["height"] == 80.0 and looks == [1.0], "big enough: one look"
