"""The appliance's settings file (TOML): which game, which camera, which pins.

Every field has a default that works on a laptop, so a missing file is fine and a
wrong one is explained field by field instead of failing somewhere later."""

from __future__ import annotations

import json
import math
import os
import re
import tomllib
import unicodedata
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from table.driver import BETS_ARE_SET, house_account
from table.errors import BadBet, TableError
from table.games import GAMES, game
from table.ledger import Ledger
from table.pieces import PieceKind, kind_of_reader


class ConfigError(TableError):
    """The settings file is unreadable or holds a value that cannot work."""


@dataclass(frozen=True)
class TableConfig:
    game: str = "dicey21"
    seats: tuple[str, ...] = ("Seat 1", "Seat 2")
    chips: int = 100
    bet: int = 5
    bets: dict[str, str] = field(default_factory=dict)  # a seat's own bet, e.g. {"Ann" = "10 3:5"}
    store: str = "~/.local/share/tabletop21/bankrolls.sqlite"
    sessions: str = "~/.local/share/tabletop21/sessions"
    # At every start the oldest recordings are removed until the sessions folder holds at
    # most this many MiB (10 minutes of play record about 150 MB); 0 keeps every one.
    keep_sessions_mb: int = 2000
    calibration: str = ""
    # A taught dice reader (`tabletop21 teach dice DIR -o FILE`) read in place of the
    # shipped one; empty: the shipped reader.
    taught: str = ""
    # Kinds read by their learned reader (vision.read.OTHER_READERS "<kind>-net") in place
    # of the shipped one, e.g. ["cards"]: docs/vision-cards-d10.md for the figures.
    learned: tuple[str, ...] = ()


# [camera] sources whose frames are the size the settings ask for; a recorded
# session's frames are the size they were recorded at.
LIVE_CAMERAS = ("picamera", "webcam")


@dataclass(frozen=True)
class CameraConfig:
    source: str = "webcam"  # "picamera", "webcam" or a recorded session folder
    device: int = 0
    width: int = 1280
    height: int = 720


@dataclass(frozen=True)
class GpioConfig:
    enabled: bool = False
    shake: int = 17
    next: int = 27
    bounce_time: float = 0.05
    hold_time: float = 1.0
    leds: dict[str, int] = field(default_factory=lambda: {
        "ready": 5, "reading": 6, "win": 13, "lose": 19, "error": 26})


@dataclass(frozen=True)
class InputConfig:
    """How each piece gets to the table, by its reader's name: "camera" (read off the
    table), "typed" (a person types it) or "dealt" (the table deals the card or rolls the
    d10 itself, from its own shoe, pack or die, and shows it on screen)."""

    cards: str = "typed"
    d10: str = "typed"
    dominoes: str = "camera"

    def typed_kinds(self) -> tuple[PieceKind, ...]:
        """The pieces people type in, not the camera."""
        return tuple(kind_of_reader(f.name) for f in fields(self) if getattr(self, f.name) == "typed")

    def dealt_kinds(self) -> tuple[PieceKind, ...]:
        """The pieces the table deals or rolls itself."""
        return tuple(kind_of_reader(f.name) for f in fields(self) if getattr(self, f.name) == "dealt")


@dataclass(frozen=True)
class DisplayConfig:
    width: int = 800
    height: int = 480
    fullscreen: bool = False
    advisor: bool = False  # show each choice's expected value while a seat decides


MOST_TEACHING_ROLLS = 200  # the most photos `teach` takes from a folder (tabletop21.taught.MOST_PHOTOS)


@dataclass(frozen=True)
class TeachConfig:
    """Teaching the table your dice at the table (`tabletop21 teach dice` without a folder)."""

    rolls: int = 15  # rolls kept before it teaches (holding NEXT teaches sooner)


@dataclass(frozen=True)
class ApplianceConfig:
    table: TableConfig = TableConfig()
    camera: CameraConfig = CameraConfig()
    gpio: GpioConfig = GpioConfig()
    input: InputConfig = InputConfig()
    display: DisplayConfig = DisplayConfig()
    teach: TeachConfig = TeachConfig()
    rules: dict[str, Any] = field(default_factory=dict)  # house rules by name, as `play --rule` takes them
    # The game's Settings with those house rules, read once as the file loads: what the
    # round driver deals under and the screen's pay table shows (None: not loaded yet).
    settings: Any = None


LED_NAMES = ("ready", "reading", "win", "lose", "error")
# A quick press lasts 0.1-0.2 s: a hold any shorter than this made it a confirm, so
# NEXT could never move the highlight on (at 0 every press confirmed at once).
SHORTEST_HOLD = 0.3

@dataclass(frozen=True)
class Sizes:
    """The width x height a setting may ask for, with the words that say so."""

    what: str
    smallest: tuple[int, int]
    largest: tuple[int, int]

    def fit(self, width: int, height: int) -> bool:
        return self.smallest[0] <= width <= self.largest[0] and self.smallest[1] <= height <= self.largest[1]

    def __str__(self) -> str:
        return f"{self.what} from {'x'.join(map(str, self.smallest))} to {'x'.join(map(str, self.largest))}"


# What the layout is drawn for, a small TFT to 8K; `--size` and [display] take the
# same. Outside it a window showed nothing to read, or SDL refused it with words that
# blamed its video driver.
SCREEN = Sizes("a screen", (320, 240), (7680, 4320))
# What a camera can give, with room to spare: a frame under 64x48 holds no die a
# reader could find, and no camera the appliance drives (the Pi's modules, USB
# webcams) gives more than 8192 a side; 0 or -5 asked the camera for nothing it has.
CAMERA_FRAME = Sizes("a camera frame", (64, 48), (8192, 8192))


SETTINGS_ENV = "TABLETOP21_CONFIG"  # names the settings file when --config does not
DEFAULT_SETTINGS = Path("~/tabletop21/table.toml")  # where the README's set-up puts it


def find_settings(given: str | Path | None) -> tuple[Path | None, str]:
    """The settings file `run` and `doctor` read, and a line saying which and why:
    --config, else $TABLETOP21_CONFIG, else ~/tabletop21/table.toml where it exists,
    else none (the built-in defaults, for a laptop with a webcam)."""
    if given is not None:
        return Path(given), f"settings: {given} (--config)"
    named = os.environ.get(SETTINGS_ENV, "").strip()
    if named:
        return Path(named).expanduser(), f"settings: {named} (${SETTINGS_ENV})"
    default = DEFAULT_SETTINGS.expanduser()
    if default.is_file():
        return default, f"settings: {default} (the default place)"
    return None, (f"settings: no file at {default} and no ${SETTINGS_ENV}: using the built-in defaults "
                  "(a laptop's webcam, no GPIO)")


def load_config(path: str | Path | None) -> ApplianceConfig:
    if path is None:
        config = ApplianceConfig()
        return replace(config, settings=game(config.table.game).settings())
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such settings file") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: not valid TOML: {err}") from None
    except OSError as err:  # a folder, no permission
        raise ConfigError(f"{path}: cannot read the settings file ({err.strerror or err})") from None
    config = ApplianceConfig()
    for section in fields(ApplianceConfig):
        if section.name == "settings":
            continue
        given = data.pop(section.name, {})
        if not isinstance(given, dict):
            raise ConfigError(f"{path}: [{section.name}] must be a table of settings")
        config = replace(config, **{section.name: _section(getattr(config, section.name), given, section.name)})
    if data:
        raise ConfigError(f"{path}: unknown section(s): {', '.join(sorted(data))}")
    return _validated(config, path)


def _section(default: Any, given: dict, name: str) -> Any:
    if isinstance(default, dict):  # named by the game, not here: its Game.settings checks them
        return given
    known = {f.name: f for f in fields(default)}
    for key, value in given.items():
        if key not in known:
            raise ConfigError(f"[{name}] has no setting {key!r}; known: {', '.join(known)}")
        expected = type(getattr(default, key))
        if expected is tuple and isinstance(value, list):
            value = tuple(value)
        if expected is float and isinstance(value, int):
            value = float(value)
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise ConfigError(f"[{name}] {key} must be {expected.__name__}, not {value!r}")
        given[key] = value
    return replace(default, **given)


LEARNED_KINDS = ("dice", "d10", "dominoes", "cards")  # kinds with a learned reader ("<kind>-net")
MOST_CHIPS = 10**9  # a seat's starting chips: room to win for years without reaching SQLite's 2**63


def _check_it_deals(config: ApplianceConfig) -> None:
    """A trial first round with these seats, chips, bets and house rules, as `run` would
    deal it: settings that can never deal (a bet over the table limit or over the chips,
    one seat at a game a player banks) are refused here, in the settings' words, not
    found at the table as a round that never starts."""
    from table.driver import Driver, start

    if config.table.chips > MOST_CHIPS:
        raise ConfigError(f"[table] chips = {config.table.chips}: at most {MOST_CHIPS:,} chips a seat")
    house = house_account(config.table.game)
    ledger = Ledger.open({seat: config.table.chips for seat in config.table.seats} | {h: 0 for h in house}, house)
    trial = Driver(config.table.game, config.table.seats, bet=config.table.bet,
                   seat_bets=tuple(config.table.bets.items()), typed_kinds=(), settings=config.settings)
    try:
        dealt = start(trial, ledger)
    except TableError as err:
        why = str(err).removeprefix("No round: ").removesuffix(f"; {BETS_ARE_SET}")
        raise ConfigError(f"these settings can never deal a round: {why}; change [table] bet, [table.bets], "
                          "chips or seats") from None
    if dealt.sitting_out:
        seat, why = dealt.sitting_out[0]
        raise ConfigError(f"[table] {seat} could never play: {why}; change [table] bet, [table.bets] or chips")


def _validated(config: ApplianceConfig, path: str | Path) -> ApplianceConfig:
    if config.table.game not in GAMES:
        raise ConfigError(f"[table] game {config.table.game!r} is not one of {', '.join(GAMES)}")
    if not config.table.seats or len(set(config.table.seats)) != len(config.table.seats):
        raise ConfigError("[table] seats must be distinct names, at least one")
    for seat in config.table.seats:
        # TOML allows "\u0000" and friends; the screen cannot draw them, nor a person read them.
        if not isinstance(seat, str) or not seat.strip() or any(unicodedata.category(ch) == "Cc" for ch in seat):
            raise ConfigError(f"[table] seats: {seat!r} is not a name to show (text, no control characters)")
    if config.table.keep_sessions_mb < 0:
        raise ConfigError(f"[table] keep_sessions_mb = {config.table.keep_sessions_mb}: MiB of recordings to keep, "
                          "0 (keep every one) or more")
    if bad := [kind for kind in config.table.learned if kind not in LEARNED_KINDS]:
        raise ConfigError(f"[table] learned: {', '.join(map(repr, bad))} has no learned reader; "
                          f"choose from {', '.join(LEARNED_KINDS)}")
    if config.table.chips < 1 or config.table.bet < 1:
        raise ConfigError("[table] chips and bet must be at least 1")
    try:  # the bankroll file's own check: `doctor` passed what `run` then refused
        Ledger.open({seat: config.table.chips for seat in config.table.seats})
    except BadBet as err:
        raise ConfigError(f"[table] chips: {err}") from None
    played = game(config.table.game)
    try:
        settings = played.settings(config.rules)
    except TableError as err:
        raise ConfigError(f"{path}: [rules] {err}") from None
    config = replace(config, settings=settings)
    eng = played.engine
    for seat, text in config.table.bets.items():
        if seat not in config.table.seats:
            raise ConfigError(f"[table.bets] {seat!r} is not one of the seats")
        if not isinstance(text, str):
            raise ConfigError(f"[table.bets] {seat}: a bet is text such as \"10\", not {text!r}")
        try:
            eng.parse_bets(settings, text)
        except TableError as err:
            raise ConfigError(f"[table.bets] {seat}: {err}") from None
    _check_it_deals(config)
    unknown_leds = set(config.gpio.leds) - set(LED_NAMES)
    if unknown_leds:
        raise ConfigError(f"[gpio.leds] unknown LED(s) {sorted(unknown_leds)}; LEDs are {', '.join(LED_NAMES)}")
    pins = {"shake": config.gpio.shake, "next": config.gpio.next,
            **{f"leds.{name}": pin for name, pin in config.gpio.leds.items()}}
    for name, pin in pins.items():
        if isinstance(pin, bool) or not isinstance(pin, int) or not 2 <= pin <= 27:
            raise ConfigError(f"[gpio] {name} = {pin!r}: the Pi's header has BCM pins 2 to 27")
    if len(set(pins.values())) != len(pins):
        raise ConfigError("[gpio] two devices share a pin")
    if not 0 <= config.gpio.bounce_time < math.inf:
        raise ConfigError(f"[gpio] bounce_time = {config.gpio.bounce_time!r}: a time in seconds, 0 or more")
    if not SHORTEST_HOLD <= config.gpio.hold_time < math.inf:
        raise ConfigError(f"[gpio] hold_time = {config.gpio.hold_time!r}: a time in seconds, {SHORTEST_HOLD} or "
                          "more; a shorter hold takes a quick press of NEXT for a confirm")
    for section, sizes in (("display", SCREEN), ("camera", CAMERA_FRAME)):
        width, height = getattr(config, section).width, getattr(config, section).height
        if not sizes.fit(width, height):
            raise ConfigError(f"[{section}] width and height {width}x{height}: {sizes}")
    for key in fields(InputConfig):
        if getattr(config.input, key.name) not in ("typed", "camera", "dealt"):
            raise ConfigError(f"[input] {key.name} must be \"camera\", \"typed\" or \"dealt\"")
    if not 1 <= config.teach.rolls <= MOST_TEACHING_ROLLS:
        raise ConfigError(f"[teach] rolls = {config.teach.rolls}: the rolls to keep before teaching, 1 to "
                          f"{MOST_TEACHING_ROLLS} (15-20 are enough)")
    return config


TABLE_HEADER = re.compile(r"^[ \t]*\[[ \t]*table[ \t]*\][ \t]*(#.*)?$")
ANY_HEADER = re.compile(r"^[ \t]*\[")
TAUGHT_LINE = re.compile(r"^[ \t]*taught[ \t]*=")


def set_taught(path: str | Path | None, taught: str | Path, check_only: bool = False) -> Path:
    """`[table] taught = TAUGHT` written into the settings file at `path` (None: the
    default place, made if it is not there), every other line left as it was; the file
    is written whole beside itself and put in place, and read back. A file whose
    `[table]` this cannot edit safely (not valid TOML, the setting written another way)
    is left unchanged and refused in words. Returns the file written (with
    `check_only`, the file it would write, refused as it would be, writing nothing)."""
    target = DEFAULT_SETTINGS.expanduser() if path is None else Path(path)
    value = str(taught)
    if "\n" in value or "\r" in value:
        raise ConfigError(f"{value!r}: a taught-reader file name holds no line break")
    line = f"taught = {json.dumps(value, ensure_ascii=False)}"  # a JSON string is a TOML basic string
    try:
        text = target.read_text(encoding="utf-8") if target.is_file() else ""
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"{target}: cannot read the settings file ({getattr(err, 'strerror', None) or err})") \
            from None
    if text:
        load_config(target)  # a file `run` refuses is not edited: it says what to fix first
    lines = text.splitlines()
    start = next((n for n, row in enumerate(lines) if TABLE_HEADER.match(row)), None)
    if start is None:
        lines += ["", "[table]", line] if lines else ["[table]", line]
    else:
        end = next((n for n in range(start + 1, len(lines)) if ANY_HEADER.match(lines[n])), len(lines))
        at = next((n for n in range(start + 1, end) if TAUGHT_LINE.match(lines[n])), None)
        if at is None:
            lines.insert(start + 1, line)
        else:
            lines[at] = line
    edited = "\n".join(lines) + "\n"
    part = target.with_name(target.name + ".part")
    try:
        written = tomllib.loads(edited).get("table", {}).get("taught")
    except tomllib.TOMLDecodeError:
        written = None
    if written != value:  # the setting was written another way (a dotted key, a string of many lines)
        raise ConfigError(f"{target}: [table] taught could not be set here; set it by hand: [table] {line}")
    if check_only:
        return target
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        part.write_text(edited, encoding="utf-8")
        os.replace(part, target)
    except OSError as err:
        part.unlink(missing_ok=True)
        raise ConfigError(f"{target}: the settings file could not be written ({err.strerror or err}); set it by "
                          f"hand: [table] {line}") from None
    return target
