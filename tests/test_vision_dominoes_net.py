"""The learned domino reader (vision.dominoes.net): what it reports, what it refuses,
how halves are paired into tiles, and that it reads a plainly rendered tile."""

import json
from pathlib import Path

import numpy as np
import pytest

from table.reads import Domino, TableRead, Unreadable
from tools.domino_net import render
from tools.render import dominoes as fixtures
from vision import dice_net
from vision.dominoes import net
from vision.read import OTHER_READERS, READERS

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def _half(x, y, value, side=30.0, sure=0.99):
    p = np.full(8, (1 - sure) / 7)
    p[value + 1] = sure
    return {"center": (x, y), "w": side, "h": side, "score": 0.9, "probs": p,
            "box": (x - side / 2, y - side / 2, x + side / 2, y + side / 2)}


def _tile(x, y, w=60.0, h=30.0, score=0.9):
    return {"center": (x, y), "w": w, "h": h, "score": score, "box": (x - w / 2, y - h / 2, x + w / 2, y + h / 2)}


def _frame_with_tiles(tiles, seed=0, short=40.0):
    """A wood table (tools.render.dominoes) with tiles of a plain ivory look, each
    (halves, centre, angle)."""
    rng = np.random.default_rng(seed)
    scene = fixtures.table_background("wood", (640, 480), rng)
    look = render.Look((205, 230, 240), ((25, 25, 25),) * 7, "groove", False, 1.0, False, fixtures.TileShape())
    for halves, centre, angle in tiles:
        tex, alpha = render.tile(halves, look, rng)
        fixtures.place_tile(scene, tex, alpha, centre, short, angle)
    return np.clip(scene, 0, 255).astype(np.uint8)


def test_the_reader_is_registered_by_name_but_not_the_default():
    assert "dominoes-net" in OTHER_READERS
    assert READERS["dominoes"] is not OTHER_READERS["dominoes-net"]


def test_two_halves_either_side_of_a_found_tile_make_it():
    halves = [_half(100, 100, 3), _half(130, 100, 5), _half(300, 300, 2)]
    (t, a, b), = net.pair(halves, [_tile(115, 100)])
    assert {a["center"], b["center"]} == {(100, 100), (130, 100)}


def test_a_line_of_touching_tiles_pairs_by_the_tiles_centres_not_by_the_nearest_half():
    # four halves in a row, 30 px apart: tiles at 115 and 175, not the seam at 145
    halves = [_half(100 + 30 * k, 100, k) for k in range(4)]
    paired = net.pair(halves, [_tile(115, 100), _tile(175, 100)])
    got = sorted(tuple(sorted((a["center"][0], b["center"][0]))) for _, a, b in paired)
    assert got == [(100, 130), (160, 190)]


def test_a_pair_the_classifier_sees_no_pair_in_is_passed_over_for_the_next_best():
    # a tile found at the seam between two touching tiles (145) fits halves 1 and 2 best
    halves = [_half(100 + 30 * k, 100, k) for k in range(4)]
    tiles = [_tile(145, 100), _tile(113, 100)]
    (_, a, b), _ = net.pair(halves, tiles)
    assert (a["center"][0], b["center"][0]) == (130, 160)
    seam, real = net.pair(halves, tiles, keep=lambda i, j: (i, j) != (1, 2))
    assert seam[1] is None and (real[1]["center"][0], real[2]["center"][0]) == (100, 130)


def test_a_tile_no_halves_fit_is_refused_when_sure_and_dropped_when_not():
    paired = net.pair([_half(100, 100, 3)], [_tile(115, 100, score=0.9), _tile(400, 100, score=0.4)])
    reads, refusals = net.decide(paired, threshold=0.9, sure_tile=0.6)
    assert reads == [] and len(refusals) == 1 and refusals[0].center == (115, 100)
    assert "halves" in refusals[0].reason


def test_a_half_not_read_for_sure_makes_the_tile_unreadable_never_a_guess():
    paired = net.pair([_half(100, 100, 3), _half(130, 100, 5, sure=0.6)], [_tile(115, 100)])
    reads, refusals = net.decide(paired, threshold=0.9, sure_tile=0.6)
    assert reads == []
    assert len(refusals) == 1 and refusals[0].kind == "domino" and "5: 0.60" in refusals[0].reason


@pytest.mark.parametrize("angle", [0, 37, 90, 180, -120])
def test_a_half_is_cut_with_its_other_half_to_the_right_whichever_way_the_tile_lies(angle):
    frame = np.zeros((200, 200, 3), np.uint8)
    c = np.array([100.0, 100.0])
    u = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
    bright = c + 12 * u  # a mark on the side towards the partner
    frame[int(round(bright[1])) - 2:int(round(bright[1])) + 3, int(round(bright[0])) - 2:int(round(bright[0])) + 3] = 255
    crop = net.half_crop(frame, tuple(c), tuple(c + 30 * u), 40, 1.0)
    ys, xs = np.nonzero(crop.max(2) > 100)
    assert len(xs) and xs.mean() > 30 and abs(ys.mean() - 19.5) < 4


def test_halves_come_left_end_first_and_the_angle_points_from_the_first_to_the_second():
    assert net.reading_order((3, 5), (10.0, 0.0), (0.0, 0.0)) == ((5, 3), 0.0)
    assert net.reading_order((3, 5), (0.0, 0.0), (0.0, 10.0)) == ((3, 5), 90.0)
    halves, angle = net.reading_order((1, 2), (0.0, 10.0), (0.0, 0.0))
    assert halves == (2, 1) and angle == 90.0


def test_a_tile_read_twice_is_refused_both_times():
    d = Domino((2, 5), (10.0, 10.0), (0, 0, 20, 20), 0.0, 0.9)
    e = Domino((5, 2), (100.0, 10.0), (90, 0, 110, 20), 0.0, 0.9)
    f = Domino((1, 1), (200.0, 10.0), (190, 0, 210, 20), 0.0, 0.9)
    kept, refused = net.refuse_duplicates([d, e, f], [])
    assert kept == [f] and len(refused) == 2 and all("duplicate tile 2-5" in u.reason for u in refused)


@pytest.mark.parametrize("bad", [np.zeros((64, 64, 3), np.float32), np.zeros((64, 64), np.uint8),
                                 np.zeros((8, 8, 3), np.uint8), "frame.jpg", None])
def test_anything_but_an_8_bit_bgr_frame_is_refused_loudly(bad):
    with pytest.raises(ValueError, match="uint8 BGR frame"):
        net.read_dominoes_net(bad)


def test_the_shipped_models_are_small_and_their_config_names_them():
    cfg = json.loads(net.CONFIG.read_text())
    for part in ("detector", "face"):
        f = net.CONFIG.parent / cfg[part]["file"]
        assert f.stat().st_size < 1_000_000
    assert cfg["face"]["classes"] == ["not a half", 0, 1, 2, 3, 4, 5, 6]
    nets = dice_net.load_nets(net.CONFIG)
    assert nets.face.get_inputs()[0].shape[1:] == [3, cfg["face"]["input"], cfg["face"]["input"]]


def test_a_bare_table_holds_no_tile():
    for frame in (np.full((480, 640, 3), 128, np.uint8), _frame_with_tiles([])):
        read = net.read_dominoes_net(frame)
        assert isinstance(read, TableRead)
        assert read.dominoes == () and read.unreadable == ()


def test_plainly_rendered_tiles_are_read_right_and_none_wrong():
    tiles = [((2, 5), (160.0, 140.0), 0.0), ((6, 1), (440.0, 150.0), 90.0), ((3, 3), (300.0, 330.0), 30.0),
             ((0, 4), (500.0, 380.0), -20.0)]
    read = net.read_dominoes_net(_frame_with_tiles(tiles))
    assert all(isinstance(d, Domino) and 0 <= d.confidence <= 1 and -90 < d.angle <= 90 for d in read.dominoes)
    assert all(isinstance(u, Unreadable) and u.kind == "domino" for u in read.unreadable)
    want = {tuple(sorted(h)) for h, _, _ in tiles}
    got = [tuple(sorted(d.halves)) for d in read.dominoes]
    assert set(got) <= want  # nothing wrong, nothing made up
    assert len(got) >= 3
    for d in read.dominoes:  # each read where its tile lies
        (h, c, _), = [t for t in tiles if tuple(sorted(t[0])) == tuple(sorted(d.halves))]
        assert abs(d.center[0] - c[0]) < 15 and abs(d.center[1] - c[1]) < 15


@pytest.mark.skipif(not (SHARED / "domino-photos").is_dir(),
                    reason="../shared/data/domino-photos is not beside the repository")
def test_on_real_photos_of_a_set_it_never_saw_it_reads_more_tiles_right_than_wrong():
    from tools.domino_net.evaluate import _tally, photo_frames, score_frame

    t = _tally()
    for k, (_, frame, labels) in enumerate(photo_frames(SHARED, 1.0)):
        if k % 4 == 0:  # every fourth photo: the test stays fast
            score_frame(net.read_dominoes_net(frame), labels, t)
    assert t["labelled"] > 80
    assert t["right"] > t["wrong"]


def test_eval_scores_the_learned_reader_when_asked(tmp_path, capsys, monkeypatch):
    import cv2

    from tabletop21.cli import main

    calls = []
    learned = OTHER_READERS["dominoes-net"]

    def spy(frame, calibration=None):
        calls.append(frame.shape)
        return learned(frame, calibration)

    monkeypatch.setitem(OTHER_READERS, "dominoes-net", spy)

    tiles = [((2, 5), (160.0, 140.0), 0.0), ((6, 1), (440.0, 150.0), 90.0)]
    (tmp_path / "images").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "t.png"), _frame_with_tiles(tiles))
    boxes = [[120, 110, 200, 170], [410, 110, 470, 190]]
    (tmp_path / "labels.json").write_text(json.dumps({"t.png": {"width": 640, "height": 480, "dominoes": [
        {"halves": list(h), "box": b} for (h, _, _), b in zip(tiles, boxes)]}}))
    assert main(["eval", str(tmp_path)]) == 0
    assert calls == []  # the hand-built reader, as shipped
    capsys.readouterr()
    assert main(["eval", str(tmp_path), "--dominoes-net"]) == 0
    assert calls and set(calls) == {(480, 640, 3)}  # it read the photo (eval may read it more than once)
    out = capsys.readouterr().out
    assert "dominoes: labelled 2, found 2" in out and "value right 2" in out


def _read(halves, x, y, confidence=0.97, w=60.0, h=30.0):
    return Domino(halves, (x, y), (x - w / 2, y - h / 2, x + w / 2, y + h / 2), 0.0, confidence)


def _refusal(x, y, w=60.0, h=30.0):
    return Unreadable("domino", (x, y), "cannot read this tile's pips for sure", (x - w / 2, y - h / 2, x + w / 2,
                                                                                  y + h / 2))


def test_two_looks_read_a_tile_once_and_refuse_one_they_read_differently():
    first = ([_read((2, 5), 100, 100, 0.96), _read((1, 1), 300, 100)], [_refusal(500, 100)])
    second = ([_read((5, 2), 102, 101, 0.99), _read((1, 2), 301, 99), _read((6, 6), 500, 102)], [])
    reads, refusals = net.merge_looks(first, second)
    assert [(d.halves, d.confidence) for d in reads] == [((5, 2), 0.99), ((6, 6), 0.97)], \
        "the surer of two reads of one tile; a tile only the second look reads stands over the first's refusal"
    assert len(refusals) == 1 and refusals[0].center == (300, 100) and "1-1, 1-2 in two looks" in refusals[0].reason


def test_a_refusal_stays_where_no_look_read_a_tile_and_is_kept_once():
    first = ([], [_refusal(100, 100)])
    second = ([_read((3, 4), 400, 400)], [_refusal(102, 99), _refusal(250, 250)])
    reads, refusals = net.merge_looks(first, second)
    assert [d.halves for d in reads] == [(3, 4)]
    assert [u.center for u in refusals] == [(100, 100), (250, 250)]


def test_the_shipped_reader_takes_a_second_smaller_look_for_tiles_seen_close_up():
    cfg = json.loads(net.CONFIG.read_text())
    assert cfg["detector"]["looks"] == [1.0, 0.5]


@pytest.mark.skipif(not (SHARED / "domino-photos").is_dir(),
                    reason="../shared/data/domino-photos is not beside the repository")
def test_tiles_seen_close_up_are_read_with_the_second_look_and_missed_without_it(tmp_path):
    from tools.domino_net.evaluate import _tally, closeup_frames, score_frame

    one = tmp_path / "domino_net.json"
    cfg = json.loads(net.CONFIG.read_text())
    cfg["detector"]["looks"] = [1.0]
    for name in (cfg["detector"]["file"], cfg["face"]["file"]):
        (tmp_path / name).symlink_to(net.CONFIG.parent / name)
    one.write_text(json.dumps(cfg))
    both, alone = _tally(), _tally()
    for _, frame, labels in closeup_frames(SHARED, 1.5):
        score_frame(net.read_dominoes_net(frame), labels, both)
        score_frame(net.read_dominoes_net(frame, config=one), labels, alone)
    assert both["labelled"] == alone["labelled"] > 60
    assert both["right"] >= alone["right"] + 5 and both["wrong"] <= 1
