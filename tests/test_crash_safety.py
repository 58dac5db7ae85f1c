"""Kill the process (SIGKILL, no clean-up) after every step of a recorded round, then
restart: no chip is ever lost, and the open round is resumed to the same result or
voided with every bet back."""

import os
import signal

import pytest

from tabletop21.appliance import Appliance, reopen_round
from tabletop21.recording import SessionReader
from tabletop21.replay import table_for
from tabletop21.store import BankrollStore
from tests.test_appliance import BANKROLLS, play_recorded_round

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork() to kill a real process")


def inputs_of(folder):
    reader = SessionReader(folder)
    return reader, [event.data for event in reader.events if event.kind == "input"]


def feed_all(store, reader, inputs, driver=None, round_id=None):
    table = table_for(reader)
    table.ledger = store.open_table(BANKROLLS, table.ledger.credit)
    if driver is not None:
        table.driver, table.round_id = driver, round_id
    appliance = Appliance(table, None, None, None, store=store)
    for event in inputs:
        appliance.feed(event)
    return appliance


def killed_after(folder, db, steps):
    pid = os.fork()
    if pid == 0:  # the child plays `steps` inputs, then dies as in a power cut
        try:
            store = BankrollStore(db)
            reader, inputs = inputs_of(folder)
            appliance = feed_all(store, reader, [])
            for event in inputs[:steps]:
                appliance.feed(event)
        finally:
            os.kill(os.getpid(), signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


def test_kill_at_every_step_then_resume_or_void(tmp_path):
    play_recorded_round(tmp_path / "session")
    reader, inputs = inputs_of(tmp_path / "session")
    whole = feed_all(BankrollStore(tmp_path / "whole.sqlite"), reader, inputs).table.ledger.as_dict()
    assert whole != BANKROLLS
    for steps in range(len(inputs) + 1):
        for choice in ("resume", "void"):
            db = tmp_path / f"kill{steps}{choice}.sqlite"
            killed_after(tmp_path / "session", db, steps)
            store = BankrollStore(db)
            ledger = store.ledger()
            assert ledger.total == sum(BANKROLLS.values())
            assert ledger.as_dict() in (BANKROLLS, whole)
            pending = store.unfinished()
            start = table_for(reader).driver
            reopened = reopen_round(store, start, choice)
            driver, round_id = reopened.driver, reopened.round_id
            if pending is None:
                continue
            assert store.ledger().as_dict() == BANKROLLS, "an open round has moved no chip yet"
            if choice == "void":
                assert store.unfinished() is None and round_id is None
            else:
                finished = feed_all(store, reader, inputs[steps:], driver, round_id)
                assert finished.table.ledger.as_dict() == whole
                assert store.unfinished() is None
