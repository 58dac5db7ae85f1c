"""Frame in, d6 values out: foreground mask -> candidate centres -> upright patches ->
classifier -> one answer per die, or an Unreadable when the classifier is not sure.

A die whose face the classifier cannot call with confidence (cocked against a wall,
stacked, blurred, pips hidden by glare) is reported, never guessed: the round asks
for a re-roll instead of paying on a wrong number."""

from __future__ import annotations

import cv2
import numpy as np

from table.reads import Die, TableRead, Unreadable
from vision.calibration import Calibration, box_corners, checked_frame, in_play
from vision.colour import grey_refusal, uncast, whole_view
from vision.dice.candidates import Candidate, find_candidates
from vision.dice.cast import cast_gains
from vision.dice.classifier import (
    NOT_A_DIE,
    ODD_DIE,
    face_probabilities,
    input_probabilities,
    shipped_face_networks,
    shipped_hue_networks,
    shipped_networks,
)
from vision.dice.foreground import foreground_mask
from vision.dice.patches import FIND_PATCH, SquareAngles, network_input, upright_patches
from vision.dice.working_scale import CLOSE_ENOUGH, TARGET, working_factor
from vision.exposure import levelled
from vision.frame_edge import EDGE_OVERHANG, box_overhang
from vision.noise import grain, smoothed
from vision.resized_read import look_factor, read_in_frame, shrunk
from vision.weights import Network

DIE_THRESHOLD = 0.5  # probability that a die is centred at a candidate
SCREEN = 0.05  # first finder's die probability below which the other finders are not asked
MIN_CONFIDENCE = 0.75  # below this the face is reported unreadable
SUPPRESS_RADIUS = 0.85  # in die sides: two dice cannot have centres closer than this
CENTRE_RADIUS = 0.4  # in die sides: candidates this close to the best one refine its centre
NUDGE = 0.2  # in die sides: the re-centring search tries this far either way in x and y
SAME_DIE = 0.7  # in die sides: re-centred dice closer than this are one die (touching ones are ~0.9 apart)
FACE_VETO = 0.5  # a found die the face network sees no die in is dropped
DOUBTED_VETO = 0.2  # ...and a lone blob the finders doubted needs the face network surer still
# A face left unclear is looked at again on these patches: (size, x and y offset), in die sides.
CLOSER_LOOKS = ((0.9, 0, 0), (1.1, 0, 0), (1, 0.1, 0.1), (1, -0.1, -0.1), (1, 0.1, -0.1), (1, -0.1, 0.1))
CERTAIN = 0.95  # first-look face probability from which the eight-view second look is skipped
# A face the first network left unclear goes to the second opinion only if it found it
# this unlikely not to lie flat: the second network reads a cocked die it is shown as a
# face, and the dice it reads right lie under this (held out, docs/tried/dice.md).
FLAT_ENOUGH = 0.1
SIDE_PER_CALIBRATED_FACE = 1.15  # die_px is the top face; candidates measure face plus walls
# Grey-level grain (vision.noise) from which a frame is smoothed before it is read, and
# past which it is refused: smoothed frames read as clean ones up to a little past
# TOO_GRAINY, and soon after give phantom dice (docs/vision.md, "Grainy frames").
GRAINY = 3.0
TOO_GRAINY = 8.0
# A view whose foreground covers more than this share, or that gives more candidates
# than this, shows no table to tell dice from (grain the grain measure misses, a busy
# cloth). Both lie well above what real and rendered tables give and well below what
# coarse grain gives, which would otherwise take many seconds to read.
MOST_COVERED = 0.5
MOST_CANDIDATES = 4000


def _box(x: float, y: float, side: float, angle: float) -> tuple[float, float, float, float]:
    half = side / 2.0 * float(abs(np.cos(np.radians(angle))) + abs(np.sin(np.radians(angle))))
    return (round(x - half, 1), round(y - half, 1), round(x + half, 1), round(y + half, 1))


def classify_candidates(frame_bgr: np.ndarray, field: SquareAngles, candidates: list[Candidate],
                        networks: tuple[Network, ...]) -> np.ndarray:
    """The finders' class probabilities (n, CLASSES) for the candidates."""
    patches, _ = upright_patches(frame_bgr, field, np.array([(c.x, c.y) for c in candidates]).reshape(-1, 2),
                                 np.array([c.side for c in candidates]), FIND_PATCH)
    return screened_probabilities(patches, networks)


def screened_probabilities(patches: np.ndarray, networks: tuple[Network, ...]) -> np.ndarray:
    """The finders' mean class probabilities, except where the first finder alone
    already puts a die below SCREEN: there its answer stands and the others are not
    asked. Four in ten candidates are such plain table or wall; on the held-out half
    none of them had a mean of DIE_THRESHOLD or more, so only time is saved."""
    x = network_input(patches)
    probs = input_probabilities(x, networks[:1])
    rest = np.flatnonzero(1.0 - probs[:, NOT_A_DIE] >= SCREEN)
    if len(networks) > 1 and len(rest):
        others = input_probabilities(x[rest], networks[1:])
        probs[rest] = (probs[rest] + others * (len(networks) - 1)) / len(networks)
    return probs


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
              kept: list[tuple[int, float, float]], probs: np.ndarray,
              networks: tuple[Network, ...]) -> list[tuple[int, float, float, float, float]]:
    """(candidate index, centre x, centre y, patch centre x, patch centre y) per die:
    the face is read on a patch around the candidate point the finders kept, which
    read better than one around the centre refined from its neighbours (held out). A
    die the finders were unsure
    of (`probs`: their answers for the candidates) moves to whichever of nine nearby
    points they find more die-like than its own; then dice that moved onto an
    earlier one are dropped.

    Grid points and blob centroids of half-found dice (white on white, a shadow
    merged in) sit up to a third of a side off the die: the patch then loses a row
    of pips and the face is refused or misread. Moving recovers a share of them;
    two kept points of one die meet at its centre and only the first is kept, so
    the search adds no double reads. Sure dice are left alone, which keeps the
    cost to the few hard ones."""
    found = [(i, x, y, candidates[i].x, candidates[i].y) for i, x, y in kept]
    unsure = [n for n, (i, _, _) in enumerate(kept) if not _sure(probs[i])]
    points = [(x + dx * NUDGE * candidates[i].side, y + dy * NUDGE * candidates[i].side)
              for i, x, y in (kept[n] for n in unsure) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
    if points:
        tried, _ = upright_patches(frame_bgr, field, np.array(points),
                                   np.array([candidates[kept[n][0]].side for n in unsure for _ in range(9)]),
                                   FIND_PATCH)
        is_die = 1.0 - face_probabilities(tried, networks)[:, NOT_A_DIE]
        for m, n in enumerate(unsure):
            best = 9 * m + int(np.argmax(is_die[9 * m:9 * m + 9]))
            if is_die[best] > 1.0 - probs[kept[n][0], NOT_A_DIE]:
                found[n] = (kept[n][0], *points[best], *points[best])
    out: list[tuple[int, float, float, float, float]] = []
    for die in found:
        if all(np.hypot(die[1] - o[1], die[2] - o[2]) >= SAME_DIE * candidates[die[0]].side for o in out):
            out.append(die)
    return out


def certain(probs: np.ndarray) -> bool:
    _, confidence, odd = face_call(probs)
    return confidence >= CERTAIN and odd < 1.0 - CERTAIN


def verdicts(patches: np.ndarray, face_networks: tuple[Network, ...]) -> np.ndarray:
    """Class probabilities per found die from the face networks: their first look
    where that is already certain (face probability >= CERTAIN), the eight-view
    second look otherwise.

    Finding dice and reading their faces are separate networks because they cost
    differently: the finders look at every candidate (seven per die), so they must be
    small, while the face network looks at the found dice only and can afford the
    capacity reading a face needs (a small one leaves too many plain faces refused,
    held out; docs/tried/dice.md)."""
    x = network_input(patches)
    out = input_probabilities(x, face_networks)
    doubtful = [n for n in range(len(patches)) if not certain(out[n])]
    if doubtful:
        out[doubtful] = second_looks(x[doubtful], face_networks)
    return out


def second_looks(x: np.ndarray, networks: tuple[Network, ...]) -> np.ndarray:
    """Class probabilities of each patch (`x`: network input) averaged over its eight
    turns and mirrorings. A face's pips do not change under them, so disagreement
    between the views is exactly the doubt that should lower the confidence. (The
    input is turned, not the patch: its colours relative to the face's median over
    the patch middle come out the same either way, at an eighth of the cost.)"""
    if len(x) == 0:
        return input_probabilities(x, networks)
    views = [np.rot90(x, k, axes=(1, 2)) for k in range(4)]
    views += [v[:, :, ::-1] for v in views]
    stacked = np.ascontiguousarray(np.concatenate(views))
    return input_probabilities(stacked, networks).reshape(8, len(x), -1).mean(axis=0)


def _veto(candidate: int, doubted: list[int]) -> float:
    return DOUBTED_VETO if candidate in doubted else FACE_VETO


def _unclear(probs: np.ndarray) -> bool:
    _, confidence, odd = face_call(probs)
    return odd <= confidence < MIN_CONFIDENCE


def closer_looks(frame_bgr: np.ndarray, field: SquareAngles, centres: np.ndarray, sides: np.ndarray,
                 face_networks: tuple[Network, ...], hue_turned: bool = False) -> np.ndarray:
    """Class probabilities per die averaged over patches a little bigger, smaller and
    off centre (each with its eight views), to stand instead of the first two looks
    for dice whose face those left unclear: a patch cut a little off the die loses
    part of a pip row, and the answer it gives is only one sample of that error. Only
    refusals are looked at again, so confident reads are never blurred. Held out, this
    reads a few more dice right and none wrong; more patches cost more and read no
    more (docs/tried/dice.md)."""
    points = [(x + dx * side, y + dy * side) for (x, y), side in zip(centres, sides) for _, dx, dy in CLOSER_LOOKS]
    spans = [side * scale for side in sides for scale, _, _ in CLOSER_LOOKS]
    patches, _ = upright_patches(frame_bgr, field, np.array(points), np.array(spans))
    looks = second_looks(network_input(patches, hue_turned), face_networks)
    return looks.reshape(len(centres), len(CLOSER_LOOKS), -1).mean(axis=1)


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


def doubted_lone(candidates: list[Candidate], is_die: np.ndarray, kept: list[tuple[int, float, float]]) -> list[int]:
    """Candidates that are lone die-shaped blobs the finders put below DIE_THRESHOLD,
    away from every die they kept: the face network gets the last word on them.

    A blob of a die's shape and size standing alone on the table is a die far more
    often than not, but the small finders miss glossy dice whose glare breaks up the
    face (die probabilities of 0.01-0.3 on dice a person reads at once); the larger
    face network reads most of them. Held out, this finds a few more dice right and
    adds no phantom or wrong value, over a wide range of vetoes."""
    out = []
    for i, c in enumerate(candidates):
        if not c.lone or is_die[i] >= DIE_THRESHOLD:
            continue
        if all(np.hypot(c.x - x, c.y - y) >= SUPPRESS_RADIUS * candidates[k].side for k, x, y in kept):
            out.append(i)
    return out


def read_dice(frame_bgr: np.ndarray, calibration: Calibration | None = None,
              networks: tuple[Network, ...] | None = None,
              face_networks: tuple[Network, ...] | None = None,
              hue_networks: tuple[Network, ...] | None = None) -> TableRead:
    """Every d6 in the frame (inside the play area when calibrated); `networks` (the
    finders), `face_networks` and `hue_networks` (the second opinion on unclear
    faces) replace the shipped ones (for measuring freshly trained models). A frame
    whose dice are much bigger than the networks learnt them is read shrunk (vision.dice.working_scale, vision.resized_read), in the frame's own pixels all the same.
    A grainy frame is smoothed first, and one too grainy to read is one Unreadable; a
    frame whose dice show a lamp's colour cast is read again with it taken out
    (vision.dice.cast)."""
    networks = networks or shipped_networks()
    face_networks = face_networks or shipped_face_networks()
    hue_networks = hue_networks or shipped_hue_networks()
    checked_frame(frame_bgr, calibration)
    if (refusal := grey_refusal(frame_bgr, "die", "dice")) is not None:
        return refusal
    try:
        sigma = grain(frame_bgr)
        if sigma > TOO_GRAINY:
            raise _NoTable(f"the picture is too grainy to read dice (noise of {sigma:.0f} grey levels): "
                           f"{_MORE_LIGHT}")
        source = levelled(smoothed(frame_bgr, sigma) if sigma > GRAINY else frame_bgr)
        frame, frame_calibration, candidates = working_frame(source, calibration)
        if candidates is None:
            candidates, _ = _candidates(frame, frame_calibration)
        read = _read(frame, frame_calibration, candidates, networks, face_networks, hue_networks)
        if (gains := cast_gains(frame, [die.box for die in read.dice])) is not None:
            neutral = uncast(frame, gains)
            read = _read(neutral, frame_calibration, _candidates(neutral, frame_calibration)[0], networks,
                         face_networks, hue_networks)
    except _NoTable as refusal:
        return TableRead(unreadable=(whole_view(frame_bgr, "die", str(refusal)),))
    return read if frame is source else read_in_frame(read, frame.shape, source.shape)


_MORE_LIGHT = "light the table better or lower the camera's gain"


class _NoTable(Exception):
    """The view as a whole cannot be read: one Unreadable for all of it, since
    reading on would report phantom dice (and take seconds on a Pi)."""


def working_frame(frame_bgr: np.ndarray, calibration: Calibration | None
                   ) -> tuple[np.ndarray, Calibration | None, list[Candidate] | None]:
    """The frame at the size it is read at, its calibration, and its candidates when
    measuring the dice found them already: a frame of the photos' size, or a bigger
    frame whose 640-pixel copy shows dice of the sizes learnt (the usual camera frame),
    is read as measured, at no extra cost."""
    if (side := _calibrated_side(calibration)) is not None:
        return (*shrunk(frame_bgr, calibration, working_factor(side)), None)
    shrink = look_factor(frame_bgr.shape)
    look, look_calibration = shrunk(frame_bgr, calibration, shrink)
    candidates, side = _candidates(look, look_calibration)
    factor = working_factor(side / shrink)
    if factor == 1.0 and shrink == 1.0 or factor < 1.0 and abs(side - TARGET) <= CLOSE_ENOUGH * TARGET:
        return look, look_calibration, candidates
    return (*shrunk(frame_bgr, calibration, factor), None)


def _calibrated_side(calibration: Calibration | None) -> float | None:
    """The die side (face plus walls, as candidates measure it) the calibration gives."""
    if calibration is None or not calibration.die_px:
        return None
    return calibration.die_px * SIDE_PER_CALIBRATED_FACE


def _candidates(frame_bgr: np.ndarray, calibration: Calibration | None) -> tuple[list[Candidate], float]:
    mask = foreground_mask(frame_bgr)
    area = mask.size
    if calibration is not None:
        play = calibration.mask(frame_bgr.shape)
        mask, area = mask & play, cv2.countNonZero(play)
    no_table = _NoTable(f"the table cannot be told from what lies on it: {_MORE_LIGHT}")
    if cv2.countNonZero(mask) > MOST_COVERED * area:  # known before the grid search over all of it
        raise no_table
    candidates, side = find_candidates(mask, _calibrated_side(calibration))
    if len(candidates) > MOST_CANDIDATES:
        raise no_table
    return candidates, side


def _read(frame_bgr: np.ndarray, calibration: Calibration | None, candidates: list[Candidate],
          networks: tuple[Network, ...], face_networks: tuple[Network, ...],
          hue_networks: tuple[Network, ...]) -> TableRead:
    field = SquareAngles(frame_bgr)
    probs = classify_candidates(frame_bgr, field, candidates, networks)
    is_die = 1.0 - probs[:, NOT_A_DIE]
    kept = one_per_die(candidates, is_die)
    doubted = doubted_lone(candidates, is_die, kept)
    kept += [(i, candidates[i].x, candidates[i].y) for i in doubted]
    found = recentred(frame_bgr, field, candidates, kept, probs, networks)
    patches, angles = upright_patches(frame_bgr, field, np.array([f[3:] for f in found]).reshape(-1, 2),
                                      np.array([candidates[f[0]].side for f in found]))
    # The face is the best-placed patch's call alone: averaging in off-centre
    # neighbours was measured to blur confident reads into unreadable ones.
    calls = verdicts(patches, face_networks)

    def unclear(among) -> list[int]:
        return [n for n in among if calls[n][NOT_A_DIE] <= _veto(found[n][0], doubted) and _unclear(calls[n])]

    def closer(dice: list[int], networks_asked: tuple[Network, ...], hue_turned: bool = False) -> np.ndarray:
        return closer_looks(frame_bgr, field, np.array([found[n][3:] for n in dice]),
                            np.array([candidates[found[n][0]].side for n in dice]), networks_asked, hue_turned)

    if doubtful := unclear(range(len(found))):
        calls[doubtful] = closer(doubtful, face_networks)
    # A face still unclear, and not doubted to lie flat, gets a second opinion from a
    # network that sees colours otherwise (every die's hue turned to red's): read if it
    # is sure, at the same bar. A network that sees colours otherwise rescues more faces
    # than a second one like the first (held out, docs/tried/dice.md).
    if doubtful := [n for n in unclear(doubtful) if face_call(calls[n])[2] < FLAT_ENOUGH]:
        for n, look in zip(doubtful, closer(doubtful, hue_networks, hue_turned=True)):
            if _sure(look) and look[NOT_A_DIE] <= _veto(found[n][0], doubted):
                calls[n] = look
    reads: list[Die | Unreadable] = []
    for (i, x, y, _, _), angle, verdict in zip(found, angles, calls):
        if verdict[NOT_A_DIE] > _veto(i, doubted):
            continue
        centre = (round(x, 1), round(y, 1))
        box = _box(x, y, candidates[i].side, angle)
        value, confidence, odd = face_call(verdict)
        read: Die | Unreadable
        if box_overhang(box, frame_bgr.shape) > EDGE_OVERHANG * candidates[i].side:
            read = Unreadable("die", centre, "die lies across the edge of the view", box)
        elif odd > confidence:
            read = Unreadable("die", centre, "die does not lie flat (cocked or stacked)", box)
        elif confidence < MIN_CONFIDENCE:
            read = Unreadable("die", centre, f"top face unclear (best guess {value} at {confidence:.2f})", box)
        else:
            read = Die(value, centre, box, round(confidence, 3))
        # The play area's edge comes first: a die it cuts is refused for that whatever else.
        if (placed := in_play(calibration, read, box_corners(box), "die", "die")) is not None:
            reads.append(placed)
    return TableRead(dice=tuple(r for r in reads if isinstance(r, Die)),
                     unreadable=tuple(r for r in reads if isinstance(r, Unreadable)))
