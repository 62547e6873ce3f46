"""Scans processed per second by the presence tracker, a full 144-tile table; run by hand.

    .venv/bin/python benchmarks/bench_table.py [--cycles 200]

Four racks of 18 slots, four meld strips of 8 antennas, the pad: 105 channels, 144 tiles,
all tiles on the table, every channel scanned every cycle; every 5 cycles a tile moves
rack -> pad, then pad -> river.
"""

from __future__ import annotations

import argparse
import time

from controller.table import PresenceTracker
from controller.tiles import tile_set
from firmware_bridge.types import ChannelScan


def table() -> tuple[dict[str, str], dict[str, str]]:
    channels = {f"seat{s}/{n}": f"rack:{s}" for s in range(1, 5) for n in range(18)}
    channels |= {f"seat{s}/m{n}": f"melds:{s}" for s in range(1, 5) for n in range(8)}
    channels["centre/0"] = "discard"
    registry = {f"04:00:00:{i >> 8:02X}:{i & 0xFF:02X}:00:01": t
                for i, t in enumerate(tile_set(True))}
    return channels, registry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=200)
    args = parser.parse_args()
    channels, registry = table()
    uids = list(registry)
    rack_channels = [c for c in channels if "/m" not in c and c != "centre/0"]
    meld_channels = [c for c in channels if "/m" in c]
    # 13 tiles a rack, one per slot; all the others on the meld strips (the worst case).
    where = {uid: rack_channels[i] for i, uid in enumerate(uids[:52])}
    where |= {uid: meld_channels[i % len(meld_channels)] for i, uid in enumerate(uids[52:])}
    tracker = PresenceTracker(channels, registry, absent_after=0.4)
    scans = events = 0
    start = time.perf_counter()
    for cycle in range(args.cycles):
        t = cycle * 0.1
        if cycle % 5 == 0 and where:  # a discard
            uid = next(iter(where))
            where[uid] = "centre/0" if where[uid] != "centre/0" else "gone"
            if where[uid] == "gone":
                del where[uid]
        seen: dict[str, set[str]] = {c: set() for c in channels}
        for uid, channel in where.items():
            seen[channel].add(uid)
        for channel, held in seen.items():
            events += len(tracker.scan(ChannelScan(channel, frozenset(held), t)))
            scans += 1
        events += len(tracker.tick(t))
    elapsed = time.perf_counter() - start
    print(f"{scans} scans of {len(channels)} channels, {len(tracker.positions())} tiles "
          f"tracked, {events} events: {scans / elapsed:,.0f} scans/s "
          f"({1e6 * elapsed / scans:.1f} us a scan)")


if __name__ == "__main__":
    main()
