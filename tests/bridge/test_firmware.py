"""The MicroPython seat-board firmware, run under CPython with a fake hal and fake MFRC522 chips."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import protocol as P
from firmware_bridge.fakes import FakeMFRC522, VirtualTag
from firmware_bridge.fakes.board_hal import FakeBoardHal, FirmwareOnPty, load_firmware
from firmware_bridge.serial_backend import SerialBackend

from .conftest import Collector

fw_proto: Any = load_firmware("fw_proto")
fw_scan: Any = load_firmware("fw_scan")
fw_rc522: Any = load_firmware("fw_rc522")
fw_board: Any = load_firmware("fw_board")

NTAG = bytes.fromhex("04A219C15E2280")
uids = st.sampled_from([4, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n))


def decode_all(data: bytes) -> list[P.Message]:
    dec = P.StreamDecoder()
    out = [b.message for b in dec.feed(data)]
    assert dec.bad_frames == 0
    return out


def test_firmware_crc_matches_the_host() -> None:
    assert fw_proto.crc16(b"123456789") == P.crc16_mcrf4xx(b"123456789") == 0x6F91


@given(st.integers(0, 63), st.booleans(), uids, st.integers(0, 15))
def test_firmware_scan_blocks_decode_on_the_host(ch: int, present: bool, uid: bytes,
                                                 seq: int) -> None:
    raw = fw_proto.block(seq, fw_proto.scan(ch, present, uid))
    assert raw == P.encode("scan", seq, channel=ch, present=int(present), uid=uid)


@given(st.lists(st.tuples(st.integers(0, 63), uids), max_size=40), st.integers(0, 255))
def test_firmware_snapshot_matches_the_host_split(entries: list[tuple[int, bytes]],
                                                  snap: int) -> None:
    fw = b"".join(fw_proto.block(i, c) for i, c in enumerate(fw_proto.snapshot(snap, entries)))
    assert fw == b"".join(P.snapshot_blocks(snap, entries, 0))


def test_firmware_hello_heartbeat_ack_decode() -> None:
    data = (fw_proto.block(0, fw_proto.hello("1.0.0", "MJT-X", "seat2", [0, 1, 5]))
            + fw_proto.block(1, fw_proto.heartbeat(1234, 56)) + fw_proto.block(2, fw_proto.ack(9)))
    hello, beat, ack = decode_all(data)
    assert hello.args == {"proto": P.PROTOCOL_VERSION, "firmware": "1.0.0", "serial": "MJT-X",
                          "board": "seat2", "channels": 0b100011}
    assert beat.args == {"uptime_ms": 1234, "scans": 56}
    assert ack.args == {"ack_seq": 9, "status": 0}


def test_firmware_parser_reads_every_host_command_through_garbage() -> None:
    cmds = [("identify", {}), ("request_snapshot", {}), ("set_leds", {"on": 3, "blink": 1}),
            ("buzzer", {"ms": 500}), ("scan_rate", {"scan_ms": 7, "snapshot_ms": 300})]
    stream = b"\x7e\x00junk\x7e"
    for i, (name, args) in enumerate(cmds):
        stream += P.encode(name, i, **args)
    bad = bytearray(P.encode("buzzer", 9, ms=1))
    bad[3] ^= 4  # a corrupted command must not be executed
    stream += bytes(bad) + P.encode("scan", 1, channel=0, present=1, uid=NTAG)  # wrong direction
    parser = fw_proto.Parser()
    got = []
    for k in range(0, len(stream), 5):
        got += parser.feed(stream[k : k + 5])
    ids = [P.BY_NAME[name].msg_id for name, _ in cmds]
    assert [(s, c) for s, c, _ in got] == list(zip(range(5), ids, strict=True))
    assert [a for _, _, a in got] == [(), (), (3, 1), (500,), (7, 300)]
    assert parser.bad >= 2


def test_tracker_debounces_leaving_but_not_arriving() -> None:
    tracker = fw_scan.ChannelTracker([0, 1], debounce=3)
    assert tracker.update(0, {NTAG}) == []  # a first read: not yet
    assert tracker.update(0, {NTAG}) == [(0, True, NTAG)]  # the second in a row: arrived
    assert tracker.update(0, set()) == []
    assert tracker.update(0, {NTAG}) == []  # a flicker is not a move
    assert tracker.update(0, set()) == [] and tracker.update(0, set()) == []
    assert tracker.update(0, set()) == [(0, False, NTAG)]
    assert tracker.entries() == []


def test_tracker_reports_a_tag_only_at_its_second_read_in_a_row() -> None:
    """Two agreeing reads (issue 28): a tag read in one sweep alone is in no event and in no
    snapshot; reads not in a row do not add up."""
    tracker = fw_scan.ChannelTracker([0], debounce=2)
    assert tracker.update(0, {NTAG}) == [] and tracker.entries() == []  # read once
    assert tracker.update(0, set()) == [] and tracker.entries() == []  # forgotten
    assert tracker.update(0, {NTAG}) == [] and tracker.entries() == []  # not in a row
    assert tracker.update(0, {NTAG}) == [(0, True, NTAG)]
    assert tracker.entries() == [(0, NTAG)]
    assert tracker.update(0, {NTAG}) == []  # said once


@given(st.lists(st.sets(st.sampled_from([NTAG, b"\x04" * 7, b"\x08\x01\x02\x03"])),
                max_size=30), st.integers(1, 4))
def test_tracker_reports_only_tags_read_in_two_sweeps_in_a_row(
        sweeps: list[set[bytes]], debounce: int) -> None:
    """Property: every arrival is at a sweep that read the tag and whose previous sweep read
    it too; a tag never read twice in a row is never reported (no event, no snapshot entry)."""
    tracker = fw_scan.ChannelTracker([5], debounce=debounce)
    reported: set[bytes] = set()
    for i, seen in enumerate(sweeps):
        for channel, present, uid in tracker.update(5, set(seen)):
            assert channel == 5
            if present:
                assert i > 0 and uid in seen and uid in sweeps[i - 1], (i, uid)
                reported.add(uid)
        assert {uid for _, uid in tracker.entries()} <= reported
    in_a_row = {uid for a, b in zip(sweeps, sweeps[1:], strict=False) for uid in a & b}
    assert reported == in_a_row


def read_field(reader: Any, clock: Any) -> list[bytes]:
    """As a board does: field on, 5.1 ms unmodulated, REQA, every tag, field off."""
    reader.field(True)
    clock.wait_us(5100)
    reader.start([fw_rc522.REQA], 7)
    got: list[bytes] = reader.read_all(reader.finish() is not None)
    reader.field(False)
    return got


@pytest.mark.parametrize("uid", [NTAG, bytes.fromhex("DEADBEEF"), bytes(range(1, 11))])
def test_firmware_driver_reads_every_uid_size(uid: bytes) -> None:
    chip = FakeMFRC522()
    tag = chip.place(VirtualTag(uid))
    reader = fw_rc522.RC522(chip.transfer, chip.clock)
    assert reader.init() == 0x92
    assert [read_field(reader, chip.clock) for _ in range(5)] == [[uid]] * 5
    assert chip.early == chip.rushed == 0
    chip.take(tag)
    before = chip.transfers
    assert read_field(reader, chip.clock) == []
    assert chip.transfers - before < 60


def test_firmware_soft_reset_is_awaited_and_checked() -> None:
    chip = FakeMFRC522()
    reader = fw_rc522.RC522(chip.transfer, chip.clock)
    reader.init()
    reset_reads = [c for c in chip.commands]
    assert reset_reads[0] == 0x0F and chip.clock.us >= 37.74  # PowerDown seen clear
    chip.stuck_in_reset = True
    with pytest.raises(fw_rc522.ChipError, match="soft reset"):
        reader.init()
    chip.stuck_in_reset = False
    chip.regs[0x37] = 0x00  # VERSION: no chip answers
    chip.write = lambda addr, value: None  # type: ignore[method-assign]  # writes lost
    with pytest.raises(fw_rc522.ChipError, match="VERSION"):
        reader.init()


def make_board(**kw: Any) -> tuple[Any, FakeBoardHal, dict[int, FakeMFRC522]]:
    chips = {ch: FakeMFRC522() for ch in range(4)}
    hal = FakeBoardHal("seat3", "MJT-SEAT3", chips)
    hal.now_ms = 0
    return fw_board.Board(hal, **kw), hal, chips


def test_board_reports_arrivals_and_answers_commands_offline() -> None:
    board, hal, chips = make_board(scan_ms=10, debounce=2)
    board.start()
    chips[2].place(VirtualTag(NTAG))
    for t in range(0, 50):
        hal.now_ms = t
        board.step()
    msgs = decode_all(bytes(hal.written))
    assert msgs[0].name == "hello" and msgs[0]["board"] == "seat3"
    assert [m.args for m in msgs if m.name == "scan"] == [  # at its second read, once
        {"channel": 2, "present": 1, "uid": NTAG}]
    hal.written.clear()
    hal.inbox += P.encode("buzzer", 4, ms=20) + P.encode("set_leds", 5, on=1, blink=0)
    board.step()
    acks = [m["ack_seq"] for m in decode_all(bytes(hal.written)) if m.name == "ack"]
    assert acks == [4, 5] and hal.buzzes == [True] and hal.leds == (1, 0)
    hal.now_ms = 100
    board.step()
    assert hal.buzzes == [True, False]


def run_board_until(board: Any, hal: FakeBoardHal, done: Any, limit_ms: int = 5000) -> None:
    """Step the board, its clock 1 ms a step, until ``done()``."""
    for _ in range(limit_ms):
        if done():
            return
        hal.now_ms = (hal.now_ms or 0) + 1
        board.step()
    raise AssertionError("the board never got there")


def reported_uids(msgs: list[P.Message]) -> tuple[list[bytes], list[bytes], int]:
    """The UIDs of the present scan events, of the snapshots' entries; how many snapshots."""
    scans = [m["uid"] for m in msgs if m.name == "scan" and m["present"]]
    snaps = [m for m in msgs if m.name == "snapshot"]
    return scans, [uid for m in snaps for _, uid in m["entries"]], len(snaps)


@pytest.mark.parametrize("sweeps", [1, 2])
def test_board_never_reports_a_tag_read_in_one_sweep(sweeps: int) -> None:
    """The firmware on the fake chips: a tag on a coil for one whole sweep (a cross-read) is in
    no scan event and in none of the snapshots that follow; held for two sweeps it is in both
    (the two agreeing reads are counted on the board, issue 28)."""
    board, hal, chips = make_board(scan_ms=10, snapshot_ms=30, debounce=2)
    board.start()
    run_board_until(board, hal, lambda: board.scans >= 2)
    hal.written.clear()
    start = board.scans
    tag = chips[2].place(VirtualTag(NTAG))  # at a sweep's boundary: every group reads it
    run_board_until(board, hal, lambda: board.scans == start + sweeps)
    chips[2].take(tag)
    end = hal.now_ms or 0
    run_board_until(board, hal, lambda: (hal.now_ms or 0) >= end + 300)
    scans, entries, snapshots = reported_uids(decode_all(bytes(hal.written)))
    assert snapshots >= 5
    if sweeps == 1:
        assert scans == [] and entries == []
    else:
        assert scans == [NTAG] and NTAG in entries


def test_firmware_on_a_pty_through_the_serial_backend() -> None:
    board, hal, chips = make_board(scan_ms=2, snapshot_ms=100, heartbeat_ms=50)
    hal.now_ms = None
    runner = FirmwareOnPty(board).start()
    sink = Collector()
    # generous silence and acknowledgement times: board and host share a possibly busy CPU
    backend = SerialBackend(ports=[runner.path], heartbeat_timeout=3.0, ack_timeout=0.5)
    backend.start(sink)
    try:
        tag = chips[1].place(VirtualTag(NTAG))
        assert sink.wait(sink.sees("seat3/1", {"04:A2:19:C1:5E:22:80"}))
        chips[1].take(tag)
        assert sink.wait(sink.sees("seat3/1", set()))
        assert backend.send("seat3", "set_leds", on=1, blink=0).result(timeout=30)
        assert hal.leds == (1, 0)
        assert sink.wait(lambda: set(sink.latest) == {f"seat3/{n}" for n in range(4)})
    finally:
        backend.stop()
        runner.stop()
    assert backend.stats()["bad_frames"] == 0


def test_the_config_ties_a_boards_usb_serial_number_to_its_seat() -> None:
    """Every board runs the same files; commissioning writes serial number -> seat, and the
    channels take that name, whatever the board calls itself."""
    board, hal, chips = make_board()
    hal.now_ms = None
    runner = FirmwareOnPty(board).start()
    sink = Collector()
    backend = SerialBackend(ports=[runner.path], names={"MJT-SEAT3": "seat1"})
    backend.start(sink)
    try:
        chips[2].place(VirtualTag(NTAG))
        assert sink.wait(sink.sees("seat1/2", {"04:A2:19:C1:5E:22:80"}))
        assert not [ch for ch in sink.latest if ch.startswith("seat3/")]
    finally:
        backend.stop()
        runner.stop()


commands = st.one_of(
    st.builds(lambda ms: ("buzzer", {"ms": ms}), st.integers(0, 65535)),
    st.builds(lambda a, b: ("set_leds", {"on": a, "blink": b}), st.integers(0, 255),
              st.integers(0, 255)),
    st.just(("request_snapshot", {})),
)


@given(st.lists(commands, min_size=1, max_size=10), st.data())
def test_firmware_parser_never_executes_a_corrupted_command(
    cmds: list[tuple[str, dict[str, int]]], data: st.DataObject
) -> None:
    frames = [bytearray(P.encode(name, i, **args)) for i, (name, args) in enumerate(cmds)]
    hit = set()
    for i, frame in enumerate(frames):
        if data.draw(st.booleans()):
            hit.add(i)
            for bit in data.draw(st.sets(st.integers(0, len(frame) * 8 - 1), min_size=1,
                                         max_size=3)):
                frame[bit // 8] ^= 1 << (bit % 8)
    tail = [P.encode("identify", 0)] * 12  # > 64 bytes: outlasts a corrupted length byte
    stream = b"".join(frames) + b"".join(tail)
    chunk = data.draw(st.integers(1, 70))
    parser = fw_proto.Parser()
    got = []
    for k in range(0, len(stream), chunk):
        got += parser.feed(stream[k : k + chunk])
    expected = [
        (i % 16, P.BY_NAME[name].msg_id, tuple(args.values()))
        for i, (name, args) in enumerate(cmds) if i not in hit
    ]
    it = iter(expected + [(0, P.BY_NAME["identify"].msg_id, ())] * 12)
    assert all(any(g == e for e in it) for g in got)
    assert got[-1] == (0, P.BY_NAME["identify"].msg_id, ())


def test_firmware_resends_unacknowledged_parts_with_fresh_state_until_acked() -> None:
    board, hal, chips = make_board(scan_ms=5, snapshot_ms=1000, debounce=2, resend_ms=40)
    board.start()
    hal.inbox += P.encode("request_snapshot", 1)
    for t in range(30):  # the snapshot follows the second sweep (12 ms a sweep here)
        hal.now_ms = t
        board.step()
    first = [m for m in decode_all(bytes(hal.written)) if m.name == "snapshot"]
    assert len(first) == 1 and first[0]["entries"] == ()
    snap = first[0]["snap"]
    chips[2].place(VirtualTag(NTAG))
    hal.written.clear()
    for t in range(30, 70):  # the tag is read twice, then the unacknowledged part is due again
        hal.now_ms = t
        board.step()
    again = [m for m in decode_all(bytes(hal.written)) if m.name == "snapshot"]
    assert again and again[-1]["snap"] == snap  # the same snapshot's part, resent ...
    assert again[-1]["entries"] == ((2, NTAG),)  # ... with its channels' state now
    hal.written.clear()
    hal.inbox += P.encode("snapshot_ack", 3, snap=snap, parts=0b1)
    for t in range(70, 400):
        hal.now_ms = t
        board.step()
    sent = decode_all(bytes(hal.written))
    assert not [m for m in sent if m.name == "snapshot"]  # acknowledged: no resend, no new one
    assert not [m for m in sent if m.name == "ack"]  # snapshot_ack itself is not acknowledged


def test_firmware_answers_a_snapshot_request_at_power_up_after_its_second_sweep() -> None:
    # The host connects and asks at once; a snapshot before every antenna has been read twice
    # (a tag is reported at its second read in a row) would say "empty" for a tag that lies
    # there, and the host would take it as gone.
    board, hal, chips = make_board(scan_ms=5, snapshot_ms=1000)
    chips[3].place(VirtualTag(NTAG))  # on the last channel of the sweep
    board.start()
    hal.inbox += P.encode("request_snapshot", 1)
    board.step()
    sent = decode_all(bytes(hal.written))
    assert [m["ack_seq"] for m in sent if m.name == "ack"] == [1]  # taken at once ...
    assert not [m for m in sent if m.name == "snapshot"]  # ... answered after two sweeps
    run_board_until(board, hal, lambda: board.scans == 1)
    assert not [m for m in decode_all(bytes(hal.written)) if m.name == "snapshot"]
    run_board_until(board, hal, lambda: board.scans == 2)
    parts = [m for m in decode_all(bytes(hal.written)) if m.name == "snapshot"]
    assert len(parts) == 1 and parts[0]["entries"] == ((3, NTAG),)


def test_firmware_with_no_reader_still_answers_a_snapshot_request() -> None:
    # No chip answered at power-up: nothing to sweep, so nothing to wait for.
    hal = FakeBoardHal("seat3", "MJT-SEAT3", {})
    hal.now_ms = 0
    board = fw_board.Board(hal, scan_ms=5, snapshot_ms=1000)
    board.start()
    hal.inbox += P.encode("request_snapshot", 1)
    board.step()
    parts = [m for m in decode_all(bytes(hal.written)) if m.name == "snapshot"]
    assert len(parts) == 1 and parts[0]["entries"] == ()
