"""Cost of one durable append to the event log (p50/p99) and appends per second; run by hand.

    .venv/bin/python benchmarks/bench_store.py [--count 2000] [--dir DIR]

Use ``--dir`` on the storage the service will use (an SD card differs from tmpfs by orders of
magnitude: every append is an fsync).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from controller.store import EventLog

EVENT = {"move": {"tile": "5b", "from": "rack:1", "to": "discard", "uid": "04:A2:19:C1:5E:22:80"}}


def bench(directory: Path, count: int) -> dict[str, float]:
    db = directory / "bench-events.sqlite"
    with EventLog.open(db) as log:
        sid = log.start_session("hua-bao", {}, time.time())
        costs = []
        start = time.perf_counter()
        for _ in range(count):
            t0 = time.perf_counter()
            log.append(sid, EVENT, True, None, None, "bench", time.time())
            costs.append(time.perf_counter() - t0)
        total = time.perf_counter() - start
        t0 = time.perf_counter()
        read = sum(1 for _ in log.records(sid))
        read_time = time.perf_counter() - t0
    costs.sort()
    return {
        "appends": count,
        "p50_ms": 1000 * statistics.median(costs),
        "p99_ms": 1000 * costs[int(0.99 * (len(costs) - 1))],
        "max_ms": 1000 * costs[-1],
        "appends_per_s": count / total,
        "records_read_per_s": read / read_time,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--dir", type=Path, help="directory for the log (default: a temp dir)")
    args = parser.parse_args()
    if args.dir is not None:
        result = bench(args.dir, args.count)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            result = bench(Path(tmp), args.count)
    for key, value in result.items():
        print(f"{key:>20}: {value:,.3f}" if isinstance(value, float) else f"{key:>20}: {value}")


if __name__ == "__main__":
    main()
