"""Export a run's detector and face classifier to ONNX with a dice_net.json beside them.

    python -m tools.dice_net.export --run runs/all            # -> runs/all/onnx/
    python -m tools.dice_net.export --run runs/all --dest vision/models

Thresholds in the JSON start at safe defaults; tools.dice_net.calibrate sets them."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import torch

from tools.dice_net.data import PAD_VALUE
from tools.dice_net.models import Detector, DetectorExport, Face, FaceExport, face_size, load_face
from tools.dice_net.onnx_outputs import open_up
from tools.dice_net.train_det import INPUT, STRIDE
from tools.dice_net.train_face import CROP_SCALE


def write_onnx(det: Detector | None, face: Face, size: int, dest: Path, prefix: str) -> None:
    """`<prefix>_detector.onnx` (unless `det` is None: the file there is kept) and
    `<prefix>_face.onnx` in `dest`, opened up for any detector input size and for the
    face features a taught head is fitted on."""
    if det is not None:
        torch.onnx.export(DetectorExport(det), torch.zeros(1, 3, INPUT, INPUT), str(dest / f"{prefix}_detector.onnx"),
                          input_names=["image"], output_names=["heat_size"], opset_version=17, dynamo=False)
    torch.onnx.export(FaceExport(face), torch.zeros(2, 3, size, size), str(dest / f"{prefix}_face.onnx"),
                      input_names=["crops"], output_names=["probs"], opset_version=17, dynamo=False,
                      dynamic_axes={"crops": {0: "n"}, "probs": {0: "n"}})
    open_up(dest, prefix)


def export(run: Path, dest: Path) -> Path:
    """The run's networks as ONNX in `dest`. A run with no det.pt but a
    dice_detector.onnx (a face classifier trained for an exported detector, as
    `mine.py --config` mines for) keeps that file as its detector."""
    dest.mkdir(parents=True, exist_ok=True)
    kept = run / "dice_detector.onnx"
    det: Detector | None = None
    if not (run / "det.pt").exists() and kept.exists():
        shutil.copy(kept, dest / "dice_detector.onnx")
    else:
        det = Detector()
        det.load_state_dict(torch.load(run / "det.pt"))
        det.eval()
    st = torch.load(run / "face.pt")
    size = face_size(st)
    write_onnx(det, load_face(st), size, dest, "dice")
    cfg_path = dest / "dice_net.json"
    old = json.loads(cfg_path.read_text()) if cfg_path.exists() else {}
    cfg = {
        "detector": {"file": "dice_detector.onnx", "input": INPUT, "stride": STRIDE,
                     "threshold": old.get("detector", {}).get("threshold", 0.3), "max_dice": 64},
        "face": {"file": "dice_face.onnx", "input": size, "crop_scale": CROP_SCALE,
                 "classes": ["not a die", 1, 2, 3, 4, 5, 6], "tta": old.get("face", {}).get("tta", 1),
                 "threshold": old.get("face", {}).get("threshold", 0.9),
                 "not_die_threshold": old.get("face", {}).get("not_die_threshold", 0.5)},
        "pad_value": PAD_VALUE,
        "trained": run_about(run),
        "calibration": old.get("calibration", {}),
    }
    cfg_path.write_text(json.dumps(cfg, indent=1) + "\n")
    return cfg_path


def run_about(run: Path) -> dict:
    """What a run's trainers wrote of it (about.json), {} without one."""
    return json.loads((run / "about.json").read_text()) if (run / "about.json").exists() else {}


def export_cli(export, argv=None, last: bool = False) -> None:
    """Every export script's command line: --run RUN [--dest DIR] (default RUN/onnx),
    printing the config written; with `last`, --last too (the run's last checkpoints,
    for a run still going), passed on to `export`."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", type=Path, required=True)
    ap.add_argument("--dest", type=Path)
    if last:
        ap.add_argument("--last", action="store_true", help="the runs' last checkpoints (a run still going)")
    a = ap.parse_args(argv)
    dest = a.dest or a.run / "onnx"
    print(export(a.run, dest, a.last) if last else export(a.run, dest))


def main(argv=None):
    export_cli(export, argv)


if __name__ == "__main__":
    main()
