import re

import pytest

from tabletop21.settings import SHORTEST_HOLD, ConfigError, load_config


def test_defaults_work_without_a_file():
    config = load_config(None)
    assert config.table.game == "dicey21" and config.gpio.enabled is False


def test_seats_may_bet_their_own_way(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text('[table]\nseats = ["Ann", "Ben"]\n[table.bets]\nAnn = "10 3:5"\n')
    assert load_config(path).table.bets == {"Ann": "10 3:5"}


def test_a_file_overrides_fields(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text('[table]\ngame = "domino21"\nseats = ["a", "b", "c"]\n[gpio]\nenabled = true\nshake = 4\n'
                    '[gpio.leds]\nready = 5\nwin = 6\n')
    config = load_config(path)
    assert config.table.seats == ("a", "b", "c") and config.gpio.shake == 4
    assert config.gpio.leds == {"ready": 5, "win": 6}


@pytest.mark.parametrize("size", [(64, 48), (8192, 8192), (640, 480), (4056, 3040)])
def test_every_camera_size_in_the_range_is_taken(tmp_path, size):
    path = tmp_path / "t.toml"
    path.write_text(f"[camera]\nwidth = {size[0]}\nheight = {size[1]}\n")
    camera = load_config(path).camera
    assert (camera.width, camera.height) == size


def test_the_shortest_hold_of_next_is_taken(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(f"[gpio]\nhold_time = {SHORTEST_HOLD}\n")
    assert load_config(path).gpio.hold_time == SHORTEST_HOLD == 0.3


def test_a_settings_path_that_is_a_folder_is_explained(tmp_path):
    with pytest.raises(ConfigError, match=f"{tmp_path}: cannot read the settings file"):
        load_config(tmp_path)


def test_house_rules_are_chosen_in_a_rules_table(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text('[table]\ngame = "dice-blackjack"\n[rules]\nmax_bet = 50\nshort_banker = "refuse"\n')
    assert load_config(path).rules == {"max_bet": 50, "short_banker": "refuse"}


@pytest.mark.parametrize(
    "text, words",
    [
        ("[table\n", "not valid TOML"),
        ('[table]\ngame = "poker"\n', "not one of"),
        ("[table]\nchips = \"lots\"\n", "chips must be int"),
        # Passed here (and so in `doctor`), then `run` refused it when the bankroll file opened.
        ("[table]\nchips = 9223372036854775808\n", r"\[table\] chips: .*more chips than a bankroll file holds"),
        ("[gpio]\nshake = 5\n", "share a pin"),
        ("[gpio]\ncolour = 1\n", "no setting 'colour'"),
        ("[lights]\n", "unknown section"),
        ('[input]\ncards = "psychic"\n', "typed"),
        ('[table.bets]\n"Seat 1" = "10 3:x"\n', "Seat 1"),
        ('[table.bets]\nNobody = "10"\n', "not one of the seats"),
        ('[table.bets]\n"Seat 1" = 10\n', r"\[table.bets\] Seat 1: a bet is text such as \"10\", not 10"),
        ('[table]\nseats = ["Ann", "B\\u0000b"]\n', "'B\\\\x00b' is not a name"),
        ('[table]\nseats = ["Ann", "  "]\n', "not a name"),
        ('[table]\nseats = ["Ann", 2]\n', "2 is not a name"),
        ("[gpio.leds]\nready = 99\n", "leds.ready = 99: .*BCM pins 2 to 27"),
        ("[gpio]\nshake = 1\n", "shake = 1"),
        ('[gpio.leds]\nready = "5"\n', "leds.ready = '5'"),
        ("[gpio]\nhold_time = -1\n", r"\[gpio\] hold_time = -1.0: .*seconds, 0.3 or more"),  # was "add the user to 'gpio'"
        # Were taken: every quick press of NEXT then confirmed the highlighted choice.
        ("[gpio]\nhold_time = 0\n", r"\[gpio\] hold_time = 0.0: .*0.3 or more; a shorter hold takes a quick press"),
        ("[gpio]\nhold_time = 0.29\n", r"\[gpio\] hold_time = 0.29: "),
        ("[gpio]\nhold_time = inf\n", r"\[gpio\] hold_time = inf: "),
        ("[gpio]\nbounce_time = -0.1\n", r"\[gpio\] bounce_time = -0.1: a time in seconds, 0 or more"),
        ("[gpio]\nbounce_time = nan\n", r"\[gpio\] bounce_time = nan: "),
        ("[rules]\ncolour = 1\n", r"t\.toml: \[rules\] dicey21 has no rule 'colour'; its rules are: decks"),
        ('[rules]\ndecks = "many"\n', r"t\.toml: \[rules\] rule decks is a whole number \(default 6\), not 'many'"),
        ("[rules]\ndecks = 0\n", r"t\.toml: \[rules\] dicey21 rules: "),
        ("rules = 5\n", r"\[rules\] must be a table"),
        # Were "the display did not start (Window is too large.)", with advice about SDL
        # drivers, or a window too small to show a thing.
        ("[display]\nwidth = -5\n", r"\[display\] width and height -5x480: a screen from 320x240 to 7680x4320"),
        ("[display]\nwidth = 40000\nheight = 30000\n", r"\[display\] width and height 40000x30000: a screen"),
        ("[display]\nwidth = 1\nheight = 1\n", r"\[display\] width and height 1x1: a screen"),
        ("[display]\nwidth = 0\nheight = 0\n", r"\[display\] width and height 0x0: a screen"),
        # Were taken, and the camera was asked for frames it cannot give.
        ("[camera]\nwidth = 0\n", r"\[camera\] width and height 0x720: a camera frame from 64x48 to 8192x8192"),
        ("[camera]\nheight = -5\n", r"\[camera\] width and height 1280x-5: a camera frame from 64x48"),
        ("[camera]\nwidth = 100000\n", r"\[camera\] width and height 100000x720: a camera frame"),
        ("[camera]\nwidth = 63\nheight = 48\n", r"\[camera\] width and height 63x48: a camera frame"),
        ("[camera]\nwidth = 8192\nheight = 8193\n", r"\[camera\] width and height 8192x8193: a camera frame"),
    ],
)
def test_bad_settings_are_explained(tmp_path, text, words):
    path = tmp_path / "t.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=words):
        load_config(path)


@pytest.mark.parametrize("body, words", [
    ('[table]\nbet = 101\n', "these settings can never deal a round: no seat can cover its bet"),
    ('[table]\ngame = "dice-blackjack"\nseats = ["Ann"]\n', "the table seats 2 or more players"),
    ('[table]\nchips = 9223372036854775807\n', "at most 1,000,000,000 chips a seat"),
    ('[table]\nseats = ["Ann", "Ben"]\n[table.bets]\nAnn = "200"\n', "Ann could never play"),
])
def test_settings_that_can_never_deal_are_refused_when_loaded(tmp_path, body, words):
    """They passed the settings check and then never dealt a round at the table."""
    from tabletop21.settings import ConfigError, load_config

    path = tmp_path / "table.toml"
    path.write_text(body)
    with pytest.raises(ConfigError, match=re.escape(words)):
        load_config(path)


def test_the_laptop_settings_file_loads_and_names_a_bundled_session():
    from pathlib import Path

    from tabletop21.settings import load_config

    root = Path(__file__).resolve().parents[1]
    config = load_config(root / "docs" / "deploy" / "laptop.toml")
    assert (root / config.camera.source / "manifest.json").is_file() and not config.gpio.enabled
