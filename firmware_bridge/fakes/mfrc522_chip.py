"""A register-level fake MFRC522 with virtual ISO 14443A tags in its antenna field, on a clock.

Models what the drivers touch: registers, the 64-byte FIFO (burst reads and writes), the Idle /
CalcCRC / Transceive / SoftReset commands, the interrupt request bits, the timer (TAuto,
TPrescaler, TReload), bit-oriented frames (TxLastBits, RxAlign, RxLastBits) and collisions:
the answers of every tag in the field are ORed, CollErr is set and CollReg holds the first
colliding bit (ISO/IEC 14443-3 6.5; datasheet CollReg). Time (firmware_bridge.fakes.rf_time):
each SPI transaction advances the shared clock by its bytes at the bus clock; a transmission,
the tags' frame delay time and answer, and the timer run on that clock, so an interrupt bit is
set only once its moment has come. A tag answers only in a field that has been on, unmodulated,
for 5.1 ms, and not while a neighbour's field (``interferers``) is on.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from firmware_bridge.fakes.iso14443_tag import (
    CASCADE_TAG,
    SEL,
    VirtualTag,
    crc_a,
    from_bits,
    to_bits,
)
from firmware_bridge.fakes.rf_time import (
    BIT_US,
    FC_HZ,
    FIELD_SETTLE_US,
    PCD_GUARD_US,
    SOFT_RESET_US,
    TIMER_STOP_BITS,
    VirtualClock,
    air_us,
    fdt_us,
    spi_us,
)

__all__ = ["CASCADE_TAG", "SEL", "FakeMFRC522", "VirtualTag", "crc_a"]

# registers (the datasheet's names)
COMMAND, COMM_IEN, COMM_IRQ, DIV_IRQ, ERROR = 0x01, 0x02, 0x04, 0x05, 0x06
FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = 0x09, 0x0A, 0x0C, 0x0D, 0x0E
MODE, TX_CONTROL, CRC_RESULT_M, CRC_RESULT_L, VERSION = 0x11, 0x14, 0x21, 0x22, 0x37
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L = 0x2A, 0x2B, 0x2C, 0x2D

CMD_IDLE, CMD_CALC_CRC, CMD_TRANSCEIVE, CMD_SOFT_RESET = 0x00, 0x03, 0x0C, 0x0F
IRQ_TIMER, IRQ_ERR, IRQ_IDLE, IRQ_RX, IRQ_TX = 0x01, 0x02, 0x10, 0x20, 0x40
DIV_CRC = 0x04
ERR_COLL = 0x08
POWER_DOWN = 0x10  # CommandReg: set while the soft reset runs


@dataclass
class _Exchange:
    """One transmission under way: when each of its interrupt bits is due."""

    tx_end: float
    timer_at: float | None  # TimerIRq due (None: stopped by an answer, or no TAuto)
    rx_end: float | None = None
    bits: list[int] | None = None
    collision: int | None = None  # index of the first colliding answer bit
    rx_align: int = 0


class FakeMFRC522:
    """The chip behind one chip select. `transfer` is what the fake spidev calls."""

    def __init__(self, clock: VirtualClock | None = None, spi_hz: int = 4_000_000) -> None:
        self.clock = clock or VirtualClock()
        self.spi_hz = spi_hz
        self.tags: list[VirtualTag] = []
        self.transfers = 0
        self.stuck = False  # fault: the chip never raises an interrupt bit
        self.stuck_in_reset = False  # fault: the soft reset never ends (PowerDown stays set)
        self.in_reset = False  # the NRSTPD pin is low: the chip ignores SPI
        self.interferers: list[FakeMFRC522] = []  # coils close enough to fill our pauses
        self.commands: list[int] = []
        self.field_on_at: float | None = None
        self.early = 0  # transmissions started before the field had settled
        self.jammed = 0  # transmissions made while a neighbour's field was on
        self.frames: list[bytes] = []  # every frame sent to the tags, for tests
        self.rushed = 0  # frames sent less than 1172/fc after a tag's answer ended
        self.quiet_from = 0.0
        self.soft_reset()

    # ------------------------------------------------------------ the field
    def place(self, tag: VirtualTag) -> VirtualTag:
        """Bring a tag into the antenna field (it powers up in IDLE)."""
        tag.power_up()
        self.tags.append(tag)
        return tag

    def take(self, tag: VirtualTag) -> None:
        self.tags.remove(tag)

    @property
    def field_on(self) -> bool:
        return self.regs[TX_CONTROL] & 0x03 == 0x03 and not self.in_reset

    # ------------------------------------------------------------ SPI
    def transfer(self, data: list[int]) -> list[int]:
        """One chip-select-low SPI transaction, as the MFRC522 datasheet section 8.1.2."""
        self.transfers += 1
        self.clock.sync()
        self.clock.advance(spi_us(len(data), self.spi_hz))
        out = [0] * len(data)
        if self.in_reset or not data:
            return out
        self._settle()
        addr = (data[0] >> 1) & 0x3F
        if data[0] & 0x80:
            for i in range(1, len(data)):  # byte i answers the address sent in byte i-1
                out[i] = self.read(addr)
                addr = (data[i] >> 1) & 0x3F
        else:
            for value in data[1:]:  # every data byte goes to the one address (FIFO bursts)
                self.write(addr, value)
        return out

    def hard_reset(self) -> None:
        self.soft_reset()

    def soft_reset(self) -> None:
        self.regs = [0] * 64
        self.regs[VERSION] = 0x92
        self.regs[COMMAND] = 0x20
        self.regs[MODE] = 0x3F
        self.regs[COMM_IRQ] = 0x14
        self.regs[T_RELOAD_L] = 0  # reset value 0: a driver must set its timeout
        self.fifo: deque[int] = deque(maxlen=64)
        self.busy: _Exchange | None = None
        self.reset_until = self.clock.us + SOFT_RESET_US
        self.field_on_at = None

    def read(self, addr: int) -> int:
        if addr == FIFO_DATA:
            return self.fifo.popleft() if self.fifo else 0
        if addr == FIFO_LEVEL:
            return len(self.fifo)
        if addr == COMMAND and (self.stuck_in_reset or self.clock.us < self.reset_until):
            return self.regs[COMMAND] | POWER_DOWN
        return self.regs[addr]

    def write(self, addr: int, value: int) -> None:
        value &= 0xFF
        if addr == FIFO_DATA:
            self.fifo.append(value)
        elif addr == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
        elif addr in (COMM_IRQ, DIV_IRQ):
            mask = value & 0x7F  # bit 7 (Set1/Set2) says set or clear the marked bits
            self.regs[addr] = self.regs[addr] | mask if value & 0x80 else self.regs[addr] & ~mask
        elif addr == COMMAND:
            self.regs[COMMAND] = value & 0x3F
            self._command(value & 0x0F)
        elif addr == BIT_FRAMING:
            self.regs[BIT_FRAMING] = value & 0x7F
            if value & 0x80 and self.regs[COMMAND] & 0x0F == CMD_TRANSCEIVE:
                self._transceive()
        elif addr == TX_CONTROL:
            was = self.field_on
            self.regs[TX_CONTROL] = value
            if self.field_on and not was:
                self.field_on_at = self.clock.us
                for tag in self.tags:
                    tag.power_up()  # a tag is powered by the field: it starts afresh
            elif not self.field_on:
                self.field_on_at = None
        else:
            self.regs[addr] = value

    # ------------------------------------------------------------ commands
    def _command(self, cmd: int) -> None:
        self.commands.append(cmd)
        self.busy = None
        if cmd == CMD_SOFT_RESET:
            self.soft_reset()
        elif cmd == CMD_CALC_CRC:
            crc = crc_a(list(self.fifo))
            self.fifo.clear()
            self.regs[CRC_RESULT_L], self.regs[CRC_RESULT_M] = crc[0], crc[1]
            if not self.stuck:
                self.regs[DIV_IRQ] |= DIV_CRC

    def timeout_us(self) -> float:
        """(TPrescaler*2 + 1) * (TReload + 1) / 13.56 MHz (datasheet 8.5, TPrescalEven = 0)."""
        prescaler = (self.regs[T_MODE] & 0x0F) << 8 | self.regs[T_PRESCALER]
        reload = self.regs[T_RELOAD_H] << 8 | self.regs[T_RELOAD_L]
        return (2 * prescaler + 1) * (reload + 1) / FC_HZ * 1e6

    def _frame_bits(self) -> list[int]:
        """The FIFO's bytes as bits on air; TxLastBits (0 = 8) valid bits of the last byte."""
        data = list(self.fifo)
        self.fifo.clear()
        last = self.regs[BIT_FRAMING] & 0x07
        bits = to_bits(data)
        return bits[: len(bits) - (8 - last)] if last and bits else bits

    def _transceive(self) -> None:
        bits = self._frame_bits()
        self.frames.append(from_bits(bits))
        now = self.clock.us
        self.regs[ERROR] = 0
        self.regs[CONTROL] &= ~0x07
        tx_end = now + air_us(len(bits))
        auto = self.regs[T_MODE] & 0x80
        ex = _Exchange(tx_end, tx_end + self.timeout_us() if auto else None,
                       rx_align=(self.regs[BIT_FRAMING] >> 4) & 0x07)
        self.busy = None if self.stuck else ex
        if self.field_on_at is None or now < self.field_on_at + FIELD_SETTLE_US:
            self.early += 1  # tags not yet powered: a command into the void
            return
        if now < self.quiet_from:
            self.rushed += 1  # sooner than FDT PICC -> PCD after an answer: not heard
            return
        if any(n.field_on for n in self.interferers):
            self.jammed += 1  # a neighbour's carrier fills our pauses: no tag decodes it
            return
        answers = [a for t in self.tags if (a := t.handle_bits(bits)) is not None]
        if not answers:
            return
        ex.bits, ex.collision = _overlay(answers)
        start = tx_end + fdt_us(bits[-1] if bits else 0)
        ex.rx_end = start + air_us(len(ex.bits))
        if ex.timer_at is not None and start + TIMER_STOP_BITS * BIT_US < ex.timer_at:
            ex.timer_at = None  # the answer began in time: TAuto stops the timer

    def _settle(self) -> None:
        """Set the interrupt bits whose moment has come (and the answer in the FIFO)."""
        ex, now = self.busy, self.clock.us
        if ex is None:
            return
        if now >= ex.tx_end:
            self.regs[COMM_IRQ] |= IRQ_TX
        if ex.timer_at is not None and now >= ex.timer_at:
            self.regs[COMM_IRQ] |= IRQ_TIMER
            ex.timer_at = None
        if ex.rx_end is not None and now >= ex.rx_end and ex.bits is not None:
            self._receive(ex)
            ex.rx_end = None
        if now >= ex.tx_end and ex.timer_at is None and ex.rx_end is None:
            self.busy = None

    def _receive(self, ex: _Exchange) -> None:
        """The answer into the FIFO from bit RxAlign of its first byte; CollReg and CollErr."""
        bits = ex.bits or []
        if ex.collision is not None and not self.regs[COLL] & 0x80:
            bits = bits[: ex.collision + 1] + [0] * (len(bits) - ex.collision - 1)
        placed = [0] * ex.rx_align + bits
        self.fifo.extend(from_bits(placed))
        self.regs[CONTROL] = (self.regs[CONTROL] & ~0x07) | len(placed) % 8
        self.quiet_from = (ex.rx_end or self.clock.us) + PCD_GUARD_US
        self.regs[COMM_IRQ] |= IRQ_RX
        if ex.collision is not None:
            pos = ex.rx_align + ex.collision + 1
            self.regs[COLL] = (self.regs[COLL] & 0x80) | (0x20 if pos > 32 else pos % 32)
            self.regs[ERROR] |= ERR_COLL
            self.regs[COMM_IRQ] |= IRQ_ERR


def _overlay(answers: list[list[int]]) -> tuple[list[int], int | None]:
    """Answers sent at once: each bit the OR of the senders' (load modulation adds), and the
    first bit where they differ (Manchester coding makes it a collision, ISO/IEC 14443-3
    6.5)."""
    length = max(len(a) for a in answers)
    out, first = [], None
    for i in range(length):
        sent = {a[i] for a in answers if i < len(a)}
        if first is None and len(sent) > 1:
            first = i
        out.append(max(sent))
    return out, first

