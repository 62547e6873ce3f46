"""Replay speed: 16-hand sessions (random but legal play with claims, wins and washouts) read
from JSON lines and folded by the game engine, as `mahjong-table replay` does.

Run by hand: .venv/bin/python benchmarks/bench_replay.py [--sessions N]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.cli.replay_cmd import parse_lines, summarize  # noqa: E402
from tests.game.randomgame import random_session  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=5)
    parser.add_argument("--ruleset", default="hua-bao")
    args = parser.parse_args()
    total_events = 0
    total_time = total_cpu = 0.0
    for seed in range(args.sessions):
        lines = [json.dumps(e) for e in random_session(seed, 16, args.ruleset)]
        start, cpu = time.perf_counter(), time.process_time()
        summary = summarize(parse_lines(lines))
        elapsed = time.perf_counter() - start
        total_cpu += time.process_time() - cpu
        wins = sum(1 for h in summary["hands"] if h["result"] == "mahjong")
        print(f"session {seed}: {len(lines)} events, {wins} wins, {elapsed * 1000:.0f} ms, "
              f"{len(lines) / elapsed:,.0f} events/s")
        total_events += len(lines)
        total_time += elapsed
    print(f"overall: {total_events / total_time:,.0f} events/s wall clock, "
          f"{total_events / total_cpu:,.0f} events/s of CPU time (JSON parsing included)")


if __name__ == "__main__":
    main()
