"""Hypothesis fuzzing of the stream decoder: no exception escapes, no corrupted frame passes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import protocol as P

uids = st.sampled_from([4, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n))
scans = st.builds(
    lambda ch, present, uid: P.Message("scan", {"channel": ch, "present": present, "uid": uid}),
    st.integers(0, 63), st.integers(0, 1), uids,
)
beats = st.builds(
    lambda up, n: P.Message("heartbeat", {"uptime_ms": up, "scans": n}),
    st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1),
)
messages = st.lists(st.one_of(scans, beats), min_size=1, max_size=12)


def encode_all(msgs: list[P.Message]) -> list[bytes]:
    return [P.encode(m.name, i, **m.args) for i, m in enumerate(msgs)]


def is_subsequence(got: list[tuple[int, P.Message]], sent: list[tuple[int, P.Message]]) -> bool:
    it = iter(sent)
    return all(any(g == s for s in it) for g in got)


def feed_in_chunks(data: bytes, chunk: int) -> tuple[list[P.Block], P.StreamDecoder]:
    dec = P.StreamDecoder()
    out: list[P.Block] = []
    for i in range(0, len(data), chunk):
        out += dec.feed(data[i : i + chunk])
    return out, dec


@given(st.binary(max_size=600), st.integers(1, 70))
def test_random_bytes_never_raise_and_decode_nothing(data: bytes, chunk: int) -> None:
    out, dec = feed_in_chunks(data, chunk)
    assert out == []  # forging a CRC-16 plus length plus sync by chance: not in 600 bytes
    assert len(dec.buf) <= P.BLOCK_MAX


@given(messages, st.integers(1, 70))
def test_clean_stream_decodes_everything_in_any_chunking(msgs: list[P.Message], chunk: int) -> None:
    out, dec = feed_in_chunks(b"".join(encode_all(msgs)), chunk)
    assert [b.message for b in out] == msgs
    assert dec.bad_frames == 0


@given(messages, st.data())
def test_bit_flips_never_accepted(msgs: list[P.Message], data: st.DataObject) -> None:
    """Up to 3 flipped bits, or one burst of up to 16 bits, per frame: CRC-16 catches all."""
    frames = [bytearray(f) for f in encode_all(msgs)]
    corrupted: set[int] = set()
    for i, frame in enumerate(frames):
        if not data.draw(st.booleans()):
            continue
        corrupted.add(i)
        if data.draw(st.booleans()):
            bits = data.draw(st.sets(st.integers(0, len(frame) * 8 - 1), min_size=1, max_size=3))
        else:
            start = data.draw(st.integers(0, len(frame) * 8 - 2))
            width = data.draw(st.integers(2, min(16, len(frame) * 8 - start)))
            inner: set[int] = set()
            if width > 2:
                inner = data.draw(st.sets(st.integers(start + 1, start + width - 2)))
            bits = {start, start + width - 1} | inner
        for bit in bits:
            frame[bit // 8] ^= 1 << (bit % 8)
    # a corrupted length byte may claim up to 64 bytes: the checker waits for them, then skips
    tail = [P.Message("heartbeat", {"uptime_ms": 7, "scans": k}) for k in range(6)]
    whole = msgs + tail
    stream = b"".join(frames) + b"".join(encode_all(whole)[len(msgs) :])
    out, dec = feed_in_chunks(stream, data.draw(st.integers(1, 70)))
    sent = [(i % 16, m) for i, m in enumerate(whole) if i not in corrupted]
    assert is_subsequence([(b.seq, b.message) for b in out], sent)
    assert out[-1].message == tail[-1]  # recovered within 64 bytes of the damage
    assert dec.bad_frames >= (1 if corrupted else 0)


@given(messages, st.data())
def test_lost_bytes_never_accepted(msgs: list[P.Message], data: st.DataObject) -> None:
    frames = [bytearray(f) for f in encode_all(msgs)]
    hit = data.draw(st.sets(st.integers(0, len(frames) - 1), min_size=1))
    for i in hit:
        del frames[i][data.draw(st.integers(1, len(frames[i]) - 1))]
    out, _ = feed_in_chunks(b"".join(frames), data.draw(st.integers(1, 70)))
    sent = [(i % 16, m) for i, m in enumerate(msgs) if i not in hit]
    assert is_subsequence([(b.seq, b.message) for b in out], sent)
    assert len(out) <= len(sent)
