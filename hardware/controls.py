"""The shaker and next buttons and the five status LEDs, through gpiozero.

gpiozero's own pin factories make these testable: tests pass MockFactory and drive
the mock pins, so the same Button/LED objects run in CI and on the Pi. Without GPIO
the display's keys and touch areas produce the same button names."""

from __future__ import annotations

from collections import deque
from typing import Iterable

from hardware.config import LED_NAMES, GpioConfig

# Button names the round driver understands. A short press of NEXT moves the
# highlighted choice on; holding it confirms. SHAKE rolls / reveals.
SHAKE, NEXT, CONFIRM = "shake", "next", "confirm"


class GpioControls:
    def __init__(self, config: GpioConfig, pin_factory=None) -> None:
        from gpiozero import LED, Button  # imported here: a laptop without GPIO never needs it

        self._pressed: deque[str] = deque()
        self._shake = Button(config.shake, bounce_time=config.bounce_time, pin_factory=pin_factory)
        self._next = Button(config.next, bounce_time=config.bounce_time, hold_time=config.hold_time,
                            pin_factory=pin_factory)
        self._held = False
        self._shake.when_pressed = lambda: self._pressed.append(SHAKE)
        self._next.when_held = self._on_hold
        self._next.when_released = self._on_release
        self._leds = {name: LED(pin, pin_factory=pin_factory) for name, pin in config.leds.items()}

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
        for device in (self._shake, self._next, *self._leds.values()):
            device.close()
