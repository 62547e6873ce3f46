"""The wire codec at its edges, with fixed inputs and the numbers of hardware_docs/protocol.md
worked out by hand: the largest and smallest blocks, string and channel limits, each refusal
with its words, the stream decoder's counters, the snapshot's packing (found by mutation
testing, docs/testing.md)."""

from __future__ import annotations

import pytest

from firmware_bridge import protocol as P

UID4 = bytes.fromhex("DEADBEEF")
UID7 = bytes.fromhex("04A219C15E2280")


def raw_block(content: bytes, seq_byte: int = 0x13) -> bytes:
    """A block around ``content`` as the wire carries it (length, seq byte, CRC, sync)."""
    head = bytes([len(content) + 5, seq_byte]) + content
    crc = P.crc16_mcrf4xx(head)
    return head + bytes([crc >> 8, crc & 0xFF, 0x7E])


def test_the_largest_block_is_64_bytes_and_is_taken() -> None:
    # hello content: id 1 + proto 1 + three strings (1 + n each) + channels 8 = 13 + n bytes;
    # 32 + 14 + 0 characters fill the 59 content bytes of a 64-byte block exactly
    block = P.encode("hello", 1, proto=2, firmware="f" * 32, serial="s" * 14, board="",
                     channels=1)
    assert len(block) == 64 and P.check_block(block) == 64
    assert P.decode_block(block).message["firmware"] == "f" * 32
    with pytest.raises(P.ProtocolError, match="hello: 60 content bytes exceed 59"):
        P.encode("hello", 1, proto=2, firmware="f" * 32, serial="s" * 15, board="", channels=1)


def test_the_smallest_block_is_5_bytes() -> None:
    empty = raw_block(b"")
    assert len(empty) == 5 and P.check_block(empty) == 5
    with pytest.raises(P.ProtocolError, match="^unknown message id or wrong direction$"):
        P.decode_block(empty)  # no message id in it


def test_an_empty_block_has_no_message_whatever_its_crc() -> None:
    """With no content, the byte after the header is the CRC's: never read as a message id,
    even where it happens to be one (found by trying the sequence bytes)."""
    tried = 0
    for seq_byte in [*range(0x10, 0x20), *range(0x20, 0x30)]:
        block = raw_block(b"", seq_byte)
        fmt = P.BY_ID.get(block[2])
        if fmt is None or P.DIR_BITS[fmt.direction] != seq_byte & 0xF0:
            continue
        tried += 1
        with pytest.raises(P.ProtocolError, match="^unknown message id or wrong direction$"):
            P.decode_block(block)
    assert tried >= 1  # (seq byte 0x19: its CRC high byte is 0x03, the snapshot id)


def test_strings_are_at_most_32_bytes() -> None:
    P.encode("hello", 0, proto=2, firmware="x" * 32, serial="", board="", channels=0)
    with pytest.raises(P.ProtocolError, match="^string 'xxx.*' longer than 32 bytes$"):
        P.encode("hello", 0, proto=2, firmware="x" * 33, serial="", board="", channels=0)
    # bytes, not characters: 16 two-byte characters fill it
    P.encode("hello", 0, proto=2, firmware="é" * 16, serial="", board="", channels=0)
    with pytest.raises(P.ProtocolError, match="longer than 32 bytes"):
        P.encode("hello", 0, proto=2, firmware="é" * 17, serial="", board="", channels=0)


@pytest.mark.parametrize(("content", "words"), [
    # hello: id, proto, then a string whose bytes are not UTF-8
    (bytes([0x01, 2, 2, 0xC3, 0x28]), "^string is not UTF-8$"),
    # hello cut after its proto byte: no length byte for the firmware string
    (bytes([0x01, 2]), "^message too short$"),
    # a length field of 9 with 2 bytes left; of 3 with 2 left (one past the end)
    (bytes([0x01, 2, 9, 0x41, 0x42]), "^length field runs past the message$"),
    (bytes([0x01, 2, 3, 0x41, 0x42]), "^length field runs past the message$"),
    # a scan whose UID has 5 bytes
    (bytes([0x02, 3, 1, 5, 1, 2, 3, 4, 5]), "^UID of 5 bytes$"),
    # a snapshot entry on channel 64
    (bytes([0x03, 1, 0, 1, 0, 63, 64, 4, 1, 2, 3, 4]), "^channel 64 out of range 0..63$"),
    # heartbeat with one byte too many
    (bytes([0x04, 0, 0, 0, 1, 0, 0, 0, 2, 9]), "^heartbeat: 1 trailing bytes$"),
    # a u32 cut short
    (bytes([0x04, 0, 0]), "^message too short$"),
    # an id nobody sends
    (bytes([0x99]), "^unknown message id or wrong direction$"),
    # a host command (identify) with the board's direction bits
    (bytes([0x40]), "^unknown message id or wrong direction$"),
])
def test_each_malformed_message_is_refused_in_its_own_words(content: bytes, words: str) -> None:
    block = raw_block(content)
    assert P.check_block(block) == len(block)  # a good frame: the message is what is wrong
    with pytest.raises(P.ProtocolError, match=words):
        P.decode_block(block)


def test_channel_63_is_the_last_channel() -> None:
    block = raw_block(bytes([0x03, 1, 0, 1, 0, 63, 63, 4, *UID4]))
    assert P.decode_block(block).message["entries"] == ((63, UID4),)


def test_bad_direction_bits_are_named() -> None:
    with pytest.raises(P.ProtocolError, match="^bad direction bits 0x30$"):
        P.decode_block(raw_block(bytes([0x40]), seq_byte=0x33))


def test_encode_names_what_is_wrong() -> None:
    with pytest.raises(P.ProtocolError, match="^unknown message 'beep'$"):
        P.encode("beep", 0)
    with pytest.raises(P.ProtocolError, match="^buzzer: field 'ms' missing$"):
        P.encode("buzzer", 0)
    with pytest.raises(P.ProtocolError, match="^UID of 5 bytes; ISO 14443A UIDs have 4, 7 or 10$"):
        P.encode("scan", 0, channel=1, present=1, uid=b"12345")


def test_a_leading_sync_byte_is_dropped_alone() -> None:
    good = P.encode("identify", 2)
    assert P.check_block(bytes([0x7E]) + good) == -1


def test_the_stream_decoder_counts_what_it_drops() -> None:
    good = P.encode("heartbeat", 4, uptime_ms=1, scans=2)
    dec = P.StreamDecoder()
    assert (dec.hunting, dec.frames, dec.bad_frames, dec.discarded_bytes) == (False, 0, 0, 0)
    # garbage through a sync byte, then a good block
    assert dec.feed(b"\x01\x02\x03\x7e" + good) == [P.decode_block(good)]
    assert (dec.frames, dec.bad_frames, dec.discarded_bytes) == (1, 1, 4)
    # six bytes of garbage without a sync: all dropped, and it hunts for the next sync
    assert dec.feed(b"\x01" * 6) == []
    assert (dec.bad_frames, dec.discarded_bytes, dec.hunting) == (2, 10, True)
    assert dec.feed(b"\x02\x02") == [] and dec.hunting  # still no sync: dropped too
    assert dec.discarded_bytes == 12
    assert dec.feed(b"\x7e" + good) == [P.decode_block(good)]
    assert (dec.frames, dec.bad_frames, dec.discarded_bytes, dec.hunting) == (2, 2, 13, False)
    # a bad frame that ends on its own sync: nothing more to hunt for
    bad = bytearray(good)
    bad[3] ^= 0xFF
    assert dec.feed(bytes(bad)) == [] and not dec.hunting
    assert (dec.bad_frames, dec.discarded_bytes) == (3, 13 + len(bad))
    # a good frame whose message is malformed is counted bad, not dropped as bytes
    assert dec.feed(raw_block(bytes([0x99]))) == []
    assert (dec.frames, dec.bad_frames) == (2, 4)
    dec.feed(good[:4])
    dec.reset()
    assert dec.feed(good) == [P.decode_block(good)]


def test_sequence_numbers_wrap_at_16() -> None:
    assert [P.next_seq(s) for s in (0, 3, 14, 15)] == [1, 4, 15, 0]


def test_a_channel_keeps_what_one_block_can_carry() -> None:
    """53 bytes of room (59 content bytes less id, snap, part, parts, first, last); an entry of
    a 4-byte UID is 6 bytes (channel, length, UID): eight fit, the ninth does not."""
    uids = [bytes([0xDE, 0xAD, 0, n]) for n in range(9)]
    assert len(P.fit_entries([(5, u) for u in uids])) == 8
    # 7-byte UIDs are 9 bytes an entry: five fit
    sevens = [bytes([4, 0, 0, 0, 0, 0, n]) for n in range(6)]
    assert len(P.fit_entries([(5, u) for u in sevens])) == 5


def test_snapshot_ranges_fill_each_block() -> None:
    """Twenty channels with one 4-byte UID each (6 bytes): eight channels a block."""
    entries = [(ch, bytes([0xDE, 0xAD, 0, ch])) for ch in range(20)]
    assert P.snapshot_ranges(entries) == [(0, 7), (8, 15), (16, 63)]
    blocks = P.snapshot_blocks(300, entries, first_seq=14)
    decoded = [P.decode_block(b) for b in blocks]
    assert [d.seq for d in decoded] == [14, 15, 0]
    assert {d.message["snap"] for d in decoded} == {300 - 256}
    assert [(d.message["first"], d.message["last"], d.message["parts"]) for d in decoded] == [
        (0, 7, 3), (8, 15, 3), (16, 63, 3)]
