"""Score a d10 model (a d10_net.json with its ONNX files) on real photos:

- d10-photos, all of it or only the dice one fold held out (--fold K: the model must
  have been trained with that fold held out for the figure to mean anything);
- phantoms: the d6 photo sources (--tables SOURCE ...), where every d10 read is wrong;
- the rendered fixtures in calibration_images/d10.

    python -m tools.d10_net.evaluate --config runs/d10-f0/onnx/d10_net.json --fold 0 --tables dice-aws
    python -m tools.d10_net.evaluate --config vision/models/d10_net.json --fixtures

--choose writes into the config the thresholds that read the most held-out dice with
none wrong, given the candidates of several fold models (--pool CONFIG:FOLD ...).
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from tools.d10_net.data import held_out, load_d10, tables
from tools.dice_net.data import DEFAULT_DATA, PHOTO_SOURCES
from vision import dice_net
from vision.d10.net import decide, with_d6_witness

REPO = Path(__file__).resolve().parents[2]
LOW = 0.1  # candidates are gathered at this detector score; thresholds are applied after


@dataclass
class Tally:
    dice: int = 0
    right: int = 0
    wrong: int = 0
    refused: int = 0
    missed: int = 0
    phantoms: int = 0
    phantom_refusals: int = 0
    photos: int = 0
    perfect: int = 0
    wrongs: list = field(default_factory=list)

    def line(self, name: str) -> str:
        d = max(self.dice, 1)
        read = max(self.right + self.wrong, 1)
        return (f"{name}: {self.photos} photos, {self.dice} d10 | right {self.right} ({100 * self.right / d:.1f}%) "
                f"wrong {self.wrong} ({100 * self.wrong / read:.2f}% of reads) refused {self.refused} "
                f"missed {self.missed} | phantom reads {self.phantoms} ({100 * self.phantoms / d:.1f}%) "
                f"phantom refusals {self.phantom_refusals} | photos perfect {self.perfect} "
                f"({100 * self.perfect / max(self.photos, 1):.1f}%)")


def gather(config: Path, images: list[tuple[str, np.ndarray | Path, list]]) -> list[tuple[str, list, list]]:
    """(name, candidates at LOW, truths) for each (name, image or path, truths)."""
    out = []
    for name, img, truths in images:
        frame = cv2.imread(str(img), cv2.IMREAD_COLOR) if isinstance(img, Path) else img
        out.append((name, with_d6_witness(frame, dice_net.candidates(frame, config, LOW)), truths))
    return out


def score(gathered, det_thr: float, face_thr: float, not_d10: float, sure: float, veto: float = 1.1) -> Tally:
    t = Tally()
    for name, cands, truths in gathered:
        dice, refusals = decide([c for c in cands if c["score"] >= det_thr], face_thr, not_d10, sure, veto)
        t.photos += 1
        t.dice += len(truths)
        used: set[int] = set()
        ok = True
        for value, (x0, y0, x1, y1) in truths:
            hit = None
            for i, d in enumerate(dice):
                if i not in used and x0 <= d.center[0] <= x1 and y0 <= d.center[1] <= y1:
                    hit = i
                    break
            if hit is not None:
                used.add(hit)
                if dice[hit].value == value:
                    t.right += 1
                else:
                    t.wrong += 1
                    t.wrongs.append((name, value, dice[hit].value, round(dice[hit].confidence, 4)))
                    ok = False
                continue
            ok = False
            if any(x0 <= u.center[0] <= x1 and y0 <= u.center[1] <= y1 for u in refusals):
                t.refused += 1
            else:
                t.missed += 1
        extra = len(dice) - len(used)
        stray = [u for u in refusals if not any(x0 <= u.center[0] <= x1 and y0 <= u.center[1] <= y1
                                                for _, (x0, y0, x1, y1) in truths)]
        t.phantoms += extra
        t.phantom_refusals += len(stray)
        t.perfect += ok and extra == 0 and not stray
    return t


def d10_images(data: Path, fold: int | None):
    return [(p.path.name, p.path, [(p.value, p.box)]) for p in load_d10(data) if fold is None or held_out(p, fold)]


def table_images(data: Path, sources):
    return [(str(t.path.relative_to(data)), t.path, []) for t in tables(data) if any(f"/{s}/" in str(t.path) for s in sources)]


def fixture_images():
    root = REPO / "calibration_images" / "d10"
    labels = json.loads((root / "labels.json").read_text())
    return [(n, root / "images" / n, [(d["value"], tuple(d["box"])) for d in lab["d10"]]) for n, lab in sorted(labels.items())]


def thresholds(cfg: dict) -> tuple[float, float, float, float, float]:
    return (float(cfg["detector"]["threshold"]), float(cfg["face"]["threshold"]),
            float(cfg["face"]["not_die_threshold"]), float(cfg["face"].get("sure_d10", 0.9)),
            float(cfg["face"].get("d6_veto", 1.1)))


def choose(real, phantom_sets):
    """The thresholds reading the most held-out dice with no wrong read, few phantoms."""
    best = None
    for det_thr in (0.2, 0.3, 0.4, 0.5):
        for not_d10 in (0.3, 0.5, 0.7):
            for face_thr in (0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.999):
                for veto in (0.8, 0.9, 0.98, 1.1):
                    t = score(real, det_thr, face_thr, not_d10, 0.95, veto)
                    ph = sum(score(s, det_thr, face_thr, not_d10, 0.95, veto).phantoms for s in phantom_sets)
                    key = (t.wrong == 0, t.right - 3 * ph, -face_thr)
                    if best is None or key > best[0]:
                        best = (key, (det_thr, face_thr, not_d10, 0.95, veto), t, ph)
    assert best is not None
    return best[1], best[2], best[3]


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--config", type=Path, default=dice_net.MODELS / "d10_net.json")
    ap.add_argument("--fold", type=int)
    ap.add_argument("--tables", nargs="*", default=[], choices=PHOTO_SOURCES)
    ap.add_argument("--fixtures", action="store_true")
    ap.add_argument("--no-d10-photos", action="store_true")
    ap.add_argument("--pool", nargs="*", default=[], help="CONFIG:FOLD:TABLES (tables comma-separated)")
    ap.add_argument("--choose", action="store_true", help="write the thresholds chosen on --pool into --config")
    ap.add_argument("--show-wrong", action="store_true")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if a.choose:
        real, phantom_sets = [], []
        for spec in a.pool:
            cfg_path, fold, tabs = spec.split(":")
            real += gather(Path(cfg_path), d10_images(a.data, int(fold)))
            phantom_sets.append(gather(Path(cfg_path), table_images(a.data, tabs.split(","))))
        (det_thr, face_thr, not_d10, sure, veto), t, ph = choose(real, phantom_sets)
        cfg = json.loads(a.config.read_text())
        cfg["detector"]["threshold"] = det_thr
        cfg["face"].update(threshold=face_thr, not_die_threshold=not_d10, sure_d10=sure, d6_veto=veto)
        cfg["calibration"] = {"pool": a.pool, "held_out_dice": t.dice, "right": t.right, "wrong": t.wrong,
                              "phantoms_on_held_tables": ph}
        a.config.write_text(json.dumps(cfg, indent=1) + "\n")
        print(f"chose detector {det_thr} face {face_thr} not-d10 {not_d10} sure {sure} d6 veto {veto}")
        print(t.line("pooled held-out dice") + f"; phantoms on held-out tables {ph}")
        return
    cfg = json.loads(a.config.read_text())
    thr = thresholds(cfg)
    print(f"{a.config}: detector {thr[0]} face {thr[1]} not-d10 {thr[2]} sure {thr[3]} d6 veto {thr[4]}")
    sets = []
    if not a.no_d10_photos:
        sets.append((f"d10-photos{'' if a.fold is None else f' fold {a.fold} held out'}", d10_images(a.data, a.fold)))
    for s in a.tables:
        sets.append((f"{s} (no d10: any read is a phantom)", table_images(a.data, [s])))
    if a.fixtures:
        sets.append(("calibration_images/d10 (rendered)", fixture_images()))
    for name, images in sets:
        t = score(gather(a.config, images), *thr)
        print(t.line(name))
        if a.show_wrong:
            for w in t.wrongs:
                print("   wrong:", w)


if __name__ == "__main__":
    main()
