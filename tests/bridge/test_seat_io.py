"""Seat buttons debounced, LEDs and buzzer driven, through a fake RPi.GPIO in sys.modules."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.errors import BridgeConfigError
from firmware_bridge.fakes import FakeHardware, install
from firmware_bridge.seat_io import Debouncer, SeatIO
from firmware_bridge.types import ButtonPress

SEATS = {1: {"call": 5, "ready": 6, "mahjong": 13, "led": 19},
         2: {"call": 20, "ready": 21, "mahjong": 26, "led": 16}}


@pytest.fixture
def hw() -> Iterator[FakeHardware]:
    with install() as fakes:
        yield fakes


def make(hw: FakeHardware, presses: list[ButtonPress]) -> SeatIO:
    io = SeatIO(SEATS, buzzer_pin=12, on_press=presses.append, debounce_ms=30)
    io.open()
    return io


def test_clean_press_is_reported_once(hw: FakeHardware) -> None:
    presses: list[ButtonPress] = []
    io = make(hw, presses)
    io.poll(0.0)
    hw.gpio.press(20)
    for k in range(1, 20):
        io.poll(k * 0.005)
    hw.gpio.release(20)
    for k in range(20, 40):
        io.poll(k * 0.005)
    assert [(p.seat, p.button) for p in presses] == [(2, "call")]
    assert presses[0].t >= 0.03


def test_bouncing_contacts_give_one_press(hw: FakeHardware) -> None:
    presses: list[ButtonPress] = []
    io = make(hw, presses)
    t = 0.0
    for level in [0, 1, 0, 0, 1, 0, 1, 0] + [0] * 10 + [1, 0, 1] + [1] * 10:
        hw.gpio.drive(13, level)
        io.poll(t)
        t += 0.005
    assert [(p.seat, p.button) for p in presses] == [(1, "mahjong")]


def test_glitch_shorter_than_debounce_is_ignored(hw: FakeHardware) -> None:
    presses: list[ButtonPress] = []
    io = make(hw, presses)
    hw.gpio.press(6)
    io.poll(0.0)
    io.poll(0.01)
    hw.gpio.release(6)
    io.poll(0.02)
    io.poll(0.2)
    assert presses == []


def test_turn_led_and_buzzer(hw: FakeHardware) -> None:
    io = make(hw, [])
    io.set_turn(2)
    assert (hw.gpio.level(16), hw.gpio.level(19)) == (1, 0)
    io.set_turn(1)
    assert (hw.gpio.level(16), hw.gpio.level(19)) == (0, 1)
    io.buzz(0.3, now=1.0)
    io.poll(1.2)
    assert hw.gpio.level(12) == 1
    io.poll(1.31)
    assert hw.gpio.levels(12) == [0, 1, 0]


def test_stop_releases_only_its_pins(hw: FakeHardware) -> None:
    hw.gpio.setmode(hw.gpio.BCM)
    hw.gpio.setup(25, hw.gpio.OUT, initial=1)  # a reader's reset pin
    io = make(hw, [])
    io.start()
    io.stop()
    assert set(hw.gpio.cleanups) == {5, 6, 13, 19, 20, 21, 26, 16, 12}
    assert hw.gpio.level(25) == 1


def test_threaded_polling_reports_a_press(hw: FakeHardware) -> None:
    import threading

    got = threading.Event()
    def on_press(press: ButtonPress) -> None:
        if (press.seat, press.button) == (1, "ready"):
            got.set()

    io = SeatIO(SEATS, on_press=on_press, debounce_ms=10, poll_ms=2)
    io.start()
    try:
        hw.gpio.press(6)
        assert got.wait(2.0)
    finally:
        io.stop()


def test_pin_used_twice_is_refused() -> None:
    with pytest.raises(BridgeConfigError, match="twice"):
        SeatIO({1: {"call": 5, "ready": 5, "mahjong": 13}})


@given(st.lists(st.tuples(st.integers(0, 1), st.floats(0.0005, 0.05)), max_size=60))
def test_debouncer_changes_only_after_a_steady_run(samples: list[tuple[int, float]]) -> None:
    deb = Debouncer(0.02)
    t = 0.0
    history: list[tuple[float, int]] = []
    for level, dt in samples:
        t += dt
        history.append((t, level))
        changed = deb.sample(level, t)
        if changed is not None:
            # the new level was sampled continuously for at least 20 ms before now
            run_start = t
            for ts, lv in reversed(history):
                if lv != changed:
                    break
                run_start = ts
            assert t - run_start >= 0.02
