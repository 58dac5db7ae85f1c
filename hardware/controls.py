"""The shaker and next buttons and the five status LEDs, through gpiozero.

gpiozero's own pin factories make these testable: tests pass MockFactory and drive
the mock pins, so the same Button/LED objects run in CI and on the Pi. Without GPIO
the display's keys and touch areas produce the same button names."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping


class GpioUnavailable(RuntimeError):
    """The buttons and LEDs cannot be opened here; said in words, not gpiozero's traceback."""


class GpioControls:
    """Two buttons and named LEDs. `names` are the words a press of the first button, a
    press of the second and a hold of the second are reported as (the caller's
    vocabulary: a short press of NEXT moves the highlight on, holding it confirms)."""

    def __init__(self, *, shake: int, next: int, leds: Mapping[str, int], names: tuple[str, str, str],
                 bounce_time: float = 0.05, hold_time: float = 1.0, pin_factory=None) -> None:
        from gpiozero import LED, Button, GPIOZeroError  # imported here: a laptop without GPIO never needs it

        self._shake_name, self._next_name, self._confirm_name = names

        self._pressed: deque[str] = deque()
        self._held = False
        self._devices: list = []  # in opening order; a failure part-way closes those already open
        self._leds: dict = {}
        try:
            self._shake = self._opened(Button(shake, bounce_time=bounce_time, pin_factory=pin_factory))
            self._next = self._opened(Button(next, bounce_time=bounce_time, hold_time=hold_time,
                                             pin_factory=pin_factory))
            for name, pin in leds.items():
                self._leds[name] = self._opened(LED(pin, pin_factory=pin_factory))
        except BaseException as err:
            self.close()
            if isinstance(err, (GPIOZeroError, OSError)):  # no pin driver, a pin in use, no permission
                raise GpioUnavailable(f"the GPIO pins cannot be used ({type(err).__name__}: {err}); on a Pi "
                                      "add the user to the 'gpio' group, elsewhere set [gpio] enabled = false") from err
            raise
        self._shake.when_pressed = lambda: self._pressed.append(self._shake_name)
        self._next.when_held = self._on_hold
        self._next.when_released = self._on_release

    def _opened(self, device):
        self._devices.append(device)
        return device

    def _on_hold(self) -> None:
        self._held = True
        self._pressed.append(self._confirm_name)

    def _on_release(self) -> None:
        if not self._held:
            self._pressed.append(self._next_name)
        self._held = False

    def poll(self) -> list[str]:
        """Button names pressed since the last poll, oldest first (thread-safe pops)."""
        names = []
        while self._pressed:
            names.append(self._pressed.popleft())
        return names

    def show(self, lit: Iterable[str]) -> None:
        lit = set(lit)
        unknown = lit - set(self._leds)
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
