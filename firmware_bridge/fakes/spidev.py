"""A fake `spidev` module: SpiDev objects routed to fake chips by (bus, device) or GPIO chip select.

With `no_cs = True` the transaction goes to the chip whose chip-select GPIO (on the fake
RPi.GPIO) is low; that is how more readers than hardware chip selects are wired.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from firmware_bridge.fakes.rf_time import VirtualClock


class Chip(Protocol):
    spi_hz: int
    clock: VirtualClock

    def transfer(self, data: list[int]) -> list[int]: ...


class FakeSpiBus:
    """The wiring: which fake chip answers which chip select."""

    def __init__(self, cs_level: Callable[[int], int | None] | None = None) -> None:
        # False models cheap RC522 boards without the tri-state buffer (wiring.md): every
        # unselected chip on the bus keeps driving MISO low, so reads come back as zeros.
        self.miso_buffered = True
        self.chips: dict[tuple[int, int], Chip] = {}
        self.gpio_chips: dict[tuple[int, int], Chip] = {}  # (bus, cs pin) -> chip
        self.cs_level = cs_level
        self.opened: list[tuple[int, int]] = []
        self.closed: list[tuple[int, int]] = []
        # one clock for every chip on the bus; it follows the wall clock, since the drivers
        # that use this bus (the Pi's SPI back-end) really sleep
        self.clock = VirtualClock(follow_wall=True)

    def attach(self, bus: int, device: int, chip: Chip) -> Chip:
        """Wire chip to hardware chip select `device` of SPI `bus` (/dev/spidev<bus>.<device>)."""
        self.chips[(bus, device)] = chip
        chip.clock = self.clock
        return chip

    def attach_gpio_cs(self, bus: int, pin: int, chip: Chip) -> Chip:
        """Wire chip to SPI `bus` with its chip select on GPIO `pin` (active low)."""
        self.gpio_chips[(bus, pin)] = chip
        chip.clock = self.clock
        return chip

    def chips_on(self, bus: int) -> int:
        return sum(1 for b, _ in self.chips if b == bus) + sum(
            1 for b, _ in self.gpio_chips if b == bus)

    def route(self, bus: int, device: int, no_cs: bool) -> list[Chip]:
        if not no_cs:
            chip = self.chips.get((bus, device))
            return [chip] if chip else []
        level = self.cs_level or (lambda pin: 1)
        return [c for (b, pin), c in self.gpio_chips.items() if b == bus and level(pin) == 0]


class SpiDev:
    """The subset of spidev.SpiDev the drivers use."""

    bus_wiring: FakeSpiBus = FakeSpiBus()

    def __init__(self, bus: int | None = None, device: int | None = None) -> None:
        self.max_speed_hz = 500000
        self.mode = 0
        self.bits_per_word = 8
        self.no_cs = False
        self._dev: tuple[int, int] | None = None
        if bus is not None and device is not None:
            self.open(bus, device)

    def open(self, bus: int, device: int) -> None:
        wiring = type(self).bus_wiring
        if (bus, device) not in wiring.chips and not any(b == bus for b, _ in wiring.gpio_chips):
            raise FileNotFoundError(2, "No such file or directory", f"/dev/spidev{bus}.{device}")
        self._dev = (bus, device)
        wiring.opened.append(self._dev)

    def close(self) -> None:
        if self._dev is not None:
            type(self).bus_wiring.closed.append(self._dev)
        self._dev = None

    def xfer2(self, data: list[int], *args: Any) -> list[int]:
        if self._dev is None:
            raise OSError(9, "Bad file descriptor")
        chips = type(self).bus_wiring.route(self._dev[0], self._dev[1], self.no_cs)
        if not chips:
            return [0xFF] * len(data)  # nobody drives MISO: the pull-up reads all ones
        wiring = type(self).bus_wiring
        for chip in chips:
            chip.spi_hz = self.max_speed_hz  # the bus clock the driver set
        replies = [chip.transfer(list(data)) for chip in chips]
        if not wiring.miso_buffered and wiring.chips_on(self._dev[0]) > len(chips):
            replies.append([0] * len(data))  # an unselected chip still pulls MISO low
        out = replies[0]
        for other in replies[1:]:  # two chips driving MISO at once: wired-AND garbage
            out = [a & b for a, b in zip(out, other, strict=True)]
        return out

    xfer = xfer2

    def writebytes(self, data: list[int]) -> None:
        self.xfer2(data)

    def readbytes(self, n: int) -> list[int]:
        return self.xfer2([0] * n)
