"""The "mfrc522" back-end: MFRC522 chips on the Pi's SPI bus, one chip select and reset pin each.

    backend = open_backend("mfrc522", readers=[{"bus": 0, "device": 0, "pin_rst": 25},
                                               {"bus": 0, "device": 1, "pin_rst": 24}])

Uses the `mfrc522` package (0.0.7) for SPI register access (its SpiDev for FIFO bursts) and
the firmware's MFRC522 driver (firmware/fw_rc522.py) for what the package lacks
(hardware_docs/wiring.md, timing.md): the ISO 14443-3 anticollision loop over every cascade
level (several tags a field, 4-, 7- and 10-byte UIDs), waits bounded by the chip's timer and a
poll budget, the soft reset awaited and checked, fields switched on 5.1 ms before the first
command and off after the read, an explicit reset pin, and a cleanup of its own pins only.
`mfrc522`, `RPi.GPIO` and `spidev` are imported in start(), never at module import.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from firmware_bridge.errors import BridgeConfigError, HardwareUnavailable
from firmware_bridge.firmware_code import load_firmware
from firmware_bridge.readers import ReaderBackend
from firmware_bridge.types import BoardHealth, ChannelScan, Sink, uid_to_str

VERSION = 0x37
GOOD_VERSIONS = (0x88, 0x90, 0x91, 0x92, 0xB2)  # MFRC522 v1/v2 and common clones
SETTLE_S = 0.0051  # unmodulated field before the first command (hardware_docs/timing.md)

#: The firmware's MFRC522 driver (firmware/fw_rc522.py): one anticollision loop for both.
_fw: Any = load_firmware("fw_rc522")
_RC522: Any = _fw.RC522


class WallClock:
    """The driver's clock on the Pi: microsecond ticks, real waits."""

    @staticmethod
    def ticks_us() -> int:
        return time.perf_counter_ns() // 1000

    @staticmethod
    def ticks_diff(a: int, b: int) -> int:
        return a - b

    @staticmethod
    def wait_us(us: float) -> None:
        time.sleep(us / 1e6)


@dataclass(frozen=True)
class ReaderSpec:
    """One chip: SPI bus and hardware chip select (device), its reset GPIO (BCM), its channel.

    pin_cs: a GPIO used as this chip's chip select instead of the hardware one (more readers
    than CE lines); such readers share `device` with each other and nothing else.
    """

    bus: int
    device: int
    pin_rst: int
    channel: int | None = None
    pin_cs: int | None = None


class GpioChipSelect:
    """Wraps a SpiDev so that every transaction drives this reader's chip-select GPIO low."""

    def __init__(self, spi: Any, gpio: Any, pin: int) -> None:
        self.spi, self.gpio, self.pin = spi, gpio, pin
        spi.no_cs = True

    def xfer2(self, data: list[int]) -> list[int]:
        self.gpio.output(self.pin, 0)
        try:
            out: list[int] = self.spi.xfer2(data)
        finally:
            self.gpio.output(self.pin, 1)
        return out

    def close(self) -> None:
        self.spi.close()


class TagReader(_RC522):  # type: ignore[misc]
    """One MFRC522: the firmware's driver (REQA, bit-frame anticollision over every cascade
    level, several tags a field) with register access through the `mfrc522` package."""

    def __init__(self, spec: ReaderSpec, speed_hz: int, max_polls: int, timeout_us: int,
                 gpio: Any, clock: Any) -> None:
        from mfrc522 import MFRC522  # lazy: only when this back-end is chosen

        self.spec = spec
        self.gpio = gpio
        # pin_rst is always explicit: the package's default turns into BCM 15 (UART RX)
        # when other code set BCM numbering first (upstream issue 63).
        self.chip = MFRC522(bus=spec.bus, device=spec.device, spd=speed_hz,
                            pin_mode=gpio.BCM, pin_rst=spec.pin_rst)
        if spec.pin_cs is not None:  # the package's own init went out on the hardware CE line
            self.chip.spi = GpioChipSelect(self.chip.spi, gpio, spec.pin_cs)
        super().__init__(self.chip.spi.xfer2, clock, timeout_us, max_polls)
        try:
            self.init()  # awaited soft reset, timer, field off (the package's init left it on)
        except _fw.ChipError:
            pass  # a dead chip: alive() says so and the health check resets it

    def write(self, reg: int, value: int) -> None:
        self.chip.Write_MFRC522(reg, value & 0xFF)

    def read(self, reg: int) -> int:
        return int(self.chip.Read_MFRC522(reg))

    def alive(self) -> bool:
        return self.read(VERSION) in GOOD_VERSIONS

    def hard_reset(self) -> None:
        """Pulse the reset pin, then the driver's init again (soft reset awaited, checked)."""
        self.gpio.output(self.spec.pin_rst, 0)
        time.sleep(0.001)
        self.gpio.output(self.spec.pin_rst, 1)
        time.sleep(0.001)  # oscillator start-up: datasheet says tens of microseconds
        try:
            self.init()
        except _fw.ChipError:
            pass  # still dead: alive() says so and the next health check tries again

    def close(self) -> None:
        """Field off, SPI closed, and only this reader's reset pin released."""
        try:
            self.field(False)
        finally:
            self.chip.spi.close()
            own = [self.spec.pin_rst] + ([self.spec.pin_cs] if self.spec.pin_cs is not None else [])
            self.gpio.cleanup(own)  # never GPIO.cleanup(): other readers' and buttons' pins


class Mfrc522Backend(ReaderBackend):
    """Polls every reader in turn; posts each channel's set after every read of it."""

    name = "mfrc522"

    def __init__(self, readers: Sequence[Mapping[str, int] | ReaderSpec], board: str = "spi",
                 speed_hz: int = 1_000_000, max_polls: int = 400, timeout_us: int = 300,
                 cycle_s: float = 0.0, health_every: int = 50,
                 clock: Callable[[], float] = time.monotonic, rf_clock: Any = None) -> None:
        super().__init__()
        if not readers:
            raise BridgeConfigError("mfrc522 back-end needs readers=[{bus, device, pin_rst}, ...]")
        self.specs = [r if isinstance(r, ReaderSpec) else ReaderSpec(**r) for r in readers]
        channels = [s.channel if s.channel is not None else i for i, s in enumerate(self.specs)]
        if len(set(channels)) != len(channels):
            raise BridgeConfigError("two readers share a channel number")
        self.channels = channels
        self.board = board
        self.options = (speed_hz, max_polls, timeout_us)
        self.rf_clock = rf_clock or WallClock()
        self.cycle_s = cycle_s
        self.health_every = health_every
        self.clock = clock
        self.readers: list[TagReader] = []
        self.counters = {"reads": 0, "empty": 0, "resets": 0, "cycles": 0}

    def start(self, sink: Sink | None = None) -> None:
        super().start(sink)
        self.open()
        self.spawn(self._run, f"mfrc522-{self.board}")

    def open(self) -> None:
        """Import the hardware modules and initialise every chip (start() calls this)."""
        try:
            import RPi.GPIO as GPIO  # lazy: fails off a Pi unless the fakes are installed
        except (ImportError, RuntimeError) as exc:
            raise HardwareUnavailable(
                f"the mfrc522 back-end needs a Raspberry Pi with RPi.GPIO ({exc}): install the "
                "project's `pi` extra (on a Pi 5 also rpi-lgpio), or use the serial back-end"
            ) from exc
        if GPIO.getmode() not in (None, GPIO.BCM):
            raise HardwareUnavailable("RPi.GPIO is in BOARD numbering; reader pins are BCM numbers")
        GPIO.setwarnings(False)
        if GPIO.getmode() is None:
            GPIO.setmode(GPIO.BCM)
        cs_pins = [s.pin_cs for s in self.specs if s.pin_cs is not None]
        if cs_pins:  # every GPIO chip select high (deselected) before the first transaction
            GPIO.setup(cs_pins, GPIO.OUT, initial=GPIO.HIGH)
        speed, polls, timeout = self.options
        self.readers = []
        for spec in self.specs:
            try:
                self.readers.append(TagReader(spec, speed, polls, timeout, GPIO, self.rf_clock))
            except OSError as exc:
                raise HardwareUnavailable(
                    f"cannot open SPI device /dev/spidev{spec.bus}.{spec.device} ({exc}): enable "
                    "SPI with raspi-config (bus 1 also needs dtoverlay=spi1-3cs) and check the "
                    "reader's bus and device in the config") from exc

    def poll_once(self) -> list[ChannelScan]:
        """Read every reader once; the ChannelScans (also posted). Used by the thread and tests.

        The readers' fields go on together (the direct layout's readers are separate pads,
        far apart: hardware_docs/timing.md), unmodulated for 5.1 ms, then every chip is asked
        (REQA) before any answer is taken, each field's tags are read with the anticollision
        loop, and the fields go off (which resets the tags for the next poll)."""
        for reader in self.readers:
            reader.field(True)
        self.rf_clock.wait_us(SETTLE_S * 1e6)
        for reader in self.readers:
            reader.start([_fw.REQA], 7)
        answered = [reader.finish() is not None for reader in self.readers]
        scans = []
        for channel, reader, ans in zip(self.channels, self.readers, answered, strict=True):
            uids = frozenset(uid_to_str(u) for u in reader.read_all(ans)) if ans else frozenset()
            reader.field(False)
            self.counters["reads" if uids else "empty"] += 1
            scan = ChannelScan(f"{self.board}/{channel}", uids, self.clock())
            self.post(scan)
            scans.append(scan)
        self.counters["cycles"] += 1
        if self.health_every and self.counters["cycles"] % self.health_every == 0:
            self.check_health()
        return scans

    def check_health(self) -> None:
        """A chip that no longer reports its version gets a hard reset, and a health event."""
        for channel, reader in zip(self.channels, self.readers, strict=True):
            if reader.alive():
                continue
            name = f"{self.board}/{channel}"
            self.post(BoardHealth(name, "down", self.clock(), "no version register: reset"))
            reader.hard_reset()
            self.counters["resets"] += 1
            if reader.alive():
                self.post(BoardHealth(name, "up", self.clock(), "after hard reset"))

    def _run(self) -> None:
        while not self._stop.is_set():
            self.poll_once()
            if self.cycle_s:
                self._stop.wait(self.cycle_s)

    def stop(self) -> None:
        super().stop()
        for reader in self.readers:
            reader.close()
        self.readers = []

    def stats(self) -> dict[str, int]:
        return dict(self.counters)
