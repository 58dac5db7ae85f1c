from dataclasses import dataclass
from fractions import Fraction

import pytest

from table import serial
from table.rules.cards import Card
from vision.types import Die, TableRead, Unreadable


def test_round_trip_restores_tuples_and_nested_records():
    read = TableRead(
        dice=(Die(5, (10.0, 12.5), (1.0, 2.0, 3.0, 4.0), 0.98),),
        unreadable=(Unreadable("die", (3.0, 4.0), "cocked against the wall"),),
    )
    back = serial.loads(serial.dumps(read))
    assert back == read and isinstance(back.dice, tuple) and isinstance(back.dice[0].center, tuple)


def test_fractions_and_non_string_keys_survive():
    data = {Card("A", "S"): Fraction(1, 52), Card("10"): Fraction(4, 13)}
    assert serial.loads(serial.dumps(data)) == data


@dataclass
class Local:
    x: int = 1


@pytest.mark.parametrize(
    "text, words",
    [
        ('{"@type": "os:system", "x": 1}', "foreign type"),
        ('{"@type": "table.rules.cards:Nope"}', "unknown type"),
        ('{"@type": "table.rules.cards:Card", "rank": "Z"}', "rank"),
        ("{not json", "not JSON"),
    ],
)
def test_corrupt_records_fail_clearly(text, words):
    with pytest.raises(serial.CorruptRecord, match=words):
        serial.loads(text)


def test_unencodable_objects_are_refused():
    with pytest.raises(TypeError):
        serial.dumps(object())
