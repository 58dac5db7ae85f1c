"""Folders the appliance writes into (session recordings, the bankroll file,
screenshots), made before anything is written there: a file in the way or a folder
without permission is one line naming the folder and the setting to change, not an
OSError traceback part-way through a run."""

from __future__ import annotations

from pathlib import Path

from table.errors import TableError


def folder_to_keep(folder: str | Path, what: str, fix: str) -> Path:
    """`folder`, made with those above it if they are not there, or a TableError:
    "FOLDER: cannot keep WHAT here (why); FIX"."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:  # a file of that name or on the way, no permission
        raise TableError(f"{folder}: cannot keep {what} here ({err.strerror or err}); {fix}") from None
    return folder
