"""An --auto session of Domino 21 ends when nobody can bet, instead of dealing empty rounds."""

import re

from tabletop21.cli import main


def test_auto_session_ends_when_no_seat_can_bank_for_the_rest(capsys):
    assert main(["play", "domino21", "--players", "4", "--chips", "7", "--auto", "--rounds", "50", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    # three players at the lowest price need 3 x 4 = 12 chips of cover; nobody has more than 7
    assert "Nobody can place a bet the table can cover" in out and "After 0 round(s)" in out
    assert re.findall(r"^\s+seat\d\s+(\d+)$", out, re.M) == ["7"] * 4


def test_auto_session_with_few_players_a_round_plays_on_past_the_first_banker(capsys):
    """From the second round the last round's next banker is named; auto bets made as if
    the round picked its own banker left him out, so a fourth seat at a table of at
    most two players made three players, and the session stopped on BadBet."""
    assert main(["play", "domino21", "--players", "4", "--auto", "--rounds", "12", "--seed", "1",
                 "--rule", "max_players=2"]) == 0
    out = capsys.readouterr().out
    assert "After 12 round(s)" in out
    assert sum(map(int, re.findall(r"^\s+seat\d\s+(\d+)$", out, re.M))) == 400
