"""Export a d10 run's detector and face classifier to ONNX with a d10_net.json beside them.

    python -m tools.d10_net.export --run runs/d10-all                  # -> runs/d10-all/onnx/
    python -m tools.d10_net.export --run runs/d10-all --dest vision/models

Thresholds start at the values in the JSON already there (or safe defaults);
tools.d10_net.evaluate --choose sets them from the held-out folds."""

from __future__ import annotations

import json
from pathlib import Path

import torch

from tools.d10_net.train_face import CLASSES
from tools.dice_net.data import PAD_VALUE
from tools.dice_net.export import export_cli, run_about, write_onnx
from tools.dice_net.models import Detector, Face
from tools.dice_net.train_det import INPUT, STRIDE


def export(run: Path, dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    det = Detector()
    det.load_state_dict(torch.load(run / "det.pt"))
    det.eval()
    st = torch.load(run / "face.pt")
    face = Face(tuple(st["widths"]), int(st["classes"]))
    face.load_state_dict(st["model"])
    face.eval()
    size = int(st["size"])
    write_onnx(det, face, size, dest, "d10")
    cfg_path = dest / "d10_net.json"
    old = json.loads(cfg_path.read_text()) if cfg_path.exists() else {}
    cfg = {
        "detector": {"file": "d10_detector.onnx", "input": INPUT, "stride": STRIDE,
                     "threshold": old.get("detector", {}).get("threshold", 0.3), "max_dice": 32},
        "face": {"file": "d10_face.onnx", "input": size, "crop_scale": float(st.get("crop_scale", 1.15)),
                 "classes": ["not a d10", *range(CLASSES - 1)], "tta": old.get("face", {}).get("tta", 1),
                 "threshold": old.get("face", {}).get("threshold", 0.9),
                 "not_die_threshold": old.get("face", {}).get("not_die_threshold", 0.5),
                 "sure_d10": old.get("face", {}).get("sure_d10", 0.9)},
        "pad_value": PAD_VALUE,
        "trained": run_about(run),
        "calibration": old.get("calibration", {}),
    }
    cfg_path.write_text(json.dumps(cfg, indent=1) + "\n")
    return cfg_path


def main(argv=None):
    export_cli(export, argv)


if __name__ == "__main__":
    main()
