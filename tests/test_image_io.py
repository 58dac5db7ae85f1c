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
