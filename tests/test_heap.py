"""tabletop21.heap hands freed memory back to the system where the C library can, and
the appliance does so after each settled read."""

import pytest

from tabletop21.heap import hand_back


def _resident_kb() -> int:
    with open("/proc/self/status") as status:
        return int(next(line.split()[1] for line in status if line.startswith("VmRSS:")))


def test_freed_heap_memory_goes_back_to_the_system():
    if not hand_back():
        pytest.skip("this C library has no malloc_trim (not glibc)")
    # 60 MB in 2 kB pieces (malloc's heap, below its mmap threshold), one in ten kept:
    # the freed ones are holes no free() can hand back, as a read's buffers leave them
    pieces = [bytearray(2048) for _ in range(30_000)]
    kept = pieces[::10]
    del pieces
    holed = _resident_kb()
    hand_back()
    after = _resident_kb()
    assert holed - after > 30_000, (holed, after)
    assert len(kept) == 3000


def test_each_settled_read_is_followed_by_handing_memory_back(tmp_path, monkeypatch):
    from test_appliance import dice_reader, play_recorded_round

    import tabletop21.appliance as appliance

    said: list[str] = []
    read = dice_reader((6, 5, 4))

    def reading(image):
        said.append("read")
        return read(image)

    monkeypatch.setattr(appliance, "hand_back", lambda: said.append("hand back") or True)
    monkeypatch.setattr("test_appliance.dice_reader", lambda values: reading)
    _, view = play_recorded_round(tmp_path / "session")
    assert view.screen == "results"
    assert said and said == ["read", "hand back"] * (len(said) // 2)
