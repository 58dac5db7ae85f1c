"""The trainers' batches (tools/dice_net/batches.py, tools/d10_net/compose.py): made
from the seed and the step alone, the same in worker processes as in one, and a resumed
run gets the batches the stopped one would have had; the shrunk tables' cache is the
same made in parallel as in one process, and the run that fills it gets what later runs
read from it."""

from pathlib import Path

import cv2
import numpy as np

from tools.d10_net.compose import small_tables
from tools.d10_net.data import Table
from tools.dice_net.batches import batches


def _make(rng):
    return rng.integers(0, 1000, size=5), rng.normal(size=(2, 3))


def _same(a, b):
    return len(a) == len(b) and all(np.array_equal(x, y) for p, q in zip(a, b) for x, y in zip(p, q))


def test_workers_give_the_batches_one_process_gives_in_the_same_order():
    one = list(batches(_make, 7, 0, 12))
    assert len(one) == 12
    assert _same(list(batches(_make, 7, 0, 12, workers=2)), one)
    # the steps differ from each other and from another seed's
    assert len({tuple(b[0]) for b in one}) == 12
    assert not _same(list(batches(_make, 8, 0, 12)), one)


def test_a_resumed_run_gets_the_rest_of_the_stopped_runs_batches():
    one = list(batches(_make, 3, 0, 10))
    assert _same(list(batches(_make, 3, 6, 10)), one[6:])
    assert list(batches(_make, 3, 10, 10)) == []


def test_tables_shrunk_in_parallel_match_those_shrunk_in_one_process(tmp_path: Path):
    rng = np.random.default_rng(0)
    tabs = []
    for i, (h, w) in enumerate([(900, 1600), (500, 400), (1280, 720)]):
        f = tmp_path / f"t{i}.png"
        cv2.imwrite(str(f), rng.integers(0, 255, (h, w, 3), dtype=np.uint8))
        tabs.append(Table(f, np.array([[10, 20, 110, 120]], np.float32)))
    serial = small_tables(tabs, tmp_path / "a")
    parallel = small_tables(tabs, tmp_path / "b", workers=2)
    again = small_tables(tabs, tmp_path / "b", workers=2)  # from the cache
    for s, p, g in zip(serial, parallel, again):
        assert max(s.image.shape[:2]) <= 640
        assert np.array_equal(s.image, p.image) and np.array_equal(s.d6_boxes, p.d6_boxes)
        assert np.array_equal(g.image, s.image) and np.allclose(g.d6_boxes, s.d6_boxes)  # as cached
    assert np.allclose(serial[0].d6_boxes, [[4, 8, 44, 48]])  # 1600 px wide -> 640
