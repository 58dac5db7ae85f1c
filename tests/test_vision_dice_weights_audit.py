"""The readers' shipped weights: a partial install is said in words, naming the file,
where the networks are loaded (it was an IndexError deep in the dice reader, a bare
FileNotFoundError in the card reader, a mean over no networks in the d10 reader)."""

import re

import numpy as np
import pytest

from vision import weights
from vision.cards import rank_net
from vision.d10 import classifier as d10_classifier
from vision.dice import classifier
from vision.dice.classifier import IncompleteInstall
from vision.read import READERS, read_table

FRAME = np.full((64, 64, 3), 120, np.uint8)


def test_a_missing_weight_file_is_an_incomplete_install(tmp_path, weights_moved):
    weights_moved(classifier, MODEL_PATH=tmp_path / "die_cnn.npz")
    missing = re.escape(str(tmp_path / "die_cnn.npz")) + ": .* missing: .* reinstall"
    with pytest.raises(IncompleteInstall, match=missing):
        read_table(FRAME, readers={"dice": READERS["dice"]})


@pytest.mark.parametrize("content", [b"", b"not weights", classifier.FACE_MODEL_PATH.read_bytes()[:3000]])
def test_an_unreadable_weight_file_is_an_incomplete_install(tmp_path, weights_moved, content):
    (tmp_path / "die_face.npz").write_bytes(content)
    weights_moved(classifier, FACE_MODEL_PATH=tmp_path / "die_face.npz")
    unreadable = re.escape(str(tmp_path / "die_face.npz")) + ": .* cannot be read .* reinstall"
    with pytest.raises(IncompleteInstall, match=unreadable):
        classifier.shipped_face_networks()


def test_a_weight_file_lacking_an_array_is_an_incomplete_install(tmp_path, weights_moved):
    with np.load(classifier.MODEL_PATH) as data:
        np.savez_compressed(tmp_path / "die_cnn.npz", **{k: data[k] for k in data.files if k != "k2"})
    weights_moved(classifier, MODEL_PATH=tmp_path / "die_cnn.npz")
    with pytest.raises(IncompleteInstall, match=re.escape(str(tmp_path / "die_cnn.npz")) + ": .* lacks .* k2"):
        read_table(FRAME, readers={"dice": READERS["dice"]})


def test_another_readers_network_in_place_of_the_dices_is_an_incomplete_install(tmp_path, weights_moved):
    (tmp_path / "die_face.npz").write_bytes(d10_classifier.MODEL_PATH.read_bytes())
    weights_moved(classifier, FACE_MODEL_PATH=tmp_path / "die_face.npz")
    with pytest.raises(IncompleteInstall, match=re.escape(str(tmp_path / "die_face.npz")) + ": .* wrong shapes"):
        classifier.shipped_face_networks()


def test_every_reader_raises_the_one_incomplete_install():
    # Callers (the commands, the appliance) catch one class, whichever reader's file it is.
    assert IncompleteInstall is weights.IncompleteInstall and issubclass(IncompleteInstall, RuntimeError)


def test_the_commands_say_an_incomplete_install_in_one_line(tmp_path, weights_moved, capsys):
    """`tabletop21 read` on a partial install: one line naming the file, exit 2, no
    traceback (the error used to surface through the whole call stack)."""
    import cv2

    from tabletop21.cli import main

    image = tmp_path / "table.png"
    cv2.imwrite(str(image), FRAME)
    weights_moved(classifier, MODEL_PATH=tmp_path / "die_cnn.npz")
    assert main(["read", str(image)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("tabletop21: ") and "die_cnn.npz" in err and "reinstall" in err and "\n" not in err


# reader: (module, its loader of the shipped weights, how the message names it, an array it needs)
OTHER_READERS = {"d10": (d10_classifier, "shipped_networks", "d10 reader", "k1"),
                 "cards": (rank_net, "shipped_network", "card reader", "b2")}


@pytest.mark.parametrize("reader", sorted(OTHER_READERS))
@pytest.mark.parametrize("content", [b"", b"not weights", "cut short", "w", "lacking one"])
def test_an_unreadable_weight_file_of_the_other_readers_is_an_incomplete_install(
        reader, content, broken_weights, weights_moved):
    module, loader, who, needed = OTHER_READERS[reader]
    content = {"cut short": module.MODEL_PATH.read_bytes()[:3000], "lacking one": needed}.get(content, content)
    path = broken_weights(module.MODEL_PATH, content)
    weights_moved(module, MODEL_PATH=path)
    unreadable = re.escape(str(path)) + f": the {who}'s weight file (cannot be read|lacks) .* reinstall"
    with pytest.raises(IncompleteInstall, match=unreadable):
        getattr(module, loader)()


def test_only_numbered_files_join_a_readers_networks():
    """die_face_hue.npz lies beside die_face.npz but takes another input: averaged in
    as a second face network, it made the reader refuse dice it reads (seven in one photo)."""
    assert classifier.HUE_MODEL_PATH.parent == classifier.FACE_MODEL_PATH.parent
    assert len(classifier.shipped_face_networks()) == 1 and len(classifier.shipped_hue_networks()) == 1
    assert len(classifier.shipped_networks()) == 2  # die_cnn.npz and die_cnn_2.npz
