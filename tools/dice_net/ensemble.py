"""A reader whose face classifiers are several runs' (their probabilities averaged),
with the detector and settings of the first: a folder with its own dice_net.json, to
calibrate and evaluate like any run.

    python -m tools.dice_net.ensemble --out runs/ens-fold0/onnx \\
        runs/d6s-fold0/onnx/dice_net.json runs/d6s-fold0-seed1/onnx/dice_net.json
    python -m tools.dice_net.calibrate --config runs/ens-fold0/onnx/dice_net.json --leave-out dice-d6-photos@0/2
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True, help="the new reader's folder")
    ap.add_argument("configs", type=Path, nargs="+", help="dice_net.json of each run; the first gives the detector")
    a = ap.parse_args(argv)
    a.out.mkdir(parents=True, exist_ok=True)
    cfgs = [json.loads(c.read_text()) for c in a.configs]
    first = cfgs[0]
    if any(c["face"]["input"] != first["face"]["input"] for c in cfgs):
        raise SystemExit("the face classifiers take inputs of different sizes")
    shutil.copy(a.configs[0].parent / first["detector"]["file"], a.out / first["detector"]["file"])
    faces = []
    for i, (path, cfg) in enumerate(zip(a.configs, cfgs)):
        name = cfg["face"]["file"] if i == 0 else f"{Path(cfg['face']['file']).stem}_{i}.onnx"
        shutil.copy(path.parent / cfg["face"]["file"], a.out / name)
        faces.append(name)
    out = {**first, "face": {**first["face"], "file": faces[0], "also": faces[1:]}}
    out["trained"] = {**first.get("trained", {}), "ensemble": [str(c) for c in a.configs]}
    out.pop("calibration", None)
    (a.out / "dice_net.json").write_text(json.dumps(out, indent=1) + "\n")
    print(a.out / "dice_net.json")


if __name__ == "__main__":
    main()
