"""Teaching the table your domino tiles at the table (`tabletop21 teach dominoes`
without a folder): the owner lays the set out a few tiles at a time, the table reads
each picture, and the owner confirms or corrects each tile; the tiles of the set not
shown yet are offered first, a picture cannot give two tiles the same halves, and the
pictures kept teach the learned domino reader.

The check is pure and tested alone; the end-to-end run uses the devices `run` opens (a
recorded session of the rendered domino fixtures as the camera, MockFactory pins as the
buttons, SDL's dummy display)."""

import json
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from table.errors import TableError
from table.reads import Domino, TableRead, Unreadable
from tabletop21.corrections import DOUBLE_SIX, keep_example, parse_values
from tabletop21.evaluate import load_labels
from tabletop21.rollcheck import NO_DIE, RollCheck
from tabletop21.settings import load_config
from tabletop21.taught import examples_from_folder, load_taught
from tabletop21.teaching import TableTeaching, check_screen, check_words, teaching_at_table, tiles_in
from tests.test_appliance import ScriptedCamera
from tests.test_teach_at_table import Owner, StillSettle, photo_session, table_settings

REPO = Path(__file__).resolve().parents[1]
RENDERED = REPO / "calibration_images" / "dominoes"


def tile(halves, x, y, w=40.0, h=20.0):
    return Domino(halves, (x + w / 2, y + h / 2), (x, y, x + w, y + h), 0.0, 0.9)


def two_tiles_and_a_refusal(proposed=()) -> RollCheck:
    read = TableRead(dominoes=(tile((5, 2), 100, 10), tile((0, 0), 10, 10)),
                     unreadable=(Unreadable("domino", (60.0, 80.0), "half hidden", (40.0, 70.0, 80.0, 90.0)),
                                 Unreadable("die", (300.0, 300.0), "too blurred")))
    return RollCheck.of_read("dominoes", read, frame_size=(400, 300), proposed=proposed)


def test_a_read_of_tiles_is_checked_in_order_with_halves_low_first_and_only_domino_refusals():
    check = two_tiles_and_a_refusal()
    assert check.boxes == ((10.0, 10.0, 50.0, 30.0), (100.0, 10.0, 140.0, 30.0), (40.0, 70.0, 80.0, 90.0))
    assert check.values == ((0, 0), (2, 5), None) and check.labels() == ("0-0", "2-5", "?")
    assert check.one == "tile" and "Tile 1 of 3: 0-0" in check_words(check)
    assert "tile 3 was not read" in check.confirm()[0].message


def test_shake_offers_the_tiles_not_shown_yet_first_then_every_other_tile_then_no_tile():
    check = two_tiles_and_a_refusal(proposed=((1, 3), (0, 0), (4, 6)))
    unread = check.next().next()
    seen = [unread.cycle().values[2], unread.cycle().cycle().values[2]]
    assert seen == [(1, 3), (4, 6)], "0-0 is proposed but already given to tile 1 of this picture"
    order = unread.order()
    assert order[:3] == ((1, 3), (4, 6), (0, 1)) and order[-1] == NO_DIE and len(order) == len(DOUBLE_SIX) + 1 - 2
    assert set(order[:-1]) == set(DOUBLE_SIX) - {(0, 0), (2, 5)}, "every tile not given to another tile here"
    last = unread.set_value(2, (6, 6)).cycle()
    assert last.values[2] == NO_DIE and last.labels()[2] == "no tile"
    assert last.cycle().values[2] == (1, 3), "after no tile, the first proposal again"


def test_two_tiles_given_the_same_halves_are_not_kept_and_the_second_is_selected():
    check = two_tiles_and_a_refusal().set_value(2, (2, 5))
    held, kept = check.confirm()
    assert kept is None and held.selected == 2 and "tiles 2 and 3 are both 2-5" in held.message
    done, kept = check.set_value(2, (3, 3)).confirm()
    assert kept == ((0, 0), (2, 5), (3, 3)) and done.message == ""


@pytest.mark.parametrize("typed, values", [("3-5", ((3, 5), (2, 5), None)), ("53", ((3, 5), (2, 5), None)),
                                           ("6|6 x 1/4", ((6, 6), NO_DIE, (1, 4)))])
def test_tiles_are_typed_as_their_two_halves(typed, values):
    assert two_tiles_and_a_refusal().typed(typed).values == values


@pytest.mark.parametrize("bad, words", [("7-1", "'7-1' is no tile's value"), ("5", "'5' is no tile's value"),
                                        ("3-4 2-2", "type 3 values")])
def test_a_tile_no_double_six_set_holds_is_refused_in_words_and_changes_nothing(bad, words):
    check = two_tiles_and_a_refusal()
    typed = check.typed(bad)
    assert words in typed.message and typed.values == check.values
    with pytest.raises(TableError, match="no tile's value"):
        check.set_value(0, (0, 7))
    with pytest.raises(TableError, match="halves of 0 to 6"):
        parse_values("9-9", 1, "dominoes")


def test_an_added_tile_is_a_square_as_long_as_the_other_tiles_else_two_dice():
    check = two_tiles_and_a_refusal().add((300.0, 200.0))
    box = check.boxes[check.selected]
    assert box == (280.0, 180.0, 320.0, 220.0) and check.values[check.selected] is None
    assert "Tile 4 added" in check.message
    alone = RollCheck("dominoes", (), (), (), frame_size=(400, 300), die_side=15.0).add((100.0, 100.0))
    assert alone.boxes == ((85.0, 85.0, 115.0, 115.0),)


def test_kept_tiles_are_written_as_halves_and_read_back_by_teaching(tmp_path):
    import cv2
    import numpy as np

    folder = tmp_path / "teach-dominoes"
    frame = np.full((60, 90, 3), 200, np.uint8)
    ok, data = cv2.imencode(".jpg", frame)
    assert ok
    keep_example(folder, "a.jpg", lambda path: path.write_bytes(data.tobytes()),
                 ((1.0, 2.0, 41.0, 22.0), (50.0, 2.0, 90.0, 22.0)), ((2, 5), None), "dominoes")
    assert load_labels(folder)["a.jpg"] == {"dominoes": [{"halves": [2, 5], "box": [1.0, 2.0, 41.0, 22.0]}]}
    assert tiles_in(folder) == {(2, 5)}
    (example,) = examples_from_folder("dominoes", folder)
    assert [value for value, _ in example.dice] == [(2, 5)]
    with pytest.raises(TableError, match="no tile's value"):
        keep_example(folder, "b.jpg", lambda path: path.write_bytes(b""), ((0.0, 0.0, 9.0, 9.0),), ((3, 8),),
                     "dominoes")
    assert sorted(load_labels(folder)) == ["a.jpg"] and not (folder / "images" / "b.jpg").exists()


def tiles_reader(tiles):
    def read(image):
        return TableRead(dominoes=tuple(tile(halves, 5.0 + 50 * i, 10.0) for i, halves in enumerate(tiles)))
    return read


def test_at_the_table_each_picture_offers_the_tiles_still_to_show_and_the_screen_counts_the_set(tmp_path):
    folder, settle = tmp_path / "teach-dominoes", StillSettle()
    reads = iter([((0, 0), (1, 2)), ((1, 2), (3, 3))])
    teacher = TableTeaching("dominoes", ScriptedCamera(), settle, lambda image: tiles_reader(next(reads))(image),
                            folder=folder, teach=lambda: "taught", rolls=5)
    assert "Lay some tiles of your set face up on the table, then press NEXT" in teacher.screen().message
    assert teacher.screen().title == "TEACH THE TABLE YOUR DOMINO TILES - PICTURE 1 OF 5"
    assert "0 of 28 tiles shown" in teacher.screen().side
    for picture in (1, 2):
        settle.roll()
        teacher.tick(presses=["next"])
        for _ in range(6):
            teacher.tick()
        assert teacher.phase == "check"
        screen = teacher.screen()
        assert screen.next == "next tile" and ("keep", "KEEP PICTURE") in screen.targets
        if picture == 1:
            assert teacher.check.proposed == DOUBLE_SIX
            teacher.tick(touched=["keep"])
            assert teacher.message == "Picture 1 kept (2 tiles; 2 of 28 tiles shown; still to show: 0-1 0-2 0-3 " \
                                      "0-4 0-5 0-6 1-1 1-3 ...)"
        else:
            assert (0, 0) not in teacher.check.proposed and (1, 2) not in teacher.check.proposed
            assert teacher.check.proposed[0] == (0, 1) and len(teacher.check.proposed) == 26
            teacher.tick(presses=["next", "shake"])  # the 3-3 was a 3-4
            assert teacher.check.values == ((1, 2), (3, 4))
            teacher.tick(touched=["keep"])
    assert teacher.kept == 2 and teacher.shown == {(0, 0), (1, 2), (3, 4)}
    again = TableTeaching("dominoes", ScriptedCamera(), settle, tiles_reader(()), folder=folder,
                          teach=lambda: "taught")
    assert again.shown == teacher.shown, "a later sitting counts the tiles kept in the folder before"
    assert "3 of 28 tiles shown" in again.screen().side


def test_the_whole_set_shown_is_said_and_a_picture_with_no_tile_asks_to_lay_them_out_again(tmp_path):
    folder = tmp_path / "teach-dominoes"
    keep_example(folder, "all.jpg", lambda path: path.write_bytes(b"jpeg"),
                 tuple((float(n), 0.0, n + 1.0, 1.0) for n in range(28)), DOUBLE_SIX, "dominoes")
    settle = StillSettle()
    teacher = TableTeaching("dominoes", ScriptedCamera(), settle, tiles_reader(()), folder=folder,
                            teach=lambda: "taught")
    assert "The whole set of 28 shown" in teacher.screen().side and teacher.to_show() == ()
    settle.roll()
    teacher.tick(presses=["next"])
    for _ in range(6):
        teacher.tick()
    assert teacher.phase == "roll" and "No tile found in the picture: lay them out again" in teacher.message
    assert "face up" in teacher.message


def test_teaching_dominoes_at_the_table_keeps_each_picture_and_names_the_taught_file(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    labels = json.loads((RENDERED / "labels.json").read_text())
    names = [name for name in sorted(labels) if len(labels[name]["dominoes"]) >= 3][:3]
    images = photo_session(tmp_path / "camera", RENDERED, names)
    settings = table_settings(tmp_path, str(tmp_path / "camera"), rolls=3)
    factory = MockFactory()
    said: list[str] = []
    try:
        with teaching_at_table("dominoes", str(settings), pin_factory=factory, say=said.append) as opened:
            owner = Owner(opened, factory, load_config(settings).gpio)
            teacher = owner.teacher
            owner.tick()
            assert "Lay some tiles" in teacher.screen().message and teacher.folder == home / "tabletop21" / \
                "teach-dominoes"
            given = []
            for _ in names:
                owner.press(owner.next)
                owner.until(lambda: teacher.phase == "check")
                shown = teacher.picture.astype(int)
                which = min(range(len(images)), key=lambda n: abs(shown - images[n].astype(int)).mean())
                truth = labels[names[which]]["dominoes"]
                wanted = []
                for number, box in enumerate(teacher.check.boxes):
                    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
                    value = next((tuple(sorted(t["halves"])) for t in truth
                                  if t["box"][0] <= x <= t["box"][2] and t["box"][1] <= y <= t["box"][3]), NO_DIE)
                    for _ in range(len(DOUBLE_SIX) + 1):
                        if teacher.check.values[number] == value:
                            break
                        owner.press(owner.shake)
                    assert teacher.check.values[number] == value
                    wanted.append(value)
                    owner.press(owner.next)
                kept = teacher.kept
                owner.hold(owner.next)
                assert teacher.kept == kept + 1, teacher.screen().message
                given.append(sorted(v for v in wanted if v != NO_DIE))
            owner.until(lambda: teacher.phase == "done", limit=5)
            owner.press(owner.next)
            assert teacher.finished
    finally:
        factory.reset()
    out = home / "tabletop21" / "taught-dominoes.json"
    taught = load_taught(out)
    assert taught.kind == "dominoes" and taught.taught_on["photos"] == len(names)
    assert load_config(settings).table.taught == str(out)
    kept = load_labels(home / "tabletop21" / "teach-dominoes")
    assert sorted(sorted(tuple(t["halves"]) for t in entry["dominoes"]) for entry in kept.values()) == sorted(given)
    assert f"tiles) in {home / 'tabletop21' / 'teach-dominoes'}, written to {out}" in teacher.done


def test_the_check_screen_of_tiles_says_tiles(tmp_path):
    check = two_tiles_and_a_refusal()
    screen = check_screen(check, title="T", message="m", side="s", targets=(), frame_size=(400, 300))
    assert screen.labels == ("0-0", "2-5", "?") and screen.next == "next tile" and screen.unread == (False, False, True)


def test_a_corrected_domino_round_is_kept_under_its_kind_for_the_next_teaching(tmp_path):
    import numpy as np

    from tabletop21.teaching import Correction, Corrections

    check = two_tiles_and_a_refusal().set_value(2, (4, 4)).next().cycle()  # the 2-5 was not that: the next tile
    corrections = Corrections({"dominoes": tmp_path / "teach-dominoes"})
    correction = Correction(check, np.full((300, 400, 3), 120, np.uint8), 3)
    screen = corrections.screen(correction)
    assert screen.title == "ROUND 3 - CORRECT THE DOMINO TILES" and "SHAKE: the selected tile's next value" in screen.side
    folder, name = corrections.keep(correction, check.confirm()[1])
    assert folder == tmp_path / "teach-dominoes" and name.startswith("round3-")
    (example,) = examples_from_folder("dominoes", folder)
    assert [value for value, _ in example.dice] == [(0, 0), (2, 6), (4, 4)]


def test_replay_correct_goes_through_a_domino_session_and_keeps_tiles_for_teach_dominoes(tmp_path, monkeypatch,
                                                                                          capsys):
    from tabletop21.cli import main

    session = REPO / "calibration_images" / "sessions" / "domino21"
    answers = iter(["", "9-9 2-5", "4-4 4-4", "4|4 5-2", "s"] + ["s"] * 50)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert main(["replay", str(session), "--correct"]) == 0
    out = capsys.readouterr().out
    folder = tmp_path / "home" / "tabletop21" / "teach-dominoes"
    assert "picture 1 (" in out and "read 4-4, tiles at" in out
    assert "'9-9' is no tile's value" in out
    assert "two tiles are given 4-4: a set has each tile once" in out
    assert f"2 pictures kept in {folder}: teach with `tabletop21 teach dominoes {folder} -o FILE`" in out
    kept = load_labels(folder)
    assert sorted(sorted(tuple(t["halves"]) for t in entry["dominoes"]) for entry in kept.values()) == \
        [[(2, 5), (4, 4)], [(4, 4)]], "as read, then corrected"
