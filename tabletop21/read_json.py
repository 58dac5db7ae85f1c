"""The JSON shape of a read, shared by `tabletop21 read` and anything else that
prints reads for people or other programs. Every kind is always present (an empty
list when there is none), so a program reading it never has to ask whether a key
exists."""

from __future__ import annotations

import dataclasses
from typing import Any

from table.reads import TableRead

_OTHER_KINDS = ("d10", "dominoes", "cards", "face_down")


def _item(obj: Any) -> dict[str, Any]:
    """A read object as JSON-ready fields (tuples become lists), but for the fields
    that only matter inside a read (metadata "json": False)."""
    return {f.name: list(v) if isinstance(v := getattr(obj, f.name), tuple) else v
            for f in dataclasses.fields(obj) if f.metadata.get("json", True)}


def _unreadable(u) -> dict[str, Any]:
    data = {"center": list(u.center), "reason": u.reason}
    if u.kind != "die":
        data["kind"] = u.kind
    if u.box is not None:
        data["box"] = list(u.box)
    return data


def read_to_json(file: str, read: TableRead) -> dict[str, Any]:
    """{"file", "dice", "d10", "dominoes", "cards", "face_down", "unreadable"}."""
    entry: dict[str, Any] = {
        "file": file,
        "dice": [{"value": d.value, "center": list(d.center), "box": list(d.box),
                  "confidence": d.confidence} for d in read.dice],
    }
    for kind in _OTHER_KINDS:
        entry[kind] = [_item(x) for x in getattr(read, kind)]
    entry["unreadable"] = [_unreadable(u) for u in read.unreadable]
    if read.notes:
        entry["notes"] = list(read.notes)
    return entry


def error_to_json(file: str, error: Exception | str) -> dict[str, Any]:
    return {"file": file, "error": str(error)}
