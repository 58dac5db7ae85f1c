"""Teaching the learned card reader (vision.teach_cards, kind "cards"): an index is taught
as the card it belongs to, a taught file names its kind and reads the cards of other
pictures of that deck without a wrong read, untaught heads read as the shipped reader,
and a card no deck holds is refused naming the photo."""

import dataclasses
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from tabletop21.cli import main
from tabletop21.taught import examples_from_folder
from vision.cards import net
from vision.cards.learned import read_cards_learned
from vision.dice_net import load_nets
from vision.read import taught_reader
from vision.teach import Example, Taught, TaughtError, read_taught, teach
from vision.teach_cards import owner, read_taught_cards

FIXTURES = Path(__file__).resolve().parents[1] / "calibration_images" / "cards"
GEOMETRY = load_nets(net.CONFIG).cfg["geometry"]


@pytest.fixture(scope="module")
def fixtures() -> list[Example]:
    return examples_from_folder("cards", FIXTURES)


@pytest.fixture(scope="module")
def taught(fixtures) -> Taught:
    return teach("cards", fixtures[0::2])


def _card_box(centre, down, height) -> tuple[float, float, float, float]:
    """The box of the card an index at `centre` facing `down` belongs to."""
    return net.card_place(centre, down, height, GEOMETRY, (2000, 2000))[1]


def test_an_index_is_taught_as_the_card_whose_middle_its_place_points_to():
    find = {"centre": (300.0, 300.0), "down": (0.0, 1.0), "height": 20.0}
    box = _card_box(find["centre"], find["down"], find["height"])
    assert owner(find, [box], GEOMETRY) == 0
    assert owner({**find, "centre": (50.0, 50.0)}, [box], GEOMETRY) is None, "on no card: taught as no index"
    shifted = (box[0] + 8, box[1] + 8, box[2] + 8, box[3] + 8)  # a card under it, a little down and right
    assert owner(find, [shifted, box], GEOMETRY) == -1, "two cards' middles as near: not taught"
    assert owner(find, [shifted, box], GEOMETRY, [0.001, 0.9].__getitem__) == 1, "the classifier breaks the tie"
    assert owner(find, [shifted, box], GEOMETRY, [0.2, 0.9].__getitem__) == -1, "not by enough"
    far = (box[0] - 200, box[1] - 200, box[2] + 10, box[3] + 10)  # a big card it lies on, its middle far
    assert owner(find, [far, box], GEOMETRY) == 1


def test_a_taught_card_reader_reads_the_other_pictures_of_the_deck_and_survives_its_file(fixtures, taught):
    assert taught.kind == "cards" and taught.taught_on["photos"] == 11 and taught.taught_on["indices"] > 50
    right = wrong = total = 0
    for ex in fixtures[1::2]:
        read = read_taught_cards(ex.frame, taught)
        total += len(ex.dice)
        for card in read.cards:
            holding = [label for label, (x0, y0, x1, y1) in ex.dice
                       if x0 <= card.center[0] <= x1 and y0 <= card.center[1] <= y1]
            if (card.rank, card.suit) in holding:
                right += 1
            else:
                wrong += 1
    assert wrong == 0 and right >= 0.85 * total, f"{right} right, {wrong} wrong of {total}"
    again = Taught.from_json(taught.to_json())
    frame = fixtures[1].frame
    assert read_taught(frame, again) == read_taught_cards(frame, taught)
    assert len(taught.to_json()) < 64_000


def test_untaught_heads_read_as_the_shipped_reader(fixtures, taught):
    blank = dataclasses.replace(taught, weights=np.zeros_like(taught.weights), bias=np.zeros_like(taught.bias),
                                head_threshold=0.9, keep_shipped=False, detector_threshold=0.3)
    for ex in fixtures[:6]:
        shipped, untaught = net.read_cards_net(ex.frame), read_taught_cards(ex.frame, blank)
        assert [(c.rank, c.suit, c.center) for c in untaught.cards] == [(c.rank, c.suit, c.center) for c in shipped.cards]
        assert [u.center for u in untaught.unreadable] == [u.center for u in shipped.unreadable]


def test_a_taught_card_reader_at_the_table_still_counts_the_backs(fixtures, taught):
    read = taught_reader(taught)
    backs = 0
    for ex in fixtures:
        ours, shipped = read(ex.frame), read_cards_learned(ex.frame)
        assert ours.face_down == shipped.face_down
        backs += len(ours.face_down)
    assert backs > 0, "the fixtures hold face-down cards"


@pytest.mark.parametrize("card, words", [(("1", "S"), r"\['1', 'S'\]"), (("10", "X"), r"\['10', 'X'\]"),
                                         (("K",), r"\['K'\]")])
def test_a_card_no_deck_holds_is_refused_naming_the_photo(card, words):
    frame = np.full((200, 200, 3), 120, np.uint8)
    good = [Example(f"p{i}.jpg", frame, ((("A", "S"), (50.0, 50.0, 150.0, 180.0)),)) for i in range(6)]
    with pytest.raises(TaughtError, match=rf"bad\.jpg: a card is labelled {words}, and a card is a rank"):
        teach("cards", [*good, Example("bad.jpg", frame, ((card, (50.0, 50.0, 150.0, 180.0)),))])


def test_too_few_cards_teach_nothing():
    frame = np.full((200, 200, 3), 120, np.uint8)
    with pytest.raises(TaughtError, match="too few labelled cards"):
        teach("cards", [Example("p.jpg", frame, ((("A", "S"), (50.0, 50.0, 150.0, 180.0)),))])


def _folder(tmp_path: Path, names: list[str], spoil=None) -> Path:
    folder = tmp_path / "deck"
    (folder / "images").mkdir(parents=True)
    labels = json.loads((FIXTURES / "labels.json").read_text())
    for name in names:
        shutil.copy(FIXTURES / "images" / name, folder / "images" / name)
    kept = {name: labels[name] for name in names}
    if spoil:
        spoil(kept)
    (folder / "labels.json").write_text(json.dumps(kept))
    return folder


def test_teach_cards_from_a_folder_writes_a_file_read_and_eval_take(tmp_path, capsys):
    names = sorted(json.loads((FIXTURES / "labels.json").read_text()))
    folder = _folder(tmp_path, names[:8])
    out = tmp_path / "taught-cards.json"
    assert main(["teach", "cards", str(folder), "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "taught cards from 8 photos" in said and out.is_file()
    assert json.loads(out.read_text())["kind"] == "cards"
    assert main(["read", "--taught", str(out), str(FIXTURES / "images" / names[10])]) == 0
    assert "card" in capsys.readouterr().out.lower()


def test_a_bad_card_label_is_one_line_naming_the_photo_and_teaches_nothing(tmp_path, capsys):
    names = sorted(json.loads((FIXTURES / "labels.json").read_text()))[:8]

    def spoil(labels):
        labels[names[3]]["cards"][0]["rank"] = "11"

    folder = _folder(tmp_path, names, spoil)
    out = tmp_path / "taught-cards.json"
    assert main(["teach", "cards", str(folder), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert names[3] in err and "one of A, 2, 3" in err and "'11'" in err and len(err.splitlines()) == 1
    assert not out.exists() and not list(tmp_path.glob("*.part"))


def test_teach_cards_at_the_table_with_no_camera_is_one_line_and_changes_nothing(tmp_path, monkeypatch, capsys):
    from hardware.frames import CameraLost
    from tabletop21.cli import build_parser
    from tests.test_teach_at_table import table_settings

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    settings = table_settings(tmp_path, "webcam", 15)
    before = settings.read_bytes()

    def no_camera(config):
        raise CameraLost("cannot open camera 0: is it plugged in and free?")

    build_parser()  # every command loaded first, as the dice test does
    monkeypatch.setattr("tabletop21.devices.open_source", no_camera)
    assert main(["teach", "cards", "--config", str(settings)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "the camera did not open (cannot open camera 0: is it plugged in and free?)" in err
    assert "nothing was kept or taught" in err and "not yet at the table" not in err
    assert settings.read_bytes() == before and not (tmp_path / "home").exists()


def test_the_bench_labels_a_composite_as_an_owner_labels_a_photo():
    from tools.card_net.teach_bench import example

    frame = np.zeros((100, 120, 3), np.uint8)
    quad = np.array([[10.0, 20.0], [50.0, 20.0], [50.0, 80.0], [10.0, 80.0]])
    cards = [{"rank": "Q", "suit": "S", "quad": quad}, {"rank": "", "suit": "", "quad": quad + 5},
             {"rank": "7", "suit": "D", "quad": quad + [90.0, 0.0]}]
    ex = example("scene", frame, cards)
    assert ex.dice == ((("Q", "S"), (10.0, 20.0, 50.0, 80.0)), (("7", "D"), (100.0, 20.0, 119.0, 80.0))), \
        "face down left out, a card across the edge cut to the frame"
