"""Each integrity check of the link on its own, with fixed inputs (issue 29): a corrupted CRC
byte (high, low), a sequence gap, a replayed frame. The fuzz tests find some of these by chance;
these find each one every time.

The gap and replay tests drive the real serial back-end (pyserial on a real pty) from a board
written here, byte by byte, so a test decides exactly which sequence numbers arrive."""

from __future__ import annotations

import os
import select
import threading
import tty
from collections.abc import Iterator

import pytest

from firmware_bridge import protocol as P
from firmware_bridge.serial_backend import SerialBackend

from .conftest import Collector

UID = bytes.fromhex("04A219C15E2280")
UID_TEXT = "04:A2:19:C1:5E:22:80"
#: CRC-16/MCRF4XX of b"123456789" (the catalogue's check value), written out, not computed
CHECK = 0x6F91


def scan_block(seq: int = 3) -> bytes:
    return P.encode("scan", seq, channel=2, present=1, uid=UID)


def test_the_crc_of_a_fixed_block_is_in_its_last_bytes_but_one() -> None:
    assert P.crc16_mcrf4xx(b"123456789") == CHECK
    # "identify" with seq 3: length 6, host direction 0x20 | 3, id 0x40
    block = P.encode("identify", 3)
    crc = P.crc16_mcrf4xx(bytes([6, 0x23, 0x40]))
    assert block == bytes([6, 0x23, 0x40, crc >> 8, crc & 0xFF, 0x7E])


@pytest.mark.parametrize("where", ["high", "low"])
@pytest.mark.parametrize("bit", range(8))
def test_a_corrupted_crc_byte_is_rejected(where: str, bit: int) -> None:
    block = bytearray(scan_block())
    index = len(block) - (3 if where == "high" else 2)
    block[index] ^= 1 << bit
    assert P.check_block(block) == -len(block)  # dropped through its own sync byte
    dec = P.StreamDecoder()
    assert dec.feed(bytes(block) + scan_block(4)) == [P.decode_block(scan_block(4))]
    assert (dec.frames, dec.bad_frames) == (1, 1)


def test_each_crc_byte_is_checked_even_when_the_other_is_right() -> None:
    """A checker that compared one byte only passes one of these two: both must fail."""
    good = scan_block()
    crc = (good[-3] << 8) | good[-2]
    for wrong in (crc ^ 0x0100, crc ^ 0x0001, crc ^ 0xFF00, crc ^ 0x00FF):
        forged = bytearray(good)
        forged[-3], forged[-2] = wrong >> 8, wrong & 0xFF
        assert P.check_block(forged) < 0, hex(wrong)


def test_any_single_changed_byte_before_the_crc_is_rejected() -> None:
    good = scan_block()
    for index in range(1, len(good) - 3):  # the length byte changes the frame itself
        for flip in (0x01, 0x80, 0xFF):
            forged = bytearray(good)
            forged[index] ^= flip
            assert P.check_block(forged) < 0, (index, flip)


def test_a_wrong_sync_byte_is_rejected() -> None:
    forged = bytearray(scan_block())
    forged[-1] = 0x7F
    assert P.check_block(forged) < 0


# ---------------------------------------------------------------- sequence numbers on the link

class ScriptedBoard:
    """A board on the master side of a pty: answers identify with a hello, acknowledges every
    command, answers request_snapshot with ``contents``; a test sends whatever else it likes."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.path = os.ttyname(slave)
        self._slave = slave
        self.seq = 0
        self.contents: list[tuple[int, bytes]] = []
        self.commands: list[str] = []
        self.cond = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def block(self, name: str, **args: object) -> bytes:
        """The next block with the board's sequence number (used up)."""
        with self.cond:
            block = P.encode(name, self.seq, **args)
            self.seq = P.next_seq(self.seq)
            return block

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def asked(self, name: str) -> int:
        with self.cond:
            return self.commands.count(name)

    def wait_asked(self, name: str, times: int, timeout: float = 30.0) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: self.commands.count(name) >= times, timeout)

    def _run(self) -> None:
        dec = P.StreamDecoder()
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.master, 256)
            except OSError:
                return
            for blk in dec.feed(data):
                self._answer(blk)

    def _answer(self, blk: P.Block) -> None:
        name = blk.message.name
        if name != "snapshot_ack":
            self.write(self.block("ack", ack_seq=blk.seq, status=P.ACK_OK))
        if name == "identify":
            self.write(self.block("hello", proto=P.PROTOCOL_VERSION, firmware="test",
                                  serial="T-SCRIPT", board="scripted", channels=0b1111))
        elif name == "request_snapshot":
            self.write(self.block("snapshot", snap=self.seq, part=0, parts=1, first=0,
                                  last=63, entries=tuple(self.contents)))
        with self.cond:
            self.commands.append(name)
            self.cond.notify_all()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        os.close(self.master)
        os.close(self._slave)


@pytest.fixture
def scripted() -> Iterator[tuple[ScriptedBoard, SerialBackend, Collector]]:
    board = ScriptedBoard()
    sink = Collector()
    # no heartbeats from this board: a watchdog that never fires here
    backend = SerialBackend(ports=[board.path], heartbeat_timeout=600, ack_timeout=0.5)
    backend.start(sink)
    assert sink.wait(lambda: bool(sink.health("up")), timeout=30), "no hello"
    # the connection's own snapshot has come: every channel known (empty)
    assert sink.wait(lambda: len(sink.latest) == 4, timeout=30)
    yield board, backend, sink
    backend.stop()
    board.close()


def _scans(sink: Collector, channel: str) -> list[frozenset[str]]:
    return [s.uids for s in sink.scans() if s.channel == channel]


def test_in_sequence_scans_are_taken_and_ask_for_nothing(
    scripted: tuple[ScriptedBoard, SerialBackend, Collector]
) -> None:
    """The control for the two tests below: the same scans, in sequence, are reported at once
    and no snapshot is asked for."""
    board, backend, sink = scripted
    asked = board.asked("request_snapshot")
    board.write(board.block("scan", channel=2, present=1, uid=UID))
    assert sink.wait(lambda: _scans(sink, "scripted/2")[-1:] == [frozenset({UID_TEXT})], 30)
    board.write(board.block("scan", channel=2, present=0, uid=UID))
    assert sink.wait(lambda: _scans(sink, "scripted/2")[-1:] == [frozenset()], 30)
    assert backend.stats()["gaps"] == 0 and board.asked("request_snapshot") == asked


def test_a_sequence_gap_distrusts_the_scan_and_asks_for_a_snapshot(
    scripted: tuple[ScriptedBoard, SerialBackend, Collector]
) -> None:
    board, backend, sink = scripted
    asked = board.asked("request_snapshot")
    before = len(_scans(sink, "scripted/2"))
    board.block("scan", channel=1, present=1, uid=UID)  # made and lost: a sequence number gone
    board.write(board.block("scan", channel=2, present=1, uid=UID))
    assert board.wait_asked("request_snapshot", asked + 1)
    # the snapshot (channel 2 empty: the board says the tag is not there) decides, not the scan
    assert sink.wait(lambda: len(_scans(sink, "scripted/2")) > before, 30)
    assert frozenset({UID_TEXT}) not in _scans(sink, "scripted/2")[before:]
    assert backend.stats()["gaps"] == 1


def test_a_replayed_frame_is_not_taken_again(
    scripted: tuple[ScriptedBoard, SerialBackend, Collector]
) -> None:
    board, backend, sink = scripted
    arrive = board.block("scan", channel=3, present=1, uid=UID)
    board.write(arrive)
    assert sink.wait(lambda: _scans(sink, "scripted/3")[-1:] == [frozenset({UID_TEXT})], 30)
    board.write(board.block("scan", channel=3, present=0, uid=UID))
    assert sink.wait(lambda: _scans(sink, "scripted/3")[-1:] == [frozenset()], 30)
    asked = board.asked("request_snapshot")
    seen = len(_scans(sink, "scripted/3"))
    board.write(arrive)  # the same bytes again: an old sequence number
    assert board.wait_asked("request_snapshot", asked + 1)
    assert sink.wait(lambda: len(_scans(sink, "scripted/3")) > seen, 30)
    assert _scans(sink, "scripted/3")[seen:] == [frozenset()] * (
        len(_scans(sink, "scripted/3")) - seen)  # never the tag again
    # the replay, and the next block (numbered after the one replayed) seen as one more
    assert backend.stats()["gaps"] >= 1
