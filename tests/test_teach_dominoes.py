"""Teaching the learned domino reader (vision.teach_dominoes, kind "dominoes"): a taught
file names its kind and reads tiles, untaught the reader reads as before, and a tile
labelled with a half no double-six tile shows is refused naming the photo."""

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tabletop21.cli import main
from vision.dice_net import load_nets
from vision.dominoes import net
from vision.teach import Example, Taught, TaughtError, read_taught, teach
from vision.teach_dominoes import _head, _views, judge_for

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "domino-photos"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data/domino-photos is not beside the repository")


def _examples(names):
    labels = json.loads((SHARED / "labels.json").read_text())
    return [Example(n, cv2.imread(str(SHARED / "images" / n)),
                    tuple((tuple(d["halves"]), tuple(d["box"])) for d in labels[n]["dominoes"])) for n in names]


def test_a_half_view_keeps_the_other_half_to_the_right():
    crops = np.arange(2 * 3 * 4 * 4, dtype=np.float32).reshape(2, 3, 4, 4)
    views = _views(crops).reshape(2, 2, 3, 4, 4)
    assert np.array_equal(views[1, 0], crops[1]) and np.array_equal(views[1, 1], crops[1, :, ::-1, :])


def test_the_head_rereads_pips_and_keeps_no_half_as_shipped():
    probs = np.array([[0.6, 0.1, 0.1, 0.05, 0.05, 0.04, 0.03, 0.03], [0.01, 0.9, 0.02, 0.02, 0.02, 0.01, 0.01, 0.01]])
    z = np.ones((2, 3))
    weights = np.zeros((3, 8))
    weights[:, 3] = 2.0  # pushes every half to 2 pips
    q = _head(probs, z, weights, np.zeros(8))
    assert np.allclose(q.sum(1), 1) and np.allclose(q[:, 0], probs[:, 0])
    assert (q[:, 1:].argmax(1) == 2).all()
    untaught = _head(probs, z, np.zeros((3, 8)), np.zeros(8))
    assert np.allclose(untaught, probs)


@pytest.mark.parametrize("halves, words", [((7, 2), r"\[7, 2\]"), ((1,), r"\[1\]"), ((True, 2), r"\[True, 2\]")])
def test_a_tile_no_double_six_set_holds_is_refused_naming_the_photo(halves, words):
    frame = np.full((200, 200, 3), 120, np.uint8)
    good = [Example(f"p{i}.jpg", frame, (((1, 2), (50.0, 50.0, 150.0, 100.0)),)) for i in range(6)]
    with pytest.raises(TaughtError, match=rf"bad\.jpg: a tile is labelled {words}, and a double-six tile"):
        teach("dominoes", [*good, Example("bad.jpg", frame, ((halves, (50.0, 50.0, 150.0, 100.0)),))])


def test_too_few_tiles_teach_nothing():
    frame = np.full((200, 200, 3), 120, np.uint8)
    with pytest.raises(TaughtError, match="too few labelled tiles"):
        teach("dominoes", [Example("p.jpg", frame, (((1, 2), (50.0, 50.0, 150.0, 100.0)),))])


@pytest.fixture(scope="module")
def taught():
    if not SHARED.is_dir():
        pytest.skip("../shared/data/domino-photos is not beside the repository")
    names = sorted(json.loads((SHARED / "labels.json").read_text()))
    return teach("dominoes", _examples(names[::3][:20]))


@needs_shared
def test_a_taught_domino_reader_reads_tiles_and_its_file_keeps_its_kind(taught):
    assert taught.kind == "dominoes" and taught.weights.shape[1] == 8 and taught.taught_on["tiles"] > 100
    again = Taught.from_json(taught.to_json())
    assert again.kind == "dominoes" and np.array_equal(again.weights, taught.weights)
    names = sorted(json.loads((SHARED / "labels.json").read_text()))
    reads = [read_taught(cv2.imread(str(SHARED / "images" / n)), again) for n in names[1::3][:8]]
    assert sum(len(r.dominoes) for r in reads) > 0
    assert all(r.dice == () and r.d10 == () for r in reads)
    assert all(0 <= v <= 6 for r in reads for d in r.dominoes for v in d.halves)
    assert all(u.kind == "domino" for r in reads for u in r.unreadable)


@needs_shared
def test_an_untaught_head_reads_as_the_shipped_reader(taught):
    names = sorted(json.loads((SHARED / "labels.json").read_text()))
    frame = cv2.imread(str(SHARED / "images" / names[4]))
    cfg = json.loads((net.CONFIG).read_text())
    blank = dataclasses.replace(taught, weights=np.zeros_like(taught.weights), bias=np.zeros_like(taught.bias),
                                mean=np.zeros_like(taught.mean), head_threshold=cfg["face"]["threshold"],
                                detector_threshold=cfg["detector"]["half_threshold"])
    nets = load_nets(net.CONFIG)
    got = net.read_dominoes_net(frame, judge=judge_for(blank, nets), detector_threshold=blank.detector_threshold)
    shipped = net.read_dominoes_net(frame)
    assert shipped.dominoes and len(got.dominoes) == len(shipped.dominoes)
    for a, b in zip(got.dominoes, shipped.dominoes):  # the same reads
        assert (a.halves, a.center, a.box, a.angle) == (b.halves, b.center, b.box, b.angle)
        assert a.confidence == pytest.approx(b.confidence, abs=1e-4)  # log-probs clipped at 1e-6
    assert [u.center for u in got.unreadable] == [u.center for u in shipped.unreadable]


@needs_shared
def test_teach_dominoes_from_a_folder_writes_a_file_the_reader_takes(tmp_path, capsys):
    labels = json.loads((SHARED / "labels.json").read_text())
    names = sorted(labels)[::4][:10]
    folder = tmp_path / "set"
    (folder / "images").mkdir(parents=True)
    for n in names:
        (folder / "images" / n).write_bytes((SHARED / "images" / n).read_bytes())
    (folder / "labels.json").write_text(json.dumps({n: labels[n] for n in names}))
    out = tmp_path / "taught-dominoes.json"
    assert main(["teach", "dominoes", str(folder), "-o", str(out)]) == 0
    assert "taught dominoes from 10 photos" in capsys.readouterr().out
    assert json.loads(out.read_text())["kind"] == "dominoes"
    assert main(["read", "--taught", str(out), str(folder / "images" / names[0])]) == 0
    capsys.readouterr()
    labels[names[1]]["dominoes"][0]["halves"] = [3, 9]
    (folder / "labels.json").write_text(json.dumps({n: labels[n] for n in names}))
    out.unlink()
    assert main(["teach", "dominoes", str(folder), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert names[1] in err and "[3, 9]" in err and len(err.splitlines()) == 1 and not out.exists()
