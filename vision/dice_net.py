"""A learned six-sided-dice reader: a small CenterNet-style detector finds each die (centre
heatmap and box size at stride 4 on the frame letterboxed to a square), then a face
classifier reads the value up from a square crop round each die (7 classes: not a die,
1..6). A die is read only when the classifier is sure (a softmax threshold chosen on
held-out photos); otherwise it is reported unreadable with a reason. Both networks are
ONNX files in vision/models/, run with onnxruntime on one thread; `dice_net.json` beside
them holds the input sizes and thresholds. Trained by tools/dice_net (docs/vision-dice-net.md).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from table.reads import Die, TableRead, Unreadable
from vision.weights import one_thread_session

MODELS = Path(__file__).resolve().parent / "models"
CONFIG = MODELS / "dice_net.json"

_lock = threading.Lock()
_cache: dict[str, _Nets] = {}


class _Nets:
    """The two ONNX sessions and the settings that go with them, made once per config."""

    def __init__(self, config_path: Path):
        cfg = json.loads(Path(config_path).read_text())
        self.cfg = cfg
        base = self.base = Path(config_path).parent
        self.det = one_thread_session(base / cfg["detector"]["file"])
        self.face = one_thread_session(base / cfg["face"]["file"])
        # more classifiers of the same input ("also": files), their probabilities averaged
        self.face_also = [one_thread_session(base / name) for name in cfg["face"].get("also", ())]
        self.det_in = self.det.get_inputs()[0].name
        self.face_in = self.face.get_inputs()[0].name


def load_nets(config_path: Path | str | None = None) -> _Nets:
    key = str(Path(config_path or CONFIG).resolve())
    with _lock:
        nets = _cache.get(key)
        if nets is None:
            nets = _cache[key] = _Nets(Path(key))
    return nets


def run_letterboxed(frame: np.ndarray, nets: _Nets, enlarge: float = 1.0) -> tuple[np.ndarray, float]:
    """The detector's output (channels x H/stride x W/stride) for a checked frame fitted
    into its square input (letterboxed with the config's pad value), and the scale
    from frame to input pixels. The learned domino and card readers detect so.

    `enlarge` other than 1 scales the frame by that much more and runs the detector on
    a canvas of the scaled frame's own size (a multiple of 16; the detectors take any
    input size): a taught reader uses it to show the detector the owner's pieces at the
    size it knows best."""
    canvas, scale = letterboxed(frame, nets, enlarge)
    return nets.det.run(None, {nets.det_in: canvas})[0][0], scale


def letterboxed(frame: np.ndarray, nets: _Nets, enlarge: float = 1.0) -> tuple[np.ndarray, float]:
    """The detector's input for a checked frame (1 x 3 x H x W float32, see
    `run_letterboxed`) and the scale from frame to input pixels."""
    size = int(nets.cfg["detector"]["input"])
    h, w = frame.shape[:2]
    scale = size / max(h, w) * enlarge
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    small = cv2.resize(frame, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    if enlarge == 1.0:
        ch = cw = size
    else:
        ch, cw = (max(32, -(-n // 16) * 16) for n in (nh, nw))
    canvas = np.full((ch, cw, 3), int(nets.cfg.get("pad_value", 114)), np.uint8)
    canvas[:nh, :nw] = small
    return canvas.transpose(2, 0, 1)[None].astype(np.float32), scale


def heat_peaks(heat: np.ndarray, threshold: float, most: int) -> list[tuple[int, int]]:
    """(y, x) of the heatmap's local maxima at `threshold` or more, strongest first, at most `most`."""
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= threshold)
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-heat[ys, xs])[:most]
    return [(int(y), int(x)) for y, x in zip(ys[order], xs[order])]


def peak_centre(heat: np.ndarray, y: int, x: int, stride: int, scale: float) -> tuple[float, float]:
    """A peak's centre in frame pixels, to a fraction of a cell: the heat-weighted mean
    over the 3x3 round it."""
    gh, gw = heat.shape
    y0, y1, x0, x1 = max(0, y - 1), min(gh, y + 2), max(0, x - 1), min(gw, x + 2)
    patch = heat[y0:y1, x0:x1]
    yy, xx = np.mgrid[y0:y1, x0:x1]
    return (float(((xx * patch).sum() / patch.sum() + 0.5) * stride / scale),
            float(((yy * patch).sum() / patch.sum() + 0.5) * stride / scale))


def turned_crop(frame: np.ndarray, centre, x_axis, side: float, out: int) -> np.ndarray:
    """An out x out crop `side` frame pixels across round `centre`, turned so that the
    frame direction `x_axis` runs along the crop's +x (and `x_axis` turned a quarter
    clockwise along its +y). The learned domino and card readers cut their pieces so."""
    a = np.asarray(x_axis, np.float64)
    ux, uy = a / max(float(np.hypot(*a)), 1e-6) * side / out  # crop x axis, in frame px per crop px
    c = np.asarray(centre, np.float64)
    # crop (u, w) -> frame c + (u - out/2) * (ux, uy) + (w - out/2) * (-uy, ux)
    m = np.array([[ux, -uy, c[0] - out / 2 * (ux - uy)], [uy, ux, c[1] - out / 2 * (uy + ux)]], np.float32)
    return cv2.warpAffine(frame, m, (out, out), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def _check_frame(frame) -> np.ndarray:
    if not isinstance(frame, np.ndarray):
        raise TypeError(f"read_dice_net wants an image as a numpy array, not {type(frame).__name__}")
    if frame.dtype != np.uint8:
        raise TypeError(f"read_dice_net wants an 8-bit image (uint8), not {frame.dtype}")
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    elif frame.ndim == 3 and frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"read_dice_net wants an H x W x 3 BGR image, not shape {frame.shape}")
    if min(frame.shape[:2]) < 16:
        raise ValueError(f"read_dice_net wants an image of at least 16 x 16 px, not {frame.shape[1]} x {frame.shape[0]}")
    return frame


def _crop_square(img, cx, cy, side, out):
    """Same cut as tools/dice_net/data.crop_square with no turn."""
    s = out / side
    m = np.array([[s, 0.0, out / 2 - cx * s], [0.0, s, out / 2 - cy * s]], np.float32)
    return cv2.warpAffine(img, m, (out, out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def detect(frame: np.ndarray, nets: _Nets, threshold: float, enlarge: float = 1.0) -> list[dict]:
    """The detector's dice in a checked frame: centre, box size and score, in frame pixels.

    The frame is fitted into the detector's square input (letterboxed). `enlarge` other
    than 1 scales it by that much more and runs the detector on a canvas of the scaled
    frame's own size (a multiple of 16): a taught reader uses it to show the detector the
    owner's dice at the size it knows best."""
    cfg = nets.cfg
    stride = int(cfg["detector"]["stride"])
    h, w = frame.shape[:2]
    out, scale = run_letterboxed(frame, nets, enlarge)
    heat = np.ascontiguousarray(out[0])
    gh, gw = heat.shape
    dets: list[dict] = []
    for y, x_ in heat_peaks(heat, threshold, int(cfg["detector"].get("max_dice", 64))):
        # sub-cell centre: the heat-weighted mean over the 3x3 round the peak
        y0, y1, x0, x1 = max(0, y - 1), min(gh, y + 2), max(0, x_ - 1), min(gw, x_ + 2)
        patch = heat[y0:y1, x0:x1]
        yy, xx = np.mgrid[y0:y1, x0:x1]
        cy = ((yy * patch).sum() / patch.sum() + 0.5) * stride / scale
        cx = ((xx * patch).sum() / patch.sum() + 0.5) * stride / scale
        bw = float(np.exp(np.clip(out[1, y, x_], -3, 6))) * stride / scale
        bh = float(np.exp(np.clip(out[2, y, x_], -3, 6))) * stride / scale
        if not (0 <= cx < w and 0 <= cy < h):
            continue  # a peak in the letterbox padding
        dets.append({"center": (float(cx), float(cy)), "w": bw, "h": bh, "score": float(heat[y, x_])})
    # one die, one read: drop a weaker peak whose centre lies well inside a stronger one's box
    kept: list[dict] = []
    for d in dets:
        cx, cy = d["center"]
        if any(abs(cx - k["center"][0]) < 0.3 * k["w"] and abs(cy - k["center"][1]) < 0.3 * k["h"] for k in kept):
            continue
        kept.append(d)
    for d in kept:
        cx, cy = d["center"]
        d["box"] = (max(0.0, cx - d["w"] / 2), max(0.0, cy - d["h"] / 2),
                    min(float(w), cx + d["w"] / 2), min(float(h), cy + d["h"] / 2))
    return kept


def face_crops(frame: np.ndarray, nets: _Nets, dets: list[dict]) -> np.ndarray:
    """The face classifier's input for each detection: N x 3 x S x S, float."""
    fsize = int(nets.cfg["face"]["input"])
    crop_scale = float(nets.cfg["face"]["crop_scale"])
    crops = np.stack([_crop_square(frame, d["center"][0], d["center"][1], max(d["w"], d["h"], 4.0) * crop_scale, fsize)
                      for d in dets])
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2).astype(np.float32))


def classify(batch: np.ndarray, nets: _Nets, features: bool = False):
    """The face classifier's 7 probabilities for each crop (and, with `features`, the
    features its last layer reads, where the model gives them). Where the config names
    more classifiers (`face.also`), the probabilities are the mean of all; the features
    are the first one's."""
    if not features:
        probs = nets.face.run(["probs"], {nets.face_in: batch})[0]
    else:
        probs, feats = nets.face.run(["probs", "features"], {nets.face_in: batch})
    if nets.face_also:
        probs = np.mean([probs, *(f.run(["probs"], {f.get_inputs()[0].name: batch})[0] for f in nets.face_also)], 0)
    return (probs, feats) if features else probs


def _read_views(batch: np.ndarray, nets: _Nets, tta) -> np.ndarray:
    """The classifier's probabilities for each crop, read as the config's `face.tta` says:
    1, the crop as it is; 2-4, also turned by 90, 180, 270 degrees, the reads averaged;
    "mirror", also mirrored left to right (which keeps the top of a photo at the top), the
    two reads' geometric mean renormalised, so that a die the two views read differently
    is read at neither's confidence."""
    if tta == "mirror":
        probs = classify(np.ascontiguousarray(np.concatenate([batch, batch[..., ::-1]])), nets)
        both = np.sqrt(np.clip(probs[:len(batch)] * probs[len(batch):], 1e-30, None))
        return both / both.sum(1, keepdims=True)
    turns = int(tta)
    if turns <= 1:
        return classify(batch, nets)
    views = np.ascontiguousarray(np.concatenate([np.rot90(batch, k, axes=(2, 3)) for k in range(turns)]))
    return classify(views, nets).reshape(turns, len(batch), -1).mean(0)


# The config's keys of the closer look (`look`): the untaught reader's alone, since a
# taught reader shows the detector the frame at the scale it chose (vision.teach.model_id)
LOOK_KEYS = ("enlarge", "small")


def look(frame: np.ndarray, nets: _Nets, finds: list[dict]) -> float:
    """How much more than its square input the detector is shown a checked frame: the
    config's `detector.enlarge` where the dice it found at its own threshold in the
    letterboxed frame (`finds`, the first look's) are smaller than `detector.small`
    pixels (median of their longer sides), else 1 (and 1 for a config with neither).
    Small dice then cover more of the detector's cells; big ones are left as they are,
    which the detector knows best."""
    threshold = float(nets.cfg["detector"]["threshold"])
    return enlargement(frame, nets, [max(f["w"], f["h"]) for f in finds if f["score"] >= threshold])


def enlargement(frame: np.ndarray, nets: _Nets, sides: Sequence[float], share: float = 1.0) -> float:
    """The config's `detector.enlarge` where dice of these sides (frame pixels) have a
    median under `share` of `detector.small` in the letterboxed frame, else 1 (and 1
    with no sides, or a config with neither key)."""
    det = nets.cfg["detector"]
    enlarge, small = float(det.get("enlarge", 1.0)), float(det.get("small", 0.0))
    if enlarge == 1.0 or small <= 0 or not sides:
        return 1.0
    scale = float(det["input"]) / max(frame.shape[:2])
    return enlarge if float(np.median(sides)) * scale < share * small else 1.0


def at_look(frame: np.ndarray, nets: _Nets, threshold: float) -> list[dict]:
    """The detector's finds at `threshold` or more, the frame enlarged where its dice are
    small (`look`): the first look's finds, or the closer look's in their place."""
    finds = detect(frame, nets, min(threshold, float(nets.cfg["detector"]["threshold"])))
    enlarge = look(frame, nets, finds)
    if enlarge != 1.0:
        return detect(frame, nets, threshold, enlarge)
    return [f for f in finds if f["score"] >= threshold]


def candidates(frame_bgr: np.ndarray, config_path=None, min_score: float | None = None) -> list[dict]:
    """Every detection above `min_score` (default: the config's detector threshold) with
    its box in frame pixels, detector score and the classifier's 7 probabilities; the
    detector sees the frame enlarged where its dice are small (`look`)."""
    frame = _check_frame(frame_bgr)
    nets = load_nets(config_path)
    thr = float(nets.cfg["detector"]["threshold"] if min_score is None else min_score)
    kept = at_look(frame, nets, thr)
    if not kept:
        return []
    batch = face_crops(frame, nets, kept)
    probs = _read_views(batch, nets, nets.cfg["face"].get("tta", 1))
    for d, p in zip(kept, probs):
        d["probs"] = p.astype(float)
    return kept


def decide(cands: list[dict], face_threshold: float, not_die_threshold: float) -> TableRead:
    dice, unreadable = [], []
    for d in cands:
        p = d["probs"]
        if p[0] >= not_die_threshold:
            continue  # the classifier says bare table or a die's edge
        value = int(np.argmax(p[1:])) + 1
        conf = float(p[value])
        if conf >= face_threshold:
            dice.append(Die(value, d["center"], d["box"], min(1.0, max(0.0, conf))))
            continue
        second = int(np.argsort(p[1:])[-2]) + 1
        if p[0] > conf:
            reason = f"not sure this is a die (die {1 - p[0]:.2f}); move it into clear view"
        else:
            reason = f"cannot read this die's value for sure ({value}: {conf:.2f}, {second}: {p[second]:.2f}); re-roll it"
        unreadable.append(Unreadable("die", d["center"], reason, d["box"]))
    dice.sort(key=lambda d: (d.center[1], d.center[0]))
    unreadable.sort(key=lambda u: (u.center[1], u.center[0]))
    return TableRead(dice=tuple(dice), unreadable=tuple(unreadable))


def read_dice_net(frame_bgr: np.ndarray, calibration=None) -> TableRead:
    """Read the six-sided dice in a BGR frame.

    `calibration`: None for the shipped models and thresholds (vision/models/dice_net.json);
    a path to another such JSON (its models beside it); or a dict whose keys
    `detector_threshold`, `face_threshold`, `not_die_threshold` override the shipped ones.
    Raises TypeError / ValueError for anything that is not an 8-bit image."""
    config_path = None
    over = {}
    if isinstance(calibration, (str, Path)):
        config_path = calibration
    elif isinstance(calibration, dict):
        over = calibration
    elif calibration is not None:
        raise TypeError(f"calibration is None, a config path or a dict, not {type(calibration).__name__}")
    cfg = load_nets(config_path).cfg
    det_thr = float(over.get("detector_threshold", cfg["detector"]["threshold"]))
    face_thr = float(over.get("face_threshold", cfg["face"]["threshold"]))
    not_die = float(over.get("not_die_threshold", cfg["face"]["not_die_threshold"]))
    return decide(candidates(frame_bgr, config_path, det_thr), face_thr, not_die)
