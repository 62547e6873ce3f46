"""What it would cost the virtual table to run the firmware's own code instead of its board
model (issue 28; run by hand, hardware_docs/timing.md quotes it).

    .venv/bin/python benchmarks/bench_firmware_cost.py [--seconds 5]

Side by side in one run, the same table in play (four seats with 20 tiles each, 14 on the rack
and 6 on the meld strip, the centre board with 3 on the discard pad, no dora pad):

- firmware: the firmware's Board (every fw_*.py) of each board against one fake MFRC522 per
  coil (firmware_bridge.fakes.seat_model) on the virtual clock; the host CPU time it takes
  per second of the boards' own time, summed over the five boards;
- virtual: the virtual table's five VirtualBoards (firmware_bridge.sim), each on its
  pseudo-terminal, drained by this process; the host CPU time per second of wall time.

The ratio is what running the firmware in `serve --simulate` would cost against what the
virtual table costs now. Process CPU time (time.process_time), so a loaded machine slows the
run but not the figures much.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_bridge.fakes.iso14443_tag import VirtualTag  # noqa: E402
from firmware_bridge.fakes.seat_model import BoardModel  # noqa: E402
from firmware_bridge.sim import VirtualTable  # noqa: E402

SEAT_TILES = {"rack": 14, "meld": 6}
CENTRE_TILES = 3


def uid(rng: random.Random) -> bytes:
    while True:
        u = bytes([0x04]) + rng.randbytes(6)
        if u[3] != 0x88:          # a 7-byte UID's second level never starts with the cascade tag
            return u


def firmware_cost(seconds: float, rng: random.Random) -> float:
    """CPU seconds per second of board time, the five boards together."""
    total = 0.0
    for kind in ("seat", "seat", "seat", "seat", "centre"):
        model = BoardModel.seat("seat1") if kind == "seat" else BoardModel.centre()
        if kind == "seat":
            chans = rng.sample(range(18), SEAT_TILES["rack"])
            chans += rng.sample(range(18, 34), SEAT_TILES["meld"])
            for ch in chans:
                model.place(ch, VirtualTag(uid(rng)))
        else:
            for _ in range(CENTRE_TILES):
                model.place(0, VirtualTag(uid(rng)))
        model.run_until_us(300_000)
        c0, v0 = time.process_time(), model.now_us
        model.run_until_us(v0 + seconds * 1e6)
        total += (time.process_time() - c0) / ((model.now_us - v0) / 1e6)
    return total


def virtual_cost(seconds: float, rng: random.Random) -> float:
    """CPU seconds per wall second of the virtual table's five boards (and draining them)."""
    table = VirtualTable(seed=1)
    paths = table.start()
    fds = [os.open(p, os.O_RDONLY | os.O_NONBLOCK) for p in paths.values()]
    try:
        for seat in range(1, 5):
            for ch in rng.sample(range(18), SEAT_TILES["rack"]):
                table.place(uid(rng).hex(":").upper(), f"seat{seat}/{ch}")
            for ch in rng.sample(range(18, 34), SEAT_TILES["meld"]):
                table.place(uid(rng).hex(":").upper(), f"seat{seat}/{ch}")
        table.place_together([uid(rng).hex(":").upper() for _ in range(CENTRE_TILES)],
                             "centre/0")
        time.sleep(0.5)
        c0, w0 = time.process_time(), time.monotonic()
        while time.monotonic() - w0 < seconds:
            for fd in fds:
                try:
                    os.read(fd, 65536)
                except (BlockingIOError, OSError):
                    pass
            time.sleep(0.01)
        return (time.process_time() - c0) / (time.monotonic() - w0)
    finally:
        for fd in fds:
            os.close(fd)
        table.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    fw = firmware_cost(args.seconds, rng)
    vt = virtual_cost(args.seconds, rng)
    print(f"firmware on the model: {fw:.3f} CPU s per board s (5 boards)")
    print(f"virtual table:         {vt:.3f} CPU s per wall s (5 boards on ptys, drained)")
    print(f"ratio firmware / virtual: {fw / vt:.1f}x   (load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
