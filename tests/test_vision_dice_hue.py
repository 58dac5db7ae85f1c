"""The second opinion on unclear d6 faces: a face network that sees every die's hue
turned to red's, so dice of a colour the photos do not show are read, not refused."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

import tabletop21.evaluate as evaluate_module
from tabletop21.evaluate import evaluate, summary
from vision.dice import read_dice
from vision.dice.classifier import CLASSES, INPUT_CHANNELS, shipped_hue_networks
from vision.dice.patches import HUED_CHROMA, NEUTRAL_CHROMA, PATCH, network_input

FIXTURES = Path(__file__).resolve().parents[1] / "calibration_images" / "dice"


def _die(chroma: float, hue_degrees: float, pip_lab=(245.0, 128.0, 128.0)) -> np.ndarray:
    """A PATCH x PATCH upright die patch: a face of that Lab chroma and hue with one
    pip in the middle, as BGR."""
    face = (150.0, 128 + chroma * np.cos(np.radians(hue_degrees)), 128 + chroma * np.sin(np.radians(hue_degrees)))
    lab = np.empty((PATCH, PATCH, 3), np.float32)
    lab[:] = face
    lab[9:15, 9:15] = pip_lab
    return cv2.cvtColor(np.clip(lab, 0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR)


def test_dice_of_any_hue_give_the_hue_turned_network_one_input():
    hues = (10.0, 100.0, 200.0, 290.0)  # about red, yellow-green, cyan, blue
    plain = [network_input(_die(30, hue)[None])[0] for hue in hues]
    turned = [network_input(_die(30, hue)[None], hue_turned=True)[0] for hue in hues]
    pip = (12, 12)
    assert min(np.abs(p[pip] - plain[0][pip]).max() for p in plain[1:]) > 1.0  # plainly, the pips differ by hue
    for one in turned[1:]:
        assert np.abs(one[pip] - turned[0][pip]).max() < 0.15
    assert turned[0][pip][1] < -1.0 < turned[0][pip][0]  # lighter than the face, and away from its hue


def test_a_grey_face_is_not_turned_and_a_faintly_coloured_one_only_partly():
    grey = _die(NEUTRAL_CHROMA - 1, 200.0, pip_lab=(60.0, 170.0, 128.0))  # a red pip on a grey face
    assert np.array_equal(network_input(grey[None], hue_turned=True), network_input(grey[None]))
    faint = _die((NEUTRAL_CHROMA + HUED_CHROMA) / 2, 200.0, pip_lab=(60.0, 170.0, 128.0))
    plain, turned = network_input(faint[None])[0, 12, 12], network_input(faint[None], hue_turned=True)[0, 12, 12]
    assert not np.allclose(plain[1:3], turned[1:3], atol=0.05)
    assert np.linalg.norm(plain[1:3]) == pytest.approx(np.linalg.norm(turned[1:3]), rel=1e-4)  # turned, not scaled


def test_the_shipped_second_opinion_has_the_face_networks_shape():
    (net,) = shipped_hue_networks()
    assert net.probabilities(np.zeros((2, PATCH, PATCH, INPUT_CHANNELS), np.float32)).shape == (2, CLASSES)


class _NeverSure:
    """A network whose answer is the same for every class: it is never sure of a face,
    so the first face network's refusals stand."""

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        assert x.shape[1:] == (PATCH, PATCH, INPUT_CHANNELS)
        return np.full((len(x), CLASSES), 1 / CLASSES, np.float32)


def _never_sure() -> tuple:
    return (_NeverSure(),)


def _swapped_fixture_scores(monkeypatch, hue_networks) -> dict:
    """The dice fixtures with red and blue swapped (red dice turn blue, yellow ones
    cyan: die and pip colours the networks were not taught together)."""
    load = evaluate_module.load_bgr
    monkeypatch.setattr(evaluate_module, "load_bgr", lambda path: np.ascontiguousarray(load(path)[..., ::-1]))
    result = summary(evaluate(FIXTURES, lambda frame: read_dice(frame, hue_networks=hue_networks)))
    return result["kinds"]["dice"]


def test_the_second_opinion_reads_dice_of_unseen_colours_the_first_refuses(monkeypatch):
    alone = _swapped_fixture_scores(monkeypatch, _never_sure())
    helped = _swapped_fixture_scores(monkeypatch, None)
    assert helped["value_right"] >= alone["value_right"] + 3
    assert helped["unreadable"] <= alone["unreadable"] - 3
    assert helped["found"] - helped["value_right"] <= alone["found"] - alone["value_right"] + 1  # wrong values


def test_photos_as_taken_lose_nothing_to_the_second_opinion(dice_photos):
    """Only faces the first network leaves unclear are asked about, at the same bar."""
    labels = json.loads((dice_photos / "labels.json").read_text())
    names = sorted(labels)[::4]
    alone = summary(evaluate(dice_photos, lambda frame: read_dice(frame, hue_networks=_never_sure()), names))
    helped = summary(evaluate(dice_photos, read_dice, names))
    a, h = alone["kinds"]["dice"], helped["kinds"]["dice"]
    assert h["value_right"] >= a["value_right"] and h["found"] - h["value_right"] <= a["found"] - a["value_right"]
    assert helped["perfect_photos"] >= alone["perfect_photos"]

