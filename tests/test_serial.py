import json
import re
from dataclasses import dataclass
from fractions import Fraction

import pytest

from table import serial
from table.reads import Die, TableRead, Unreadable
from table.rules.cards import Card


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


DIE = '{{"@type": "die", "value": {value}, "center": {center}, "box": [1, 2, 3, 4], ' \
      '"confidence": {confidence}}}'


@pytest.mark.parametrize(
    "text, words",
    [
        ('{"@type": "os:system", "x": 1}', "unknown record type 'os:system'"),
        ('{"@type": "table.rules.cards:Nope"}', "unknown record type"),
        ('{"@type": "card", "rank": "Z"}', "rank"),
        ("{not json", "not JSON"),
        ('{"@type": "press", "button": 5}', "button must be one of 'shake', 'next', 'confirm', not 5"),
        # Decoded without complaint before: a button, a motion word or a piece that cannot be.
        ('{"@type": "press", "button": "jump"}', "button must be one of .*, not 'jump'"),
        ('{"@type": "motion", "status": "dancing"}', "status must be one of 'rolling', .*, not 'dancing'"),
        (DIE.format(value=9, center="[1, 2]", confidence=1), "record does not decode: a d6 shows 1 to 6, not 9"),
        (DIE.format(value=3, center="[1, 2]", confidence=1.5), "record does not decode: .*confidence.*1.5"),
        (DIE.format(value=3, center="[1, 2]", confidence="NaN"), "record does not decode: .*confidence.*nan"),
        (DIE.format(value=3, center="[Infinity, 2]", confidence=1), "record does not decode: .*center.*inf"),
        (DIE.format(value=3, center="[1, 2]", confidence=1).replace('"die"', '"d10"').replace('"value": 3', '"value": 10'),
         "record does not decode: a d10 shows 0 to 9, not 10"),
        ('{"@type": "domino", "halves": [7, 1], "center": [1, 2], "box": [1, 2, 3, 4], "angle": 0, '
         '"confidence": 1}', "record does not decode: a tile half shows 0 to 6 pips, not 7"),
        ('{"@type": "card_read", "rank": "1", "suit": null, "center": [1, 2], "box": [1, 2, 3, 4], "angle": 0, '
         '"confidence": 1}', "record does not decode: no card has rank '1'"),
        ('{"@type": "die", "value": "x", "center": [1, 2], "box": [1, 2, 3, 4], "confidence": 1}',
         "value must be int, not 'x'"),
        ('{"@type": "die", "value": true, "center": [1, 2], "box": [1, 2, 3, 4], "confidence": 1}',
         "value must be int, not True"),
        ('{"@type": "die", "value": 3, "center": [1, 2, 3], "box": [1, 2, 3, 4], "confidence": 1}',
         "center must be tuple"),
        ('{"@type": "table_read", "dice": [{"@type": "press", "button": "shake"}]}',
         "dice must be tuple"),
        ('{"@type": "need", "kind": "dice", "count": null}', "count must be int, not None"),
        ('{"@type": "press", "button": "shake", "force": 3}', "no field 'force'.*newer"),
        ('{"@type": "need", "kind": "dice", "count": ' + "9" * 5000 + "}", "not JSON.*digits"),
        ("[" * 100_000 + "]" * 100_000, "not JSON.*recursion"),
    ],
)
def test_corrupt_records_fail_clearly(text, words):
    with pytest.raises(serial.CorruptRecord, match=words):
        serial.loads(text)


def test_unencodable_objects_are_refused():
    with pytest.raises(TypeError):
        serial.dumps(object())


def test_optional_and_nested_fields_load_when_they_fit():
    from table.driver import Driver
    from tabletop21.recording import Event

    driver = Driver("dicey21", ("ann",), 5, banker=None, seat_bets=(("ann", "10 3:5"),))
    assert serial.loads(serial.dumps(Event(1.5, "input", driver)), Event).data == driver
    assert serial.loads('{"@type": "driver", "game": "dicey21", "seats": ["a"], "bet": 5, '
                        '"banker": "a"}').banker == "a"
    with pytest.raises(serial.CorruptRecord, match=re.escape("banker must be str | None, not 3")):
        serial.loads('{"@type": "driver", "game": "dicey21", "seats": ["a"], "bet": 5, "banker": 3}')


@pytest.mark.parametrize("value", ["1e2000000000", "1E9", "0.5", " 1/2", "1" * 101, "1/" + "9" * 101, 3, None])
def test_a_fraction_not_written_as_n_or_n_over_d_is_refused_at_once(value):
    """Fraction("1e2000000000") worked out a two-billion-digit number: a replay hung for minutes."""
    import time

    started = time.perf_counter()
    with pytest.raises(serial.CorruptRecord, match="a fraction is written as N or N/D"):
        serial.loads(json.dumps({"@type": "fraction", "value": value}))
    assert time.perf_counter() - started < 1


def test_fractions_as_written_still_load():
    for value in (Fraction(1, 52), Fraction(-7, 3), Fraction(5), Fraction(10**90, 3)):
        assert serial.loads(serial.dumps(value)) == value
