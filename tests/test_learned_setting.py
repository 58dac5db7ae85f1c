"""`[table] learned`: the kinds the appliance reads with a learned reader in place of
the shipped one; refused for a kind with none, recorded in a session and said by doctor."""

import numpy as np
import pytest

from table.reads import TableRead
from tabletop21 import doctor
from tabletop21.appliance import table_reader
from tabletop21.settings import ApplianceConfig, ConfigError, TableConfig, load_config
from vision.read import OTHER_READERS, READERS


def test_the_setting_reads_as_a_list_of_kinds(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text('[table]\nlearned = ["cards"]\n')
    assert load_config(path).table.learned == ("cards",)


def test_a_kind_with_no_learned_reader_is_refused_in_one_line(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text('[table]\nlearned = ["chips"]\n')
    with pytest.raises(ConfigError, match="'chips' has no learned reader"):
        load_config(path)


def test_the_learned_reader_reads_its_kind_and_the_others_stay_shipped(monkeypatch):
    calls = []

    def spy(name):
        def read(frame, calibration=None):
            calls.append(name)
            return TableRead()
        return read

    monkeypatch.setitem(OTHER_READERS, "cards-net", spy("cards-net"))
    monkeypatch.setitem(READERS, "cards", spy("cards"))
    monkeypatch.setitem(READERS, "dice", spy("dice"))
    frame = np.full((120, 160, 3), 90, np.uint8)
    table_reader(("dice", "cards"), learned=("cards",))(frame)
    assert sorted(calls) == ["cards-net", "dice"]
    calls.clear()
    table_reader(("dice", "cards"))(frame)
    assert sorted(calls) == ["cards", "dice"]


def test_doctor_says_which_kinds_the_learned_readers_read(tmp_path):
    none = doctor.check_learned(ApplianceConfig(table=TableConfig()))
    assert none.ok and "none" in none.says
    cards = doctor.check_learned(ApplianceConfig(table=TableConfig(learned=("cards",))))
    assert cards.ok and "cards read by the learned reader" in cards.says
