"""Real gpiozero devices on gpiozero's MockFactory pins."""

import time

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from hardware.controls import GpioUnavailable
from table.driver import CONFIRM, NEXT, SHAKE
from tabletop21.devices import open_controls
from tabletop21.settings import GpioConfig


@pytest.fixture
def rig():
    factory = MockFactory()
    config = GpioConfig(enabled=True, bounce_time=None, hold_time=0.05)
    controls = open_controls(config, pin_factory=factory)
    yield controls, factory, config
    controls.close()
    factory.reset()


def wait_for(condition, limit=2.0):
    end = time.monotonic() + limit
    while not condition() and time.monotonic() < end:
        time.sleep(0.005)
    return condition()


def test_shaker_press_is_reported_once(rig):
    controls, factory, config = rig
    pin = factory.pin(config.shake)
    pin.drive_low()
    pin.drive_high()
    assert wait_for(lambda: controls._pressed) and controls.poll() == [SHAKE]
    assert controls.poll() == []


def test_short_press_of_next_moves_on_and_holding_confirms(rig):
    controls, factory, config = rig
    pin = factory.pin(config.next)
    pin.drive_low()
    pin.drive_high()
    assert wait_for(lambda: controls._pressed)
    assert controls.poll() == [NEXT]
    pin.drive_low()
    assert wait_for(lambda: CONFIRM in controls._pressed)
    pin.drive_high()
    time.sleep(0.05)
    assert controls.poll() == [CONFIRM]


def test_leds_light_exactly_what_is_asked(rig):
    controls, factory, config = rig
    controls.show({"ready", "win"})
    assert controls.lit() == {"ready", "win"}
    assert factory.pin(config.leds["win"]).state and not factory.pin(config.leds["error"]).state
    controls.show(["error"])
    assert controls.lit() == {"error"}
    with pytest.raises(ValueError, match="no LED"):
        controls.show({"disco"})
    assert controls.lit() == {"error"}


def test_closing_switches_the_leds_off_and_frees_every_pin(rig):
    controls, factory, config = rig
    controls.show({"ready", "win"})
    controls.close()
    assert not any(factory.pin(pin).state for pin in config.leds.values())
    for pin in (config.shake, config.next, *config.leds.values()):
        Button(pin, pin_factory=factory).close()  # GPIOPinInUse if any were still held


def test_a_device_that_fails_to_open_releases_the_ones_opened_before(rig):
    controls, factory, config = rig
    controls.close()
    broken = GpioConfig(enabled=True, leds={"ready": 5, "win": 99})  # 99: no such pin on the factory
    with pytest.raises(GpioUnavailable, match="99.*enabled = false"):
        open_controls(broken, pin_factory=factory)
    for pin in (broken.shake, broken.next, 5):
        Button(pin, pin_factory=factory).close()
