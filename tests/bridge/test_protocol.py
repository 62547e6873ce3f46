"""Wire codec: CRC, round trips of every message in the table, the frame checker's answers."""

from __future__ import annotations

import pytest

from firmware_bridge import protocol as P

UID7 = bytes.fromhex("04A219C15E2280")
UID4 = bytes.fromhex("DEADBEEF")

SAMPLES: dict[str, dict[str, object]] = {
    "hello": {"proto": 1, "firmware": "1.2.0", "serial": "MJT-SEAT1", "board": "seat1",
              "channels": (1 << 34) - 1},
    "scan": {"channel": 17, "present": 1, "uid": UID7},
    "snapshot": {"snap": 9, "part": 0, "parts": 2, "first": 0, "last": 7,
                 "entries": ((0, UID7), (5, UID4))},
    "heartbeat": {"uptime_ms": 123456789, "scans": 42},
    "ack": {"ack_seq": 7, "status": P.ACK_OK},
    "identify": {},
    "request_snapshot": {},
    "set_leds": {"on": 0b101, "blink": 0b100},
    "buzzer": {"ms": 250},
    "scan_rate": {"scan_ms": 5, "snapshot_ms": 200},
    "snapshot_ack": {"snap": 200, "parts": 0b1011},
}


def test_crc_is_mcrf4xx_not_crc_hqx() -> None:
    import binascii

    assert P.crc16_mcrf4xx(b"123456789") == 0x6F91  # the catalogue check value
    assert binascii.crc_hqx(b"123456789", 0xFFFF) != 0x6F91


def test_every_table_message_has_a_sample() -> None:
    assert set(SAMPLES) == {m.name for m in P.MESSAGES}
    assert len({m.msg_id for m in P.MESSAGES}) == len(P.MESSAGES)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_round_trip(name: str) -> None:
    block = P.encode(name, 5, **SAMPLES[name])
    assert P.BLOCK_MIN <= len(block) <= P.BLOCK_MAX
    assert block[-1] == P.SYNC and block[0] == len(block)
    assert P.check_block(block) == len(block)
    decoded = P.decode_block(block)
    assert decoded.seq == 5
    assert decoded.message == P.Message(name, SAMPLES[name])
    assert decoded.direction == P.BY_NAME[name].direction


def test_checker_needs_more_then_accepts() -> None:
    block = P.encode("scan", 1, channel=2, present=0, uid=UID4)
    for cut in range(len(block)):
        assert P.check_block(block[:cut]) == 0
    assert P.check_block(block + b"\x00\x01") == len(block)


def test_checker_rejects_bad_crc_and_skips_through_sync() -> None:
    block = bytearray(P.encode("scan", 1, channel=2, present=0, uid=UID4))
    block[4] ^= 0x10
    assert P.check_block(block) == -len(block)  # the next sync is this block's own trailer


def test_checker_rejects_impossible_length() -> None:
    assert P.check_block(bytes([200, 0x10, 1, 2, 3, 0x7E])) == -6
    assert P.check_block(bytes([2, 0x10, 1, 2, 3])) == -5


def test_direction_bits_checked() -> None:
    block = P.encode("identify", 3)
    assert P.decode_block(block).direction == "host"
    forged = bytearray(block)
    forged[1] = 0x30 | 3
    assert P.check_block(forged) < 0


def test_snapshot_split_and_reassembly() -> None:
    entries = [(ch, bytes([4, ch, 1, 2, 3, 4, 5])) for ch in range(22)]
    blocks = P.snapshot_blocks(3, entries, first_seq=14)
    assert len(blocks) == 5 and all(len(b) <= P.BLOCK_MAX for b in blocks)  # five 7-byte UIDs each
    decoded = [P.decode_block(b) for b in blocks]
    assert [d.seq for d in decoded] == [14, 15, 0, 1, 2]
    assert {d.message["parts"] for d in decoded} == {5}
    got = [e for d in decoded for e in d.message["entries"]]
    assert got == entries
    ranges = [(d.message["first"], d.message["last"]) for d in decoded]
    assert ranges[0][0] == 0 and ranges[-1][1] == P.CHANNEL_LAST  # every channel covered once
    assert all(a[1] + 1 == b[0] for a, b in zip(ranges, ranges[1:], strict=False))
    for d in decoded:  # each part stands alone: its entries lie in its own range
        assert all(d.message["first"] <= ch <= d.message["last"] for ch, _ in d.message["entries"])


def test_snapshot_never_splits_a_channel_and_caps_an_overfull_one() -> None:
    many = [(3, bytes([4, 3, i, 2, 3, 4, 5])) for i in range(9)] + [(4, UID4), (9, UID7)]
    fitted = P.fit_entries(many)
    assert len([e for e in fitted if e[0] == 3]) == P.SNAPSHOT_ROOM // 9  # as many as fit
    blocks = [P.decode_block(b).message for b in P.snapshot_blocks(1, many, 0)]
    owners = {ch: [m["part"] for m in blocks if m["first"] <= ch <= m["last"]]
              for ch in range(64)}
    assert all(len(parts) == 1 for parts in owners.values())


def test_empty_snapshot_is_one_block() -> None:
    (block,) = P.snapshot_blocks(0, [], 0)
    assert P.decode_block(block).message["entries"] == ()


def test_encode_refuses_bad_input() -> None:
    with pytest.raises(P.ProtocolError):
        P.encode("scan", 0, channel=1, present=1, uid=b"\x01\x02\x03")
    with pytest.raises(P.ProtocolError):
        P.encode("nonsense", 0)
    with pytest.raises(P.ProtocolError):
        P.encode("buzzer", 0)


def test_decoder_rejects_trailing_bytes_even_with_good_crc() -> None:
    content = bytes([P.BY_NAME["buzzer"].msg_id, 0, 10, 99])
    raw = bytearray([len(content) + 5, P.DIR_HOST]) + content
    crc = P.crc16_mcrf4xx(raw)
    raw += bytes([crc >> 8, crc & 0xFF, P.SYNC])
    assert P.check_block(raw) == len(raw)
    with pytest.raises(P.ProtocolError):
        P.decode_block(raw)


def test_stream_decoder_resynchronises_after_garbage() -> None:
    a = P.encode("heartbeat", 0, uptime_ms=1, scans=2)
    b = P.encode("scan", 1, channel=0, present=1, uid=UID7)
    dec = P.StreamDecoder()
    out = dec.feed(b"\x13\x37garbage\x7e" + a[:7])
    out += dec.feed(a[7:] + b)
    assert [blk.message.name for blk in out] == ["heartbeat", "scan"]
    assert dec.bad_frames >= 1 and dec.frames == 2


def test_docs_list_every_message() -> None:
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "hardware_docs" / "protocol.md").read_text()
    rows = {ln.split("|")[2].strip(): ln for ln in doc.splitlines() if ln.startswith("| 0x")}
    for fmt in P.MESSAGES:
        row = rows[f"`{fmt.name}`"]
        assert row.startswith(f"| 0x{fmt.msg_id:02X} ")
        for fname, ftype in fmt.fields:
            assert f"{fname} {ftype}" in row or (ftype in ("uid", "entries") and fname in row)


def test_service_unit_runs_the_documented_command() -> None:
    from pathlib import Path

    unit = (Path(__file__).parents[2] / "hardware_docs" / "mahjong-table.service").read_text()
    exec_lines = [ln for ln in unit.splitlines() if ln.startswith("ExecStart=")]
    assert len(exec_lines) == 1
    assert exec_lines[0].endswith("mahjong-table serve --config /etc/mahjong-table/table.toml "
                                  "--data-dir /var/lib/mahjong-table")
    assert "[Install]" in unit and "Restart=on-failure" in unit


def test_bad_block_found_before_its_sync_arrives_does_not_lose_lock() -> None:
    """Regression: a damaged length byte, bytes fed 7 at a time; later blocks must decode."""
    frames = [bytearray(P.encode("scan", i, channel=0, present=0, uid=UID4)) for i in range(8)]
    frames[1][0] ^= 1  # 13 -> 12: the checker rejects the block before seeing its own sync
    stream = b"".join(frames)
    dec = P.StreamDecoder()
    out = []
    for i in range(0, len(stream), 7):
        out += dec.feed(stream[i : i + 7])
    assert [b.seq for b in out] == [0, 2, 3, 4, 5, 6, 7]
