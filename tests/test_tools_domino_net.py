"""The learned domino reader's training data (tools/domino_net): rendered tiles carry
their halves where they are drawn, held-out looks stay out of training, composites'
labels lie on the tiles they name."""

import colorsys

import cv2
import numpy as np
import pytest

from table.reads import Domino, TableRead, Unreadable
from tools.d10_net.compose import SmallTable
from tools.domino_net import compose, render
from tools.domino_net.evaluate import score_frame


def _table(seed: int = 0) -> SmallTable:
    rng = np.random.default_rng(seed)
    img = np.clip(rng.normal(110, 6, (480, 640, 3)), 0, 255).astype(np.uint8)
    return SmallTable(img, np.zeros((0, 4), np.float32))


def _hue(bgr) -> tuple[float, float, float]:
    b, g, r = (c / 255 for c in bgr)
    return colorsys.rgb_to_hsv(r, g, b)


def test_a_tile_is_drawn_twice_as_long_as_wide_with_its_pips_in_the_half_they_belong_to():
    rng = np.random.default_rng(1)
    look = render.Look((235, 235, 235), ((20, 20, 20),) * 7, "groove", False, 1.0, False, render.fixtures.TileShape())
    img, alpha = render.tile((0, 6), look, rng)
    assert img.shape == (render.S, 2 * render.S, 3) and alpha.shape == (render.S, 2 * render.S)
    dark = (img.max(2) < 80) & (alpha > 0)
    left, right = dark[:, :render.S - 8].sum(), dark[:, render.S + 8:].sum()
    assert left == 0 and right > 200  # the blank on the left, six pips on the right
    back, _ = render.tile(None, look, rng)
    assert ((back.max(2) < 80) & (alpha > 0)).sum() == 0  # a back shows no pips


def test_training_looks_never_use_the_held_out_colours_and_held_looks_always_do():
    rng = np.random.default_rng(2)
    for _ in range(300):
        look = render.random_look(rng)
        h, s, v = _hue(look.body)
        assert not (render.HELD_HUE[0] <= h <= render.HELD_HUE[1] and s >= 0.35 and v >= 0.35)
        for pip in look.pips:
            ph, ps, pv = _hue(pip)
            assert not (render.HELD_PIP_HUE[0] <= ph <= render.HELD_PIP_HUE[1] and ps >= 0.6 and pv >= 0.75)
    for _ in range(50):
        look = render.random_look(rng, held=True)
        assert render.HELD_HUE[0] - 0.01 <= _hue(look.body)[0] <= render.HELD_HUE[1] + 0.01
        assert all(render.HELD_PIP_HUE[0] - 0.01 <= _hue(p)[0] <= render.HELD_PIP_HUE[1] + 0.01 for p in look.pips)


def test_composite_labels_lie_on_their_tiles():
    rng = np.random.default_rng(3)
    tabs = [_table(0), _table(1)]
    seen_tiles = 0
    for _ in range(12):
        img, placed = compose.scene(rng, 320, tabs, short_range=(30.0, 50.0))
        assert img.shape == (320, 320, 3) and img.dtype == np.uint8
        bare = cv2.absdiff(img, np.full_like(img, 110)).max(2) > 40
        for p in placed:
            assert p.box.shape == (4,) and p.half_boxes.shape == (2, 4) and p.half_centres.shape == (2, 2)
            if p.halves is None or not p.seen:
                continue
            seen_tiles += 1
            x0, y0, x1, y1 = p.box
            assert x0 <= p.centre[0] <= x1 and y0 <= p.centre[1] <= y1
            # the two halves' centres are one half apart, either side of the tile's centre
            gap = float(np.linalg.norm(p.half_centres[0] - p.half_centres[1]))
            long_side = float(np.linalg.norm(p.corners[1] - p.corners[0]))
            assert 0.4 * long_side <= gap <= 0.6 * long_side
            assert np.allclose(p.half_centres.mean(0), p.centre, atol=2.0)
            # something is drawn there (not the bare grey table)
            cx, cy = (int(v) for v in p.centre)
            assert bare[max(0, cy - 3):cy + 4, max(0, cx - 3):cx + 4].any()
    assert seen_tiles >= 10


def test_detector_boxes_are_the_face_up_tiles_in_view_and_two_halves_each():
    rng = np.random.default_rng(4)
    tabs = [_table(2)]
    for _ in range(8):
        img, halves, tiles = compose.det_sample(rng, 256, tabs)
        assert img.shape == (256, 256, 3)
        assert halves.shape[1] == 4 and tiles.shape[1] == 4
        assert len(halves) >= len(tiles)
        if len(tiles):
            assert (tiles[:, 2] > tiles[:, 0]).all() and (tiles[:, 3] > tiles[:, 1]).all()
            assert tiles.min() >= 0 and tiles.max() <= 256


def test_scoring_counts_right_wrong_refused_missed_and_reads_in_no_box():
    labels = [((0, 0, 100, 50), (2, 5)), ((200, 0, 300, 50), (1, 1)), ((0, 200, 100, 250), (0, 3)),
              ((200, 200, 300, 250), (6, 6))]
    read = TableRead(
        dominoes=(Domino((5, 2), (50, 25), (0, 0, 100, 50), 0.0, 0.9),
                  Domino((1, 2), (250, 25), (200, 0, 300, 50), 0.0, 0.9),
                  Domino((4, 4), (500, 500), (480, 480, 520, 520), 0.0, 0.9)),
        unreadable=(Unreadable("domino", (50, 225), "not sure"), Unreadable("domino", (600, 10), "not sure")))
    t = {"labelled": 0, "right": 0, "wrong": 0, "refused": 0, "missed": 0, "unlabelled_reads": 0,
         "unlabelled_refusals": 0}
    score_frame(read, labels, t)
    assert t == {"labelled": 4, "right": 1, "wrong": 1, "refused": 1, "missed": 1, "unlabelled_reads": 1,
                 "unlabelled_refusals": 1}


def test_the_detector_has_both_heads_and_trains_on_a_step():
    torch = pytest.importorskip("torch", reason="torch is not installed (training needs it; the CI venv has none)")
    from tools.domino_net import train_det

    det = train_det.detector()
    out = det(torch.zeros(2, 3, 64, 64))
    assert out.shape == (2, train_det.CHANNELS, 16, 16)
    x, hh, hw, hm, th, tw, tm = train_det.batch(np.random.default_rng(0), 2, 64, [_table(3)])
    assert x.shape == (2, 3, 64, 64) and hh.shape == (2, 16, 16) and tw.shape == (2, 2, 16, 16)
    assert float(hh.max()) <= 1.0


def test_half_crops_carry_pip_classes_and_no_half_crops():
    pytest.importorskip("torch", reason="torch is not installed (training needs it; the CI venv has none)")
    from tools.domino_net import train_half

    rng = np.random.default_rng(5)
    xs, ys = [], []
    for _ in range(6):
        c, y = train_half.crops(rng, [_table(4)])
        xs += c
        ys += y
    assert all(c.shape == (train_half.INPUT, train_half.INPUT, 3) for c in xs)
    assert 0 in ys and any(y > 0 for y in ys) and max(ys) < train_half.CLASSES


def test_the_8_bit_ranges_come_from_both_looks_and_the_pair_crops_of_each():
    import json
    from pathlib import Path

    from tools.domino_net.quantize import calibration_inputs
    from vision.dominoes import net
    from vision.image_io import load_bgr

    fixtures = Path(__file__).resolve().parents[1] / "calibration_images" / "dominoes" / "images"
    frames = [load_bgr(path) for path in sorted(fixtures.glob("scatter_*.jpg"))[:2]]
    det_in, face_in = calibration_inputs(net.CONFIG, frames)
    looks = json.loads(net.CONFIG.read_text())["detector"]["looks"]
    assert len(det_in) == len(frames) * len(looks) == 4
    assert det_in[0].shape == (1, 3, 320, 320) and det_in[1].shape[2] < 320, "the second look is the smaller one"
    assert face_in and all(batch.ndim == 4 and batch.shape[1:] == (3, 40, 40) for batch in face_in)
