"""The "mfrc522" back-end: MFRC522 chips on the Pi's SPI bus, one chip select and reset pin each.

    backend = open_backend("mfrc522", readers=[{"bus": 0, "device": 0, "pin_rst": 25},
                                               {"bus": 0, "device": 1, "pin_rst": 24}])

Uses the `mfrc522` package (0.0.7) for SPI register access and its CRC coprocessor call, and adds
what it lacks (hardware_docs/wiring.md): cascade levels 2 and 3 for 7- and 10-byte UIDs, waits
bounded by the timer interrupt and a poll budget, HALT after each read with WUPA polling, an
explicit reset pin, and a cleanup of its own pins only. `mfrc522`, `RPi.GPIO` and `spidev` are
imported in start(), never at module import.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from firmware_bridge.errors import BridgeConfigError, HardwareUnavailable
from firmware_bridge.readers import ReaderBackend
from firmware_bridge.types import BoardHealth, ChannelScan, Sink, uid_to_str

# MFRC522 registers and bits used beyond the package's own helpers
COMM_IEN, COMM_IRQ, ERROR, FIFO_DATA, FIFO_LEVEL = 0x02, 0x04, 0x06, 0x09, 0x0A
CONTROL, BIT_FRAMING, COLL, COMMAND, VERSION = 0x0C, 0x0D, 0x0E, 0x01, 0x37
T_RELOAD_L, T_RELOAD_H = 0x2D, 0x2C
PCD_IDLE, PCD_TRANSCEIVE = 0x00, 0x0C
IRQ_TIMER, IRQ_ERR, IRQ_RX = 0x01, 0x02, 0x20
ERR_MASK = 0x1B  # BufferOvfl, CollErr, ParityErr, ProtocolErr
WUPA, HLTA, CASCADE_TAG = 0x52, 0x50, 0x88
SEL = (0x93, 0x95, 0x97)
GOOD_VERSIONS = (0x88, 0x90, 0x91, 0x92, 0xB2)  # MFRC522 v1/v2 and common clones


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


class TagReader:
    """One MFRC522: WUPA -> anticollision/select per cascade level -> HLTA, with bounded waits."""

    def __init__(self, spec: ReaderSpec, speed_hz: int, max_polls: int, timeout_ms: int,
                 gpio: Any) -> None:
        from mfrc522 import MFRC522  # lazy: only when this back-end is chosen

        self.spec = spec
        self.gpio = gpio
        self.max_polls = max_polls
        self.timeout_ms = timeout_ms
        self.polls_used = 0
        # pin_rst is always explicit: the package's default turns into BCM 15 (UART RX)
        # when other code set BCM numbering first (upstream issue 63).
        self.chip = MFRC522(bus=spec.bus, device=spec.device, spd=speed_hz,
                            pin_mode=gpio.BCM, pin_rst=spec.pin_rst)
        if spec.pin_cs is not None:
            # the package's own init went out on the hardware CE line; redo it on ours
            self.chip.spi = GpioChipSelect(self.chip.spi, gpio, spec.pin_cs)
            self.chip.MFRC522_Init()
        self._set_timeout(timeout_ms)

    def _set_timeout(self, timeout_ms: int) -> None:
        # the package's prescaler gives 0.5 ms timer ticks; its 15 ms default makes empty polls slow
        ticks = max(1, timeout_ms * 2)
        self.chip.Write_MFRC522(T_RELOAD_H, ticks >> 8)
        self.chip.Write_MFRC522(T_RELOAD_L, ticks & 0xFF)

    def alive(self) -> bool:
        return bool(self.chip.Read_MFRC522(VERSION) in GOOD_VERSIONS)

    def hard_reset(self) -> None:
        """Pulse the reset pin, then re-run the package's init (soft reset, timer, antenna)."""
        self.gpio.output(self.spec.pin_rst, 0)
        time.sleep(0.001)
        self.gpio.output(self.spec.pin_rst, 1)
        time.sleep(0.001)  # oscillator start-up: datasheet says tens of microseconds
        self.chip.MFRC522_Init()
        self._set_timeout(self.timeout_ms)

    def transceive(self, data: Sequence[int], last_bits: int = 0) -> tuple[bytes, int] | None:
        """Send a frame; the reply and its bit count, or None (timeout, error, no answer)."""
        chip = self.chip
        chip.Write_MFRC522(COMMAND, PCD_IDLE)
        chip.Write_MFRC522(COMM_IEN, 0x77 | 0x80)
        chip.Write_MFRC522(COMM_IRQ, 0x7F)  # Set1=0: clear every request bit
        chip.Write_MFRC522(FIFO_LEVEL, 0x80)  # flush the FIFO
        for byte in data:
            chip.Write_MFRC522(FIFO_DATA, byte)
        chip.Write_MFRC522(BIT_FRAMING, last_bits & 0x07)
        chip.Write_MFRC522(COMMAND, PCD_TRANSCEIVE)
        chip.Write_MFRC522(BIT_FRAMING, 0x80 | (last_bits & 0x07))  # StartSend
        irq = polls = 0
        while polls < self.max_polls:  # bounded: the package's loop is not (issue 42)
            polls += 1
            irq = chip.Read_MFRC522(COMM_IRQ)
            if irq & (IRQ_RX | IRQ_TIMER | IRQ_ERR):
                break
        self.polls_used = polls
        chip.Write_MFRC522(BIT_FRAMING, 0x00)
        if not irq & IRQ_RX or chip.Read_MFRC522(ERROR) & ERR_MASK:
            return None
        n = chip.Read_MFRC522(FIFO_LEVEL)
        reply = bytes(chip.Read_MFRC522(FIFO_DATA) for _ in range(n))
        valid = chip.Read_MFRC522(CONTROL) & 0x07
        return reply, (n - 1) * 8 + valid if valid else n * 8

    def _crc(self, data: Sequence[int]) -> list[int]:
        out: list[int] = self.chip.CalulateCRC(list(data))  # the chip's CRC_A coprocessor
        return out

    def read_uid(self) -> bytes | None:
        """One poll: the UID of the tag in the field, or None. Leaves the tag halted."""
        if self.transceive([WUPA], last_bits=7) is None:
            return None
        uid = bytearray()
        for sel in SEL:
            got = self.transceive([sel, 0x20])
            if got is None or len(got[0]) != 5:
                return None
            cl = got[0]
            if cl[0] ^ cl[1] ^ cl[2] ^ cl[3] != cl[4]:
                return None  # BCC mismatch: a garbled read (e.g. two tags in one field)
            frame = [sel, 0x70, *cl]
            reply = self.transceive(frame + self._crc(frame))
            if reply is None or reply[1] != 24 or self._crc(reply[0][:1]) != list(reply[0][1:]):
                return None
            sak = reply[0][0]
            if sak & 0x04:  # cascade bit: more UID bytes follow at the next level
                if cl[0] != CASCADE_TAG:
                    return None
                uid += cl[1:4]
                continue
            uid += cl[:4]
            self.halt()
            return bytes(uid)
        return None

    def halt(self) -> None:
        """HLTA: the tag stops answering REQA (WUPA still wakes it) until it leaves the field."""
        frame = [HLTA, 0x00]
        self.transceive(frame + self._crc(frame))  # silence is the correct answer

    def close(self) -> None:
        """Antenna off, SPI closed, and only this reader's reset pin released."""
        try:
            self.chip.AntennaOff()
        finally:
            self.chip.spi.close()
            own = [self.spec.pin_rst] + ([self.spec.pin_cs] if self.spec.pin_cs is not None else [])
            self.gpio.cleanup(own)  # never GPIO.cleanup(): other readers' and buttons' pins


class Mfrc522Backend(ReaderBackend):
    """Polls every reader in turn; posts each channel's set after every read of it."""

    name = "mfrc522"

    def __init__(self, readers: Sequence[Mapping[str, int] | ReaderSpec], board: str = "spi",
                 speed_hz: int = 1_000_000, max_polls: int = 200, timeout_ms: int = 2,
                 cycle_s: float = 0.0, health_every: int = 50,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        if not readers:
            raise BridgeConfigError("mfrc522 back-end needs readers=[{bus, device, pin_rst}, ...]")
        self.specs = [r if isinstance(r, ReaderSpec) else ReaderSpec(**r) for r in readers]
        channels = [s.channel if s.channel is not None else i for i, s in enumerate(self.specs)]
        if len(set(channels)) != len(channels):
            raise BridgeConfigError("two readers share a channel number")
        self.channels = channels
        self.board = board
        self.options = (speed_hz, max_polls, timeout_ms)
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
                self.readers.append(TagReader(spec, speed, polls, timeout, GPIO))
            except OSError as exc:
                raise HardwareUnavailable(
                    f"cannot open SPI device /dev/spidev{spec.bus}.{spec.device} ({exc}): enable "
                    "SPI with raspi-config (bus 1 also needs dtoverlay=spi1-3cs) and check the "
                    "reader's bus and device in the config") from exc

    def poll_once(self) -> list[ChannelScan]:
        """Read every reader once; the ChannelScans (also posted). Used by the thread and tests."""
        scans = []
        for channel, reader in zip(self.channels, self.readers, strict=True):
            uid = reader.read_uid()
            self.counters["reads" if uid else "empty"] += 1
            uids = frozenset({uid_to_str(uid)}) if uid else frozenset()
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
