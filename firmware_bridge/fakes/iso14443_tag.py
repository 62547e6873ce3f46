"""A virtual ISO/IEC 14443A tag (PICC) for the fake MFRC522: states, cascade levels and the
bit-frame anticollision of ISO/IEC 14443-3 clause 6.

The tag answers a frame with a list of bits (least significant bit of each byte first, as they
go on air) or None for silence; the fake chip lays the answers of every tag in its field on
top of each other, which is where collisions come from.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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


def to_bits(data: bytes | list[int], nbits: int | None = None) -> list[int]:
    """Bytes as the bits sent on air: each byte least significant bit first."""
    bits = [(b >> i) & 1 for b in data for i in range(8)]
    return bits if nbits is None else bits[:nbits]


def from_bits(bits: list[int]) -> bytes:
    """The inverse of to_bits; a last partial byte is padded with zeros."""
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        out[i // 8] |= bit << (i % 8)
    return bytes(out)


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
        if self.levels[-1][0] == CASCADE_TAG:
            raise ValueError("the last cascade level of a UID never begins with 88h, the "
                             "cascade tag (ISO/IEC 14443-3, 6.5)")

    @property
    def levels(self) -> list[bytes]:
        """The UID as cascade levels of four bytes, with cascade tags where more follows."""
        u = self.uid
        if len(u) == 4:
            return [u]
        if len(u) == 7:
            return [bytes([CASCADE_TAG]) + u[:3], u[3:]]
        return [bytes([CASCADE_TAG]) + u[:3], bytes([CASCADE_TAG]) + u[3:6], u[6:]]

    def uid_cl(self, level: int) -> bytes:
        """UID CLn: the level's four bytes and their BCC (ISO/IEC 14443-3, 6.5)."""
        cl = self.levels[level]
        return cl + bytes([cl[0] ^ cl[1] ^ cl[2] ^ cl[3]])

    def atqa(self) -> bytes:
        size_bits = {4: 0x00, 7: 0x40, 10: 0x80}[len(self.uid)]
        return bytes([size_bits | 0x04, 0x00])

    def power_up(self) -> None:
        self.state, self.level, self.halted_before = "IDLE", 0, False

    def _reject(self) -> None:
        # an unexpected command sends a READY/ACTIVE tag back to IDLE (HALT if it was halted)
        self.state = "HALT" if self.halted_before else "IDLE"
        self.level = 0

    def handle(self, frame: bytes, last_bits: int = 0) -> bytes | None:
        """Byte-level convenience: the answer as bytes (for whole-byte answers), or None."""
        bits = self.handle_bits(to_bits(frame, len(frame) * 8 - (8 - last_bits) % 8))
        return None if bits is None else from_bits(bits)

    def handle_bits(self, bits: list[int]) -> list[int] | None:
        """React to one frame from the reader (its bits); the answer's bits, or None."""
        if len(bits) == 7:
            return self._short(int(from_bits(bits)[0]))
        if len(bits) < 16 or len(bits) % 8 and len(bits) > 72:
            self._reject()
            return None
        data = from_bits(bits)
        if data[0] in SEL and data[1] != 0x70:
            return self._anticoll(SEL.index(data[0]), data[1], bits[16:])
        if len(bits) == 72 and data[0] in SEL:
            return self._select(SEL.index(data[0]), data)
        if len(bits) == 32 and data[:2] == bytes([HLTA, 0]) and crc_a(data[:2]) == data[2:]:
            if self.state == "ACTIVE":
                self.state, self.halted_before = "HALT", True
                return None
        self._reject()
        return None

    def _short(self, cmd: int) -> list[int] | None:
        if self.state in ("READY", "ACTIVE"):
            self._reject()
            return None
        if cmd == WUPA or (cmd == REQA and self.state == "IDLE"):
            self.state, self.level = "READY", 0
            return to_bits(self.atqa())
        return None

    def _anticoll(self, level: int, nvb: int, known: list[int]) -> list[int] | None:
        """NVB = 16 + len(known) bits (upper nibble bytes, lower nibble bits): a tag whose UID CLn
        begins with the known bits sends the rest of it; another tag is silent
        (ISO/IEC 14443-3, 6.5)."""
        count = (nvb >> 4) * 8 + (nvb & 0x0F) - 16
        if self.state != "READY" or level != self.level or count != len(known) or count >= 40:
            self._reject()
            return None
        mine = to_bits(self.uid_cl(level))
        if mine[:count] != known:
            return None  # not ours: stay READY and keep quiet
        return mine[count:]

    def _select(self, level: int, frame: bytes) -> list[int] | None:
        if self.state != "READY" or level != self.level or crc_a(frame[:7]) != frame[7:]:
            self._reject()
            return None
        if frame[2:7] != self.uid_cl(level):
            self._reject()
            return None
        if level + 1 < len(self.levels):
            self.level += 1
            sak = 0x04  # cascade bit: the UID is not complete yet
        else:
            self.state = "ACTIVE"
            sak = self.sak
        self.answers += 1
        return to_bits(bytes([sak]) + crc_a([sak]))
