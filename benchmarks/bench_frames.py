"""Frames decoded per second on one core by the host codec (firmware_bridge.protocol).

Run: .venv/bin/python benchmarks/bench_frames.py [--seconds 2]
Decodes a realistic board stream (scan events, heartbeats, 6-block snapshots) fed in 256-byte
chunks, as the serial back-end reads it, and a stream with 1e-3 bit errors.
"""

from __future__ import annotations

import argparse
import random
import time

from firmware_bridge import protocol as P


def board_stream(n_blocks: int, seed: int = 1) -> bytes:
    rng = random.Random(seed)
    out = bytearray()
    seq = 0
    while seq < n_blocks:
        kind = rng.random()
        if kind < 0.7:
            uid = bytes([4]) + rng.randbytes(6)
            out += P.encode("scan", seq, channel=rng.randrange(34), present=rng.randrange(2),
                            uid=uid)
            seq += 1
        elif kind < 0.9:
            out += P.encode("heartbeat", seq, uptime_ms=seq, scans=seq)
            seq += 1
        else:
            entries = [(ch, bytes([4]) + rng.randbytes(6)) for ch in range(34)]
            blocks = P.snapshot_blocks(seq, entries, seq)
            out += b"".join(blocks)
            seq += len(blocks)
    return bytes(out)


def corrupt(data: bytes, ber: float, seed: int = 2) -> bytes:
    rng = random.Random(seed)
    out = bytearray(data)
    for _ in range(int(len(data) * 8 * ber)):
        bit = rng.randrange(len(out) * 8)
        out[bit // 8] ^= 1 << (bit % 8)
    return bytes(out)


def run(data: bytes, seconds: float) -> tuple[float, float, int]:
    frames = 0
    rounds = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        dec = P.StreamDecoder()
        for i in range(0, len(data), 256):
            frames += len(dec.feed(data[i : i + 256]))
        rounds += 1
    dt = time.perf_counter() - t0
    return frames / dt, len(data) * rounds / dt, dec.bad_frames


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    clean = board_stream(20000)
    for label, data in (("clean", clean), ("ber 1e-3", corrupt(clean, 1e-3))):
        fps, bps, bad = run(data, args.seconds)
        print(f"{label:9s} {fps:10,.0f} frames/s  {bps / 1e6:6.2f} MB/s  "
              f"(bad per pass: {bad})  = {bps * 10 / 115200:,.0f}x a 115200-baud link")


if __name__ == "__main__":
    main()
