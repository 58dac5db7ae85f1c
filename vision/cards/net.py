"""The learned card reader: two small networks trained by tools/card_net on card faces
of many printed designs laid out on real table photos (docs/vision-cards-d10.md, "The
learned card reader").

A card is read from its corner index, the rank with the suit under it, which a card
shows even where the card above hides the rest of it. The detector (the d6 reader's
CenterNet-style network) finds every index: a centre heatmap at stride 4 on the frame
letterboxed to a square, with the index's height and its "down" direction (rank to
suit). Each index is cut out turned upright and read by the index classifier: a rank
(or "no index here": a card's middle, a back, a die, a chip, an index upside down) and
a suit.

An index is read only when rank and suit are both sure (`face.threshold` in
card_net.json); a found index that is not sure is Unreadable with its reason. A card's
place, box and angle come from its index and the shape of a card (`geometry`: where a
card's middle lies from its index, in index heights). The indices of one card in its
opposite corners (or all four) are one card: two reads of the same rank and suit
placed as two corners of one card are merged (`_corners_of_one_card`), and two
different reads of one card (an index just where another card's opposite corner would
show its twin, `_twins`) are refused. Face-down
cards are not reported. Both networks are ONNX files in vision/models/, run with
onnxruntime on one thread (vision.dice_net.load_nets).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from table.reads import Card, TableRead, Unreadable
from table.rules.cards import RANKS
from vision import dice_net
from vision.calibration import Calibration, boxes_in_play, checked_frame

CONFIG = dice_net.MODELS / "card_net.json"
SUITS = "CDHS"
RANK_CLASSES = 1 + len(RANKS)  # class 0: no index


def index_crop(frame: np.ndarray, centre, down, height: float, out: int, scale: float) -> np.ndarray:
    """An out x out crop of an index turned upright (its `down` along the crop's +y),
    `scale` index heights on a side. The classifier is trained on these cuts."""
    return dice_net.turned_crop(frame, centre, _right(down), max(height, 2.0) * scale, out)


def _right(down) -> np.ndarray:
    """The card's "right" at an index facing `down`: down turned a quarter anticlockwise
    (in the frame, whose y runs down), unit length."""
    d = np.asarray(down, np.float64)
    d = d / max(float(np.hypot(*d)), 1e-6)
    return np.array([d[1], -d[0]])


def card_middle(centre, down, height: float, geometry: dict) -> np.ndarray:
    """Where the middle of the card an index belongs to lies (`geometry`: in index heights)."""
    d = np.asarray(down, np.float64)
    return np.asarray(centre, np.float64) + (d * geometry["centre_down"]
                                             + _right(d) * geometry["centre_right"]) * height


SECOND_LOOK = 1.5  # a frame this many times the detector's input or more may be looked at again
# px at the detector's input: indices this small (a camera high over the table: at the
# 0.5x camera height of tools/card_net/evaluate they are 7-10, at 1x 12-16) are found
# again in the frame at its own resolution, where they are up to twice the size.
SMALL_INDEX = 12.0


def working_enlarge(frame_shape: tuple[int, ...], det: dict) -> float:
    """How much bigger than its `input` square the detector's second look sees the
    frame: a frame SECOND_LOOK times `input` or longer at its own resolution up to
    `max_input` pixels; 1: no second look (a frame about the input's size has no more
    pixels to show)."""
    size = int(det["input"])
    enlarge = min(int(det.get("max_input", size)), max(frame_shape[:2])) / size
    return enlarge if max(frame_shape[:2]) >= SECOND_LOOK * size and enlarge > 1.0 else 1.0


def detect(frame: np.ndarray, nets, threshold: float) -> list[dict]:
    """The detector's indices in a checked frame at `threshold` or more: centre, height,
    down and score, in frame pixels. Where the frame has the pixels for it
    (`working_enlarge`) and the indices found are small (median under SMALL_INDEX at the
    detector's input) or none are, they are found again in the frame seen at that size,
    and those finds are taken instead."""
    det = nets.cfg["detector"]
    found = _detect_at(frame, nets, threshold, 1.0)
    enlarge = working_enlarge(frame.shape, det)
    if enlarge == 1.0:
        return found
    to_input = int(det["input"]) / max(frame.shape[:2])
    if found and float(np.median([f["height"] for f in found])) * to_input >= SMALL_INDEX:
        return found
    closer = _detect_at(frame, nets, threshold, enlarge)
    return closer or found


def _detect_at(frame: np.ndarray, nets, threshold: float, enlarge: float) -> list[dict]:
    det = nets.cfg["detector"]
    stride = int(det["stride"])
    h, w = frame.shape[:2]
    out, scale = dice_net.run_letterboxed(frame, nets, enlarge)
    heat = np.ascontiguousarray(out[0])
    found: list[dict] = []
    for y, x in dice_net.heat_peaks(heat, threshold, int(det.get("max_indices", 96))):
        cx, cy = dice_net.peak_centre(heat, y, x, stride, scale)
        if not (0 <= cx < w and 0 <= cy < h):
            continue  # in the letterbox padding
        height = float(np.exp(np.clip(out[1, y, x], -2, 6))) * stride / scale
        d = out[2:4, y, x].astype(np.float64)
        d = d / max(float(np.hypot(*d)), 1e-6)
        if any(math.hypot(cx - k["centre"][0], cy - k["centre"][1]) < 0.4 * k["height"] for k in found):
            continue  # one index, one find
        found.append({"centre": (float(cx), float(cy)), "height": height, "down": (float(d[0]), float(d[1])),
                      "score": float(heat[y, x])})
    return found


def index_inputs(frame: np.ndarray, found: list[dict], nets) -> np.ndarray:
    """The index classifier's input for `found` (N x 3 x size x size float32)."""
    face = nets.cfg["face"]
    size, scale = int(face["input"]), float(face["crop_scale"])
    crops = np.stack([index_crop(frame, f["centre"], f["down"], f["height"], size, scale) for f in found])
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2).astype(np.float32))


def classify(frame: np.ndarray, found: list[dict], nets) -> None:
    """Each find's rank probabilities (`ranks`, class 0 no index) and suit probabilities."""
    if not found:
        return
    probs = nets.face.run(["probs"], {nets.face_in: index_inputs(frame, found, nets)})[0]
    for f, p in zip(found, probs.astype(float)):
        f["ranks"], f["suits"] = p[:RANK_CLASSES], p[RANK_CLASSES:]


def card_place(centre, down, height: float, geometry: dict, frame_wh) -> tuple[tuple[float, float], tuple, float]:
    """(centre, box, angle) of the card an index at `centre` facing `down` belongs to,
    from the card shape in `geometry` (in index heights)."""
    return _placed(card_middle(centre, down, height, geometry), np.asarray(down, np.float64), height, geometry, frame_wh)


def _placed(c: np.ndarray, d: np.ndarray, height: float, geometry: dict, frame_wh):
    r = _right(d)
    half_l, half_s = geometry["long"] * height / 2, geometry["short"] * height / 2
    corners = np.array([c + sl * half_l * d + ss * half_s * r for sl in (-1, 1) for ss in (-1, 1)])
    w, h = frame_wh
    x0, y0 = np.clip(corners.min(0), 0, [w, h])
    x1, y1 = np.clip(corners.max(0), 0, [w, h])
    cx, cy = float(np.clip(c[0], 0, w - 1)), float(np.clip(c[1], 0, h - 1))
    box = (float(min(x0, cx)), float(min(y0, cy)), float(max(x1, cx + 1e-3)), float(max(y1, cy + 1e-3)))
    angle = float(np.degrees(np.arctan2(-d[0], d[1])) % 180)
    return (cx, cy), box, angle


def _corners_of_one_card(a: dict, b: dict, geometry: dict) -> bool:
    """Whether two indices (of one rank and suit) can be two corners of one card: facing
    opposite ways at most a card's diagonal and a third apart, or facing the same way side by
    side along the card's top edge as far apart as the two top corners' indices of a
    deck printed with four. (A six-deck shoe holds six of a card: two alike in a dealt
    hand lie side by side too, but nearer, and are two cards.)"""
    h = max(a["height"], b["height"])
    off = np.asarray(b["centre"], np.float64) - np.asarray(a["centre"], np.float64)
    facing = float(np.dot(a["down"], b["down"]))
    if facing < -0.7:  # opposite corners: a card's diagonal apart at most (decks with small indices are long)
        return float(np.hypot(*off)) <= 1.3 * math.hypot(geometry["long"], geometry["short"]) * h
    if facing > 0.7:
        along_d = abs(float(np.dot(off, a["down"])))
        along_r = abs(float(np.dot(off, _right(a["down"]))))
        top_edge = 2 * geometry["centre_right"]  # the card's middle lies half-way between them
        return along_d <= 0.5 * h and 0.6 * top_edge * h <= along_r <= 1.4 * top_edge * h
    return False


def _twins(a: dict, b: dict, geometry: dict) -> bool:
    """Whether index b lies where the card of index a prints its second index: a's
    place turned half round about that card's middle, facing the other way. (In a fan
    the cards' far corners gather near the hand's pivot, so only a close fit counts.)"""
    if float(np.dot(a["down"], b["down"])) >= -0.9:
        return False
    twin = 2 * card_middle(a["centre"], a["down"], a["height"], geometry) - np.asarray(a["centre"])
    return float(np.hypot(*(twin - np.asarray(b["centre"])))) < 0.35 * max(a["height"], b["height"])


def decide(found: list[dict], cfg: dict, frame_wh) -> tuple[list[Card], list[Unreadable]]:
    """Cards and refusals from classified indices (see the module's doc)."""
    face, geometry = cfg["face"], cfg["geometry"]
    threshold, not_index = float(face["threshold"]), float(face["not_index_threshold"])
    sure = float(cfg["detector"]["sure_index"])
    reads, unsure = [], []
    for f in found:  # a taught reader (vision.teach_cards) decides "drop" and "sure" itself
        if f.get("drop", f["ranks"][0] >= not_index):
            continue
        k = int(np.argmax(f["ranks"][1:])) + 1
        s = int(np.argmax(f["suits"]))
        pr, ps = float(f["ranks"][k]), float(f["suits"][s])
        f["card"] = (RANKS[k - 1], SUITS[s])
        f["confidence"] = min(pr, ps)
        if f.get("sure", pr >= threshold and ps >= threshold):
            reads.append(f)
        elif f["score"] >= sure:
            f["reason"] = (f"cannot read this card's corner for sure ({RANKS[k - 1]}: {pr:.2f}, suit "
                           f"{SUITS[s]}: {ps:.2f}); move it into clear view")
            unsure.append(f)
    groups: list[list[dict]] = []
    for f in sorted(reads, key=lambda f: -f["confidence"]):
        for g in groups:
            if g[0]["card"] == f["card"] and any(_corners_of_one_card(f, o, geometry) for o in g):
                g.append(f)
                break
        else:
            groups.append([f])
    cards: list[Card] = []
    placed: list[tuple[Card, list[dict]]] = []  # each card with the indices it was read from
    for g in groups:
        best = g[0]
        opposite = [o for o in g[1:] if np.dot(best["down"], o["down"]) < -0.7]
        beside = [o for o in g[1:] if np.dot(best["down"], o["down"]) > 0.7]
        if opposite:  # two opposite corners: the card's middle is half-way between them
            o = opposite[0]
            c = (np.asarray(best["centre"]) + np.asarray(o["centre"])) / 2
            centre, box, angle = _placed(c, np.asarray(best["down"], np.float64), best["height"], geometry, frame_wh)
        else:
            # the top-left index of the two along the top edge places the card
            first = min([best, *beside], key=lambda f: float(np.dot(f["centre"], _right(f["down"]))))
            centre, box, angle = card_place(first["centre"], first["down"], first["height"], geometry, frame_wh)
        card = Card(best["card"][0], best["card"][1], centre, box, angle, round(best["confidence"], 3))
        placed.append((card, g))
    # two different reads of one card: an index of one where the other's opposite
    # corner would show its twin, facing the other way
    clash: set[int] = set()
    for i, (_, ga) in enumerate(placed):
        for j in range(i + 1, len(placed)):
            if any(_twins(a, b, geometry) for a in ga for b in placed[j][1]):
                clash.update((i, j))
    refusals: list[Unreadable] = []
    for i, (card, _) in enumerate(placed):
        if i in clash:
            refusals.append(Unreadable("card", card.center, "this card's two corners read differently; "
                                       "move it into clear view", card.box))
        else:
            cards.append(card)
    for f in unsure:  # a corner not sure of, of a card read from another corner, is no refusal
        centre, box, _ = card_place(f["centre"], f["down"], f["height"], geometry, frame_wh)
        if any(c.box[0] <= f["centre"][0] <= c.box[2] and c.box[1] <= f["centre"][1] <= c.box[3] for c in cards):
            continue
        refusals.append(Unreadable("card", centre, f["reason"], box))
    return cards, refusals


# Reads each find of a frame (frame, finds, nets): sets its `ranks` and `suits`, and where
# it decides itself, `drop` and `sure` (decide)
ReadIndices = Callable[[np.ndarray, list[dict], Any], None]


def read_cards_net(frame_bgr: np.ndarray, calibration: Calibration | None = None,
                   config: Path | str | None = None, *, detector_threshold: float | None = None,
                   read_indices: ReadIndices = classify) -> TableRead:
    """Read the face-up cards in a BGR frame with the shipped networks (or those of
    `config`, a card_net.json with its ONNX files beside it). Fills `cards` and
    `unreadable` (kind "card"). With a calibration, only what lies in its play area is
    reported, and a card across its edge is refused. Anything but an image is a
    ValueError (vision.image_io.NotAnImage). A taught reader (vision.teach_cards) gives
    its own `detector_threshold` and `read_indices`."""
    frame = checked_frame(frame_bgr, calibration, min_side=32)
    nets = dice_net.load_nets(config or CONFIG)
    threshold = float(nets.cfg["detector"]["threshold"]) if detector_threshold is None else detector_threshold
    found = detect(frame, nets, threshold)
    read_indices(frame, found, nets)
    h, w = frame.shape[:2]
    cards, refusals = decide(found, nets.cfg, (w, h))
    kept, refused = boxes_in_play(calibration, cards, refusals, "card", "the card")
    return TableRead(cards=tuple(kept), unreadable=tuple(refused))
