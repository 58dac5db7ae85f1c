"""The d6 trainers' made-up data (tools/dice_net): composites keep the table's own dice
as labels and box every pasted die; rendered faces carry the value they show."""

import cv2
import numpy as np

from tools.d10_net.compose import SmallTable
from tools.dice_net import compose
from tools.dice_net.render_faces import rendered_patches


def _die_sprite(side=40):
    sprite = np.full((side, side, 3), 230, np.uint8)
    sprite[side // 2 - 3:side // 2 + 3, side // 2 - 3:side // 2 + 3] = 10
    return sprite, np.full((side, side), 255, np.uint8)


def _table():
    rng = np.random.default_rng(0)
    image = np.clip(rng.normal(90, 10, (320, 320, 3)), 0, 255).astype(np.uint8)
    image[100:140, 100:140] = 230  # the table's own die
    return SmallTable(image, np.array([[100, 100, 140, 140]], np.float32))


def test_a_composite_boxes_its_own_and_its_pasted_dice_and_nothing_else():
    rng = np.random.default_rng(1)
    pasted = 0
    for _ in range(30):
        canvas, boxes = compose.composite(rng, 256, [_table()], [_die_sprite()])
        assert canvas.shape == (256, 256, 3) and canvas.dtype == np.uint8
        assert ((boxes >= 0) & (boxes <= 256)).all() and (boxes[:, 2:] > boxes[:, :2]).all()
        # every bright (die-coloured) blob lies in some box, but dice cut by the canvas's
        # edge (as make_sample drops a die whose centre is outside): no unlabelled die
        n, _, stats, _ = cv2.connectedComponentsWithStats((canvas.min(axis=2) > 200).astype(np.uint8))
        for x, y, w, h, _ in stats[1:]:
            if x > 0 and y > 0 and x + w < 256 and y + h < 256:
                assert any(x0 - 2 <= x and x + w <= x1 + 2 and y0 - 2 <= y and y + h <= y1 + 2
                           for x0, y0, x1, y1 in boxes)
        # pasted dice never cover each other
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                overlap = max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))
                assert overlap < 0.2 * (a[2] - a[0]) * (a[3] - a[1])
        pasted += len(boxes)
    assert pasted > 30


def test_rendered_faces_come_in_every_value_on_their_backgrounds():
    rng = np.random.default_rng(0)
    backgrounds = np.full((3, 96, 96, 3), 128, np.uint8)
    patches, values = rendered_patches(backgrounds, 12, rng, 1 / 2.4)
    assert patches.shape == (12, 96, 96, 3) and sorted(set(values.tolist())) == [1, 2, 3, 4, 5, 6]
    for p in patches:
        middle, rim = p[30:66, 30:66], p[:8]
        assert np.abs(middle.astype(int) - 128).max() > 60  # a die is drawn in the middle
        assert np.abs(rim.astype(int) - 128).max() < 40  # and the table round it is left as it was
