"""The d10 reader's parts: the die's pose from its outline, the face patch, the network's
input and answer, the rule that turns an answer into a read, and the training script."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from table.reads import D10, Unreadable
from tools.render import d10 as render
from tools.render.camera_look import paste, table_background
from tools.train import d10 as train
from vision.d10 import classifier
from vision.d10.find import die_blobs, table_difference, touching_dice, whole_die
from vision.d10.patch import PATCH, face_patch, network_input, number_turn, outline_pose
from vision.d10.read import Look, judge, judge_looks
from vision.read import READERS, read_table
from vision.weights import IncompleteInstall, Network


def _ellipse_contour(angle: float, long: float, short: float, centre=(100.0, 80.0)) -> np.ndarray:
    mask = np.zeros((200, 200), np.uint8)
    cv2.ellipse(mask, (int(centre[0]), int(centre[1])), (int(long / 2), int(short / 2)), angle, 0, 360, 1, -1)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return contours[0]


@pytest.mark.parametrize("angle", [0.0, 30.0, 75.0, 120.0, 160.0])
def test_outline_pose_finds_the_long_axis_and_its_length(angle):
    (cx, cy), found, length, ratio = outline_pose(_ellipse_contour(angle, 80, 60))
    assert abs(cx - 100) < 1 and abs(cy - 80) < 1
    assert abs((found - angle + 90) % 180 - 90) < 2
    assert 78 <= length <= 84
    assert ratio == pytest.approx(80 / 60, rel=0.05)


def _die_scene(value: int, spin: float, marker: str = "dot") -> np.ndarray:
    rng = np.random.default_rng(3)
    faces = render.fonts.available(render.FIXTURE_FONTS)
    sprite, alpha = render.render_die(value, 70, spin, render.COLOURS[0], faces[1], marker, rng, 128)
    scene = table_background(rng, 256, "felt")
    paste(scene, sprite, alpha, np.array([[1, 0, 64], [0, 1, 64], [0, 0, 1]], np.float64))
    return scene


def _patch_of(scene: np.ndarray) -> np.ndarray:
    contour = max(die_blobs(scene, None, None), key=cv2.contourArea)
    centre, angle, length, _ = outline_pose(contour)
    return face_patch(scene, centre, angle, length)


def test_the_face_patch_shows_the_number_the_same_way_at_any_spin_up_to_a_half_turn():
    upright = _patch_of(_die_scene(4, 0)).astype(np.float32)
    for spin in (37.0, 90.0, 211.0):
        patch = _patch_of(_die_scene(4, spin)).astype(np.float32)
        assert patch.shape == (PATCH, PATCH, 3)
        best = max(np.corrcoef(upright.ravel(), p.ravel())[0, 1] for p in (patch, patch[::-1, ::-1]))
        assert best > 0.8, spin


def test_network_input_is_the_same_for_light_ink_on_dark_and_dark_ink_on_light():
    glyph = np.zeros((PATCH, PATCH), np.uint8)
    cv2.putText(glyph, "7", (9, 25), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 1, 2)
    dark_on_light = np.where(glyph[..., None] > 0, 20, 230).astype(np.uint8).repeat(3, axis=2)
    light_on_dark = 250 - dark_on_light
    a, b = network_input(np.stack([dark_on_light, light_on_dark]))
    assert a.shape == (PATCH, PATCH, 2)
    assert np.abs(a - b).max() < 0.15
    assert a[..., 1][glyph > 0].mean() > 1.0 > a[..., 1][glyph == 0].mean()  # ink is positive


def _tilted_glyph(text: str, tilt: float, light_ink: bool) -> np.ndarray:
    """A 160 px frame: a die face round its middle with `text` on it, tilted by `tilt`."""
    face, colour = ((150, 60, 30), (235, 235, 235)) if light_ink else ((40, 200, 230), (20, 20, 20))
    frame = np.full((160, 160, 3), (90, 90, 90), np.uint8)  # shaded faces round the top one
    cv2.circle(frame, (80, 80), 36, face, -1)
    ink = np.zeros((160, 160), np.uint8)
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, 0.7, 2)
    cv2.putText(ink, text, (80 - w // 2, 80 + h // 2), cv2.FONT_HERSHEY_DUPLEX, 0.7, 1, 2)
    ink = cv2.warpAffine(ink, cv2.getRotationMatrix2D((80, 80), tilt, 1.0), (160, 160))
    frame[ink > 0] = colour
    return frame


def _stands_upright(frame: np.ndarray, angle: float) -> bool:
    return number_turn(face_patch(frame, (80.0, 80.0), angle, 60.0)) is None


@pytest.mark.parametrize("light_ink", [True, False])
@pytest.mark.parametrize("tilt", [-35.0, -20.0, 25.0, 40.0])
def test_number_turn_turns_the_patch_so_that_a_tilted_digit_stands_upright(tilt, light_ink):
    frame = _tilted_glyph("7", tilt, light_ink)
    assert not _stands_upright(frame, 0.0)
    turn = number_turn(face_patch(frame, (80.0, 80.0), 0.0, 60.0))
    assert turn is not None and _stands_upright(frame, turn)


def test_number_turn_leaves_an_upright_or_round_glyph_alone():
    assert _stands_upright(_tilted_glyph("7", 3.0, True), 0.0)
    assert _stands_upright(_tilted_glyph("o", 30.0, True), 0.0)
    assert number_turn(np.full((PATCH, PATCH, 3), 128, np.uint8)) is None


def test_probabilities_hold_either_way_up_and_sum_to_one():
    patch = _patch_of(_die_scene(7, 20))
    p = classifier.probabilities(np.stack([patch, patch[::-1, ::-1]]))
    assert p.shape == (2, classifier.CLASSES)
    assert np.allclose(p.sum(axis=1), 1, atol=1e-4)
    assert np.allclose(p[0], p[1], atol=1e-5)
    assert classifier.probabilities(np.zeros((0, PATCH, PATCH, 3), np.uint8)).shape == (0, classifier.CLASSES)


def test_the_shipped_networks_are_small():
    paths = sorted(classifier.MODEL_PATH.parent.glob("d10_cnn*.onnx"))
    assert len(paths) == len(classifier.shipped_networks()) >= 1
    assert sum(p.stat().st_size for p in paths) < 200_000


def test_a_missing_weight_file_is_an_incomplete_install(tmp_path, weights_moved):
    # It used to give no networks: the first die seen ended in a mean over nothing.
    weights_moved(classifier, MODEL_PATH=tmp_path / "d10_cnn.onnx")
    missing = re.escape(str(tmp_path / "d10_cnn.onnx")) + ": the d10 reader's .* missing: .* reinstall"
    with pytest.raises(IncompleteInstall, match=missing):
        read_table(_die_scene(7, 20), readers={"d10": READERS["d10"]})


def test_a_second_network_file_unreadable_is_an_incomplete_install(tmp_path, weights_moved):
    (tmp_path / "d10_cnn.onnx").write_bytes(classifier.MODEL_PATH.read_bytes())
    (tmp_path / "d10_cnn_2.onnx").write_bytes(classifier.MODEL_PATH.read_bytes()[:-100])
    weights_moved(classifier, MODEL_PATH=tmp_path / "d10_cnn.onnx")
    with pytest.raises(IncompleteInstall, match=re.escape(str(tmp_path / "d10_cnn_2.onnx"))):
        classifier.shipped_networks()


def _answer(classes: dict[int, float]) -> np.ndarray:
    p = np.zeros(classifier.CLASSES)
    for cls, value in classes.items():
        p[cls] = value
    return p


NOT, UNMARKED = classifier.NOT_D10, classifier.UNMARKED


def test_judge_reads_only_a_confident_number():
    centre, box = (10.0, 20.0), (0.0, 0.0, 20.0, 40.0)
    assert judge(_answer({3: 0.97, NOT: 0.03}), centre, box) == D10(3, centre, box, 0.97)
    unclear = judge(_answer({3: 0.6, 8: 0.395, NOT: 0.005}), centre, box)
    assert isinstance(unclear, Unreadable) and unclear.reason.startswith("number unclear (best 3")
    assert judge(_answer({3: 0.6, 8: 0.35, NOT: 0.05}), centre, box) is None  # maybe no d10: no re-roll
    unmarked = judge(_answer({UNMARKED: 0.7, 6: 0.2, 9: 0.1}), centre, box)
    assert isinstance(unmarked, Unreadable) and unmarked.reason == "6 or 9: no underline or dot seen"
    assert judge(_answer({1: 0.5, NOT: 0.5}), centre, box) is None
    assert judge(_answer({NOT: 1.0}), centre, box) is None


def _look(classes: dict[int, float]) -> Look:
    return Look(_answer(classes), (10.0, 20.0), (0.0, 0.0, 20.0, 40.0))


def test_a_second_look_reads_what_the_first_could_not():
    found = judge_looks([_look({1: 0.4, 7: 0.595, NOT: 0.005}), _look({1: 0.992, NOT: 0.008})])
    assert isinstance(found, Unreadable)  # the first look leans to 7: the two disagree
    assert found.reason == "looks disagree (1 at 0.99, 7 at 0.59)"
    read = judge_looks([_look({1: 0.4, 7: 0.45, NOT: 0.15}), _look({1: 0.98, NOT: 0.02})])
    assert read == D10(1, (10.0, 20.0), (0.0, 0.0, 20.0, 40.0), 0.98)


def test_looks_leaning_to_different_numbers_veto_a_read():
    assert judge_looks([_look({7: 0.91, 1: 0.09}), _look({1: 0.95, 7: 0.05})]) == Unreadable(
        "d10", (10.0, 20.0), "looks disagree (1 at 0.95, 7 at 0.91)", (0.0, 0.0, 20.0, 40.0))
    # A look not sure the blob is a d10 at all: nothing is reported.
    assert judge_looks([_look({7: 0.91, NOT: 0.09}), _look({1: 0.999, NOT: 0.001})]) is None


def test_a_refusal_needs_every_look_sure_it_is_a_d10():
    unclear = _look({3: 0.6, 8: 0.395, NOT: 0.005})
    assert isinstance(judge_looks([unclear, unclear]), Unreadable)
    assert judge_looks([unclear, _look({3: 0.6, 8: 0.38, NOT: 0.02})]) is None
    # A read needs no such agreement: one sure look, none leaning elsewhere.
    assert judge_looks([_look({3: 0.3, NOT: 0.7}), _look({3: 0.95, NOT: 0.05})]).value == 3
    assert judge_looks([_look({7: 0.93, 1: 0.07}), _look({7: 0.6, 1: 0.4})]).value == 7
    assert judge_looks([_look({NOT: 1.0})]) is None


def test_the_whole_die_is_found_round_a_blob_of_its_ink_and_lit_faces():
    rng = np.random.default_rng(5)
    faces = render.fonts.available(render.FIXTURE_FONTS)
    sprite, alpha = render.render_die(3, 80, 25, ((150, 70, 40), (240, 240, 240)), faces[1], "dot", rng, 128)
    scene = np.full((256, 256, 3), (90, 40, 40), np.uint8)  # a blue table not far from the die's own blue
    paste(scene, sprite, alpha, np.array([[1, 0, 64], [0, 1, 64], [0, 0, 1]], np.float64))
    scene = np.clip(scene + rng.normal(0, 2, scene.shape), 0, 255).astype(np.uint8)
    difference = table_difference(scene)
    blob = max(die_blobs(scene, None, None, difference), key=cv2.contourArea)
    die_area = float((alpha > 127).sum())
    assert cv2.contourArea(blob) < 0.6 * die_area  # the clear difference is only part of the die
    whole = whole_die(blob, difference)
    assert 0.85 * die_area < cv2.contourArea(whole) < 1.2 * die_area
    (cx, cy), _, _, _ = outline_pose(whole)
    ys, xs = np.nonzero(alpha > 127)
    assert abs(cx - (xs.mean() + 64)) < 3 and abs(cy - (ys.mean() + 64)) < 3


def test_a_shadow_is_not_taken_for_part_of_the_die():
    scene = np.full((200, 200, 3), (90, 140, 170), np.uint8)
    cv2.rectangle(scene, (110, 110), (150, 150), (79, 123, 150), -1)  # the table an eighth darker
    cv2.circle(scene, (100, 100), 25, (30, 30, 200), -1)
    difference = table_difference(scene)
    shadow = difference.shadow(slice(0, 100), slice(0, 100))
    assert shadow[60:70, 60:70].all() and not shadow[45:55, 45:55].any()
    blob = max(die_blobs(scene, None, None, difference), key=cv2.contourArea)
    x, y, w, h = cv2.boundingRect(whole_die(blob, difference))
    assert 72 <= x <= 78 and 72 <= y <= 78 and 48 <= w <= 56 and 48 <= h <= 56


def test_a_shadow_dark_enough_to_be_in_the_blob_can_be_cut_out_of_it():
    scene = np.full((200, 200, 3), (90, 140, 170), np.uint8)
    cv2.rectangle(scene, (110, 110), (150, 150), (54, 84, 102), -1)  # the table 0.6 as bright
    cv2.circle(scene, (100, 100), 25, (30, 30, 200), -1)
    difference = table_difference(scene)
    blob = max(die_blobs(scene, None, None, difference), key=cv2.contourArea)
    assert cv2.boundingRect(blob)[2] > 70  # the blob runs on over the shadow
    x, y, w, h = cv2.boundingRect(whole_die(blob, difference, shadow_out_of_blob=True))
    assert 72 <= x <= 78 and 72 <= y <= 78 and 48 <= w <= 56 and 48 <= h <= 56


def _outline_of(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return max(contours, key=cv2.contourArea)


def test_touching_dice_are_parted_at_their_necks():
    mask = np.zeros((200, 300), np.uint8)
    for x in (80, 136, 192):  # three discs of 60 px in a row, each overlapping the next
        cv2.circle(mask, (x, 100), 30, 1, -1)
    parts = touching_dice(_outline_of(mask), None)
    middles = sorted(outline_pose(outline)[0] for outline, _ in parts)
    assert len(middles) == 3
    for (x, y), truth in zip(middles, (80, 136, 192)):
        assert abs(x - truth) < 6 and abs(y - 100) < 3
    for outline, neighbours in parts:
        assert len(neighbours) == 2 and outline_pose(outline)[0] not in neighbours


def test_one_die_is_not_parted():
    mask = np.zeros((200, 200), np.uint8)
    cv2.fillConvexPoly(mask, np.array([[60, 100], [100, 60], [150, 80], [140, 140], [90, 150]], np.int32), 1)
    assert touching_dice(_outline_of(mask), None) == []


def test_training_runs_end_to_end_and_writes_a_loadable_network(tmp_path, capsys):
    pytest.importorskip("torch", reason="training needs PyTorch (the optional `train` extra)")
    pytest.importorskip("onnx", reason="training needs onnx (the optional `train` extra)")
    out = tmp_path / "net.onnx"
    assert train.main(["--scenes", "2", "--others", "1", "--epochs", "1", "-o", str(out)]) == 0
    net = Network.load(out)
    x = np.zeros((1, PATCH, PATCH, classifier.INPUT_CHANNELS), np.float32)
    assert net.probabilities(x).shape == (1, classifier.CLASSES)
    assert "training accuracy" in capsys.readouterr().out


def test_training_examples_are_labelled_from_the_render():
    patches, classes = train.d10_examples(2, seed=1)
    assert len(patches) == len(classes) > 0
    assert all(p.shape == (PATCH, PATCH, 3) for p in patches)
    assert set(classes) <= set(range(classifier.CLASSES))
    assert sum(c < 10 for c in classes) >= train.JITTERS * 2  # every scene has two or more dice
