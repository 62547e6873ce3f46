"""A fake `hal` for the MicroPython seat-board firmware, so CPython runs the real firmware logic.

    Board = load_firmware().Board
    hal = FakeBoardHal("seat1", "E6605838830F2F2C", {0: FakeMFRC522(), 1: FakeMFRC522()})
    runner = FirmwareOnPty(Board(hal)).start()    # runner.path: a pty for pyserial

The hal's clock is a VirtualClock shared with its chips (firmware_bridge.fakes.rf_time): SPI
transactions and the chips' air time advance it, and the firmware's waits advance it. With
the pty runner it follows the wall clock (``VirtualClock.follow_wall``): waits really wait.
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from typing import Any

from firmware_bridge.fakes.mfrc522_chip import FakeMFRC522
from firmware_bridge.fakes.rf_time import VirtualClock
from firmware_bridge.firmware_code import FIRMWARE_DIR, load_firmware

__all__ = ["FIRMWARE_DIR", "FakeBoardHal", "FirmwareOnPty", "load_firmware"]


class FakeBoardHal:
    """The hal interface of firmware/hal.py: clock, USB link, reader SPI, LEDs, buzzer."""

    def __init__(self, name: str, serial: str, chips: dict[int, FakeMFRC522],
                 clock: VirtualClock | None = None, groups: list[list[int]] | None = None,
                 layout: str = "seat") -> None:
        self.name = name
        self.serial_number = serial
        self.chips = chips
        self.clock = clock or VirtualClock()
        for chip in chips.values():
            chip.clock = self.clock
        self.groups = groups
        self.layout = layout
        self.feeds = 0  # watchdog feeds
        self.watchdog_ms: int | None = None
        self.fd: int | None = None  # pty master when running on a pty
        self.inbox = bytearray()
        self.written = bytearray()
        self.log: list[tuple[float, bytes]] = []  # (clock us, bytes) of every write
        self.leds: tuple[int, int] = (0, 0)
        self.buzzes: list[bool] = []
        self.now_ms: int | None = None  # set to freeze the clock in a test

    def serial(self) -> str:
        return self.serial_number

    def board_name(self) -> str:
        return self.name

    def ticks_us(self) -> int:
        if self.now_ms is not None:
            self.clock.until(self.now_ms * 1000)
        return self.clock.ticks_us()

    def ticks_ms(self) -> int:
        if self.now_ms is not None:
            return self.now_ms
        return self.ticks_us() // 1000

    def wait_us(self, us: int) -> None:
        self.clock.wait_us(us)

    def start_watchdog(self) -> None:
        self.watchdog_ms = 1000

    def feed(self) -> None:
        self.feeds += 1

    def field_groups(self, channels: list[int]) -> list[list[int]]:
        if self.groups is not None:
            return self.groups
        groups: list[list[int]] = load_firmware("fw_layout").GROUPS[self.layout]
        return groups

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b

    def ticks_add(self, a: int, b: int) -> int:
        return a + b

    def read(self) -> bytes:
        if self.fd is not None:
            try:
                ready, _, _ = select.select([self.fd], [], [], 0)
                return os.read(self.fd, 256) if ready else b""
            except OSError:
                return b""
        data, self.inbox = bytes(self.inbox), bytearray()
        return data

    def write(self, data: bytes) -> None:
        if self.fd is not None:
            try:
                os.write(self.fd, data)
            except BlockingIOError:
                pass  # nobody reading: the USB CDC buffer is full, the bytes are lost
        else:
            self.written += data
            self.log.append((self.clock.us, bytes(data)))

    def reader_xfers(self) -> dict[int, Any]:
        return {ch: chip.transfer for ch, chip in self.chips.items()}

    def set_leds(self, on: int, blink: int) -> None:
        self.leds = (on, blink)

    def buzzer(self, on: bool) -> None:
        self.buzzes.append(on)


class FirmwareOnPty:
    """Runs a firmware Board's main loop in a thread, its USB link on a pseudo-terminal."""

    def __init__(self, board: Any, step_sleep_s: float = 0.0005) -> None:
        self.board = board
        self.step_sleep_s = step_sleep_s
        self.path = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._fds: tuple[int, int] = (-1, -1)

    def start(self) -> FirmwareOnPty:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._fds = (master, slave)  # keep the slave open too, or the master reads EIO
        self.path = os.ttyname(slave)
        self.board.hal.fd = master
        self.board.hal.clock.follow_wall = True  # waits really wait
        self.board.start()
        self._thread = threading.Thread(target=self._run, name="firmware", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            self.board.step()
            sweeper = self.board.sweeper
            wait = sweeper.wait_us() / 1e6 if sweeper is not None else 0.0
            time.sleep(max(self.step_sleep_s, min(wait, 0.002)))

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        self.board.hal.fd = None
        for fd in self._fds:
            if fd >= 0:
                os.close(fd)
