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

from firmware_bridge.types import ButtonPress

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
            raise ValueError("a GPIO pin is assigned twice in the seat I/O config")
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
        """Import RPi.GPIO and set up this module's pins (and nobody else's)."""
        import RPi.GPIO as GPIO  # lazy: only when seat I/O is configured

        if GPIO.getmode() is None:
            GPIO.setmode(GPIO.BCM)
        elif GPIO.getmode() != GPIO.BCM:
            raise RuntimeError("RPi.GPIO is in BOARD numbering; seat pins are BCM numbers")
        for p in self.seats.values():
            GPIO.setup([p.call, p.ready, p.mahjong], GPIO.IN, pull_up_down=GPIO.PUD_UP)
            if p.led is not None:
                GPIO.setup(p.led, GPIO.OUT, initial=GPIO.LOW)
        if self.buzzer_pin is not None:
            GPIO.setup(self.buzzer_pin, GPIO.OUT, initial=GPIO.LOW)
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
