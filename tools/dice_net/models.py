"""The two networks: a small CenterNet-style die detector (centre heatmap + box size at
stride 4) and a face classifier (class 0 = not a die, then one class per value up).
tools/d10_net trains the same two for ten-sided dice."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


def cbr(cin, cout, stride=1, k=3, groups=1):
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Detector(nn.Module):
    """Input N x 3 x H x W (BGR, 0..1), H and W multiples of 16. Output N x 3 x H/4 x W/4:
    channel 0 the centre heatmap (sigmoid applied in `forward_export`), 1-2 log(box w, h / 4)."""

    def __init__(self, w=(12, 24, 40, 64)):
        super().__init__()
        a, b, c, d = w
        self.s2 = cbr(3, a, 2)
        self.s4 = nn.Sequential(cbr(a, b, 2), cbr(b, b))
        self.s8 = nn.Sequential(cbr(b, c, 2), cbr(c, c))
        self.s16 = nn.Sequential(cbr(c, d, 2), cbr(d, d), cbr(d, d))
        self.lat8 = nn.Conv2d(c, d, 1)
        self.up8 = cbr(d, c)
        self.lat4 = nn.Conv2d(b, c, 1)
        self.up4 = cbr(c, b)
        self.head = nn.Sequential(cbr(b, b), nn.Conv2d(b, 3, 1))
        nn.init.constant_(self.head[-1].bias, 0.0)
        with torch.no_grad():
            self.head[-1].bias[0] = -4.0  # a rare positive: start the heatmap low

    def forward(self, x):
        x2 = self.s2(x)
        x4 = self.s4(x2)
        x8 = self.s8(x4)
        x16 = self.s16(x8)
        y8 = self.up8(F.interpolate(x16, scale_factor=2.0, mode="nearest") + self.lat8(x8))
        y4 = self.up4(F.interpolate(y8, scale_factor=2.0, mode="nearest") + self.lat4(x4))
        return self.head(y4)


def headed_detector(channels: int, heatmaps: int) -> Detector:
    """A Detector whose last layer gives `channels` outputs, the first `heatmaps` of them
    heatmaps started low (rare positives), the rest regressions started at 0: the
    domino and card detectors."""
    det = Detector()
    last = det.head[-1]
    assert isinstance(last, nn.Conv2d)
    det.head[-1] = nn.Conv2d(last.in_channels, channels, 1)
    nn.init.constant_(det.head[-1].bias, 0.0)
    with torch.no_grad():
        det.head[-1].bias[:heatmaps] = -4.0
    return det


class DetectorExport(nn.Module):
    """uint8-range BGR in; the first `heatmaps` channels through a sigmoid, the rest as they are."""

    def __init__(self, det, heatmaps: int = 1):
        super().__init__()
        self.det = det
        self.heatmaps = heatmaps

    def forward(self, x):  # x: N x 3 x H x W uint8-range float BGR
        y = self.det(x / 255.0 - 0.5)
        return torch.cat([torch.sigmoid(y[:, :self.heatmaps]), y[:, self.heatmaps:]], 1)


class Face(nn.Module):
    """Input N x 3 x S x S (BGR 0..1). Output N x `classes` logits (7 for a d6, 11 for a d10).

    With `count`, a second head reads the last feature map (S/8 x S/8) as a density of
    top-face pips: `forward_both` gives the logits and the density's sum, which training
    pulls towards the die's value (`train_face.py --count`). The logits are computed
    as without it, so an exported classifier is the same network either way."""

    TRUNK = 9  # self.f[:TRUNK] ends at the last feature map, before the global average

    def __init__(self, w=(16, 32, 48, 64), classes=7, count=False):
        super().__init__()
        a, b, c, d = w
        self.f = nn.Sequential(
            cbr(3, a), nn.MaxPool2d(2),
            cbr(a, b), cbr(b, b), nn.MaxPool2d(2),
            cbr(b, c), cbr(c, c), nn.MaxPool2d(2),
            cbr(c, d), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
            nn.Dropout(0.2), nn.Linear(d, classes))
        self.count = nn.Conv2d(d, 1, 1) if count else None
        if self.count is not None:
            nn.init.constant_(self.count.bias, -3.0)  # start near no pips rather than a few dozen

    def forward(self, x):
        return self.f(x)

    def forward_both(self, x):
        """(logits, pip count) for each crop; the count needs a model made with `count`."""
        assert self.count is not None, "made without the count head"
        m = self.f[:self.TRUNK](x)
        density = F.softplus(self.count(m))
        return self.f[self.TRUNK:](m), density.sum((1, 2, 3))


def load_face(st: dict) -> Face:
    """The face classifier a run's face.pt holds (the oldest files are a bare state dict
    of the default widths), in eval mode."""
    if "widths" not in st:
        st = {"widths": (16, 32, 48, 64), "model": st}
    face = Face(tuple(st["widths"]), count=bool(st.get("count")))
    face.load_state_dict(st["model"])
    return face.eval()


def face_size(st: dict) -> int:
    """The input size (px) of the face classifier a run's face.pt holds (40 for the
    oldest files, which do not say)."""
    return int(st.get("size", 40)) if "widths" in st else 40


class FaceExport(nn.Module):
    def __init__(self, face):
        super().__init__()
        self.face = face

    def forward(self, x):
        return torch.softmax(self.face(x / 255.0 - 0.5), 1)
