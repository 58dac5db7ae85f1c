"""Terminal play as a person types it: each seat's bet is checked as soon as it is typed."""

import io
import re

from tabletop21.cli import main


def test_a_bet_over_the_bankroll_is_sent_back_to_that_seat_only(capsys, monkeypatch):
    typed = ["10", "200", "5 7:1", "5 1:2", "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(typed) + "\n"))
    assert main(["play", "dicey21", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "! seat2: bets of 200 chips but only 100 in the bankroll" in out
    assert "! seat2: each MATCH wager goes on a different spot 1 to 6" in out
    assert len(re.findall(r"seat1 \(100 chips\) bets:", out)) == 1  # seat1 is not asked again
    assert "seat1 [100 chips]: " in out  # the round opened with both bets after seat2 fixed his
