"""Loading images from disk with a clear error: a file that is not an image must
fail loudly for that file alone, never crash a batch or be read as an empty table.

An image's size is read from its header before it is decoded, and one over
MAX_PIXELS is refused as NotAnImage: a header claiming over 2**30 pixels makes OpenCV
raise cv2.error (stopping `read`'s whole batch, replay, calibrate and run), and a huge
JPEG takes many seconds and gigabytes to decode on the way to being read. The
budget is the largest frame a camera setting may ask for ([camera] width and height
up to 8192x8192, tabletop21.settings.CAMERA_FRAME), so every frame the appliance
records loads again. Formats whose header gives the size: JPEG, PNG, BMP, GIF, WebP,
TIFF and PNM; any other is refused, since its size is known only by decoding it.
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np


class NotAnImage(ValueError):
    """The file is missing, empty or does not decode as an image."""


MAX_PIXELS = 8192 * 8192  # the pixel budget: 64 megapixels, the largest camera frame the settings allow


def load_bgr(path: str | Path) -> np.ndarray:
    path = Path(path)
    if path.is_dir():
        raise NotAnImage(f"{path}: a directory, not an image file")
    if not path.is_file():
        raise NotAnImage(f"{path}: no such file")
    try:
        raw = np.fromfile(path, dtype=np.uint8)
    except OSError as err:  # no permission, a special file: this file fails, not the batch
        raise NotAnImage(f"{path}: cannot be read ({err.strerror or err})") from err
    if not raw.size:
        raise NotAnImage(f"{path}: not an image OpenCV can decode (the file is empty)")
    size = header_size(raw[:1 << 20].tobytes() if raw[:2].tobytes() != b"\xff\xd8" else raw.tobytes())
    if size is None:
        raise NotAnImage(f"{path}: not an image OpenCV can decode")  # no JPEG, PNG, ... header giving its size
    width, height = size
    if width <= 0 or height <= 0 or width * height > MAX_PIXELS:
        raise NotAnImage(f"{path}: its header says {width}x{height} pixels, over the budget of {MAX_PIXELS:,} "
                         "(8192x8192, the largest camera frame): refused before decoding")
    try:
        image = cv2.imdecode(raw, cv2.IMREAD_COLOR)
    except cv2.error as err:  # what OpenCV itself refuses: this file fails, not the batch
        raise NotAnImage(f"{path}: not an image OpenCV can decode ({str(err).strip().splitlines()[-1]})") from None
    if image is None:
        raise NotAnImage(f"{path}: not an image OpenCV can decode")
    if image.shape[0] * image.shape[1] > MAX_PIXELS:  # a header that lied small
        raise NotAnImage(f"{path}: {image.shape[1]}x{image.shape[0]} pixels, over the budget of {MAX_PIXELS:,}")
    return image


_JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) as the image's header gives them, without decoding it; None for
    a format this does not know or a header cut short."""
    try:
        return _header_size(data)
    except (struct.error, IndexError, ValueError):
        return None


def _header_size(data: bytes) -> tuple[int, int] | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    if data.startswith(b"\xff\xd8"):
        at = 2
        while at + 4 <= len(data):
            if data[at] != 0xFF:
                return None
            marker = data[at + 1]
            if marker == 0xFF:  # fill byte
                at += 1
                continue
            if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
                at += 2
                continue
            if marker in (0xD9, 0xDA):  # the image ends, or its scan starts, with no frame header before
                return None
            length = struct.unpack(">H", data[at + 2:at + 4])[0]
            if marker in _JPEG_SOF:
                height, width = struct.unpack(">HH", data[at + 5:at + 9])
                return width, height
            at += 2 + length
        return None
    if data.startswith(b"BM"):
        width, height = struct.unpack("<ii", data[18:26])
        return width, abs(height)
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return struct.unpack("<HH", data[6:10])
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        chunk = data[12:16]
        if chunk == b"VP8X":
            return 1 + int.from_bytes(data[24:27], "little"), 1 + int.from_bytes(data[27:30], "little")
        if chunk == b"VP8L":
            bits = int.from_bytes(data[21:25], "little")
            return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
        if chunk == b"VP8 ":
            width, height = struct.unpack("<HH", data[26:30])
            return width & 0x3FFF, height & 0x3FFF
        return None
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        order = "<" if data[0] == ord("I") else ">"
        ifd = struct.unpack(order + "I", data[4:8])[0]
        count = struct.unpack(order + "H", data[ifd:ifd + 2])[0]
        found = {}
        for n in range(count):
            entry = data[ifd + 2 + 12 * n: ifd + 14 + 12 * n]
            tag, kind = struct.unpack(order + "HH", entry[:4])
            if tag in (256, 257):
                found[tag] = struct.unpack(order + ("H" if kind == 3 else "I"), entry[8:10] if kind == 3 else entry[8:12])[0]
        return (found[256], found[257]) if len(found) == 2 else None
    if data[:2] in (b"P1", b"P2", b"P3", b"P4", b"P5", b"P6"):
        words: list[bytes] = []
        for line in data[2:4096].split(b"\n"):
            words += line.split(b"#")[0].split()
            if len(words) >= 2:
                return int(words[0]), int(words[1])
        return None
    return None


def checked_bgr(frame: object, min_side: int = 16) -> np.ndarray:
    """The check every reader makes first: something that is not a BGR frame must be
    refused loudly, never read as an empty table."""
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 \
            or frame.dtype != np.uint8 or min(frame.shape[:2]) < min_side:
        raise NotAnImage(f"expected an HxWx3 uint8 BGR frame of at least {min_side}x{min_side}, got "
                         f"{type(frame).__name__} {getattr(frame, 'shape', None)}")
    return frame
