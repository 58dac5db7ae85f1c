"""Play areas whose edge runs across a labelled object, or just past it: how the d10
and domino tests show that what lies across the edge is refused, not read from its
part inside. Shared by those readers' tests."""

from __future__ import annotations

from collections.abc import Iterator

from table.reads import inside
from vision.calibration import Calibration

SIDES = ("left", "right", "top", "bottom")  # the side of the object the edge cuts off


def cut_off(side: str, line: float, width: int, height: int) -> Calibration:
    """The frame beyond a line: what lies on `side` of x = line (left, right) or
    y = line (top, bottom) is outside the play area."""
    far = {"left": ((line, 0), (width - 1, 0), (width - 1, height - 1), (line, height - 1)),
           "right": ((0, 0), (line, 0), (line, height - 1), (0, height - 1)),
           "top": ((0, line), (width - 1, line), (width - 1, height - 1), (0, height - 1)),
           "bottom": ((0, 0), (width - 1, 0), (width - 1, line), (0, line))}[side]
    return Calibration((width, height), far)


def views(objects: list[dict], width: int, height: int, sides=SIDES, keep: float | None = None,
          gap: float | None = None, others: list[dict] = ()) -> Iterator[tuple[Calibration, dict]]:
    """For each labelled object ({"box": [x0, y0, x1, y1], ...}) and side, a play area
    whose edge leaves `keep` of the object's box inside, or runs `gap` pixels past the
    box (the object wholly inside). Views whose edge comes within 3 pixels of another
    object's box (of `objects` or `others`), or leaves the frame, are left out."""
    for obj in objects:
        x0, y0, x1, y1 = obj["box"]
        for side in sides:
            across = side in ("left", "right")
            low, high = (x0, x1) if across else (y0, y1)
            if keep is not None:
                line = high - keep * (high - low) if side in ("left", "top") else low + keep * (high - low)
            else:
                line = low - gap if side in ("left", "top") else high + gap
            if not 0 < line < (width if across else height) - 1:
                continue
            if any(o is not obj and o["box"][0 if across else 1] - 3 <= line <= o["box"][2 if across else 3] + 3
                   for o in [*objects, *others]):
                continue
            yield cut_off(side, round(line, 1), width, height), obj


def owner(point: tuple[float, float], objects: list[dict]) -> dict | None:
    """The labelled object a result centred at `point` is of: the one whose box holds
    it, the nearest by its box's middle where boxes overlap (tiles lying close)."""
    holding = [o for o in objects if inside(point, o["box"])]
    return min(holding, default=None, key=lambda o: ((o["box"][0] + o["box"][2]) / 2 - point[0]) ** 2
               + ((o["box"][1] + o["box"][3]) / 2 - point[1]) ** 2)
