"""Handing freed memory back to the system after a read.

A read of a 1280x720 frame allocates and frees tens of MB of numpy and onnxruntime
buffers. glibc's malloc keeps the freed pages for the next frame, and over a few
hundred reads of frames of changing size the process grows by a third (`tabletop21
bench dice`). The appliance reads once the dice have settled, and waits for the next
roll after it: `hand_back()` there costs nothing the players see (glibc's
`malloc_trim(0)`, about 1 ms, and a few ms more for the next read to fault its pages
back in). Where the C library has no malloc_trim (musl, macOS) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache


@cache
def _trim():
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        trim = libc.malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def hand_back() -> bool:
    """Return the heap's free pages to the system; False where this C library cannot."""
    trim = _trim()
    if trim is None:
        return False
    trim(0)
    return True
