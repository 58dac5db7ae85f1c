"""tools.dice_net.render_cube: dice drawn as cubes seen at an angle, for training the
face classifier: a real die's faces, the cube's box the share asked for, the top face
above the side faces."""

import numpy as np

from tools.dice_net.render_cube import _project, _values, cube_patch, cube_patches, face_texture


def test_a_cube_has_a_real_dies_faces():
    rng = np.random.default_rng(0)
    for top in range(1, 7):
        for _ in range(20):
            v = _values(top, rng)
            assert v["top"] == top and sorted(v.values()) == [1, 2, 3, 4, 5, 6]
            assert v["top"] + v["bottom"] == v["front"] + v["back"] == v["right"] + v["left"] == 7


def test_a_face_shows_its_pips():
    rng = np.random.default_rng(1)
    for value in range(1, 7):
        tex = face_texture(value, (230, 230, 230), (20, 20, 20), rng)
        dark = (tex.max(axis=2) < 100).astype(np.uint8)
        n, _, stats, _ = __import__("cv2").connectedComponentsWithStats(dark)
        assert sum(1 for s in stats[1:] if s[4] > 20) == value


def test_the_top_of_the_cube_is_up_in_the_picture():
    top = np.array([[0.0, 0.0, 0.5]])
    front = np.array([[0.0, -0.5, 0.0]])
    for elevation in (30.0, 60.0, 88.0):
        (t,), _ = _project(top, 0.3, elevation, 8.0)
        (f,), _ = _project(front, 0.3, elevation, 8.0)
        assert t[1] < f[1]  # image y grows downwards: the top face's centre is above the front's


def test_a_patch_boxes_the_cube_at_the_share_asked_for():
    rng = np.random.default_rng(2)
    background = np.full((112, 112, 3), 128, np.uint8)
    for value in range(1, 7):
        patch, (x0, y0, x1, y1) = cube_patch(background, value, rng, 1 / 2.4, boxed=True)
        assert patch.shape == background.shape and patch.dtype == np.uint8
        assert 112 / 2.4 * 0.85 - 1e-6 <= max(x1 - x0, y1 - y0) <= 112 / 2.4 * 1.05 + 1e-6
        assert abs((x0 + x1) / 2 - 56) < 1e-6 and abs((y0 + y1) / 2 - 56) < 1e-6
        inside = patch[int(y0) + 2:int(y1) - 1, int(x0) + 2:int(x1) - 1]
        outside = patch[:int(y0) - 2, :]  # above the cube: bare table (the shadow lies below)
        assert np.abs(outside.astype(int) - 128).max() <= 1 and np.abs(inside.astype(int) - 128).max() > 20
    patches, values = cube_patches(np.stack([background] * 3), 12, rng, 1 / 2.4)
    assert patches.shape == (12, 112, 112, 3) and sorted(set(values.tolist())) == [1, 2, 3, 4, 5, 6]
