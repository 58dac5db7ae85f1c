"""The face classifier's pip-count head (tools/dice_net/models.Face(count=True),
`train_face.py --count`) and the crop-level scores of tools/dice_net/face_score.py.
Needs the `train` extra (torch)."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from tools.dice_net.face_score import scores  # noqa: E402
from tools.dice_net.models import Face, FaceExport, load_face  # noqa: E402


def test_the_count_head_leaves_the_logits_as_they_are_and_counts_no_less_than_zero():
    torch.manual_seed(0)
    face = Face((8, 8, 8, 8), count=True).eval()
    x = torch.rand(5, 3, 48, 48) - 0.5
    logits, count = face.forward_both(x)
    assert torch.allclose(logits, face(x))
    assert count.shape == (5,) and bool((count >= 0).all())
    # started near no pips: 36 cells of softplus(-3)
    assert float(count.detach().max()) < 3.0


def test_a_model_without_the_head_cannot_count():
    with pytest.raises(AssertionError, match="count head"):
        Face((8, 8, 8, 8)).forward_both(torch.zeros(1, 3, 48, 48))


def test_a_saved_model_with_a_count_head_loads_and_exports_the_classifier_alone():
    torch.manual_seed(1)
    face = Face((8, 8, 8, 8), count=True).eval()
    st = {"widths": (8, 8, 8, 8), "size": 48, "count": 0.5, "model": face.state_dict()}
    back = load_face(st)
    assert back.count is not None and not back.training
    x = torch.rand(3, 3, 48, 48) * 255
    assert torch.allclose(FaceExport(back)(x), torch.softmax(face(x / 255.0 - 0.5), 1))
    old = load_face({"widths": (8, 8, 8, 8), "model": Face((8, 8, 8, 8)).state_dict()})
    assert old.count is None


def test_scores_count_right_and_wrong_reads_and_a_disagreeing_witness_leaves_a_die_unread():
    # four dice: two read right and sure, one wrong and sure, one whose best class is "not a die"
    probs = np.array([[0.0, 0.99, 0.01, 0, 0, 0, 0],
                      [0.0, 0.0, 0.98, 0.02, 0, 0, 0],
                      [0.0, 0.0, 0.0, 0.97, 0.03, 0, 0],
                      [0.9, 0.0, 0.0, 0.0, 0.1, 0, 0]])
    values = np.array([1, 2, 4, 4])
    s = scores(probs, values)
    assert s["top1"] == 50.0
    # at 0.2% wrong of read only the two dice above the wrong one's 0.97 can be read
    assert s[0.002] == 50.0
    # the witness rejects the wrong die: all three sure reads now keep no wrong one
    w = scores(probs, values, agree=np.array([True, True, False, True]))
    assert w[0.002] == 50.0 and w["top1"] == 50.0
    # and rejecting a right die reads fewer
    assert scores(probs, values, agree=np.array([False, True, False, True]))[0.002] == 25.0


def test_the_wrong_montage_shows_the_surest_wrong_reads_first_six_a_row():
    from tools.dice_net.face_score import wrong_montage

    crops = np.zeros((8, 10, 10, 3), np.uint8)
    for i in range(8):
        crops[i] = 30 * i
    values = np.array([1, 2, 3, 4, 5, 6, 1, 2])
    probs = np.zeros((8, 7))
    # die 0 read right; die 1 read wrong at 0.5, dice 2..7 wrong, each surer than the one before
    probs[0, 1] = 1.0
    probs[1, 1] = 0.5
    for i in range(2, 8):
        probs[i, 1 if values[i] != 1 else 2] = 0.5 + 0.05 * i
    out = wrong_montage(crops, values, probs, 7)
    assert out.shape == (2 * (20 + 14), 6 * 20, 3)
    assert out[5, 5, 0] == 30 * 7, "the surest wrong read comes first"
    assert out[5, 25, 0] == 30 * 6
    assert (out[34 + 5, 5] == 30 * 1).all() and (out[34 + 5, 25] == 255).all(), "seven wrong reads, then blanks"


def test_reading_in_quarter_turns_averages_the_turned_crops_reads():
    from tools.dice_net.face_score import predict

    torch.manual_seed(2)
    face = Face((8, 8, 8, 8)).eval()
    crops = np.random.default_rng(0).integers(0, 255, (5, 48, 48, 3), dtype=np.uint8)
    one, _ = predict(face, crops)
    four, counts = predict(face, crops, turns=4)
    turned = [predict(face, np.ascontiguousarray(np.rot90(crops, k, axes=(1, 2))))[0] for k in range(4)]
    assert counts is None and np.allclose(four, np.mean(turned, 0), atol=1e-6)
    assert np.allclose(four.sum(1), 1.0, atol=1e-5) and not np.allclose(four, one)
