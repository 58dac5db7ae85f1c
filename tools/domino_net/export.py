"""Export a domino run's detector and half classifier to ONNX with a domino_net.json
beside them.

    python -m tools.domino_net.export --run runs/domino                      # -> runs/domino/onnx/
    python -m tools.domino_net.export --run runs/domino --dest vision/models

Thresholds are those of the domino_net.json already at the destination, or the
defaults below (chosen on rendered held-out looks: docs/vision-dominoes.md)."""

from __future__ import annotations

import json
from pathlib import Path

import torch

from tools.dice_net.data import PAD_VALUE
from tools.dice_net.export import export_cli, run_about
from tools.dice_net.models import DetectorExport, Face, FaceExport
from tools.dice_net.onnx_outputs import add_features
from tools.dice_net.train_det import INPUT, STRIDE
from tools.domino_net.train_det import detector
from tools.domino_net.train_half import CLASSES

DEFAULTS = {"half_threshold": 0.3, "tile_threshold": 0.3, "sure_tile": 0.6, "threshold": 0.9,
            "not_half_threshold": 0.5}


def write_onnx(run: Path, dest: Path) -> dict:
    """domino_detector.onnx and domino_half.onnx (with its `features` output) in dest; the
    half crop's size and scale."""
    det = detector()
    det.load_state_dict(torch.load(run / "det.pt"))
    det.eval()
    st = torch.load(run / "half.pt")
    half = Face(tuple(st["widths"]), int(st["classes"]))
    half.load_state_dict(st["model"])
    half.eval()
    size = int(st["size"])
    torch.onnx.export(DetectorExport(det, heatmaps=2), torch.zeros(1, 3, INPUT, INPUT), str(dest / "domino_detector.onnx"),
                      input_names=["image"], output_names=["heat_size"], opset_version=17, dynamo=False,
                      dynamic_axes={"image": {2: "h", 3: "w"}, "heat_size": {2: "gh", 3: "gw"}})
    torch.onnx.export(FaceExport(half), torch.zeros(2, 3, size, size), str(dest / "domino_half.onnx"),
                      input_names=["crops"], output_names=["probs"], opset_version=17, dynamo=False,
                      dynamic_axes={"crops": {0: "n"}, "probs": {0: "n"}})
    add_features(dest / "domino_half.onnx")  # the features a taught head is fitted on (vision.teach_dominoes)
    return {"size": size, "crop_scale": float(st["crop_scale"])}


def export(run: Path, dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    half = write_onnx(run, dest)
    cfg_path = dest / "domino_net.json"
    old = json.loads(cfg_path.read_text()) if cfg_path.exists() else {}
    od, of = old.get("detector", {}), old.get("face", {})
    cfg = {
        "detector": {"file": "domino_detector.onnx", "input": INPUT, "stride": STRIDE,
                     "half_threshold": od.get("half_threshold", DEFAULTS["half_threshold"]),
                     "tile_threshold": od.get("tile_threshold", DEFAULTS["tile_threshold"]),
                     "sure_tile": od.get("sure_tile", DEFAULTS["sure_tile"]), "max_tiles": 48},
        "face": {"file": "domino_half.onnx", "input": half["size"], "crop_scale": half["crop_scale"],
                 "classes": ["not a half", *range(CLASSES - 1)], "tta": 1,
                 "threshold": of.get("threshold", DEFAULTS["threshold"]),
                 "not_half_threshold": of.get("not_half_threshold", DEFAULTS["not_half_threshold"])},
        "pad_value": PAD_VALUE,
        "trained": run_about(run),
        "measured": old.get("measured", {}),
    }
    cfg_path.write_text(json.dumps(cfg, indent=1) + "\n")
    return cfg_path


def main(argv=None):
    export_cli(export, argv)


if __name__ == "__main__":
    main()
