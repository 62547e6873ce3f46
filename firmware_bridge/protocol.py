"""The host <-> board wire codec: blocks, CRC, and the message table. Pure: no I/O, no clock.

A block is ``<length><seq><content><crc16 hi><crc16 lo><0x7E>`` (at most 64 bytes, see
hardware_docs/protocol.md); content is one message: ``<msg id><fields...>`` laid out by MESSAGES.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

BLOCK_MIN = 5
BLOCK_MAX = 64
HEADER = 2
TRAILER = 3
CONTENT_MAX = BLOCK_MAX - HEADER - TRAILER
SYNC = 0x7E
SEQ_MASK = 0x0F
DIR_BOARD = 0x10  # high nibble of the seq byte: board -> host
DIR_HOST = 0x20  # host -> board
PROTOCOL_VERSION = 2  # 2: snapshot parts carry their channel range and are acknowledged
UID_LENGTHS = (4, 7, 10)  # ISO 14443A single, double and triple size UIDs

Direction = Literal["board", "host"]
DIR_BITS: dict[str, int] = {"board": DIR_BOARD, "host": DIR_HOST}


class ProtocolError(ValueError):
    """A block or message that must be rejected (bad CRC, unknown id, bad field)."""


def _crc_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
        table.append(crc)
    return tuple(table)


_CRC_TABLE = _crc_table()


def crc16_mcrf4xx(data: bytes | bytearray | memoryview) -> int:
    """CRC-16/MCRF4XX (poly 0x1021 reflected, init 0xFFFF, no final xor); check 0x6F91."""
    crc = 0xFFFF
    table = _CRC_TABLE
    for b in data:
        crc = (crc >> 8) ^ table[(crc ^ b) & 0xFF]
    return crc


# ---------------------------------------------------------------- wire types

Decoder = Callable[[bytes, int, int], tuple[Any, int]]
Encoder = Callable[[Any], bytes]


def _fixed(fmt: str) -> tuple[Encoder, Decoder]:
    st = struct.Struct(">" + fmt)

    def enc(value: Any) -> bytes:
        return st.pack(value)

    def dec(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
        if pos + st.size > end:
            raise ProtocolError("message too short")
        return st.unpack_from(buf, pos)[0], pos + st.size

    return enc, dec


def _enc_str(value: Any) -> bytes:
    raw = str(value).encode("utf-8")
    if len(raw) > 32:
        raise ProtocolError(f"string {value!r} longer than 32 bytes")
    return bytes([len(raw)]) + raw


def _dec_str(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
    raw, pos = _dec_bytes(buf, pos, end)
    try:
        return raw.decode("utf-8"), pos
    except UnicodeDecodeError as exc:
        raise ProtocolError("string is not UTF-8") from exc


def _dec_bytes(buf: bytes, pos: int, end: int) -> tuple[bytes, int]:
    if pos >= end:
        raise ProtocolError("message too short")
    n = buf[pos]
    if pos + 1 + n > end:
        raise ProtocolError("length field runs past the message")
    return bytes(buf[pos + 1 : pos + 1 + n]), pos + 1 + n


def _enc_uid(value: Any) -> bytes:
    uid = bytes(value)
    if len(uid) not in UID_LENGTHS:
        raise ProtocolError(f"UID of {len(uid)} bytes; ISO 14443A UIDs have 4, 7 or 10")
    return bytes([len(uid)]) + uid


def _dec_uid(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
    uid, pos = _dec_bytes(buf, pos, end)
    if len(uid) not in UID_LENGTHS:
        raise ProtocolError(f"UID of {len(uid)} bytes")
    return uid, pos


def _enc_entries(value: Any) -> bytes:
    out = bytearray()
    for channel, uid in value:
        out.append(channel)
        out += _enc_uid(uid)
    return bytes(out)


def _dec_entries(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
    entries = []
    while pos < end:
        channel = buf[pos]
        if channel > 63:
            raise ProtocolError(f"channel {channel} out of range 0..63")
        uid, pos = _dec_uid(buf, pos + 1, end)
        entries.append((channel, uid))
    return tuple(entries), pos


WIRE_TYPES: dict[str, tuple[Encoder, Decoder]] = {
    "u8": _fixed("B"),
    "u16": _fixed("H"),
    "u32": _fixed("I"),
    "u64": _fixed("Q"),
    "str": (_enc_str, _dec_str),
    "uid": (_enc_uid, _dec_uid),
    "entries": (_enc_entries, _dec_entries),  # rest of the block: (channel u8, uid)*
}


# ---------------------------------------------------------------- the message table


@dataclass(frozen=True)
class MessageFormat:
    """One message: its id, who sends it, its fields in wire order, and what it means."""

    name: str
    msg_id: int
    direction: Direction
    fields: tuple[tuple[str, str], ...]
    doc: str


MESSAGES: tuple[MessageFormat, ...] = (
    MessageFormat(
        "hello", 0x01, "board",
        (("proto", "u8"), ("firmware", "str"), ("serial", "str"), ("board", "str"),
         ("channels", "u64")),
        "Sent at boot and on `identify`: protocol version, firmware version, USB serial "
        "number, board name (channels are named <board>/<n>), bit n set = channel n exists.",
    ),
    MessageFormat(
        "scan", 0x02, "board", (("channel", "u8"), ("present", "u8"), ("uid", "uid")),
        "A tag arrived (present=1) on or left (present=0) a channel, after the board's "
        "own debounce.",
    ),
    MessageFormat(
        "snapshot", 0x03, "board",
        (("snap", "u8"), ("part", "u8"), ("parts", "u8"), ("first", "u8"), ("last", "u8"),
         ("entries", "entries")),
        "Part `part` (0-based) of `parts` of snapshot `snap`: every (channel, uid) of "
        "channels first..last now (a channel of the range absent from the entries is "
        "empty). Each part stands alone; the board resends it, with the range's state at "
        "that moment, until the host acknowledges it with `snapshot_ack`.",
    ),
    MessageFormat(
        "heartbeat", 0x04, "board", (("uptime_ms", "u32"), ("scans", "u32")),
        "Sent every 100 ms by default; silence longer than the host's watchdog means down.",
    ),
    MessageFormat(
        "ack", 0x05, "board", (("ack_seq", "u8"), ("status", "u8")),
        "Acknowledges the host block with sequence `ack_seq` (0-15); status 0 ok, 1 refused.",
    ),
    MessageFormat(
        "identify", 0x40, "host", (),
        "Ask the board to (re)send its hello.",
    ),
    MessageFormat(
        "request_snapshot", 0x41, "host", (),
        "Ask for a full snapshot now (the host's resynchronisation).",
    ),
    MessageFormat(
        "set_leds", 0x42, "host", (("on", "u8"), ("blink", "u8")),
        "Bit n of `on` lights LED n; bit n of `blink` makes it blink.",
    ),
    MessageFormat(
        "buzzer", 0x43, "host", (("ms", "u16"),),
        "Sound the buzzer for `ms` milliseconds (0 silences it).",
    ),
    MessageFormat(
        "scan_rate", 0x44, "host", (("scan_ms", "u16"), ("snapshot_ms", "u16")),
        "Set the scan period and the periodic full snapshot period.",
    ),
    MessageFormat(
        "snapshot_ack", 0x45, "host", (("snap", "u8"), ("parts", "u64")),
        "Bit i of `parts` set: part i of snapshot `snap` arrived. Not acknowledged itself "
        "(a lost one makes the board resend the part, and the host acknowledges again).",
    ),
)

BY_NAME: dict[str, MessageFormat] = {m.name: m for m in MESSAGES}
BY_ID: dict[int, MessageFormat] = {m.msg_id: m for m in MESSAGES}
ACK_OK = 0
ACK_REFUSED = 1


@dataclass(frozen=True)
class Message:
    """A decoded (or to-be-encoded) message: its table name and field values."""

    name: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.args[key]


@dataclass(frozen=True)
class Block:
    """A checked block: the sender's 4-bit sequence number, direction and message."""

    seq: int
    direction: Direction
    message: Message


def encode(name: str, seq: int, /, **args: Any) -> bytes:
    """Encode one message into one block with sequence number seq (taken mod 16)."""
    fmt = BY_NAME.get(name)
    if fmt is None:
        raise ProtocolError(f"unknown message {name!r}")
    content = bytearray([fmt.msg_id])
    for fname, ftype in fmt.fields:
        if fname not in args:
            raise ProtocolError(f"{name}: field {fname!r} missing")
        content += WIRE_TYPES[ftype][0](args[fname])
    if len(content) > CONTENT_MAX:
        raise ProtocolError(f"{name}: {len(content)} content bytes exceed {CONTENT_MAX}")
    block = bytearray([len(content) + HEADER + TRAILER, DIR_BITS[fmt.direction] | seq & SEQ_MASK])
    block += content
    crc = crc16_mcrf4xx(block)
    block += bytes([crc >> 8, crc & 0xFF, SYNC])
    return bytes(block)


def check_block(buf: bytes | bytearray) -> int:
    """Frame checker: 0 = need more bytes; -n = bad, discard n bytes; n > 0 = a good block."""
    if len(buf) < BLOCK_MIN:
        return 0
    length = buf[0]
    if length < BLOCK_MIN or length > BLOCK_MAX or buf[1] & 0xF0 not in (DIR_BOARD, DIR_HOST):
        return -_skip(buf)
    if len(buf) < length:
        return 0
    crc = crc16_mcrf4xx(memoryview(buf)[: length - TRAILER])
    if buf[length - 1] != SYNC or buf[length - 3] != crc >> 8 or buf[length - 2] != crc & 0xFF:
        return -_skip(buf)
    return length


def _skip(buf: bytes | bytearray) -> int:
    """How many bytes to drop after a bad block: through the next sync byte, or everything.

    A block never starts with 0x7E (lengths are 5..64), so a leading sync is dropped alone.
    """
    idx = buf.find(SYNC)
    return idx + 1 if idx >= 0 else len(buf)


def decode_block(block: bytes | bytearray) -> Block:
    """Decode a block check_block accepted; raises ProtocolError for a malformed message."""
    dir_bits = block[1] & 0xF0
    direction: Direction
    if dir_bits == DIR_BOARD:
        direction = "board"
    elif dir_bits == DIR_HOST:
        direction = "host"
    else:
        raise ProtocolError(f"bad direction bits {dir_bits:#x}")
    end = len(block) - TRAILER
    fmt = BY_ID.get(block[HEADER]) if end > HEADER else None
    if fmt is None or fmt.direction != direction:
        raise ProtocolError("unknown message id or wrong direction")
    pos = HEADER + 1
    args: dict[str, Any] = {}
    raw = bytes(block)
    for fname, ftype in fmt.fields:
        args[fname], pos = WIRE_TYPES[ftype][1](raw, pos, end)
    if pos != end:
        raise ProtocolError(f"{fmt.name}: {end - pos} trailing bytes")
    return Block(block[1] & SEQ_MASK, direction, Message(fmt.name, args))


class StreamDecoder:
    """Incremental decoder over a byte stream: feed bytes, get blocks. Counts what it drops."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.hunting = False  # dropped bytes without finding a sync: drop through the next one
        self.frames = 0
        self.bad_frames = 0
        self.discarded_bytes = 0

    def feed(self, data: bytes) -> list[Block]:
        """Append data and return every complete, valid block now available."""
        self.buf += data
        out: list[Block] = []
        while True:
            if self.hunting and not self._hunt():
                return out
            n = check_block(self.buf)
            if n == 0:
                return out
            if n < 0:
                self._drop(-n)
                continue
            try:
                out.append(decode_block(self.buf[:n]))
                self.frames += 1
            except ProtocolError:
                self.bad_frames += 1
            del self.buf[:n]

    def _drop(self, n: int) -> None:
        self.bad_frames += 1
        self.discarded_bytes += n
        self.hunting = n == len(self.buf) and self.buf[-1] != SYNC
        del self.buf[:n]

    def _hunt(self) -> bool:
        """Drop bytes through the next sync; False if none has arrived yet."""
        idx = self.buf.find(SYNC)
        n = idx + 1 if idx >= 0 else len(self.buf)
        self.discarded_bytes += n
        del self.buf[:n]
        self.hunting = idx < 0
        return not self.hunting

    def reset(self) -> None:
        """Forget any partial block (after a reconnect)."""
        self.buf.clear()
        self.hunting = False


def next_seq(seq: int) -> int:
    """The sequence number after seq (4 bits, wrapping)."""
    return (seq + 1) & SEQ_MASK


#: Room for entries in one snapshot block: msg id, snap, part, parts, first, last come first.
SNAPSHOT_ROOM = CONTENT_MAX - 6
CHANNEL_LAST = 63


def fit_entries(entries: Iterable[tuple[int, bytes]]) -> list[tuple[int, bytes]]:
    """Entries sorted by channel and UID, at most one block's room per channel (a channel with
    more tags than that, which one antenna never reads, keeps the first ones)."""
    out: list[tuple[int, bytes]] = []
    used: dict[int, int] = {}
    for channel, uid in sorted(entries):
        need = 2 + len(uid)
        if used.get(channel, 0) + need <= SNAPSHOT_ROOM:
            used[channel] = used.get(channel, 0) + need
            out.append((channel, uid))
    return out


def snapshot_ranges(entries: list[tuple[int, bytes]]) -> list[tuple[int, int]]:
    """Channels 0..63 cut into ranges whose entries (from fit_entries) fill one block each."""
    need: dict[int, int] = {}
    for channel, uid in entries:
        need[channel] = need.get(channel, 0) + 2 + len(uid)
    ranges: list[tuple[int, int]] = []
    first, size = 0, 0
    for channel in sorted(need):
        if size + need[channel] > SNAPSHOT_ROOM and channel > first:
            ranges.append((first, channel - 1))
            first, size = channel, 0
        size += need[channel]
    ranges.append((first, CHANNEL_LAST))
    return ranges


def in_range(entries: list[tuple[int, bytes]], rng: tuple[int, int]) -> tuple[
        tuple[int, bytes], ...]:
    return tuple(e for e in entries if rng[0] <= e[0] <= rng[1])


def snapshot_blocks(
    snap: int, entries: list[tuple[int, bytes]], first_seq: int
) -> list[bytes]:
    """Every part of a full snapshot, one block each, sequence numbers from first_seq."""
    fitted = fit_entries(entries)
    ranges = snapshot_ranges(fitted)
    return [
        encode("snapshot", first_seq + i, snap=snap & 0xFF, part=i, parts=len(ranges),
               first=rng[0], last=rng[1], entries=in_range(fitted, rng))
        for i, rng in enumerate(ranges)
    ]
