"""A register-level fake MFRC522 with virtual ISO 14443A tags in its antenna field.

Models what the drivers touch: registers, the 64-byte FIFO, the Idle / CalcCRC / Transceive /
SoftReset commands, the interrupt request bits, and tags with 4-, 7- and 10-byte UIDs that
follow the ISO 14443-3 state machine (IDLE, READY, ACTIVE, HALT; cascade tag 0x88 and BCC).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

# registers (the datasheet's names)
COMMAND, COMM_IEN, COMM_IRQ, DIV_IRQ, ERROR = 0x01, 0x02, 0x04, 0x05, 0x06
FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = 0x09, 0x0A, 0x0C, 0x0D, 0x0E
MODE, TX_CONTROL, CRC_RESULT_M, CRC_RESULT_L, VERSION = 0x11, 0x14, 0x21, 0x22, 0x37
T_MODE = 0x2A

CMD_IDLE, CMD_CALC_CRC, CMD_TRANSCEIVE, CMD_SOFT_RESET = 0x00, 0x03, 0x0C, 0x0F
IRQ_TIMER, IRQ_ERR, IRQ_IDLE, IRQ_RX, IRQ_TX = 0x01, 0x02, 0x10, 0x20, 0x40
DIV_CRC = 0x04
ERR_COLL = 0x08

REQA, WUPA, HLTA = 0x26, 0x52, 0x50
SEL = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88


def crc_a(data: bytes | list[int]) -> bytes:
    """ISO 14443A CRC_A (init 0x6363, poly 0x8408 reflected), low byte first."""
    crc = 0x6363
    for b in data:
        b = (b ^ crc) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return bytes([crc & 0xFF, crc >> 8])


@dataclass
class VirtualTag:
    """A tag: UID (4, 7 or 10 bytes; NTAG213 UIDs start with 0x04), SAK, ISO 14443-3 state."""

    uid: bytes
    sak: int = 0x00  # NTAG / Ultralight; MIFARE Classic 1K would be 0x08
    state: str = "IDLE"
    level: int = 0
    halted_before: bool = False
    answers: int = field(default=0, repr=False)

    def __post_init__(self) -> None:
        if len(self.uid) not in (4, 7, 10):
            raise ValueError("ISO 14443A UIDs have 4, 7 or 10 bytes")

    @property
    def levels(self) -> list[bytes]:
        """The UID as cascade levels of four bytes, with cascade tags where more follows."""
        u = self.uid
        if len(u) == 4:
            return [u]
        if len(u) == 7:
            return [bytes([CASCADE_TAG]) + u[:3], u[3:]]
        return [bytes([CASCADE_TAG]) + u[:3], bytes([CASCADE_TAG]) + u[3:6], u[6:]]

    def atqa(self) -> bytes:
        size_bits = {4: 0x00, 7: 0x40, 10: 0x80}[len(self.uid)]
        return bytes([size_bits | 0x04, 0x00])

    def power_up(self) -> None:
        self.state, self.level, self.halted_before = "IDLE", 0, False

    def _reject(self) -> None:
        # an unexpected command sends a READY/ACTIVE tag back to IDLE (HALT if it was halted)
        self.state = "HALT" if self.halted_before else "IDLE"
        self.level = 0

    def handle(self, frame: bytes, last_bits: int) -> bytes | None:
        """React to one frame from the reader; the answer, or None for silence."""
        if last_bits == 7 and len(frame) == 1:
            return self._short(frame[0])
        if len(frame) == 2 and frame[0] in SEL and frame[1] == 0x20:
            return self._anticoll(SEL.index(frame[0]))
        if len(frame) == 9 and frame[0] in SEL and frame[1] == 0x70:
            return self._select(SEL.index(frame[0]), frame)
        if len(frame) == 4 and frame[:2] == bytes([HLTA, 0]) and crc_a(frame[:2]) == frame[2:]:
            if self.state == "ACTIVE":
                self.state, self.halted_before = "HALT", True
                return None
        self._reject()
        return None

    def _short(self, cmd: int) -> bytes | None:
        if self.state in ("READY", "ACTIVE"):
            self._reject()
            return None
        if cmd == WUPA or (cmd == REQA and self.state == "IDLE"):
            self.state, self.level = "READY", 0
            return self.atqa()
        return None

    def _anticoll(self, level: int) -> bytes | None:
        if self.state != "READY" or level != self.level:
            self._reject()
            return None
        cl = self.levels[level]
        return cl + bytes([cl[0] ^ cl[1] ^ cl[2] ^ cl[3]])

    def _select(self, level: int, frame: bytes) -> bytes | None:
        if self.state != "READY" or level != self.level or crc_a(frame[:7]) != frame[7:]:
            self._reject()
            return None
        cl = self.levels[level]
        if frame[2:7] != cl + bytes([cl[0] ^ cl[1] ^ cl[2] ^ cl[3]]):
            self._reject()
            return None
        if level + 1 < len(self.levels):
            self.level += 1
            sak = 0x04  # cascade bit: the UID is not complete yet
        else:
            self.state = "ACTIVE"
            sak = self.sak
        self.answers += 1
        return bytes([sak]) + crc_a([sak])


class FakeMFRC522:
    """The chip behind one chip select. `transfer` is what the fake spidev calls."""

    def __init__(self) -> None:
        self.tags: list[VirtualTag] = []
        self.transfers = 0
        self.stuck = False  # fault: the chip never raises an interrupt bit
        self.in_reset = False  # the NRSTPD pin is low: the chip ignores SPI
        self.commands: list[int] = []
        self.soft_reset()

    # ------------------------------------------------------------ the field
    def place(self, tag: VirtualTag) -> VirtualTag:
        """Bring a tag into the antenna field (it powers up in IDLE)."""
        tag.power_up()
        self.tags.append(tag)
        return tag

    def take(self, tag: VirtualTag) -> None:
        self.tags.remove(tag)

    # ------------------------------------------------------------ SPI
    def transfer(self, data: list[int]) -> list[int]:
        """One chip-select-low SPI transaction, as the MFRC522 datasheet section 8.1.2."""
        self.transfers += 1
        out = [0] * len(data)
        if self.in_reset or not data:
            return out
        addr = (data[0] >> 1) & 0x3F
        if data[0] & 0x80:
            for i in range(1, len(data)):  # byte i answers the address sent in byte i-1
                out[i] = self.read(addr)
                addr = (data[i] >> 1) & 0x3F
        else:
            for value in data[1:]:
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
        self.fifo: deque[int] = deque(maxlen=64)

    def read(self, addr: int) -> int:
        if addr == FIFO_DATA:
            return self.fifo.popleft() if self.fifo else 0
        if addr == FIFO_LEVEL:
            return len(self.fifo)
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
        else:
            self.regs[addr] = value

    # ------------------------------------------------------------ commands
    def _command(self, cmd: int) -> None:
        self.commands.append(cmd)
        if cmd == CMD_SOFT_RESET:
            self.soft_reset()
        elif cmd == CMD_CALC_CRC:
            crc = crc_a(list(self.fifo))
            self.fifo.clear()
            self.regs[CRC_RESULT_L], self.regs[CRC_RESULT_M] = crc[0], crc[1]
            if not self.stuck:
                self.regs[DIV_IRQ] |= DIV_CRC
        elif cmd == CMD_IDLE:
            pass

    def _transceive(self) -> None:
        frame = bytes(self.fifo)
        self.fifo.clear()
        last_bits = self.regs[BIT_FRAMING] & 0x07
        self.regs[ERROR] = 0
        self.regs[CONTROL] &= ~0x07
        field_on = self.regs[TX_CONTROL] & 0x03 == 0x03
        answers = [a for t in (self.tags if field_on else []) if (a := t.handle(frame, last_bits))]
        if self.stuck:
            return
        self.regs[COMM_IRQ] |= IRQ_TX
        if not answers:
            self.regs[COMM_IRQ] |= IRQ_TIMER  # nobody answered: only the timer fires
            return
        reply = bytearray(answers[0])
        if any(a != answers[0] for a in answers[1:]):
            for a in answers[1:]:  # overlapping answers: a garbled mix and a collision error
                for i in range(min(len(reply), len(a))):
                    reply[i] |= a[i]
            self.regs[ERROR] |= ERR_COLL
            self.regs[COMM_IRQ] |= IRQ_ERR
        self.fifo.extend(reply)
        self.regs[COMM_IRQ] |= IRQ_RX
