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
    weights_moved(classifier, MODEL_PATH=tmp_path / "die_cnn.onnx")
    missing = re.escape(str(tmp_path / "die_cnn.onnx")) + ": .* missing: .* reinstall"
    with pytest.raises(IncompleteInstall, match=missing):
        read_table(FRAME, readers={"dice": READERS["dice"]})


@pytest.mark.parametrize("content", [b"", b"not weights", classifier.FACE_MODEL_PATH.read_bytes()[:3000]])
def test_an_unreadable_weight_file_is_an_incomplete_install(tmp_path, weights_moved, content):
    (tmp_path / "die_face.onnx").write_bytes(content)
    weights_moved(classifier, FACE_MODEL_PATH=tmp_path / "die_face.onnx")
    unreadable = re.escape(str(tmp_path / "die_face.onnx")) + ": .* cannot be read .* reinstall"
    with pytest.raises(IncompleteInstall, match=unreadable):
        classifier.shipped_face_networks()


def test_a_finder_in_place_of_the_face_network_is_an_incomplete_install(tmp_path, weights_moved):
    # A network file the dice reader ships, but for the finders' smaller input.
    (tmp_path / "die_face.onnx").write_bytes(classifier.MODEL_PATH.read_bytes())
    weights_moved(classifier, FACE_MODEL_PATH=tmp_path / "die_face.onnx")
    with pytest.raises(IncompleteInstall, match=re.escape(str(tmp_path / "die_face.onnx")) +
                       r": .* taking input of shape \(16, 16, 4\), not \(24, 24, 4\)"):
        classifier.shipped_face_networks()


def test_another_readers_network_in_place_of_the_dices_is_an_incomplete_install(tmp_path, weights_moved):
    (tmp_path / "die_face.onnx").write_bytes(d10_classifier.MODEL_PATH.read_bytes())
    weights_moved(classifier, FACE_MODEL_PATH=tmp_path / "die_face.onnx")
    with pytest.raises(IncompleteInstall, match=re.escape(str(tmp_path / "die_face.onnx")) + ": .* input of shape"):
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
    weights_moved(classifier, MODEL_PATH=tmp_path / "die_cnn.onnx")
    assert main(["read", str(image)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("tabletop21: ") and "die_cnn.onnx" in err and "reinstall" in err and "\n" not in err


# reader: (module, its loader of the shipped weights, how the message names it, another reader's network)
OTHER_READERS = {"d10": (d10_classifier, "shipped_networks", "d10 reader", rank_net.MODEL_PATH),
                 "cards": (rank_net, "shipped_network", "card reader", d10_classifier.MODEL_PATH)}


@pytest.mark.parametrize("reader", sorted(OTHER_READERS))
@pytest.mark.parametrize("content", [b"", b"not weights", "cut short", "cut at the end", "another network"])
def test_an_unreadable_weight_file_of_the_other_readers_is_an_incomplete_install(
        reader, content, broken_weights, weights_moved):
    module, loader, who, other = OTHER_READERS[reader]
    shipped = module.MODEL_PATH.read_bytes()
    content = {"cut short": shipped[:3000], "cut at the end": shipped[:-100], "another network": other}.get(content, content)
    path = broken_weights(module.MODEL_PATH, content)
    weights_moved(module, MODEL_PATH=path)
    unreadable = re.escape(str(path)) + f": the {who}'s weight file (cannot be read|holds a network taking) .* reinstall"
    with pytest.raises(IncompleteInstall, match=unreadable):
        getattr(module, loader)()


def test_only_numbered_files_join_a_readers_networks():
    """die_face_hue.onnx lies beside die_face.onnx but takes another input: averaged in
    as a second face network, it made the reader refuse dice it reads (seven in one photo)."""
    assert classifier.HUE_MODEL_PATH.parent == classifier.FACE_MODEL_PATH.parent
    assert len(classifier.shipped_face_networks()) == 1 and len(classifier.shipped_hue_networks()) == 1
    assert len(classifier.shipped_networks()) == 2  # die_cnn.onnx and die_cnn_2.onnx


def test_a_network_runs_many_rows_in_batches_with_the_same_answers():
    # Thousands of candidates are run BATCH rows at a time (to bound a read's memory);
    # the answers must be those of one run over all of them.
    net = classifier.shipped_networks()[0]
    rows = weights.BATCH * 2 + 7
    x = np.random.default_rng(0).uniform(0, 1, (rows, *net.input_shape)).astype(np.float32)
    whole = net._session.run(None, {net._input: x})[0]
    batched = net.logits(x)
    assert batched.shape == whole.shape == (rows, net.classes)
    np.testing.assert_allclose(batched, whole, rtol=1e-5, atol=1e-5)
