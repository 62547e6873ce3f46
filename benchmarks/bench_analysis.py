"""What each discard cost, timed over a whole simulated evening: the bots play a session of
``--hands`` hands (a riichi hanchan runs 8-12), it is stored in a real SQLite event log, and the
review reads it back, replays it through the engine and analyses every discard of every seat
(shanten before and after, every possible discard with its ukeire, rank; riichi's furiten and
yaku), as `mahjong-table review --db` does. Reports the CPU time per discard (mean, p50, p95,
max) and the whole evening's time (CPU and wall), split into reading + replay and analysis.

    .venv/bin/python benchmarks/bench_analysis.py [--ruleset riichi] [--hands 12] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller import game  # noqa: E402
from controller.analysis import replay_session  # noqa: E402
from controller.analysis.discards import analyse  # noqa: E402
from controller.analysis.review import summary  # noqa: E402
from controller.players.director import run_session  # noqa: E402
from controller.store import EventLog, numbered_table_log  # noqa: E402


def store(path: Path, ruleset: str, hands: int, seed: int) -> int:
    events, _ = run_session(ruleset, {}, hands, seed=seed)
    state = game.new_game()
    with EventLog.open(path) as log:
        session = log.start_session(ruleset, {}, 1000.0)
        for event in events[1:]:
            outcome = game.apply(state, event)
            state = outcome.state
            log.append(session, event, outcome.accepted, None, None, "bench", 1000.0)
    return len(events)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ruleset", default="riichi")
    p.add_argument("--hands", type=int, default=12)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    shm = "/dev/shm" if Path("/dev/shm").is_dir() else None  # each append is synced
    with tempfile.TemporaryDirectory(dir=shm) as tmp:
        db = Path(tmp) / "events.sqlite"
        events = store(db, args.ruleset, args.hands, args.seed)
        wall0, cpu0 = time.perf_counter(), time.process_time()
        with EventLog.open(db, readonly=True) as log:
            replayed = replay_session(numbered_table_log(log))
        cpu1 = time.process_time()
        per, entries = [], []
        for moment in replayed.moments:
            t = time.process_time()
            entries.append(analyse(moment))
            per.append(time.process_time() - t)
        cpu2, wall2 = time.process_time(), time.perf_counter()
    ms = sorted(x * 1000 for x in per)
    print(json.dumps({
        "ruleset": args.ruleset, "hands": replayed.hands, "events": events,
        "discards": len(entries), "kept_best": summary(entries),
        "per_discard_cpu_ms": {"mean": round(statistics.fmean(ms), 2),
                               "p50": round(ms[len(ms) // 2], 2),
                               "p95": round(ms[int(len(ms) * 0.95)], 2),
                               "max": round(ms[-1], 2)},
        "evening_cpu_s": {"read_and_replay": round(cpu1 - cpu0, 3),
                          "analysis": round(cpu2 - cpu1, 3), "total": round(cpu2 - cpu0, 3)},
        "evening_wall_s": round(wall2 - wall0, 3),
    }, indent=1))


if __name__ == "__main__":
    main()
