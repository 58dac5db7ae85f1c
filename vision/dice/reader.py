"""Frame in, d6 values out: foreground mask -> candidate centres -> upright patches ->
classifier -> one answer per die, or an Unreadable when the classifier is not sure.

A die whose face the classifier cannot call with confidence (cocked against a wall,
stacked, blurred, pips hidden by glare) is reported, never guessed: the round asks
for a re-roll instead of paying on a wrong number."""

from __future__ import annotations

import numpy as np

from vision.calibration import Calibration
from vision.dice.candidates import Candidate, find_candidates
from vision.dice.classifier import NOT_A_DIE, ODD_DIE, face_probabilities, shipped_networks
from vision.dice.foreground import foreground_mask
from vision.dice.patches import PATCH, SquareAngles, upright_patch
from vision.dice.tinycnn import TinyCNN
from vision.image_io import checked_bgr
from vision.types import Die, TableRead, Unreadable

DIE_THRESHOLD = 0.5  # probability that a die is centred at a candidate
MIN_CONFIDENCE = 0.75  # below this the face is reported unreadable
SUPPRESS_RADIUS = 0.85  # in die sides: two dice cannot have centres closer than this
CENTRE_RADIUS = 0.4  # in die sides: candidates this close to the best one refine its centre
NUDGE = 0.2  # in die sides: the re-centring search tries this far either way in x and y
SAME_DIE = 0.7  # in die sides: re-centred dice closer than this are one die (touching ones are ~0.9 apart)
CERTAIN = 0.95  # first-look face probability from which the eight-view second look is skipped
SIDE_PER_CALIBRATED_FACE = 1.15  # die_px is the top face; candidates measure face plus walls


def _box(x: float, y: float, side: float, angle: float) -> tuple[float, float, float, float]:
    half = side / 2.0 * float(abs(np.cos(np.radians(angle))) + abs(np.sin(np.radians(angle))))
    return (round(x - half, 1), round(y - half, 1), round(x + half, 1), round(y + half, 1))


def _inside(calibration: Calibration, box: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = box
    return all(calibration.contains(p) for p in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)))


def classify_candidates(frame_bgr: np.ndarray, field: SquareAngles, candidates: list[Candidate],
                        networks: tuple[TinyCNN, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Upright patches, class probabilities (n, CLASSES) and die angles (n,) for the
    candidates."""
    if not candidates:
        empty = np.zeros((0, PATCH, PATCH, 3), np.uint8)
        return empty, face_probabilities(empty, networks), np.zeros(0, np.float32)
    patches, angles = zip(*(upright_patch(frame_bgr, field, (c.x, c.y), c.side) for c in candidates))
    patches = np.stack(patches)
    return patches, face_probabilities(patches, networks), np.array(angles, np.float32)


def face_call(probs: np.ndarray) -> tuple[int, float, float]:
    """(most likely face, its probability given a die, probability given a die that
    it does not lie flat) from one row of class probabilities."""
    is_die = max(1.0 - float(probs[NOT_A_DIE]), 1e-6)
    faces = probs[1:ODD_DIE] / is_die
    value = int(np.argmax(faces)) + 1
    return value, float(faces[value - 1]), float(probs[ODD_DIE]) / is_die


def _sure(probs: np.ndarray) -> bool:
    _, confidence, odd = face_call(probs)
    return confidence >= MIN_CONFIDENCE and odd < confidence


def recentred(frame_bgr: np.ndarray, field: SquareAngles, candidates: list[Candidate],
              kept: list[tuple[int, float, float]], looked: tuple[np.ndarray, np.ndarray, np.ndarray],
              networks: tuple[TinyCNN, ...]) -> list[tuple[int, float, float, np.ndarray, float]]:
    """(candidate index, centre x, centre y, upright patch, angle) per die. A die
    whose first look (`looked`: the candidates' patches, probabilities, angles) was
    unsure moves to whichever of nine nearby points the networks find more
    die-like than its own; then dice that moved onto an earlier one are dropped.

    Grid points and blob centroids of half-found dice (white on white, a shadow
    merged in) sit up to a third of a side off the die: the patch then loses a row
    of pips and the face is refused or misread. Moving recovers a share of them;
    two kept points of one die meet at its centre and only the first is kept, so
    the search adds no double reads. Sure dice are left alone, which keeps the
    cost to the few hard ones."""
    patches, probs, angles = looked
    found = [(i, x, y, patches[i], float(angles[i])) for i, x, y in kept]
    unsure = [n for n, (i, _, _) in enumerate(kept) if not _sure(probs[i])]
    points = [(x + dx * NUDGE * candidates[i].side, y + dy * NUDGE * candidates[i].side)
              for i, x, y in (kept[n] for n in unsure) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
    if points:
        tried = [upright_patch(frame_bgr, field, p, candidates[kept[unsure[k // 9]][0]].side)
                 for k, p in enumerate(points)]
        is_die = 1.0 - face_probabilities(np.stack([t[0] for t in tried]), networks)[:, NOT_A_DIE]
        for m, n in enumerate(unsure):
            best = 9 * m + int(np.argmax(is_die[9 * m:9 * m + 9]))
            if is_die[best] > 1.0 - probs[kept[n][0], NOT_A_DIE]:
                found[n] = (kept[n][0], *points[best], *tried[best])
    out: list[tuple[int, float, float, np.ndarray, float]] = []
    for die in found:
        if all(np.hypot(die[1] - o[1], die[2] - o[2]) >= SAME_DIE * candidates[die[0]].side for o in out):
            out.append(die)
    return out


def _certain(probs: np.ndarray) -> bool:
    _, confidence, odd = face_call(probs)
    return confidence >= CERTAIN and odd < 1.0 - CERTAIN


def verdicts(found: list[tuple[int, float, float, np.ndarray, float]], probs: np.ndarray,
             networks: tuple[TinyCNN, ...]) -> np.ndarray:
    """Class probabilities per die: the first look's when that is already certain
    (face probability >= CERTAIN; such a die is sure, so it was never moved), the
    eight-view second look otherwise. Looking again at every die was a third of
    the reader's time; skipping the certain ones gave no wrong value or phantom
    more on the photo set (a refused die or two fewer)."""
    out = np.array([probs[f[0]] for f in found], np.float32).reshape(len(found), probs.shape[1])
    doubtful = [n for n, f in enumerate(found) if not _certain(probs[f[0]])]
    if doubtful:
        out[doubtful] = second_looks(np.stack([found[n][3] for n in doubtful]), networks)
    return out


def second_looks(patches: np.ndarray, networks: tuple[TinyCNN, ...]) -> np.ndarray:
    """Class probabilities of each patch averaged over its eight turns and
    mirrorings. A face's pips do not change under them, so disagreement between the
    views is exactly the doubt that should lower the confidence."""
    if len(patches) == 0:
        return face_probabilities(patches, networks)
    views = [np.rot90(patches, k, axes=(1, 2)) for k in range(4)]
    views += [v[:, :, ::-1] for v in views]
    stacked = np.ascontiguousarray(np.concatenate(views))
    return face_probabilities(stacked, networks).reshape(8, len(patches), -1).mean(axis=0)


def one_per_die(candidates: list[Candidate], is_die: np.ndarray) -> list[tuple[int, float, float]]:
    """Non-maximum suppression: (index of the best candidate, centre x, centre y) for
    each die, best first."""
    kept = []
    taken = np.zeros(len(candidates), bool)
    xy = np.array([(c.x, c.y) for c in candidates], np.float64).reshape(-1, 2)
    for i in np.argsort(-is_die):
        if taken[i] or is_die[i] < DIE_THRESHOLD:
            continue
        distance = np.hypot(*(xy - xy[i]).T) / candidates[i].side
        near = (~taken) & (distance < SUPPRESS_RADIUS)
        taken |= near
        # The kept point sits on a grid; its close neighbours that also see a die
        # give a better centre (not the farther ones: they may be seeing the next die).
        close = near & (distance < CENTRE_RADIUS) & (is_die >= DIE_THRESHOLD)
        x, y = (xy[close] * is_die[close, None]).sum(axis=0) / is_die[close].sum()
        kept.append((int(i), float(x), float(y)))
    return kept


def read_dice(frame_bgr: np.ndarray, calibration: Calibration | None = None,
              networks: tuple[TinyCNN, ...] | None = None) -> TableRead:
    """Every d6 in the frame (inside the play area when calibrated); `networks`
    replace the shipped ones (for measuring freshly trained models)."""
    networks = networks or shipped_networks()
    checked_bgr(frame_bgr)
    mask = foreground_mask(frame_bgr)
    die_side = None
    if calibration is not None:
        mask = mask & calibration.mask(frame_bgr.shape)
        if calibration.die_px:
            die_side = calibration.die_px * SIDE_PER_CALIBRATED_FACE
    candidates, _ = find_candidates(mask, die_side)
    field = SquareAngles(frame_bgr)
    looked = classify_candidates(frame_bgr, field, candidates, networks)
    kept = one_per_die(candidates, 1.0 - looked[1][:, NOT_A_DIE])
    found = recentred(frame_bgr, field, candidates, kept, looked, networks)
    # The face is the best-placed patch's call alone: averaging in off-centre
    # neighbours was measured to blur confident reads into unreadable ones.
    dice: list[Die] = []
    unreadable: list[Unreadable] = []
    for (i, x, y, _, angle), verdict in zip(found, verdicts(found, looked[1], networks)):
        centre = (round(x, 1), round(y, 1))
        if calibration is not None and not calibration.contains(centre):
            continue
        box = _box(x, y, candidates[i].side, angle)
        value, confidence, odd = face_call(verdict)
        if calibration is not None and not _inside(calibration, box):
            unreadable.append(Unreadable("die", centre, "die lies across the edge of the play area", box))
        elif odd > confidence:
            unreadable.append(Unreadable("die", centre, "die does not lie flat (cocked or stacked)", box))
        elif confidence < MIN_CONFIDENCE:
            unreadable.append(Unreadable(
                "die", centre, f"top face unclear (best guess {value} at {confidence:.2f})", box))
        else:
            dice.append(Die(value, centre, box, round(confidence, 3)))
    return TableRead(dice=tuple(dice), unreadable=tuple(unreadable))
