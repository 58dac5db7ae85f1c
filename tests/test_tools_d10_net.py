"""The d10 reader's training data (tools/d10_net): runs and folds keep one die's frames
on one side, composites carry their boxes, other dice are pasted unlabelled."""

from pathlib import Path

import numpy as np
import pytest

from tools.d10_net import compose, data
from tools.d10_net.other_dice import other_die

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def test_a_frame_belongs_to_the_run_its_number_lies_in():
    assert data.run_of("d10_wood0093.jpg") == ("wood-0091", "teal")
    assert data.run_of("d10_top000.jpg") == ("top-0000", "light-blue")
    with pytest.raises(ValueError, match="no run"):
        data.run_of("d10_wood0550.jpg")  # frames dropped from the labels
    with pytest.raises(ValueError, match="not a d10-photos"):
        data.run_of("IMG_0001.jpg")


def test_the_folds_hold_every_die_once():
    held = [die for fold in data.FOLDS for die in fold]
    assert sorted(held) == sorted(data.DICE)


@pytest.mark.skipif(not (SHARED / "d10-photos").is_dir(), reason="../shared/data/d10-photos is not beside the repository")
def test_every_labelled_photo_lies_in_a_run_and_each_fold_holds_several_values():
    photos = data.load_d10(SHARED)
    assert len(photos) == 548
    for fold in range(len(data.FOLDS)):
        held = [p for p in photos if data.held_out(p, fold)]
        kept = [p for p in photos if not data.held_out(p, fold)]
        assert not {p.run for p in held} & {p.run for p in kept}
        assert len({p.value for p in held}) >= 5 and len(kept) > 200


def _table():
    rng = np.random.default_rng(0)
    image = np.clip(rng.normal(120, 20, (300, 400, 3)), 0, 255).astype(np.uint8)
    return compose.SmallTable(image, np.array([[50, 50, 90, 90]], np.float32))


def test_a_composite_boxes_each_pasted_d10_and_none_of_the_other_dice():
    rng = np.random.default_rng(3)
    sprite, alpha = other_die(rng, 60)
    assert alpha.max() == 255 and sprite.shape[:2] == alpha.shape
    seen = 0
    for _ in range(20):
        canvas, boxes, values = compose.composite(rng, 256, [_table()], [], [], others=1.0)
        assert canvas.shape == (256, 256, 3) and len(boxes) == len(values)
        assert ((boxes >= 0) & (boxes <= 256)).all() and (boxes[:, 2:] > boxes[:, :2]).all()
        assert all(0 <= v <= 9 for v in values)
        seen += len(values)
    assert seen > 0
