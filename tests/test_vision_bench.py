"""The dice benchmark's timing helper: one row per pass, one column per frame, and the
loading of frames left out of the time (on a clock the test moves itself)."""

from pathlib import Path

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
