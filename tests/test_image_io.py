"""Loading images from disk: every way a file can fail is a NotAnImage naming it."""

import numpy as np
import pytest

from vision.image_io import NotAnImage, load_bgr


def test_a_file_that_cannot_be_opened_is_not_an_image_and_named(tmp_path, monkeypatch):
    path = tmp_path / "locked.jpg"
    path.write_bytes(b"\xff\xd8 not really")

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(np, "fromfile", denied)
    with pytest.raises(NotAnImage, match=r"locked\.jpg: cannot be read \(Permission denied\)"):
        load_bgr(path)


def _png_header(width, height):
    import struct
    import zlib

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr
            + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr)))


def test_an_image_whose_header_claims_too_many_pixels_is_refused_before_decoding(tmp_path):
    """Over 2**30 pixels was a cv2.error traceback that ended the whole `read` batch; a
    12000x9000 JPEG took 32 s and 1.75 GB to decode."""
    import cv2

    from vision.image_io import MAX_PIXELS, header_size

    huge_png = tmp_path / "huge.png"
    huge_png.write_bytes(_png_header(40000, 40000) + b"\0" * 64)
    with pytest.raises(NotAnImage, match=r"huge\.png: its header says 40000x40000 pixels, over the budget"):
        load_bgr(huge_png)
    ok, jpeg = cv2.imencode(".jpg", np.zeros((90, 120, 3), np.uint8))
    data = bytearray(jpeg.tobytes())
    sof = next(i for i in range(2, len(data)) if data[i] == 0xFF and data[i + 1] == 0xC0)
    assert header_size(bytes(data)) == (120, 90)
    data[sof + 5:sof + 9] = (9000).to_bytes(2, "big") + (12000).to_bytes(2, "big")
    big_jpeg = tmp_path / "big.jpg"
    big_jpeg.write_bytes(bytes(data))
    with pytest.raises(NotAnImage, match="12000x9000 pixels, over the budget of 67,108,864"):
        load_bgr(big_jpeg)
    assert 12000 * 9000 > MAX_PIXELS >= 8192 * 8192


def test_images_within_the_budget_load_and_headers_give_their_size(tmp_path):
    import cv2

    from vision.image_io import header_size

    image = np.random.default_rng(1).integers(0, 255, (48, 64, 3), np.uint8)
    for ext in (".png", ".jpg", ".bmp", ".tiff", ".webp", ".ppm"):
        ok, encoded = cv2.imencode(ext, image)
        assert ok and header_size(encoded.tobytes()) == (64, 48), ext
        path = tmp_path / f"frame{ext}"
        path.write_bytes(encoded.tobytes())
        assert load_bgr(path).shape == (48, 64, 3)
    unknown = tmp_path / "frame.xyz"
    unknown.write_bytes(b"no header anyone knows" * 10)
    with pytest.raises(NotAnImage, match="frame.xyz: not an image OpenCV can decode"):
        load_bgr(unknown)


def test_read_goes_on_past_an_image_over_the_budget(tmp_path, capsys):
    import cv2

    from tabletop21.cli import main

    huge = tmp_path / "huge.png"
    huge.write_bytes(_png_header(50000, 30000) + b"\0" * 64)
    fine = tmp_path / "fine.png"
    cv2.imwrite(str(fine), np.zeros((120, 160, 3), np.uint8))
    assert main(["read", str(huge), str(fine)]) == 1
    out = capsys.readouterr().out
    assert "50000x30000 pixels, over the budget" in out and "fine.png" in out
