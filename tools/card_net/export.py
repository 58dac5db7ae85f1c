"""Export a card run's index detector and index classifier to ONNX with a card_net.json
beside them.

    python -m tools.card_net.export --run runs/cardnet                      # -> runs/cardnet/onnx/
    python -m tools.card_net.export --run runs/cardnet --dest vision/models

The index classifier also gives the features its last layer reads (a taught head is
fitted on them, vision.teach_cards). Thresholds are those of the card_net.json already at the destination, or the defaults
below; the card geometry is the one the run measured on its training designs."""

from __future__ import annotations

import json
from pathlib import Path

import torch

from tools.card_net.train import CROP, CROP_SCALE, STRIDE, ClassifierExport, classifier, detector
from tools.dice_net.data import PAD_VALUE
from tools.dice_net.export import export_cli, run_about
from tools.dice_net.models import DetectorExport
from tools.dice_net.onnx_outputs import add_features

INPUT = 448  # the run-time letterbox
DEFAULTS = {"threshold": 0.3, "sure_index": 0.5, "face_threshold": 0.9, "not_index_threshold": 0.5}


def _weights(run: Path, part: str, last: bool) -> dict:
    if last:  # a run still going: its last checkpoint
        return torch.load(run / f"{part}_last.pt", weights_only=False)["model"]
    return torch.load(run / f"{part}.pt")


def write_onnx(run: Path, dest: Path, last: bool = False) -> None:
    det = detector()
    det.load_state_dict(_weights(run, "det", last))
    det.eval()
    net = classifier()
    net.load_state_dict(_weights(run, "index", last))
    net.eval()
    torch.onnx.export(DetectorExport(det), torch.zeros(1, 3, INPUT, INPUT), str(dest / "card_detector.onnx"),
                      input_names=["image"], output_names=["heat_size_down"], opset_version=17, dynamo=False,
                      dynamic_axes={"image": {2: "h", 3: "w"}, "heat_size_down": {2: "gh", 3: "gw"}})
    torch.onnx.export(ClassifierExport(net), torch.zeros(2, 3, CROP, CROP), str(dest / "card_index.onnx"),
                      input_names=["crops"], output_names=["probs"], opset_version=17, dynamo=False,
                      dynamic_axes={"crops": {0: "n"}, "probs": {0: "n"}})
    add_features(dest / "card_index.onnx")


def export(run: Path, dest: Path, last: bool = False) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    write_onnx(run, dest, last)
    cfg_path = dest / "card_net.json"
    old = json.loads(cfg_path.read_text()) if cfg_path.exists() else {}
    od, of = old.get("detector", {}), old.get("face", {})
    about = run_about(run)
    cfg = {
        "detector": {"file": "card_detector.onnx", "input": INPUT, "stride": STRIDE,
                     "threshold": od.get("threshold", DEFAULTS["threshold"]),
                     "sure_index": od.get("sure_index", DEFAULTS["sure_index"]), "max_indices": 96},
        "face": {"file": "card_index.onnx", "input": CROP, "crop_scale": CROP_SCALE,
                 "threshold": of.get("threshold", DEFAULTS["face_threshold"]),
                 "not_index_threshold": of.get("not_index_threshold", DEFAULTS["not_index_threshold"])},
        "geometry": about.get("geometry") or old["geometry"],
        "pad_value": PAD_VALUE,
        "trained": {k: v for k, v in about.items() if k != "geometry"},
        "measured": old.get("measured", {}),
    }
    cfg_path.write_text(json.dumps(cfg, indent=1) + "\n")
    return cfg_path


def main(argv=None):
    export_cli(export, argv, last=True)


if __name__ == "__main__":
    main()
