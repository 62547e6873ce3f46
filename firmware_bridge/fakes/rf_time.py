"""Time as the MFRC522 and ISO/IEC 14443 give it, on a virtual clock the fakes share.

Every figure here names its source; hardware_docs/timing.md quotes them. The fake SPI bus
advances the clock by each transaction's bytes at the bus clock; the fake chip schedules its
transmissions, the tags' answers and its timer on the same clock, so a driver's waits cost
what they would cost on the air.
"""

from __future__ import annotations

import time

FC_HZ = 13_560_000  # carrier frequency fc (ISO/IEC 14443-2, 6.1)
BIT_US = 128 / FC_HZ * 1e6  # 106 kbit/s: 128/fc = 9.44 us (ISO/IEC 14443-2, Type A bit rate)
FIELD_SETTLE_US = 5100.0  # unmodulated field before the first command (HARDWARE_NOTES.md;
#                           ISO/IEC 14443-3 6.1: a PICC answers within 5 ms of a field)
PCD_GUARD_US = 1172 / FC_HZ * 1e6  # a tag's answer to the PCD's next frame: at least 1172/fc
#                                    = 86.4 us (ISO/IEC 14443-3 6.2.1.2, FDT PICC -> PCD)
SOFT_RESET_US = 37.74  # SoftReset: oscillator start-up after the crystal (datasheet 8.8.2)
TIMER_STOP_BITS = 5  # TAuto: the timer stops after 1 start bit + 4 data bits (datasheet
#                     table 106, TModeReg)


def fdt_us(last_bit: int) -> float:
    """Frame delay time PCD -> PICC for REQA, WUPA, ANTICOLLISION and SELECT: (n*128 + 84)/fc
    when the PCD's last bit is 1, (n*128 + 20)/fc when it is 0, n = 9 (ISO/IEC 14443-3 6.2.1.1)."""
    return (9 * 128 + (84 if last_bit else 20)) / FC_HZ * 1e6


def frame_bits(nbits: int) -> int:
    """Bits on air for a frame of nbits data bits: start of communication, one odd parity bit
    per whole byte (a short or a split last byte has none), end of communication
    (ISO/IEC 14443-3 6.2.3, frame formats)."""
    return 1 + nbits + nbits // 8 + 1


def air_us(nbits: int) -> float:
    """Time on air of a frame of nbits data bits at 106 kbit/s."""
    return frame_bits(nbits) * BIT_US


class VirtualClock:
    """Microseconds since the model started; advanced by the bus and by waits. With
    ``follow_wall`` it also never runs behind the wall clock (for drivers that really sleep,
    such as the Pi's SPI back-end in the service's tests). Its ticks_us / ticks_diff / wait_us
    are what the firmware's RC522 driver takes as its clock."""

    def __init__(self, follow_wall: bool = False) -> None:
        self.us = 0.0
        self.follow_wall = follow_wall
        self._t0 = time.monotonic()
        self._ahead = 0.0  # following the wall: the time the bus has added to it

    def sync(self) -> None:
        if self.follow_wall:
            self.until((time.monotonic() - self._t0) * 1e6 + self._ahead)

    def ticks_us(self) -> int:
        self.sync()
        return int(self.us)

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b

    def wait_us(self, us: float) -> None:
        if self.follow_wall:
            time.sleep(us / 1e6)
            self.sync()
        else:
            self.advance(us)

    def advance(self, us: float) -> None:
        self.us += us
        self._ahead += us

    def until(self, us: float) -> None:
        """Wait until the clock reads ``us`` (nothing happens if it already does)."""
        self.us = max(self.us, us)

    @property
    def ms(self) -> int:
        return int(self.us // 1000)


def spi_us(nbytes: int, hz: int) -> float:
    """One chip-select-low transaction of nbytes at the SPI clock hz (datasheet 8.1.2): the
    clock edges only, a floor (the chip-select set-up and the microcontroller's own time
    between transactions are not in it)."""
    return nbytes * 8 / hz * 1e6
