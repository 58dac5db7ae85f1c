"""`tabletop21 bench cards` measures memory in a fresh process with every reader loaded."""

from tabletop21.bench.cards import readers_peak_mb


def test_the_peak_memory_of_every_reader_loaded_is_measured_in_a_fresh_process():
    peak = readers_peak_mb()
    # numpy, OpenCV and onnxruntime alone take tens of MB; eight readers' networks more
    assert 50 < peak < 2000
