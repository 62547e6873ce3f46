"""A fake `hal` for the MicroPython seat-board firmware, so CPython runs the real firmware logic.

    Board = load_firmware().Board
    hal = FakeBoardHal("seat1", "MJT-SEAT1", {0: FakeMFRC522(), 1: FakeMFRC522()})
    runner = FirmwareOnPty(Board(hal, scan_ms=2)).start()    # runner.path: a pty for pyserial
"""

from __future__ import annotations

import importlib
import os
import select
import sys
import threading
import time
import tty
from pathlib import Path
from types import ModuleType
from typing import Any

from firmware_bridge.fakes.mfrc522_chip import FakeMFRC522

FIRMWARE_DIR = Path(__file__).resolve().parent.parent / "firmware"


def load_firmware(module: str = "fw_board") -> ModuleType:
    """Import a firmware module (flat MicroPython layout) from firmware_bridge/firmware/."""
    if str(FIRMWARE_DIR) not in sys.path:
        sys.path.insert(0, str(FIRMWARE_DIR))
    return importlib.import_module(module)


class FakeBoardHal:
    """The hal interface of firmware/hal.py: clock, USB link, reader SPI, LEDs, buzzer."""

    def __init__(self, name: str, serial: str, chips: dict[int, FakeMFRC522]) -> None:
        self.name = name
        self.serial_number = serial
        self.chips = chips
        self.fd: int | None = None  # pty master when running on a pty
        self.inbox = bytearray()
        self.written = bytearray()
        self.leds: tuple[int, int] = (0, 0)
        self.buzzes: list[bool] = []
        self._t0 = time.monotonic()
        self.now_ms: int | None = None  # set to freeze the clock in a test

    def serial(self) -> str:
        return self.serial_number

    def board_name(self) -> str:
        return self.name

    def ticks_ms(self) -> int:
        if self.now_ms is not None:
            return self.now_ms
        return int((time.monotonic() - self._t0) * 1000)

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b

    def ticks_add(self, a: int, b: int) -> int:
        return a + b

    def sleep_ms(self, ms: int) -> None:
        time.sleep(ms / 1000)

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
        self.board.start()
        self._thread = threading.Thread(target=self._run, name="firmware", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            self.board.step()
            time.sleep(self.step_sleep_s)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        self.board.hal.fd = None
        for fd in self._fds:
            if fd >= 0:
                os.close(fd)
