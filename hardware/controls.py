"""The shaker and next buttons and the five status LEDs, through gpiozero.

gpiozero's own pin factories make these testable: tests pass MockFactory and drive
the mock pins, so the same Button/LED objects run in CI and on the Pi. Without GPIO
the display's keys and touch areas produce the same button names."""

from __future__ import annotations

from collections import deque
from typing import Iterable

from hardware.config import LED_NAMES, GpioConfig
from table.errors import TableError

# Button names the round driver understands. A short press of NEXT moves the
# highlighted choice on; holding it confirms. SHAKE rolls / reveals.
SHAKE, NEXT, CONFIRM = "shake", "next", "confirm"


class GpioUnavailable(TableError):
    """The buttons and LEDs cannot be opened here; said in words, not gpiozero's traceback."""


class GpioControls:
    def __init__(self, config: GpioConfig, pin_factory=None) -> None:
        from gpiozero import LED, Button, GPIOZeroError  # imported here: a laptop without GPIO never needs it

        self._pressed: deque[str] = deque()
        self._held = False
        self._devices: list = []  # in opening order; a failure part-way closes those already open
        self._leds: dict = {}
        try:
            self._shake = self._opened(Button(config.shake, bounce_time=config.bounce_time, pin_factory=pin_factory))
            self._next = self._opened(Button(config.next, bounce_time=config.bounce_time,
                                             hold_time=config.hold_time, pin_factory=pin_factory))
            for name, pin in config.leds.items():
                self._leds[name] = self._opened(LED(pin, pin_factory=pin_factory))
        except BaseException as err:
            self.close()
            if isinstance(err, (GPIOZeroError, OSError)):  # no pin driver, a pin in use, no permission
                raise GpioUnavailable(f"the GPIO pins cannot be used ({type(err).__name__}: {err}); on a Pi "
                                      "add the user to the 'gpio' group, elsewhere set [gpio] enabled = false") from err
            raise
        self._shake.when_pressed = lambda: self._pressed.append(SHAKE)
        self._next.when_held = self._on_hold
        self._next.when_released = self._on_release

    def _opened(self, device):
        self._devices.append(device)
        return device

    def _on_hold(self) -> None:
        self._held = True
        self._pressed.append(CONFIRM)

    def _on_release(self) -> None:
        if not self._held:
            self._pressed.append(NEXT)
        self._held = False

    def poll(self) -> list[str]:
        """Button names pressed since the last poll, oldest first (thread-safe pops)."""
        names = []
        while self._pressed:
            names.append(self._pressed.popleft())
        return names

    def show(self, lit: Iterable[str]) -> None:
        lit = set(lit)
        unknown = lit - set(LED_NAMES)
        if unknown:
            raise ValueError(f"no LED called {sorted(unknown)}")
        for name, led in self._leds.items():
            led.value = name in lit

    def lit(self) -> frozenset[str]:
        return frozenset(name for name, led in self._leds.items() if led.is_lit)

    def close(self) -> None:
        """LEDs off first: a released pin keeps its last level, and a lamp still saying
        "ready" or "win" over a stopped table would be a lie."""
        for led in self._leds.values():
            led.off()
        for device in reversed(self._devices):
            device.close()
        self._leds, self._devices = {}, []
