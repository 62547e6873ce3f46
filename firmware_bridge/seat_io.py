"""Seat buttons (CALL, READY, MAHJONG), turn LEDs and the buzzer on the Pi's GPIO (RPi.GPIO).

    io = SeatIO({1: {"call": 5, "ready": 6, "mahjong": 13, "led": 19}, ...}, buzzer_pin=12,
                on_press=sink)        # sink(ButtonPress(seat, "call", t)), from the poll thread
    io.start(); io.set_turn(2); io.buzz(0.3); io.stop()

Buttons are wired to ground with the internal pull-up (active low) and debounced in software
by sampling: a press counts once the level has been steady for `debounce_ms`. RPi.GPIO is
imported in open(), never at module import.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from firmware_bridge.errors import BridgeConfigError, BridgeError, HardwareUnavailable
from firmware_bridge.readers import ReaderBackend
from firmware_bridge.types import BoardHealth, ButtonPress

BUTTONS = ("call", "ready", "mahjong")


@dataclass(frozen=True)
class SeatPins:
    """BCM pin numbers of one seat's three buttons and its turn LED (optional)."""

    call: int
    ready: int
    mahjong: int
    led: int | None = None


class Debouncer:
    """Accepts a new level only after it has been steady for stable_s (pure: time is passed in)."""

    def __init__(self, stable_s: float, level: int = 1) -> None:
        self.stable_s = stable_s
        self.level = level
        self._candidate = level
        self._since = 0.0

    def sample(self, level: int, t: float) -> int | None:
        """Feed one sample; returns the new level when it changes, else None."""
        if level == self.level:
            self._candidate = level
            return None
        if level != self._candidate:
            self._candidate, self._since = level, t
            return None
        if t - self._since >= self.stable_s:
            self.level = level
            return level
        return None


class SeatIO:
    """Polls every seat button, reports debounced presses, drives turn LEDs and the buzzer."""

    def __init__(
        self,
        seats: Mapping[int, SeatPins | Mapping[str, int]],
        buzzer_pin: int | None = None,
        on_press: Callable[[ButtonPress], None] | None = None,
        debounce_ms: float = 30.0,
        poll_ms: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.seats = {s: p if isinstance(p, SeatPins) else SeatPins(**p) for s, p in seats.items()}
        pins = [pin for p in self.seats.values() for pin in (p.call, p.ready, p.mahjong, p.led)
                if pin is not None] + ([buzzer_pin] if buzzer_pin is not None else [])
        if len(set(pins)) != len(pins):
            raise BridgeConfigError("a GPIO pin is assigned twice in the seat I/O config")
        self.buzzer_pin = buzzer_pin
        self.on_press = on_press
        self.poll_s = poll_ms / 1000
        self.clock = clock
        self._debouncers = {(seat, name): Debouncer(debounce_ms / 1000)
                            for seat in self.seats for name in BUTTONS}
        self._buzz_until = 0.0
        self._gpio: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _pins(self) -> list[int]:
        out = [pin for p in self.seats.values() for pin in (p.call, p.ready, p.mahjong, p.led)
               if pin is not None]
        return out + ([self.buzzer_pin] if self.buzzer_pin is not None else [])

    def open(self) -> None:
        """Import RPi.GPIO and set up this module's pins (and nobody else's).

        Raises HardwareUnavailable when RPi.GPIO cannot be imported or refuses the pins."""
        try:
            import RPi.GPIO as GPIO  # lazy: only when seat I/O is configured
        except (ImportError, RuntimeError) as exc:
            raise HardwareUnavailable(f"RPi.GPIO cannot be used here ({exc})") from exc
        if GPIO.getmode() is None:
            GPIO.setmode(GPIO.BCM)
        elif GPIO.getmode() != GPIO.BCM:
            raise HardwareUnavailable("RPi.GPIO is in BOARD numbering; seat pins are BCM numbers")
        try:
            for p in self.seats.values():
                GPIO.setup([p.call, p.ready, p.mahjong], GPIO.IN, pull_up_down=GPIO.PUD_UP)
                if p.led is not None:
                    GPIO.setup(p.led, GPIO.OUT, initial=GPIO.LOW)
            if self.buzzer_pin is not None:
                GPIO.setup(self.buzzer_pin, GPIO.OUT, initial=GPIO.LOW)
        except (RuntimeError, ValueError) as exc:  # RPi.GPIO's own refusals (pins in use)
            raise HardwareUnavailable(f"RPi.GPIO refused the seat pins ({exc})") from exc
        self._gpio = GPIO

    def poll(self, now: float | None = None) -> list[ButtonPress]:
        """Sample every button once; the presses that became valid now (also sent to on_press)."""
        gpio = self._gpio
        t = self.clock() if now is None else now
        presses = []
        for seat, p in self.seats.items():
            for name in BUTTONS:
                level = gpio.input(getattr(p, name))
                if self._debouncers[(seat, name)].sample(level, t) == 0:  # active low
                    presses.append(ButtonPress(seat, name, t))
        if self.buzzer_pin is not None and self._buzz_until and t >= self._buzz_until:
            gpio.output(self.buzzer_pin, 0)
            self._buzz_until = 0.0
        if self.on_press is not None:
            for press in presses:
                self.on_press(press)
        return presses

    def set_led(self, seat: int, on: bool) -> None:
        led = self.seats[seat].led
        if led is not None:
            self._gpio.output(led, 1 if on else 0)

    def set_turn(self, seat: int | None) -> None:
        """Light the turn LED of seat (None: all off)."""
        for s in self.seats:
            self.set_led(s, s == seat)

    def buzz(self, seconds: float, now: float | None = None) -> None:
        """Sound the buzzer; the poll loop switches it off after seconds."""
        if self.buzzer_pin is None:
            return
        self._gpio.output(self.buzzer_pin, 1)
        self._buzz_until = (self.clock() if now is None else now) + seconds

    def start(self) -> None:
        self.open()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="seat-io", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.poll_s):
            self.poll()

    def stop(self) -> None:
        """Stop polling, switch outputs off, release only this module's pins."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        if self._gpio is not None:
            self.set_turn(None)
            if self.buzzer_pin is not None:
                self._gpio.output(self.buzzer_pin, 0)
            self._gpio.cleanup(self._pins())
            self._gpio = None


#: The name the seat buttons' health goes by (BoardHealth.board).
BUTTONS_BOARD = "buttons"


class WithSeatIO(ReaderBackend):
    """A reader back-end and the seat buttons (:class:`SeatIO`) as one back-end.

    Presses are posted beside the scans. Seat I/O that cannot start (no RPi.GPIO off a Pi, pins
    in use) is reported as ``BoardHealth("buttons", "down")``; the readers go on without it.
    """

    name = "with-seat-io"

    def __init__(self, backend: ReaderBackend, seats: Mapping[int, Mapping[str, int]],
                 buzzer_pin: int | None = None) -> None:
        super().__init__()
        self.backend = backend
        self.seat_io = SeatIO(seats, buzzer_pin=buzzer_pin, on_press=self.post)
        self.buttons_up = False

    def start(self, sink: Any = None) -> None:
        super().start(sink)
        self.backend.read_on(self.event_loop)
        self.backend.start(self.post)
        try:
            self.seat_io.start()
        except (BridgeError, OSError) as exc:
            self.post(BoardHealth(BUTTONS_BOARD, "down", time.monotonic(),
                                  f"seat buttons not started ({exc}): on a Pi install the `pi` "
                                  "extra and check the pins in [table.seats]"))
            return
        self.buttons_up = True
        self.post(BoardHealth(BUTTONS_BOARD, "up", time.monotonic(),
                              f"{len(self.seat_io.seats)} seat(s) with buttons"))

    def stop(self) -> None:
        if self.buttons_up:
            self.seat_io.stop()
            self.buttons_up = False
        self.backend.stop()
        super().stop()

    def set_turn(self, seat: int | None) -> None:
        """Light the turn LED of ``seat`` (None: all off), when the buttons run."""
        if self.buttons_up:
            self.seat_io.set_turn(seat)

    def flag_violation(self, seconds: float = 0.4) -> None:
        """Sound the buzzer: the game has just refused a move or a call (TABLE.md)."""
        if self.buttons_up:
            self.seat_io.buzz(seconds)

    def stats(self) -> dict[str, int]:
        return self.backend.stats()
