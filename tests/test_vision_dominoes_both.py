"""The default domino reader (vision.dominoes.both): the hand-built and the learned
readers on one frame, merged, the hand-built read trusted where both read a tile."""

import json
from pathlib import Path

import numpy as np
import pytest

from table.reads import Domino, TableRead, Unreadable
from tabletop21.cli import main
from vision.dominoes import both, net
from vision.image_io import NotAnImage, load_bgr
from vision.read import OTHER_READERS, READERS, read_table

FIXTURES = Path(__file__).resolve().parents[1] / "calibration_images" / "dominoes"


def tile(halves, x, y, w=60.0, h=30.0, confidence=0.97):
    return Domino(halves, (x, y), (x - w / 2, y - h / 2, x + w / 2, y + h / 2), 0.0, confidence)


def refusal(x, y, reason="cannot read this tile's pips for sure (3: 0.61, 4: 0.90)"):
    return Unreadable("domino", (x, y), reason, (x - 30, y - 15, x + 30, y + 15))


def merged(monkeypatch, hand: TableRead, learned: TableRead, frame=None) -> TableRead:
    monkeypatch.setattr(both, "read_dominoes", lambda frame, calibration: hand)
    monkeypatch.setattr(net, "read_dominoes_net", lambda frame, calibration, sure_tiles: learned)
    return both.read_dominoes_both(np.zeros((64, 64, 3), np.uint8) if frame is None else frame)


def test_the_hand_built_read_stands_where_both_read_a_tile_and_the_learned_adds_the_rest(monkeypatch):
    hand = TableRead(dominoes=(tile((3, 1), 100, 100),), unreadable=(refusal(300, 100),))
    learned = TableRead(dominoes=(tile((1, 4), 105, 102), tile((0, 5), 300, 101), tile((6, 6), 500, 500)))
    read = merged(monkeypatch, hand, learned)
    assert [d.halves for d in read.dominoes] == [(3, 1), (0, 5), (6, 6)]
    assert read.dominoes[0] is hand.dominoes[0] and read.unreadable == (), "a read stands over a refusal"
    assert read.dominoes[1].dice_alike == "", "a blank half: no die shows it"
    assert "two dice side by side" in read.dominoes[2].dice_alike, "the learned reader sees no divider"


def test_only_the_learned_readers_unsure_pips_are_refused_not_tiles_it_found_without_halves(monkeypatch):
    learned = TableRead(unreadable=(refusal(100, 100), refusal(300, 300, f"{net.NO_HALVES}; straighten it")))
    read = merged(monkeypatch, TableRead(), learned)
    assert [u.center for u in read.unreadable] == [(100, 100)]


def test_two_reads_of_one_tile_in_different_places_are_both_refused(monkeypatch):
    read = merged(monkeypatch, TableRead(dominoes=(tile((2, 5), 100, 100),)),
                  TableRead(dominoes=(tile((5, 2), 400, 400),)))
    assert read.dominoes == () and all("duplicate tile 2-5" in u.reason for u in read.unreadable)


def test_the_face_down_tiles_are_the_hand_built_readers(monkeypatch):
    from table.reads import FaceDown

    down = (FaceDown("domino", (50.0, 50.0), (20.0, 35.0, 80.0, 65.0)),)
    assert merged(monkeypatch, TableRead(face_down=down), TableRead()).face_down == down


def test_a_frame_too_small_for_the_learned_reader_is_read_by_the_hand_built_one_alone():
    frame = np.full((20, 20, 3), 90, np.uint8)
    assert both.read_dominoes_both(frame) == OTHER_READERS["dominoes-hand"](frame)
    with pytest.raises(NotAnImage):
        both.read_dominoes_both(np.zeros((10, 10, 3), np.uint8))


def test_it_is_the_default_and_reads_every_fixture_tile_as_the_hand_built_one_does():
    labels = json.loads((FIXTURES / "labels.json").read_text())
    for name in sorted(labels)[::4]:
        frame = load_bgr(FIXTURES / "images" / name)
        default = read_table(frame, readers={"dominoes": READERS["dominoes"]})
        hand = OTHER_READERS["dominoes-hand"](frame)
        want = sorted(tuple(sorted(t["halves"])) for t in labels[name]["dominoes"])
        assert sorted(tuple(sorted(d.halves)) for d in default.dominoes) == want, name
        assert len(default.face_down) == len(hand.face_down)


def test_eval_scores_each_reader_when_asked(tmp_path, capsys, monkeypatch):
    calls = []
    for name in ("dominoes-hand", "dominoes-net"):
        real = OTHER_READERS[name]
        monkeypatch.setitem(OTHER_READERS, name, lambda frame, calibration=None, real=real, name=name: (
            calls.append(name), real(frame, calibration))[1])
    folder = tmp_path / "set"
    (folder / "images").mkdir(parents=True)
    labels = json.loads((FIXTURES / "labels.json").read_text())
    name = sorted(labels)[0]
    (folder / "images" / name).write_bytes((FIXTURES / "images" / name).read_bytes())
    (folder / "labels.json").write_text(json.dumps({name: labels[name]}))
    assert main(["eval", str(folder), "--dominoes-hand"]) == 0
    assert set(calls) == {"dominoes-hand"}
    calls.clear()
    assert main(["eval", str(folder), "--dominoes-net"]) == 0
    assert set(calls) == {"dominoes-net"}
    assert "dominoes: labelled" in capsys.readouterr().out


def test_a_taught_domino_reader_is_merged_with_the_hand_built_one_too(monkeypatch):
    from vision import read as read_module
    from vision import teach_dominoes

    taught = type("Taught", (), {"kind": "dominoes"})()
    learned = TableRead(dominoes=(tile((0, 5), 300, 101),))
    monkeypatch.setattr(teach_dominoes, "read_taught_dominoes",
                        lambda frame, t, sure_tiles: learned if t is taught and sure_tiles else None)
    monkeypatch.setattr(both, "read_dominoes", lambda frame, calibration: TableRead(dominoes=(tile((3, 1), 100, 100),)))
    read = read_module.taught_reader(taught)(np.zeros((64, 64, 3), np.uint8))
    assert [d.halves for d in read.dominoes] == [(3, 1), (0, 5)]
