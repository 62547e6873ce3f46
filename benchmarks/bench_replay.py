"""Replay speed of stored 16-hand sessions, and the cost of one accepted event (apply).

Run by hand: ``.venv/bin/python benchmarks/bench_replay.py [--ruleset hua-bao] [--sessions 3]``.

Default (``--source bots``): each session is played by the bots (``play_session``), stored in
a real SQLite event log (``controller.store.EventLog``), read back, and replayed from scratch
twice: with ``controller.game.replay`` and through the ``replay`` command's own path (JSON
lines parsed and checked, then folded). ``--source random`` replays the engine tests' random
legal sessions (``tests/game/randomgame.py``) as JSON lines instead. Target: >= 20,000
events/s. Times are CPU time of this process, so a busy machine does not distort them much.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.cli.replay_cmd import parse_lines, summarize  # noqa: E402
from controller.game import apply, new_game, replay  # noqa: E402
from controller.players.director import play_session  # noqa: E402

Events = list[dict[str, Any]]


def stored_session(ruleset: str, hands: int, seed: int, tmp: Path) -> Events:
    """Play a session with the bots, write it to a SQLite event log, read it back."""
    from controller.store import EventLog, session_events

    events = play_session(ruleset, {}, hands, seed)
    db = tmp / f"session-{seed}.db"
    with EventLog.open(db) as log:
        session = log.start_session(ruleset, events[0]["session"]["options"], at=0.0)
        for i, event in enumerate(events[1:], start=1):
            log.append(session, event, True, None, None, "bench", at=float(i))
    stored = list(session_events(db))
    assert stored == events, "the stored session does not read back identically"
    return stored


def random_session(ruleset: str, hands: int, seed: int, tmp: Path) -> Events:
    from tests.game.randomgame import random_session as engine_random_session

    return list(engine_random_session(seed, hands, ruleset))


def cpu_rate(events: Events, fold: Callable[[Events], object], rounds: int) -> float:
    """Best events per CPU second over ``rounds`` runs."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        fold(events)
        best = min(best, time.process_time() - start)
    return len(events) / max(best, 1e-9)


def via_command(events: Events) -> object:
    """What ``mahjong-table replay FILE`` does with the lines of a file."""
    return summarize(parse_lines(json.dumps(e) for e in events))


def apply_costs(events: Events, clock: Callable[[], int]) -> list[float]:
    """Microseconds per accepted apply, event by event, on ``clock`` (a ns counter)."""
    state = new_game()
    costs = []
    for event in events:
        start = clock()
        outcome = apply(state, event)
        costs.append((clock() - start) / 1000)
        state = outcome.state
    return costs


def percentiles(label: str, costs: list[float]) -> str:
    costs = sorted(costs)
    p99 = costs[min(len(costs) - 1, int(len(costs) * 0.99))]
    return (f"apply per accepted event ({label}): p50 {statistics.median(costs):.1f} us, "
            f"p99 {p99:.1f} us, max {costs[-1]:.0f} us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--source", choices=("bots", "random"), default="bots")
    parser.add_argument("--ruleset", default="hua-bao")
    parser.add_argument("--hands", type=int, default=16)
    parser.add_argument("--sessions", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    make = stored_session if args.source == "bots" else random_session
    cpu: list[float] = []
    wall: list[float] = []
    totals = {"engine": [0, 0.0], "command": [0, 0.0]}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.sessions):
            start = time.process_time()
            events = make(args.ruleset, args.hands, seed, Path(tmp))
            made = time.process_time() - start
            engine = cpu_rate(events, replay, args.rounds)
            command = cpu_rate(events, via_command, args.rounds)
            for key, rate in (("engine", engine), ("command", command)):
                totals[key][0] += len(events)
                totals[key][1] += len(events) / rate
            cpu.extend(apply_costs(events, time.thread_time_ns))
            wall.extend(apply_costs(events, time.perf_counter_ns))
            print(f"session {seed}: {len(events)} events ({made:.2f} s CPU to {args.source}), "
                  f"replay {engine:,.0f} events/s, via the replay command {command:,.0f} events/s")
    for key, (n, seconds) in totals.items():
        rate = n / seconds
        verdict = "meets" if rate >= 20_000 else "MISSES"
        print(f"overall {key}: {rate:,.0f} events/s ({verdict} the 20,000/s target)")
    print(percentiles("CPU time", cpu))
    print(percentiles("wall clock", wall))


if __name__ == "__main__":
    main()
