"""Die values typed in or read by the camera are checked here, in one place, so a
d6 showing 7 or a d10 showing 10 is refused the same way by every game."""

from __future__ import annotations

from table.errors import BadValue


def check_die(value: object, sides: int = 6) -> int:
    """A d6 shows 1..6; a d10 shows 0..9 (the 0 counts as ten in play)."""
    low, high = (0, 9) if sides == 10 else (1, sides)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadValue(f"a d{sides} shows {low} to {high}, not {value!r}")
    return value


def parse_dice(text: str, count: int, sides: int = 6) -> tuple[int, ...]:
    """'3 5' or '3,5' -> (3, 5), exactly `count` dice. On a d10 the face printed 0
    counts ten, and people say so: '10' is taken for it."""
    parts = text.replace(",", " ").split()
    if sides == 10:
        parts = ["0" if part == "10" else part for part in parts]
    try:
        values = tuple(int(part) for part in parts)
    except ValueError:
        raise BadValue(f"{text!r}: type {count} whole number(s)") from None
    if len(values) != count:
        raise BadValue(f"{text!r}: expected {count} dice, got {len(values)}")
    return tuple(check_die(value, sides) for value in values)
