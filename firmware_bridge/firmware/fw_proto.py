# Board side of the wire protocol (hardware_docs/protocol.md), for MicroPython and CPython.
# Same blocks as firmware_bridge/protocol.py: <len><seq><content><crc16 hi><crc16 lo><0x7E>.
# Written for MicroPython: no dataclasses, no typing, no del on slices of bytearrays.

import struct

SYNC = 0x7E
BLOCK_MIN = 5
BLOCK_MAX = 64
CONTENT_MAX = BLOCK_MAX - 5
DIR_BOARD = 0x10
DIR_HOST = 0x20
PROTOCOL_VERSION = 2

MSG_HELLO = 0x01
MSG_SCAN = 0x02
MSG_SNAPSHOT = 0x03
MSG_HEARTBEAT = 0x04
MSG_ACK = 0x05
CMD_IDENTIFY = 0x40
CMD_REQUEST_SNAPSHOT = 0x41
CMD_SET_LEDS = 0x42
CMD_BUZZER = 0x43
CMD_SCAN_RATE = 0x44
CMD_SNAPSHOT_ACK = 0x45  # never acknowledged itself

# host command id -> struct layout of its fields (after the id byte)
COMMAND_LAYOUT = {
    CMD_IDENTIFY: "",
    CMD_REQUEST_SNAPSHOT: "",
    CMD_SET_LEDS: ">BB",
    CMD_BUZZER: ">H",
    CMD_SCAN_RATE: ">HH",
    CMD_SNAPSHOT_ACK: ">BQ",
}


def _make_table():
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_CRC_TABLE = _make_table()


def crc16(data, end=None):
    """CRC-16/MCRF4XX over data[:end]."""
    crc = 0xFFFF
    table = _CRC_TABLE
    n = len(data) if end is None else end
    for i in range(n):
        crc = (crc >> 8) ^ table[(crc ^ data[i]) & 0xFF]
    return crc


def block(seq, content):
    """Wrap content (bytes) into a board -> host block with sequence seq."""
    out = bytearray(len(content) + 5)
    out[0] = len(content) + 5
    out[1] = DIR_BOARD | (seq & 0x0F)
    out[2:2 + len(content)] = content
    crc = crc16(out, len(content) + 2)
    out[-3] = crc >> 8
    out[-2] = crc & 0xFF
    out[-1] = SYNC
    return bytes(out)


def _uid(uid):
    return bytes([len(uid)]) + bytes(uid)


def _str(text):
    raw = text.encode()
    return bytes([len(raw)]) + raw


def hello(firmware, serial, board, channels):
    mask = 0
    for ch in channels:
        mask |= 1 << ch
    return (bytes([MSG_HELLO, PROTOCOL_VERSION]) + _str(firmware) + _str(serial) + _str(board)
            + struct.pack(">Q", mask))


def scan(channel, present, uid):
    return bytes([MSG_SCAN, channel, 1 if present else 0]) + _uid(uid)


def heartbeat(uptime_ms, scans):
    return bytes([MSG_HEARTBEAT]) + struct.pack(">II", uptime_ms & 0xFFFFFFFF,
                                                scans & 0xFFFFFFFF)


def ack(seq, status=0):
    return bytes([MSG_ACK, seq & 0x0F, status])


SNAPSHOT_ROOM = CONTENT_MAX - 6  # id, snap, part, parts, first, last


def fit_entries(entries):
    """Entries sorted, at most one block's room per channel."""
    out = []
    used = {}
    for channel, uid in sorted(entries):
        need = 2 + len(uid)
        if used.get(channel, 0) + need <= SNAPSHOT_ROOM:
            used[channel] = used.get(channel, 0) + need
            out.append((channel, uid))
    return out


def snapshot_ranges(entries):
    """Channels 0..63 cut into (first, last) ranges whose entries fill one block each."""
    need = {}
    for channel, uid in entries:
        need[channel] = need.get(channel, 0) + 2 + len(uid)
    ranges = []
    first = 0
    size = 0
    for channel in sorted(need):
        if size + need[channel] > SNAPSHOT_ROOM and channel > first:
            ranges.append((first, channel - 1))
            first = channel
            size = 0
        size += need[channel]
    ranges.append((first, 63))
    return ranges


def snapshot_part(snap, part, parts, first, last, entries):
    """One part: the entries of channels first..last (entries from fit_entries)."""
    out = bytearray([MSG_SNAPSHOT, snap & 0xFF, part, parts, first, last])
    for channel, uid in entries:
        if first <= channel <= last:
            out.extend(bytes([channel]) + _uid(uid))
    return bytes(out)


def range_fits(entries, first, last):
    return sum(2 + len(uid) for ch, uid in entries if first <= ch <= last) <= SNAPSHOT_ROOM


def snapshot(snap, entries):
    """The contents of every block of one full snapshot; entries is [(channel, uid), ...]."""
    fitted = fit_entries(entries)
    ranges = snapshot_ranges(fitted)
    return [snapshot_part(snap, i, len(ranges), a, b, fitted) for i, (a, b) in enumerate(ranges)]


class Parser:
    """Incremental parser of host -> board blocks; yields (seq, command id, args tuple)."""

    def __init__(self):
        self.buf = b""
        self.bad = 0
        self.hunting = False  # bytes were dropped without a sync: drop through the next one

    def feed(self, data):
        self.buf = self.buf + bytes(data)
        out = []
        while len(self.buf) >= 1:
            if self.hunting:
                i = self._find_sync()
                self.buf = self.buf[i + 1:] if i >= 0 else b""
                self.hunting = i < 0
                if self.hunting:
                    break
                continue
            if len(self.buf) < BLOCK_MIN:
                break
            n = self._check()
            if n == 0:
                break
            if n < 0:
                self.bad += 1
                self.hunting = -n == len(self.buf) and self.buf[-1] != SYNC
                self.buf = self.buf[-n:]
                continue
            cmd = self._decode(self.buf[:n])
            self.buf = self.buf[n:]
            if cmd is None:
                self.bad += 1
            else:
                out.append(cmd)
        return out

    def _find_sync(self):
        for i in range(len(self.buf)):
            if self.buf[i] == SYNC:
                return i
        return -1

    def _skip(self):
        # drop through the next sync byte: the next block starts after it (a block never
        # starts with 0x7E, so a leading sync is dropped alone)
        i = self._find_sync()
        return -(i + 1) if i >= 0 else -len(self.buf)

    def _check(self):
        b = self.buf
        length = b[0]
        if length < BLOCK_MIN or length > BLOCK_MAX or (b[1] & 0xF0) != DIR_HOST:
            return self._skip()
        if len(b) < length:
            return 0
        crc = crc16(b, length - 3)
        if b[length - 1] != SYNC or b[length - 3] != crc >> 8 or b[length - 2] != crc & 0xFF:
            return self._skip()
        return length

    def _decode(self, b):
        content = b[2:-3]
        if not content or content[0] not in COMMAND_LAYOUT:
            return None
        layout = COMMAND_LAYOUT[content[0]]
        size = struct.calcsize(layout) if layout else 0
        if len(content) - 1 != size:
            return None
        args = struct.unpack(layout, content[1:]) if layout else ()
        return (b[1] & 0x0F, content[0], args)
