"""tools/real_decks.py: its sheets cut into the right cards, and the renderer laying
out faces it did not draw. The Debian art it measures on is not needed here: the
sheets are made up."""

from __future__ import annotations

import numpy as np
import pytest

from table.rules.cards import RANKS
from tools import real_decks
from tools.render.cards import CARD_H, WIDTHS


def _sheet(card_w: int = 40, card_h: int = 62) -> np.ndarray:
    """A 13 x 5 sheet, BGRA: each card one flat colour naming its row and column, its
    top-left corner transparent (the rounded corners of a theme's cards)."""
    sheet = np.zeros((5 * card_h, 13 * card_w, 4), np.uint8)
    for row in range(5):
        for column in range(13):
            cell = sheet[row * card_h:(row + 1) * card_h, column * card_w:(column + 1) * card_w]
            cell[:] = (10 * column, 40 * row, 200, 255)
            cell[:4, :4, 3] = 0
    return sheet


def test_a_sheet_is_cut_into_its_52_cards_by_rank_across_and_suit_down():
    cards = real_decks.cut_sheet(_sheet())
    assert len(cards) == 52
    for (rank, suit), (face, alpha) in cards.items():
        assert face.shape == (CARD_H, WIDTHS["bridge"], 3) and alpha.shape == face.shape[:2]
        middle = face[CARD_H // 2, WIDTHS["bridge"] // 2]
        assert tuple(middle) == (10 * RANKS.index(rank), 40 * "CDHS".index(suit), 200)
        assert alpha[0, 0] == 0 and alpha[CARD_H // 2, WIDTHS["bridge"] // 2] == 255


def test_a_sheet_without_transparency_gives_opaque_cards():
    face, alpha = real_decks.cut_sheet(_sheet()[..., :3])["K", "S"]
    assert (alpha == 255).all()
    assert tuple(face[10, 10]) == (120, 120, 200)


def test_a_deck_deals_the_rank_asked_for_in_any_suit_and_only_in_its_own_shape():
    face, name = real_decks.deck_faces("made-up", real_decks.cut_sheet(_sheet()))(np.random.default_rng(0))
    assert name == "made-up"
    rng = np.random.default_rng(1)
    suits = {face(rng, "bridge", "7")[2]["suit"] for _ in range(40)}
    assert suits == set("CDHS")
    sprite, _, label = face(rng, "bridge", None)
    assert label["rank"] in RANKS
    assert tuple(sprite[5, 5]) == (10 * RANKS.index(label["rank"]), 40 * "CDHS".index(label["suit"]), 200)
    with pytest.raises(ValueError, match="bridge shape only"):
        face(rng, "poker", "7")


def test_the_renderer_lays_out_a_decks_cards_loose_and_fanned():
    faces = real_decks.deck_faces("made-up", real_decks.cut_sheet(_sheet()))
    (loose, label), = real_decks.scenes(faces, 1, seed=3, fans=False)
    assert loose.shape == (640, 640, 3)
    assert label["font"] == "made-up"
    assert len(label["cards"]) == 3
    (_, fan_label), = real_decks.scenes(faces, 1, seed=3, fans=True)
    assert 3 <= len(fan_label["cards"]) <= 5


def test_without_the_art_it_says_what_to_install_and_measures_nothing(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(real_decks, "THEMES", tmp_path / "absent")
    assert real_decks.main([]) == 0
    assert "apt-get install gnome-cards-data librsvg2-bin" in capsys.readouterr().out


def test_an_unknown_theme_is_a_usage_error(monkeypatch, tmp_path):
    monkeypatch.setattr(real_decks, "THEMES", tmp_path)
    monkeypatch.setattr(real_decks.shutil, "which", lambda name: f"/usr/bin/{name}")
    with pytest.raises(SystemExit) as stop:
        real_decks.main(["--decks", "no-such-deck"])
    assert stop.value.code == 2


def _outlined_card(rim: int) -> np.ndarray:
    """A white BGRA card 40 x 60 with a black line `rim` pixels wide round its edge and a
    black pip in the middle."""
    card = np.full((60, 40, 4), 255, np.uint8)
    card[:rim, :, :3] = card[-rim:, :, :3] = card[:, :rim, :3] = card[:, -rim:, :3] = 0
    card[25:35, 15:25, :3] = 0
    return card


def test_the_line_drawn_round_a_themes_card_is_peeled_off_and_nothing_inside_it():
    for rim in (2, 5):
        peeled = real_decks.without_outline(_outlined_card(rim))
        alpha = peeled[..., 3]
        assert (alpha[:rim] == 0).all() and (alpha[:, :rim] == 0).all() and (alpha[-rim:] == 0).all()
        assert (alpha[rim:-rim, rim:-rim] == 255).all()  # the pip too: it is not on the rim
        assert (peeled[..., :3] == _outlined_card(rim)[..., :3]).all()


def test_a_card_with_no_outline_or_no_alpha_is_left_as_it_is():
    plain = np.full((60, 40, 4), 255, np.uint8)
    plain[25:35, 15:25, :3] = 0
    assert (real_decks.without_outline(plain) == plain).all()
    opaque = _outlined_card(2)[..., :3]
    assert real_decks.without_outline(opaque) is opaque
