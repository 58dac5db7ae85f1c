"""The d6 reader on the rendered fixtures (always) and on the 200 real photos (when
../shared is present; CI has them). The floors are the figures actually reached, so
a change that makes reading worse fails here; docs/vision.md has the full figures."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from table.reads import inside
from tabletop21.evaluate import evaluate, summary
from vision.calibration import Calibration
from vision.dice import read_dice
from vision.dice.candidates import Candidate, find_candidates
from vision.dice.classifier import CLASSES, face_probabilities, shipped_face_networks
from vision.dice.foreground import foreground_mask
from vision.dice.patches import FIND_PATCH, PATCH, SquareAngles, network_input, upright_patch, upright_patches
from vision.dice.reader import certain, closer_looks, doubted_lone, second_looks, verdicts
from vision.exposure import DIM, GAIN, brightest, levelled
from vision.image_io import NotAnImage

FIXTURES = Path(__file__).resolve().parents[1] / "calibration_images" / "dice"
LABELS = json.loads((FIXTURES / "labels.json").read_text())

# Floors measured with the shipped model (see docs/vision.md), less a small margin.
REAL_VALUE_RIGHT_PCT = 99.0
REAL_PHANTOM_PCT = 0.4
REAL_PERFECT_PCT = 92.0
RENDER_VALUE_RIGHT_PCT = 95.5
RENDER_PHANTOM_PCT = 5.5


def _frame(name: str) -> np.ndarray:
    return cv2.imread(str(FIXTURES / "images" / name))


def test_real_photos_meet_the_measured_floors(dice_photos):
    result = summary(evaluate(dice_photos, read_dice))
    dice = result["kinds"]["dice"]
    assert dice["labelled"] == 1487
    assert dice["value_right_pct"] >= REAL_VALUE_RIGHT_PCT
    assert dice["phantom_pct"] <= REAL_PHANTOM_PCT
    assert result["perfect_pct"] >= REAL_PERFECT_PCT


def test_rendered_fixtures_meet_the_measured_floors():
    result = summary(evaluate(FIXTURES, read_dice))
    dice = result["kinds"]["dice"]
    assert dice["value_right_pct"] >= RENDER_VALUE_RIGHT_PCT
    assert dice["phantom_pct"] <= RENDER_PHANTOM_PCT


def test_most_cocked_dice_are_not_read():
    """A cocked die shows two faces and must not be read. The reader still reads some
    (2 of the 6 in the fixtures; docs/vision.md, known limits), so this holds the
    line at half rather than claiming none. Stacked dice are not checked here: the
    fixtures do not record the face drawn on them, and the upper die of a stack is
    usually read (a known limit)."""
    read_cocked = 0
    cocked = 0
    for name, label in LABELS.items():
        odd = [u for u in label["unreadable"] if u["why"] == "cocked"]
        if not odd:
            continue
        read = read_dice(_frame(name))
        for u in odd:
            cocked += 1
            read_cocked += any(inside(d.center, u["box"]) for d in read.dice)
    assert cocked >= 4
    assert read_cocked <= cocked // 2


def _cut_through_the_middle(name: str, number: int) -> tuple[np.ndarray, dict]:
    label = LABELS[name]["dice"][number]
    x0, _, x1, _ = label["box"]
    return np.ascontiguousarray(_frame(name)[:, :int(round((x0 + x1) / 2))]), label


def _reads_on(read, box):
    x0, y0, x1, y1 = box
    return [d for d in read.dice if d.center[0] > x0 - 2 and y0 <= d.center[1] <= y1]


@pytest.mark.parametrize("name, number", [("render_04.jpg", 2), ("render_06.jpg", 4), ("render_05.jpg", 6)])
def test_a_die_cut_in_half_by_the_frame_edge_is_refused_not_read(name, number):
    """Half the pips are out of the picture (the first two were read as a 1 before)."""
    frame, label = _cut_through_the_middle(name, number)
    read = read_dice(frame)
    assert _reads_on(read, label["box"]) == []
    assert any(u.reason == "die lies across the edge of the view" and inside(u.center, label["box"])
               for u in read.unreadable)


def test_most_dice_cut_in_half_by_the_frame_edge_are_not_read():
    """Every fixture die cut through its middle in turn: 42 of 107 were read before the
    edge test (25 of them wrong), 20 after, 4 since a narrow frame's default die size
    follows its longer side (the 20 were read in strips where that fell to half)."""
    read_cut = cut = 0
    for name in sorted(LABELS):
        for number, label in enumerate(LABELS[name]["dice"]):
            if (label["box"][0] + label["box"][2]) / 2 < 100:
                continue
            frame, _ = _cut_through_the_middle(name, number)
            cut += 1
            read_cut += bool(_reads_on(read_dice(frame), label["box"]))
    assert cut == 107
    assert read_cut <= 6


def test_a_tall_narrow_view_reads_its_dice_at_their_own_size():
    """A view cut to a strip has the dice of the frame it was cut from. With no die
    standing alone to measure, the default size followed the strip's width: a 320-pixel
    strip of these renders read 55 of its 65 whole dice right, its dice taken for half
    their size and read as several small ones (render_01 cut 376 pixels wide gave 11 dice,
    seven of them 1s)."""
    right = whole = 0
    for name in sorted(LABELS):
        read = read_dice(np.ascontiguousarray(_frame(name)[:, :320]))
        for label in LABELS[name]["dice"]:
            if label["box"][2] < 319:
                whole += 1
                right += [d.value for d in read.dice if inside(d.center, label["box"])][:1] == [label["value"]]
    assert whole == 65
    assert right >= 62


def test_a_dimly_lit_frame_is_brightened_and_a_well_lit_one_left_as_it_is():
    frame = _frame("render_00.jpg")
    assert brightest(frame) >= DIM and levelled(frame) is frame
    dim = (frame * 0.3).astype(np.uint8)
    brighter = levelled(dim)
    assert brighter.dtype == np.uint8 and brighter.shape == dim.shape
    assert brightest(brighter) == pytest.approx(GAIN * brightest(dim), abs=2)


def test_dice_in_a_dim_frame_read_as_in_a_well_lit_one():
    """The well-lit fixtures (brightest 1% at 180 or more: 95 dice, 92 read right) at
    0.45 of their light, as a camera at the limit of its exposure gives them: 80 right
    and 4 wrong as they were, 86 right and none wrong brightened first."""
    right = wrong = dice = 0
    for name in sorted(LABELS):
        frame = _frame(name)
        if brightest(frame) < 180:
            continue
        read = read_dice((frame * 0.45).astype(np.uint8))
        for label in LABELS[name]["dice"]:
            dice += 1
            values = [d.value for d in read.dice if inside(d.center, label["box"])][:1]
            right += values == [label["value"]]
            wrong += bool(values) and values != [label["value"]]
    assert dice == 95
    assert right >= 85 and wrong <= 1


def test_a_calibration_made_for_other_frames_is_refused():
    frame = _frame("render_00.jpg")
    other = Calibration(frame_size=(1280, 720), area=((0, 0), (1279, 0), (1279, 719), (0, 719)))
    with pytest.raises(NotAnImage, match="made on 1280x720 frames, this one is 640x640"):
        read_dice(frame, other)


def test_reading_does_not_depend_on_the_frame_orientation():
    """Turning the camera a quarter turn must not change any value read twice; a
    borderline die or two may switch between read and unreadable."""
    agreed = 0
    for name in sorted(LABELS)[:6]:
        frame = _frame(name)
        width = frame.shape[1]
        plain = read_dice(frame).dice
        turned = read_dice(np.ascontiguousarray(np.rot90(frame))).dice
        assert abs(len(plain) - len(turned)) <= 2
        for d in turned:  # back to the plain frame: (x, y) = (width - 1 - y', x')
            x, y = width - 1 - d.center[1], d.center[0]
            same = [p for p in plain if np.hypot(p.center[0] - x, p.center[1] - y) < 10]
            if same:
                assert same[0].value == d.value
                agreed += 1
    assert agreed >= 20


def test_only_dice_the_first_look_is_not_certain_of_get_the_eight_view_look():
    networks = shipped_face_networks()
    pool = _die_patches()
    sure, doubtful = (next(p for p in pool if certain(face_probabilities(p[None], networks)[0]) == want)
                         for want in (True, False))
    patches = np.stack([sure, doubtful])
    first = face_probabilities(patches, networks)
    out = verdicts(patches, networks)
    assert np.array_equal(out[0], first[0])
    assert np.allclose(out[1], second_looks(network_input(doubtful[None]), networks)[0], atol=1e-6)
    assert not np.allclose(out[1], first[1])


def _die_patches() -> list[np.ndarray]:
    """Upright patches of the first fixture's dice, then ever less legible versions of
    them (blended with each other, blurred, cut off-centre, noise): some the face
    network is certain of and some it is not, whatever its weights."""
    frame = _frame(sorted(LABELS)[0])
    field = SquareAngles(frame)
    dice = read_dice(frame).dice
    sides = [(d.box[2] - d.box[0]) / 1.2 for d in dice]
    plain = [upright_patch(frame, field, d.center, side)[0] for d, side in zip(dice, sides)]
    blends = [((a.astype(int) + b.astype(int)) // 2).astype(np.uint8) for a in plain for b in plain]
    blurred = [cv2.GaussianBlur(p, (0, 0), sigma) for p in plain for sigma in (1.5, 3.0)]
    off = [upright_patch(frame, field, (d.center[0] + side / 2, d.center[1] + side / 3), side)[0]
           for d, side in zip(dice, sides)]
    noise = [np.random.default_rng(0).integers(0, 256, plain[0].shape, dtype=np.uint8)]
    return plain + blends + blurred + off + noise


def test_an_empty_table_reads_nothing():
    rng = np.random.default_rng(3)
    frame = np.clip(rng.normal(190, 4, (480, 640, 3)), 0, 255).astype(np.uint8)
    read = read_dice(frame)
    assert read.dice == () and read.unreadable == ()


def test_calibration_limits_the_read_to_the_play_area():
    name = max(LABELS, key=lambda n: len(LABELS[n]["dice"]))
    frame = _frame(name)
    everything = read_dice(frame)
    left = Calibration(frame_size=(640, 640), area=((0, 0), (320, 0), (320, 639), (0, 639)))
    read = read_dice(frame, left)
    assert all(d.center[0] <= 320 for d in read.dice)
    assert all(u.center[0] <= 320 for u in read.unreadable)
    inside = [d for d in everything.dice if d.box[2] < 315]
    assert {d.value for d in inside} <= {d.value for d in read.dice}


@pytest.mark.parametrize("bad", [np.zeros((50, 50), np.uint8), np.zeros((50, 50, 3), np.float64),
                                 np.zeros((8, 8, 3), np.uint8), None, [[1, 2, 3]]])
def test_frames_that_are_not_images_are_refused(bad):
    with pytest.raises(NotAnImage):
        read_dice(bad)


def test_patches_cut_together_are_the_patches_cut_one_by_one():
    frame = _frame(sorted(LABELS)[0])
    field = SquareAngles(frame)
    centres = np.array([(100.0, 120.5), (300.2, 310.0), (5.0, 630.0)])
    sides = np.array([30.0, 80.0, 24.0])
    for size in (FIND_PATCH, PATCH):
        together, angles = upright_patches(frame, field, centres, sides, size)
        for k, (centre, side) in enumerate(zip(centres, sides)):
            alone, angle = upright_patch(frame, field, tuple(centre), side, size=size)
            assert np.array_equal(together[k], alone)
            assert together[k].shape == (size, size, 3)
            assert angles[k] == pytest.approx(angle, abs=1e-4)


def test_a_die_shaped_blob_is_one_lone_candidate_and_a_big_one_gets_the_grid_too():
    mask = np.zeros((200, 400), np.uint8)
    mask[20:50, 20:50] = 255  # one die at the typical side
    mask[100:145, 100:145] = 255  # die-shaped but 1.5 sides: maybe two dice corner to corner
    mask[20:50, 200:290] = 255  # three dice in a row: not die-shaped
    candidates, side = find_candidates(mask, die_side=30.0)
    assert side == 30.0
    lone = [c for c in candidates if c.lone]
    assert sorted((round(c.x), round(c.y)) for c in lone) == [(34, 34), (122, 122)]
    assert sum(1 for c in candidates if 20 <= c.x < 50) == 1
    assert sum(1 for c in candidates if 100 <= c.x < 145 and not c.lone) >= 4
    assert all(not c.lone for c in candidates if c.x >= 200)


def test_a_die_turned_45_degrees_is_a_lone_candidate_but_two_turned_dice_are_not():
    mask = np.zeros((200, 400), np.uint8)
    mask[20:50, 20:50] = 255  # upright dice set the typical size: 30 px
    mask[20:50, 320:350] = 255
    turned = cv2.boxPoints(((100.0, 130.0), (30.0, 30.0), 45.0))
    cv2.fillConvexPoly(mask, np.round(turned).astype(np.int32), 255)  # fills half its upright box
    pair = cv2.boxPoints(((250.0, 130.0), (60.0, 30.0), 45.0))  # two turned dice side by side
    cv2.fillConvexPoly(mask, np.round(pair).astype(np.int32), 255)
    candidates, side = find_candidates(mask)
    assert side == pytest.approx(30.0, abs=1)
    lone = sorted((round(c.x), round(c.y)) for c in candidates if c.lone)
    assert lone == [(34, 34), (100, 130), (334, 34)]
    assert sum(1 for c in candidates if 210 < c.x < 290) >= 4  # the pair gets the grid


def test_a_tray_rim_gets_no_grid_points_but_dice_against_it_do():
    mask = np.zeros((300, 300), np.uint8)
    cv2.rectangle(mask, (20, 20), (279, 279), 255, 13)  # a rim 13 px (0.43 sides) thick
    mask[27:57, 120:150] = 255  # a die against the inside of the top rim
    mask[130:160, 130:160] = 255  # a die alone in the tray
    candidates, _ = find_candidates(mask, die_side=30.0)
    on_rim = [c for c in candidates if not (27 <= c.x <= 272 and 27 <= c.y <= 272)]
    assert on_rim == []
    against = [c for c in candidates if 120 <= c.x < 150 and 27 <= c.y < 57]
    assert any(abs(c.x - 135) < 8 and abs(c.y - 42) < 8 for c in against)
    assert [c for c in candidates if c.lone] == [Candidate(144.5, 144.5, 30.0, lone=True)]


def test_only_lone_blobs_the_finders_doubt_away_from_found_dice_get_a_second_chance():
    candidates = [Candidate(50, 50, 30, lone=True), Candidate(200, 50, 30, lone=True),
                  Candidate(300, 50, 30), Candidate(400, 50, 30, lone=True), Candidate(210, 60, 30)]
    is_die = np.array([0.02, 0.3, 0.1, 0.9, 0.95])
    kept = [(3, 400.0, 50.0), (4, 210.0, 60.0)]
    # 0: doubted and alone; 1: doubted but within a found die; 2: not lone; 3: already found.
    assert doubted_lone(candidates, is_die, kept) == [0]


def test_no_patches_give_no_probabilities_at_every_look():
    """A frame with no dice asks every look about no patches: each answers with no
    rows, not an OpenCV error on an empty image."""
    networks = shipped_face_networks()
    no_patches = np.zeros((0, PATCH, PATCH, 3), np.uint8)
    assert network_input(no_patches).shape == (0, PATCH, PATCH, 4)
    for look in (face_probabilities(no_patches, networks), verdicts(no_patches, networks),
                 second_looks(network_input(no_patches), networks)):
        assert look.shape == (0, CLASSES)


def test_turning_a_patch_turns_its_network_input_exactly():
    """The eight views are made of the network input, not of the patch: that saves
    seven colour conversions only because it gives the very same numbers."""
    patches = np.stack(_die_patches()[:6])
    for hue_turned in (False, True):
        x = network_input(patches, hue_turned)
        for k in range(4):
            turned = np.ascontiguousarray(np.rot90(patches, k, axes=(1, 2)))
            assert np.array_equal(network_input(turned, hue_turned), np.rot90(x, k, axes=(1, 2)))
            assert np.array_equal(network_input(np.ascontiguousarray(turned[:, :, ::-1]), hue_turned),
                                  np.rot90(x, k, axes=(1, 2))[:, :, ::-1])


def test_a_closer_look_averages_the_eight_views_of_nearby_patches_at_nearby_sizes():
    networks = shipped_face_networks()
    frame = _frame(sorted(LABELS)[0])
    field = SquareAngles(frame)
    die = read_dice(frame).dice[0]
    side = (die.box[2] - die.box[0]) / 1.2
    look = closer_looks(frame, field, np.array([die.center]), np.array([side]), networks)
    assert look.shape == (1, CLASSES)
    assert look.sum() == pytest.approx(1.0, abs=1e-5)
    x, y = die.center
    shifts = ((1, 1), (-1, -1), (1, -1), (-1, 1))
    points = [(x, y), (x, y)] + [(x + dx * side / 10, y + dy * side / 10) for dx, dy in shifts]
    patches, _ = upright_patches(frame, field, np.array(points), np.array([0.9 * side, 1.1 * side] + [side] * 4))
    assert np.allclose(look[0], second_looks(network_input(patches), networks).mean(axis=0), atol=1e-5)
    assert int(np.argmax(look[0][1:7])) + 1 == die.value


def _white_table_with_white_die() -> np.ndarray:
    """A white die on a white table as a camera sees it (soft focus, sensor noise):
    only its pips stand out strongly; its outline differs from the table by a faint
    step in brightness and not at all in colour."""
    frame = np.full((240, 320, 3), 200, np.uint8)
    cv2.rectangle(frame, (60, 60), (99, 99), (238, 238, 238), -1)
    for x, y in ((70, 70), (89, 70), (70, 89), (89, 89)):
        cv2.circle(frame, (x, y), 3, (100, 100, 100), -1)
    cv2.line(frame, (150, 200), (310, 200), (238, 238, 238), 2)  # a faint crease in the cloth...
    cv2.circle(frame, (230, 200), 3, (60, 60, 60), -1)  # ...with a speck of dirt on it
    frame = cv2.GaussianBlur(frame, (0, 0), 1.0).astype(np.float32)
    noise = np.random.default_rng(5).normal(0, 2.0, frame.shape)
    return np.clip(np.rint(frame + noise), 0, 255).astype(np.uint8)


def test_a_white_die_on_a_white_table_is_found_whole_not_as_its_pips():
    mask = foreground_mask(_white_table_with_white_die()) > 0
    assert mask[62:98, 62:98].mean() > 0.95
    assert mask[200, 150:310].mean() < 0.2  # the crease is thin: not grown along its length
    candidates, _ = find_candidates(mask.astype(np.uint8) * 255)
    die = [c for c in candidates if 60 <= c.x <= 100 and 60 <= c.y <= 100]
    assert len(die) == 1 and die[0].lone
    assert die[0].side == pytest.approx(40, abs=5)
