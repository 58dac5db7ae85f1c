"""The dice benchmark's timing helper: one row per pass, one column per frame, and the
loading of frames left out of the time (on a clock the test moves itself)."""

from pathlib import Path

import numpy as np

from tabletop21.bench import dice as bench

FIXTURES = Path(__file__).resolve().parents[1] / "calibration_images" / "dice" / "images"


class _Clock:
    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        return self.now


def test_timings_give_each_pass_its_own_row_and_leave_loading_untimed(monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(bench, "time", clock)
    paths = sorted(FIXTURES.glob("*.jpg"))[:2]
    calls = []

    def load(path):
        clock.now += 1.0  # a second to load: must not be in the figures
        return bench.bench_frame(path)

    def reader(frame):
        calls.append(frame.shape)
        clock.now += 0.007 * len(calls)  # each read a little slower than the one before

    out = bench.timings(reader, paths, load, passes=3)
    assert out.shape == (3, 2)
    assert calls == [(640, 640, 3)] * 7  # one untimed warm-up read, then every frame in every pass
    # Reads 2-7 took 14, 21, ... 49 ms: pass by pass, frame by frame.
    assert [[round(v) for v in row] for row in out] == [[14, 21], [28, 35], [42, 49]]


def test_a_read_is_timed_as_a_multiple_of_decoding_its_frame_best_of_each(monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(bench, "time", clock)
    real_decode = bench.cv2.imdecode
    decodes = iter([0.002, 0.001, 0.003] * 3)

    def decode(buffer, flags):
        clock.now += next(decodes)  # best of the three: 1 ms
        return real_decode(buffer, flags)

    monkeypatch.setattr(bench.cv2, "imdecode", decode)
    monkeypatch.setattr(bench, "bench_frame", lambda path: np.full((640, 640, 3), 90, np.uint8))  # no decoding
    reads = iter([0.0] + [0.012, 0.009, 0.010, 0.020, 0.008, 0.030, 0.005, 0.007, 0.006])

    def reader(frame):
        clock.now += next(reads)  # best of three per frame: 9, 8, 5 ms

    paths = sorted(FIXTURES.glob("*.jpg"))[:3]
    assert round(bench.decode_multiple(reader, paths), 6) == 8.0  # the median of 9, 8 and 5
