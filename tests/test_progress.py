import io

from tabletop21.progress import progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_piped_progress_is_a_plain_line_every_tenth_and_the_items_all_come_through():
    out, ticks = io.StringIO(), iter(range(100))
    items = list(progress(range(20), 20, "photos read", out=out, clock=lambda: next(ticks)))
    lines = out.getvalue().splitlines()
    assert items == list(range(20)) and len(lines) == 10
    assert lines[-1].startswith("photos read: 20/20 (100%)") and "\r" not in out.getvalue()


def test_a_terminal_gets_one_bar_redrawn_in_place_and_a_few_items_get_nothing():
    out = Terminal()
    list(progress(range(8), 8, "steps", out=out))
    assert out.getvalue().count("\r") == 8 and out.getvalue().endswith("\n") and "[" + "#" * 30 + "]" in out.getvalue()
    quiet = Terminal()
    assert list(progress(range(3), 3, "steps", out=quiet)) == [0, 1, 2] and quiet.getvalue() == ""
