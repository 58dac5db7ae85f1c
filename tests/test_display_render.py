"""render_screen / save_png: right size, deterministic for a given instant, the
results animation moves with t and settles, and the camera panel copes with a
missing or grey frame."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pygame
import pytest

from display import render_screen, save_png
from display.examples import all_views, example_frame
from display.render import draw_view
from table.view import Overlay
from tabletop21.bench.display import run as bench_run
from tabletop21.screenshots import main as screenshots_main
from vision.image_io import load_bgr

VIEWS = all_views()


def pixels(surface: pygame.Surface) -> np.ndarray:
    return pygame.surfarray.array3d(surface)


def texts_at(key: str, t: float, frame=None) -> list[str]:
    view = VIEWS[key]
    return [text.text for text in draw_view(pygame.Surface((800, 480)), view, frame, t)]


@pytest.mark.parametrize("size", ((800, 480), (1920, 1080)))
def test_render_screen_returns_a_surface_of_the_asked_size(size):
    assert render_screen(VIEWS["domino21/play"], size).get_size() == size


def test_save_png_writes_an_image_others_can_load(tmp_path):
    path = save_png(VIEWS["changing-bank/results"], (800, 480), tmp_path / "shots" / "results.png", t=2.0)
    image = load_bgr(path)
    assert image.shape == (480, 800, 3)
    assert image.std() > 20  # a real picture, not a blank fill


@pytest.mark.parametrize("key", ("dicey21/attract", "dicey21/play", "dicey21/results", "dicey21/stats"))
def test_a_name_pygame_cannot_draw_is_drawn_with_a_stand_in_not_a_crash(key):
    """JSON lets a damaged recording's manifest hold a NUL or half a surrogate pair in
    a seat's name, and a replay shows it; pygame refuses to draw either."""
    view = VIEWS[key]

    def hurt(name):
        return name[:1] + "\x00\ud800" + name[1:]

    damaged = replace(view, seats=tuple(replace(seat, name=hurt(seat.name)) for seat in view.seats),
                      results=tuple(replace(result, seat=hurt(result.seat)) for result in view.results),
                      stats=view.stats and replace(view.stats, histories=tuple(
                          replace(history, seat=hurt(history.seat)) for history in view.stats.histories)))
    drawn = " ".join(text.text for text in draw_view(pygame.Surface((800, 480)), damaged, t=2.0))
    assert "\ufffd" in drawn and "\x00" not in drawn


def test_the_same_instant_renders_the_same_pixels():
    view = VIEWS["dicey21/results"]
    assert np.array_equal(pixels(render_screen(view, (800, 480), t=0.4)), pixels(render_screen(view, (800, 480), t=0.4)))


def test_results_count_up_then_settle_on_the_payout():
    start, middle, settled = texts_at("dicey21/results", 0.0), texts_at("dicey21/results", 0.4), texts_at("dicey21/results", 2.0)
    assert "+30" not in start and "-20" not in start  # nothing counted yet
    assert "+30" not in middle and any(text.startswith("+") for text in middle)
    assert {"+30", "-20", "WIN", "BUST", "PUSH"} <= set(settled)
    later = pixels(render_screen(VIEWS["dicey21/results"], (800, 480), t=2.1))
    assert not np.array_equal(pixels(render_screen(VIEWS["dicey21/results"], (800, 480), t=2.0)), later)  # winners pulse


def test_outcomes_are_words_and_signs_not_colour_alone():
    settled = texts_at("changing-bank/results", 2.0)
    for word, figure in (("WIN", "+20"), ("LOSE", "-20"), ("BUST", "-5")):
        assert word in settled and figure in settled


def test_reading_screen_numbers_each_object_and_explains_unreadable_ones():
    view = VIEWS["blackjack-dice/reading"]
    texts = texts_at("blackjack-dice/reading", 0.0, example_frame(view))
    assert {"1", "2", "3?"} <= set(texts)
    assert "3? d10 ?: numeral face not up" in texts
    assert "Read 2, unsure 1" in texts


def test_rolling_is_announced_and_the_frame_is_drawn_under_it():
    view = VIEWS["dice-blackjack/reading"]
    frame = example_frame(view)
    texts = texts_at("dice-blackjack/reading", 0.5, frame)
    assert "ROLLING... wait" in texts and "Dice still rolling" in texts
    with_frame = pixels(render_screen(view, (800, 480), frame, t=0.5))
    without = pixels(render_screen(view, (800, 480), None, t=0.5))
    assert not np.array_equal(with_frame, without)


def test_camera_panel_takes_missing_grey_and_odd_sized_frames():
    view = VIEWS["domino21/reading"]
    assert "no camera image yet" in texts_at("domino21/reading", 0.0, None)
    grey = np.full((240, 320), 128, np.uint8)
    render_screen(view, (800, 480), grey)
    odd = replace(view, camera=replace(view.camera, overlays=view.camera.overlays + (Overlay((-50, -50, 9000, 9000), "card ?", True, "off the edge"),)))
    texts = [text.text for text in draw_view(pygame.Surface((800, 480)), odd, example_frame(view), 0.0)]
    assert "5? card ?: off the edge" in texts


def test_a_camera_view_with_no_size_or_a_box_without_a_place_still_draws():
    view = VIEWS["domino21/reading"]
    nowhere = replace(view.camera, overlays=view.camera.overlays + (Overlay((float("nan"), 0, 1, float("inf")), "tile ?"),))
    for camera in (replace(view.camera, frame_size=(0, 0)), nowhere):
        texts = [text.text for text in draw_view(pygame.Surface((800, 480)), replace(view, camera=camera),
                                                 example_frame(view), 0.0)]
        assert any(text.startswith("1 ") for text in texts)
    assert f"{len(nowhere.overlays)}  tile ?" in texts


def test_advisor_marks_the_best_action_in_words():
    texts = texts_at("dicey21/play", 0.0)
    assert "raise 3x +0.41 best" in texts
    hidden = replace(VIEWS["dicey21/play"], advisor=replace(VIEWS["dicey21/play"].advisor, visible=False))
    assert not any("Advisor" in text.text for text in draw_view(pygame.Surface((800, 480)), hidden, None, 0.0))


def test_whose_turn_is_shown_by_an_arrow_shape_not_only_colour():
    view = VIEWS["dice-blackjack/play"]
    nobody = replace(view, seats=tuple(replace(seat, is_turn=False) for seat in view.seats))

    def name_box(v):
        texts = draw_view(pygame.Surface((800, 480)), v, None, 0.0)
        return next(pygame.Rect(text.rect) for text in texts if text.text == "Dana")

    with_turn, without = name_box(view), name_box(nobody)
    assert with_turn.left > without.left + 8  # the name moved right to make room for the arrow
    surface = render_screen(view, (800, 480))
    arrow = surface.subsurface(pygame.Rect(without.left, with_turn.top, with_turn.left - without.left, with_turn.h))
    gold = np.abs(pixels(arrow).astype(int) - np.array([242, 196, 60])).sum(axis=2) < 10
    assert gold.mean() > 0.2  # a solid gold shape sits where the name used to start


def test_pay_table_lists_the_dicey21_rows():
    texts = texts_at("dicey21/paytable", 0.0)
    for hand, pays in (("Single", "1 : 1"), ("Double", "2 : 1"), ("Triple", "6 : 1"), ("Royal (triple + K/Q)", "20 : 1"), ("Quad (triple + card)", "40 : 1"), ("Hi-Five (triple + 2 cards)", "500 : 1"), ("16 - 18", "push"), ("21", "2 : 1")):
        assert hand in texts and pays in texts


def test_stats_legend_names_each_seat_with_final_bankroll():
    view = VIEWS["blackjack-dice/stats"]
    texts = texts_at("blackjack-dice/stats", 0.0)
    for history in view.stats.histories:
        change = history.bankrolls[-1] - history.bankrolls[0]
        assert f"{history.seat} {history.bankrolls[-1]} ({change:+d})" in texts


def test_bench_prints_a_figure_for_each_screen_size(capsys):
    class Args:
        frames = 1

    bench_run(Args())
    lines = capsys.readouterr().out.strip().splitlines()
    assert [line.split(":")[0] for line in lines] == ["display 800x480", "display 1920x1080"]
    assert all("ms/frame" in line for line in lines)


@pytest.mark.parametrize("size", ("abc", "0x0"))
def test_the_screenshot_script_refuses_a_size_in_words_and_writes_nothing(tmp_path, size, capsys):
    with pytest.raises(SystemExit) as stop:
        screenshots_main([str(tmp_path / "shots"), "--size", size])
    assert stop.value.code == 2 and f"--size {size!r}" in capsys.readouterr().err
    assert not (tmp_path / "shots").exists()


def test_the_screenshot_script_refuses_a_folder_it_cannot_make_in_words(tmp_path, capsys):
    (tmp_path / "taken").write_text("a file")
    with pytest.raises(SystemExit) as stop:
        screenshots_main([str(tmp_path / "taken" / "shots")])
    assert stop.value.code == 2 and f"{tmp_path}/taken/shots: cannot keep screenshots here" in capsys.readouterr().err


def test_the_advisor_strip_names_only_the_best_few_choices_so_each_fits():
    """A Dicey 21 raise offered six choices, drawn as "Advis... / no raise... / raise 5 +..."."""
    from dataclasses import replace

    import pygame

    from display import render_screen
    from display.examples import all_views
    from display.screens import ADVISOR_CHOICES
    from table.view import Advisor, AdvisorLine

    view = all_views()["dicey21/play"]
    lines = tuple(AdvisorLine(f"raise {5 * n}" if n else "no raise", 0.1 * n - 0.2) for n in range(7))
    crowded = replace(view, advisor=Advisor(view.advisor.seat, lines, visible=True))
    best_three = replace(view, advisor=Advisor(view.advisor.seat, lines[-ADVISOR_CHOICES:], visible=True))

    first = pygame.surfarray.array3d(render_screen(crowded, (800, 480), None, t=2.0))
    second = pygame.surfarray.array3d(render_screen(best_three, (800, 480), None, t=2.0))
    assert (first == second).all()
