"""Replay speed of a stored 16-hand session, and the cost of one accepted event (apply).

Run by hand: ``.venv/bin/python benchmarks/bench_replay.py [--hands 16] [--ruleset hua-bao]``.
The session is played by the bots (``play_session``), stored in a real SQLite event log
(``controller.store.EventLog``), read back and replayed from scratch. Target: >= 20,000 events/s.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from controller.game import apply, new_game, replay
from controller.game.director import play_session


def store(events: list[dict[str, Any]], path: Path, ruleset: str) -> None:
    """Write the session into a fresh SQLite event log, one accepted event per row."""
    from controller.store import EventLog

    with EventLog.open(path) as log:
        session = log.start_session(ruleset, events[0]["session"]["options"], at=0.0)
        for i, event in enumerate(events[1:], start=1):
            log.append(session, event, True, None, None, "bench", at=float(i))


def load(path: Path) -> list[dict[str, Any]]:
    from controller.store import session_events

    return list(session_events(path))


def time_replay(events: list[dict[str, Any]], rounds: int) -> float:
    """Best events per second over ``rounds`` replays from scratch."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        replay(events)
        best = min(best, time.perf_counter() - start)
    return len(events) / best


def apply_costs(events: list[dict[str, Any]]) -> list[float]:
    """Microseconds per accepted apply, event by event."""
    state = new_game()
    costs = []
    for event in events:
        start = time.perf_counter_ns()
        outcome = apply(state, event)
        costs.append((time.perf_counter_ns() - start) / 1000)
        state = outcome.state
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=16)
    parser.add_argument("--ruleset", default="hua-bao")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    start = time.perf_counter()
    events = play_session(args.ruleset, {}, args.hands, args.seed)
    played = time.perf_counter() - start
    print(f"played {args.hands} hands of {args.ruleset}: {len(events)} events in {played:.2f} s "
          f"({played / args.hands * 1000:.0f} ms per hand, bots and engine)")

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        store(events, db, args.ruleset)
        start = time.perf_counter()
        stored = load(db)
        read = time.perf_counter() - start
    assert stored == events, "the stored session does not read back identically"
    print(f"read back from SQLite: {len(stored)} events in {read * 1000:.0f} ms "
          f"({len(stored) / read:,.0f} events/s)")

    rate = time_replay(stored, args.rounds)
    verdict = "meets" if rate >= 20_000 else "MISSES"
    print(f"replay from scratch: {rate:,.0f} events/s (best of {args.rounds}; "
          f"{verdict} the 20,000/s target)")

    costs = sorted(apply_costs(stored))
    p50 = statistics.median(costs)
    p99 = costs[min(len(costs) - 1, int(len(costs) * 0.99))]
    print(f"apply per accepted event: p50 {p50:.1f} us, p99 {p99:.1f} us, max {costs[-1]:.1f} us")


if __name__ == "__main__":
    main()
