"""A fake `RPi.GPIO` module (gpiozero mock-pin style): pins keep their history, tests drive inputs.

Behaves like RPi.GPIO 0.7.1 where our code relies on it: numbering mode must be set before
setup, output only on OUT pins, cleanup(pin) releases only that pin, cleanup() releases all.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

Pins = int | Iterable[int]


@dataclass
class PinState:
    """One pin: its direction, pull, level, and every (t, level) it took."""

    direction: int
    pull: int
    level: int
    history: list[tuple[float, int]] = field(default_factory=list)


class FakeGPIO:
    """The module's API (setmode, setup, output, input, cleanup...) plus a test-side API."""

    BCM = 11
    BOARD = 10
    OUT = 0
    IN = 1
    LOW = 0
    HIGH = 1
    PUD_OFF = 20
    PUD_DOWN = 21
    PUD_UP = 22
    RISING = 31
    FALLING = 32
    BOTH = 33
    VERSION = "0.7.1 (fake)"
    RPI_INFO = {"P1_REVISION": 3, "TYPE": "Fake Pi", "PROCESSOR": "none"}

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._mode: int | None = None
        self.pins: dict[int, PinState] = {}
        self.external: dict[int, int] = {}  # levels driven from outside onto input pins
        self.cleanups: list[int | None] = []  # each cleanup call: a pin, or None for "all"
        self.warnings = True

    # ------------------------------------------------------------ RPi.GPIO API
    def setwarnings(self, flag: bool) -> None:
        self.warnings = bool(flag)

    def setmode(self, mode: int) -> None:
        if mode not in (self.BCM, self.BOARD):
            raise ValueError("An invalid mode was passed to setmode()")
        if self._mode is not None and self._mode != mode:
            raise ValueError("A different mode has already been set!")
        self._mode = mode

    def getmode(self) -> int | None:
        return self._mode

    def setup(self, channel: Pins, direction: int, pull_up_down: int = PUD_OFF,
              initial: int = -1) -> None:
        if self._mode is None:
            raise RuntimeError("Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) "
                               "or GPIO.setmode(GPIO.BCM)")
        for pin in _pins(channel):
            with self._lock:
                if direction == self.OUT:
                    level = 0 if initial == -1 else int(bool(initial))
                else:
                    level = self._input_level(pin, pull_up_down)
                state = PinState(direction, pull_up_down, level)
                state.history.append((self._clock(), level))
                self.pins[pin] = state

    def output(self, channel: Pins, value: int | bool) -> None:
        for pin in _pins(channel):
            with self._lock:
                state = self.pins.get(pin)
                if state is None or state.direction != self.OUT:
                    raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
                state.level = int(bool(value))
                state.history.append((self._clock(), state.level))

    def input(self, channel: int) -> int:
        with self._lock:
            state = self.pins.get(channel)
            if state is None:
                raise RuntimeError("You must setup() the GPIO channel first")
            if state.direction == self.IN:
                return self._input_level(channel, state.pull)
            return state.level

    def cleanup(self, channel: Pins | None = None) -> None:
        with self._lock:
            if channel is None:
                self.cleanups.append(None)
                self.pins.clear()
                self._mode = None
                return
            for pin in _pins(channel):
                self.cleanups.append(pin)
                self.pins.pop(pin, None)

    def gpio_function(self, channel: int) -> int:
        state = self.pins.get(channel)
        return state.direction if state else self.IN

    # ------------------------------------------------------------ test-side API
    def drive(self, pin: int, level: int | None) -> None:
        """Drive an input from outside (None: let it float to its pull)."""
        with self._lock:
            if level is None:
                self.external.pop(pin, None)
            else:
                self.external[pin] = int(bool(level))
            state = self.pins.get(pin)
            if state is not None and state.direction == self.IN:
                state.level = self._input_level(pin, state.pull)
                state.history.append((self._clock(), state.level))

    def press(self, pin: int) -> None:
        """A button wired to ground (active low) is pressed."""
        self.drive(pin, 0)

    def release(self, pin: int) -> None:
        self.drive(pin, None)

    def level(self, pin: int) -> int | None:
        state = self.pins.get(pin)
        return None if state is None else state.level

    def history(self, pin: int) -> list[tuple[float, int]]:
        state = self.pins.get(pin)
        return list(state.history) if state else []

    def levels(self, pin: int) -> list[int]:
        """The pin's levels over time, without the timestamps."""
        return [level for _, level in self.history(pin)]

    def _input_level(self, pin: int, pull: int) -> int:
        if pin in self.external:
            return self.external[pin]
        return 1 if pull == self.PUD_UP else 0


def _pins(channel: Pins) -> list[int]:
    return [channel] if isinstance(channel, int) else list(channel)


API_NAMES = ("setwarnings", "setmode", "getmode", "setup", "output", "input", "cleanup",
             "gpio_function")
CONSTANTS = ("BCM", "BOARD", "OUT", "IN", "LOW", "HIGH", "PUD_OFF", "PUD_DOWN", "PUD_UP",
             "RISING", "FALLING", "BOTH", "VERSION", "RPI_INFO")


def module_namespace(fake: FakeGPIO) -> dict[str, Any]:
    """What `import RPi.GPIO as GPIO` should see: the fake's bound methods and constants."""
    names: dict[str, Any] = {n: getattr(fake, n) for n in API_NAMES + CONSTANTS}
    names["FAKE"] = fake
    return names
