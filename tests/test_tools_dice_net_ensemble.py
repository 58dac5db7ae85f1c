"""tools/dice_net/ensemble.py: one reader from several runs' face classifiers."""

import json

import numpy as np
import pytest

from tools.dice_net import ensemble
from vision import dice_net


def test_an_ensemble_of_a_run_with_itself_reads_as_the_run(tmp_path):
    out = tmp_path / "ens"
    ensemble.main(["--out", str(out), str(dice_net.CONFIG), str(dice_net.CONFIG)])
    cfg = json.loads((out / "dice_net.json").read_text())
    assert cfg["face"]["also"] == ["dice_face_1.onnx"] and "calibration" not in cfg
    frame = np.full((320, 320, 3), 120, np.uint8)
    frame[100:160, 100:160] = 240  # a pale square: something for the detector to weigh
    alone = dice_net.candidates(frame, dice_net.CONFIG, min_score=0.0)
    both = dice_net.candidates(frame, out / "dice_net.json", min_score=0.0)
    assert len(alone) == len(both) > 0
    for a, b in zip(alone, both):
        np.testing.assert_allclose(a["probs"], b["probs"], rtol=1e-5, atol=1e-7)


def test_face_classifiers_of_different_inputs_are_refused(tmp_path):
    other = json.loads(dice_net.CONFIG.read_text())
    other["face"]["input"] += 8
    (tmp_path / "other.json").write_text(json.dumps(other))
    with pytest.raises(SystemExit, match="different sizes"):
        ensemble.main(["--out", str(tmp_path / "ens"), str(dice_net.CONFIG), str(tmp_path / "other.json")])
