"""House rules chosen by name (a settings file's [rules] table, `--rule NAME=VALUE`):
every game's Settings field is reachable, typed text is read as the field's type,
and a wrong name or value is one clear TableError."""

import dataclasses

import pytest

from table.errors import TableError
from table.games import GAMES, engine, game


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_setting_of_every_game_can_be_chosen_by_name(game_id):
    defaults = engine(game_id).Settings()
    assert game(game_id).settings({}) == defaults
    for field in dataclasses.fields(defaults):
        value = getattr(defaults, field.name)
        assert getattr(game(game_id).settings({field.name: value}), field.name) == value
        assert getattr(game(game_id).settings({field.name: str(value)}), field.name) == value, "as typed text"


def test_typed_text_becomes_the_fields_type():
    chosen = game("dicey21").settings({"match_alone": "yes", "decks": " 8 ", "raise_after_hit": "off"})
    assert (chosen.match_alone, chosen.decks, chosen.raise_after_hit) == (True, 8, False)
    assert game("blackjack-dice").settings({"banker_one": "eleven"}).banker_one == "eleven"


@pytest.mark.parametrize("game_id, rules, words", [
    ("dicey21", {"banker_one": "eleven"}, "dicey21 has no rule 'banker_one'; its rules are: decks,"),
    ("dicey21", {"decks": "six"}, "rule decks is a whole number (default 6), not 'six'"),
    ("dicey21", {"decks": True}, "rule decks is a whole number"),
    ("dicey21", {"match_alone": 1}, "rule match_alone is yes or no (default False), not 1"),
    ("dicey21", {"decks": 0}, "dicey21 rules: a shoe needs a deck"),
    ("blackjack-dice", {"banker_one": "always"}, "banker_one is one of choose, eleven"),
    ("domino21", {"bank_over": "maybe"}, "rule bank_over is one of pays-match"),
    ("changing-bank", {"min_bet": 9}, "1 <= min_bet <= max_bet"),
    # a negative Blackjack payout took a winner's chips, overdrawing a player who staked all he had
    ("dice-blackjack", {"blackjack_pays": -3}, "blackjack_pays is a whole number of stakes, 0 or more, not -3"),
    ("blackjack-dice", {"blackjack_pays": "-1"}, "blackjack_pays is a whole number of stakes, 0 or more, not -1"),
    ("poker", {}, "unknown game 'poker'"),
])
def test_a_wrong_rule_is_a_clear_error(game_id, rules, words):
    with pytest.raises(TableError) as caught:
        game(game_id).settings(rules)
    assert words in str(caught.value)
