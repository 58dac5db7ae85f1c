"""The default d6 reader: the hand-built reader (vision.dice) and the learned reader
(vision.dice_net) read the frame together.

The hand-built reader was built on one tray: there it reads 99% of dice right, and on
other tables it takes the table's grain, knots and shadows for dice and misses half the
dice. The learned reader, trained on photos of many tables, reads fewer dice on that
tray and far more on the others. So, die by die (`combine`):

- A die the hand-built reader reads is dropped where the learned detector sees no die on
  or near it (its box grown by GROW each way), and where the learned face classifier,
  cutting it at the detector's box, takes it for no die with NOT_A_DIE or more. A
  hand-built refusal with a box stands only where the detector finds a die at the
  learned reader's own threshold: on a grained or patterned table the hand-built
  reader refuses knots and shadows that weak finds also lie on.
- A die the classifier reads as another value with DISAGREE or more, or gives its
  hand-built value less than AGREE, is refused ("the two dice readers disagree"): the
  table asks for a re-roll rather than pay on a value two readers dispute.
- Where the hand-built reader reads no die, the learned reader's own reads and refusals
  are added: a learned read is left out only where it is the same die as a hand-built
  one the detector saw (each one's centre in the other's box), not where a hand-built
  box merely reaches it (a hand-built die placed between two dice hid a die beside it). A learned read replaces a hand-built refusal it lies in for an unclear
  face, but not one for a die across the view's or the play area's edge, or cocked or
  stacked: the learned reader reads the face most turned up of such a die.

A frame the hand-built reader refuses as a whole (no colour, too grainy, a table it
cannot tell from the dice) is read by the learned reader alone, and so is a frame in
which the classifier surely reads another value on a hand-built die (another value at
DISAGREE or more, and the hand-built value under AGREE): on the tray that happens in
2-3 frames of 200, on dice-aws in 63 of the 151 frames the hand-built reader reads, and
there its other reads are no better. docs/vision.md has the
figures ("The two readers together").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from table.reads import Box, Die, TableRead, Unreadable, inside
from vision import dice_net
from vision.calibration import Calibration, boxes_in_play, in_play_area
from vision.dice import read_dice as read_dice_hand

SEEN = 0.1  # detector score at or over which a find counts as a die seen
DISAGREE = 0.9  # the learned classifier's probability of another value at which a die is refused
AGREE = 0.01  # the classifier's probability of the hand-built value under which a die is refused
NOT_A_DIE = 0.3  # the classifier's "not a die" at or over which a hand-built die is dropped
GROW = 0.2  # a find this share of a die's box beyond its edges still sees that die
WHOLE = 0.9  # a refusal whose box covers this share of the frame is of the whole view
STANDS = ("across the edge", "does not lie flat")  # in the reason of a refusal no learned read replaces
# The learned detector takes its closer look at once (no first look at the letterbox) where
# the hand-built reader's dice are under this share of the detector's `small` side.
CLEARLY_SMALL = 0.5


def _near(box: Box, point: tuple[float, float]) -> bool:
    """Whether `point` lies in `box` grown by GROW of its size each way."""
    x0, y0, x1, y1 = box
    gx, gy = GROW * (x1 - x0), GROW * (y1 - y0)
    return x0 - gx <= point[0] <= x1 + gx and y0 - gy <= point[1] <= y1 + gy


def _same(a: Die, b: Die) -> bool:
    """Whether two reads are of one die: each one's centre lies in the other's box."""
    return inside(b.center, a.box) and inside(a.center, b.box)


def seen(box: Box, finds: Sequence[dict]) -> bool:
    """Whether a find's centre lies in `box` grown by GROW of its size each way."""
    return any(_near(box, f["center"]) for f in finds)


def _learned(frame_bgr: np.ndarray, calibration: Calibration | None, config) -> TableRead:
    """The learned d6 reader's read (vision.dice_net.read_dice_net), inside the play area
    when calibrated."""
    return _own(dice_net.candidates(frame_bgr, config), calibration, config)


def _nearest(die: Die, finds: Sequence[dict]) -> dict:
    """The find nearest a die, of those that see it."""
    return min((f for f in finds if seen(die.box, [f])),
               key=lambda f: (f["center"][0] - die.center[0]) ** 2 + (f["center"][1] - die.center[1]) ** 2)


@dataclass(frozen=True)
class Evidence:
    """What both readers saw in a frame: the hand-built read, and the learned detector's
    finds at SEEN or more, each with the classifier's 7 probabilities ("probs") where it
    was read (the finds at the learned reader's own detector threshold and the find
    nearest each hand-built die). `size`: the frame's width and height."""

    hand: TableRead
    finds: tuple[dict, ...]
    size: tuple[int, int]
    # A taught reader's own read and detector threshold (vision.teach), where the learned
    # reader is one taught the owner's dice; None: the shipped networks' (`_own`).
    own: TableRead | None = None
    own_threshold: float | None = None

    def refused_whole(self) -> bool:
        """Whether the hand-built reader refused the whole view (no colour, too grainy, a
        table it cannot tell from the dice): a refusal whose box covers the frame."""
        w, h = self.size
        return any(u.box is not None and (u.box[2] - u.box[0]) * (u.box[3] - u.box[1]) >= WHOLE * w * h
                   for u in self.hand.unreadable)


def evidence(frame_bgr: np.ndarray, calibration: Calibration | None = None, *, threshold: float = SEEN,
             config=None) -> Evidence:
    """Both readers' look at a frame (ValueError for anything but an image, as the
    hand-built reader raises)."""
    hand = read_dice_hand(frame_bgr, calibration)
    frame, nets = dice_net._check_frame(frame_bgr), dice_net.load_nets(config)
    finds = _finds(frame, nets, threshold, hand)
    own = float(nets.cfg["detector"]["threshold"])
    wanted = {id(f) for f in finds if f["score"] >= own}
    wanted |= {id(_nearest(d, finds)) for d in hand.dice if seen(d.box, finds)}
    chosen = [f for f in finds if id(f) in wanted]
    if chosen:
        probs = dice_net._read_views(dice_net.face_crops(frame, nets, chosen), nets, nets.cfg["face"].get("tta", 1))
        for f, p in zip(chosen, probs):
            f["probs"] = p.astype(float)
    return Evidence(hand, tuple(finds), (frame.shape[1], frame.shape[0]))


def _finds(frame: np.ndarray, nets, threshold: float, hand: TableRead) -> list[dict]:
    """The learned detector's finds at `threshold` or more (dice_net.at_look), taking the
    closer look at once where the hand-built reader's dice are clearly small (their
    median side under CLEARLY_SMALL of the detector's `small` in the letterbox): the
    first look would only have said so. On the tray that saves the first look's
    8-9 ms a frame and reads the same."""
    sides = [max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in hand.dice]
    enlarge = dice_net.enlargement(frame, nets, sides, CLEARLY_SMALL)
    if enlarge != 1.0:
        return dice_net.detect(frame, nets, threshold, enlarge)
    return dice_net.at_look(frame, nets, threshold)


def _own(finds: Sequence[dict], calibration: Calibration | None, config) -> TableRead:
    """The learned reader's own read from the finds (those at its detector threshold),
    inside the play area when calibrated."""
    cfg = dice_net.load_nets(config).cfg
    own = dice_net.decide([f for f in finds if "probs" in f and f["score"] >= float(cfg["detector"]["threshold"])],
                          float(cfg["face"]["threshold"]), float(cfg["face"]["not_die_threshold"]))
    dice, refusals = boxes_in_play(calibration, own.dice, own.unreadable, "die", "the die")
    return TableRead(dice=tuple(dice), unreadable=tuple(refusals))


def _own_read(seen_: Evidence, calibration: Calibration | None, config) -> TableRead:
    """The learned reader's own read: the taught reader's where the evidence holds one."""
    if seen_.own is None:
        return _own(seen_.finds, calibration, config)
    return in_play_area(seen_.own, calibration)


def combine(seen_: Evidence, calibration: Calibration | None = None, *, agree: float | None = AGREE,
            disagree: float | None = DISAGREE, not_a_die: float | None = NOT_A_DIE, fill: bool = True,
            config=None) -> TableRead:
    """The table's read from both readers' evidence (the module's rules; None turns a
    rule off, `fill=False` adds nothing of the learned reader's own)."""
    hand, finds = seen_.hand, seen_.finds
    if fill and seen_.refused_whole():  # the hand-built reader cannot read this frame; the learned one can
        return _own_read(seen_, calibration, config)
    dice: list[Die] = []
    own_threshold = seen_.own_threshold if seen_.own_threshold is not None else \
        float(dice_net.load_nets(config).cfg["detector"]["threshold"])
    sure = [f for f in finds if f["score"] >= own_threshold]
    refused = [u for u in hand.unreadable if u.box is None or seen(u.box, sure)]
    taken: list[Die] = []  # the hand-built dice the learned reader saw as dice
    for die in hand.dice:
        if not seen(die.box, finds):
            continue
        p = _nearest(die, finds)["probs"]
        if not_a_die is not None and p[0] >= not_a_die:
            continue
        taken.append(die)
        other = int(np.argmax(p[1:])) + 1
        if fill and disagree is not None and agree is not None and other != die.value and p[other] >= disagree \
                and p[die.value] < agree:  # surely another value: the hand-built reader is not at home here
            return _own_read(seen_, calibration, config)
        if (disagree is not None and other != die.value and p[other] >= disagree) or \
                (agree is not None and p[die.value] < agree):
            refused.append(Unreadable("die", die.center, f"the two dice readers disagree ({die.value} or {other}): "
                                      "re-roll it", die.box))
        else:
            dice.append(die)
    if fill:
        own = _own_read(seen_, calibration, config)
        for die in own.dice:
            if any(_same(d, die) for d in taken):
                continue  # the hand-built reader read this die: its value, or none, stands
            under = [u for u in refused if u.box is not None and _near(u.box, die.center)]
            if any(words in u.reason for u in under for words in STANDS):
                continue  # a die across an edge, cocked or stacked is refused whatever its face shows
            refused = [u for u in refused if u not in under]
            dice.append(die)
        boxes = [d.box for d in dice] + [u.box for u in refused if u.box is not None]
        for refusal in own.unreadable:
            if not any(_near(b, refusal.center) for b in boxes):
                refused.append(refusal)
    dice.sort(key=lambda d: (d.center[1], d.center[0]))
    return replace(hand, dice=tuple(dice), unreadable=tuple(refused))


def read_dice_seen(frame_bgr: np.ndarray, calibration: Calibration | None = None, *, threshold: float = SEEN,
                   agree: float | None = AGREE, disagree: float | None = DISAGREE,
                   not_a_die: float | None = NOT_A_DIE, fill: bool = True, config=None) -> TableRead:
    """Every d6 in the frame (inside the play area when calibrated), read by both readers
    together (the module's rules). The keyword arguments (a rule's threshold, None to
    turn it off; `config`: another dice_net.json, networks trained without a source) are
    for measuring (tools/dice_net/seen_bench.py). Anything but an image is a ValueError
    (vision.image_io.NotAnImage), as for the hand-built reader."""
    return combine(evidence(frame_bgr, calibration, threshold=threshold, config=config), calibration, agree=agree,
                   disagree=disagree, not_a_die=not_a_die, fill=fill, config=config)


def read_dice_seen_taught(frame_bgr: np.ndarray, taught, calibration: Calibration | None = None, *,
                          config=None) -> TableRead:
    """The d6 dice in the frame read by the hand-built reader and a taught learned reader
    (vision.teach: the owner's dice) together, by the same rules as `read_dice_seen`:
    the taught reader's finds and its head's probabilities take the place of the shipped
    networks', and a hand-built die is dropped at the taught head's own "not a die" bar
    (vision.teach.NOT_A_DIE, 0.5: at the shipped classifier's 0.3 the head dropped 67 of
    the tray's 1349 dice). On the tray the hand-built reader's reads stay; elsewhere the taught
    reader's. `config`: the networks the file was taught on where not the shipped ones
    (for measuring)."""
    from vision import teach

    hand = read_dice_hand(frame_bgr, calibration)
    frame = dice_net._check_frame(frame_bgr)
    finds = teach.taught_finds(frame, taught, min(SEEN, taught.detector_threshold), config)
    seen_ = Evidence(hand, tuple(finds), (frame.shape[1], frame.shape[0]), own=teach.taught_read(finds, taught, config),
                     own_threshold=taught.detector_threshold)
    return combine(seen_, calibration, not_a_die=teach.NOT_A_DIE, config=config)  # the taught head's own bar
