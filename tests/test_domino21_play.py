"""An --auto session of Domino 21 ends when nobody can bet, instead of dealing empty rounds."""

import re

from table.cli import main


def test_auto_session_ends_when_no_seat_can_bank_for_the_rest(capsys):
    assert main(["play", "domino21", "--players", "4", "--chips", "7", "--auto", "--rounds", "50", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    # three players at the lowest price need 3 x 4 = 12 chips of cover; nobody has more than 7
    assert "Nobody can place a bet the table can cover" in out and "After 0 round(s)" in out
    assert re.findall(r"^\s+seat\d\s+(\d+)$", out, re.M) == ["7"] * 4
