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
SIDE_PER_CALIBRATED_FACE = 1.15  # die_px is the top face; candidates measure face plus walls


def _box(x: float, y: float, side: float, angle: float) -> tuple[float, float, float, float]:
    half = side / 2.0 * float(abs(np.cos(np.radians(angle))) + abs(np.sin(np.radians(angle))))
    return (round(x - half, 1), round(y - half, 1), round(x + half, 1), round(y + half, 1))


def _inside(calibration: Calibration, box: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = box
    return all(calibration.contains(p) for p in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)))


def classify_candidates(frame_bgr: np.ndarray, candidates: list[Candidate], networks: tuple[TinyCNN, ...]
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Upright patches, class probabilities (n, CLASSES) and die angles (n,) for the
    candidates."""
    if not candidates:
        empty = np.zeros((0, PATCH, PATCH, 3), np.uint8)
        return empty, face_probabilities(empty, networks), np.zeros(0, np.float32)
    field = SquareAngles(frame_bgr)
    patches, angles = zip(*(upright_patch(frame_bgr, field, (c.x, c.y), c.side) for c in candidates))
    patches = np.stack(patches)
    return patches, face_probabilities(patches, networks), np.array(angles, np.float32)


def second_looks(patches: np.ndarray, networks: tuple[TinyCNN, ...]) -> np.ndarray:
    """Class probabilities of each patch averaged over its eight turns and
    mirrorings. A face's pips do not change under them, so disagreement between the
    views is exactly the doubt that should lower the confidence; done only for the
    few patches that won, in one batch, it costs little."""
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
    patches, probs, angles = classify_candidates(frame_bgr, candidates, networks)
    kept = one_per_die(candidates, 1.0 - probs[:, NOT_A_DIE])
    # The face is the best-placed patch's call alone: averaging in off-centre
    # neighbours was measured to blur confident reads into unreadable ones.
    verdicts = second_looks(patches[[i for i, _, _ in kept]], networks)
    dice: list[Die] = []
    unreadable: list[Unreadable] = []
    for (i, x, y), verdict in zip(kept, verdicts):
        centre = (round(x, 1), round(y, 1))
        if calibration is not None and not calibration.contains(centre):
            continue
        box = _box(x, y, candidates[i].side, float(angles[i]))
        is_die = max(1.0 - float(verdict[NOT_A_DIE]), 1e-6)
        faces = verdict[1:ODD_DIE] / is_die
        value = int(np.argmax(faces)) + 1
        confidence = float(faces[value - 1])
        if calibration is not None and not _inside(calibration, box):
            unreadable.append(Unreadable("die", centre, "die lies across the edge of the play area", box))
        elif float(verdict[ODD_DIE]) / is_die > confidence:
            unreadable.append(Unreadable("die", centre, "die does not lie flat (cocked or stacked)", box))
        elif confidence < MIN_CONFIDENCE:
            unreadable.append(Unreadable(
                "die", centre, f"top face unclear (best guess {value} at {confidence:.2f})", box))
        else:
            dice.append(Die(value, centre, box, round(confidence, 3)))
    return TableRead(dice=tuple(dice), unreadable=tuple(unreadable))
