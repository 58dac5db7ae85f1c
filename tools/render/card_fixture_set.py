"""Writing a rendered fixture set the way tabletop21.evaluate reads one: images/NAME.jpg
beside a labels.json that maps each file name to its labels."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np


def write_set(out: Path, prefix: str, scenes: Iterable[tuple[np.ndarray, dict]]) -> None:
    (out / "images").mkdir(parents=True, exist_ok=True)
    labels = {}
    for i, (image, label) in enumerate(scenes):
        name = f"{prefix}_{i:02d}.jpg"
        cv2.imwrite(str(out / "images" / name), image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        labels[name] = label
    (out / "labels.json").write_text(json.dumps(labels, indent=1))
    print(f"{len(labels)} scenes -> {out}")
