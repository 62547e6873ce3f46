"""What numbers by person cost the club (issue 21): the club's store filled with a season of
hand facts (TABLES tables, EVENINGS evenings of two sessions of HANDS hands each, seat holders
changing during some sessions, penalties), then the time of the calls that feed the pages:
``tables()`` (every table card: the page push, up to ten a second while tables report),
``standings()`` (tonight and the season's league: a page asks at most once a second) and
``player()`` (one player's page). The service keeps each table's places and rebuilds a table's
only when a fact moved its position on: the figures are cold (the first call after a start),
warm, and just after one hand fact reached one table. Real SQLite in a temporary directory (in
/dev/shm where there is one); no broker.

    .venv/bin/python benchmarks/bench_places.py [--tables 50] [--evenings 10] [--hands 20]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.club.mqtt import BrokerConfig  # noqa: E402
from controller.club.service import ClubService  # noqa: E402
from tests.reliability.support import free_port  # noqa: E402

PEOPLE = [f"Player {i:03d}" for i in range(200)]


def fill(service: ClubService, tables: int, evenings: int, hands: int, rng: random.Random
         ) -> int:
    store, count, now = service.store, 0, time.time() - 86400 * evenings
    conn = store._conn  # one transaction for the whole season: the fill is not measured
    conn.execute("BEGIN")
    for t in range(tables):
        table, pos, sid = f"t{t:02d}", 0, 0
        store._conn.execute("INSERT OR IGNORE INTO tables (name) VALUES (?)", (table,))
        for evening in range(evenings):
            for _ in range(2):
                sid += 1
                started = now + evening * 86400 + sid * 600
                conn.execute("INSERT INTO sessions (tbl, session, started, ruleset, ended) "
                             "VALUES (?, ?, ?, 'hua-bao', ?)", (table, sid, started,
                                                                started + 500))
                names = dict(zip("1234", rng.sample(PEOPLE, 4), strict=True))
                for number in range(1, hands + 1):
                    if rng.random() < 0.05:  # a seat changes holder
                        names[rng.choice("1234")] = rng.choice([None, *PEOPLE])
                    net = [rng.randint(-60, 60) for _ in range(3)]
                    body = {"kind": "hand", "number": number, "winner": rng.randint(1, 4),
                            "net": dict(zip("1234", [*net, -sum(net)], strict=True)),
                            "names": dict(names), "win_source": "wall", "game_over": False}
                    pos += 1
                    conn.execute("INSERT INTO hands VALUES (?, ?, ?, ?, ?, ?)",
                                 (table, sid, number, pos, started + number, json.dumps(body)))
                    count += 1
        store.set_status(table, {"session": sid, "names": names, "hand": hands})
    conn.execute("COMMIT")
    return count


def _rss_mb() -> float:
    """The process's resident memory now (Linux /proc), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def timed(call: object, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        call()  # type: ignore[operator]
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--evenings", type=int, default=10)
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
    service = ClubService(tmp, BrokerConfig("127.0.0.1", free_port()))
    held = fill(service, args.tables, args.evenings, args.hands, random.Random(1))
    season = time.localtime(time.time() - 86400).tm_year
    rss = _rss_mb()
    results: dict[str, object] = {"cold_tables_ms": round(timed(service.tables, 1)[0], 1),
                                  "rss_mb_before_first_call": rss, "rss_mb_kept": _rss_mb()}
    few = max(3, args.repeat // 4)
    calls = (("tables", service.tables, args.repeat),
             ("standings", lambda: service.standings(season), few),
             ("player", lambda: service.player(PEOPLE[7]), few))
    for name, call, repeat in calls:
        ms = timed(call, repeat)
        results[name] = {"median_ms": round(statistics.median(ms), 2),
                         "max_ms": round(max(ms), 1), "calls": repeat}
    after = []
    for i in range(few):  # a hand fact reaches table t00, then a push and the standings
        last = service.store.last_pos("t00")
        service.store.apply_fact("t00", {"kind": "hand", "session": 1, "number": 100 + i,
                                         "pos": last + 1, "prev": last, "net": {"1": 5,
                                         "2": -5, "3": 0, "4": 0}, "names": {"1": PEOPLE[7]}})
        after.append((timed(service.tables, 1)[0], timed(lambda: service.standings(season),
                                                         1)[0]))
    results["after_a_fact"] = {
        "tables_median_ms": round(statistics.median(a for a, _ in after), 1),
        "standings_median_ms": round(statistics.median(b for _, b in after), 1)}
    push = float(results["tables"]["median_ms"]) * 10 / 1000  # type: ignore[index]
    print(json.dumps({"tables": args.tables, "hands_held": held, **results,
                      "push_cpu_at_10_per_s": f"{push:.0%} of a core"}, indent=1))
    service.store.close()


if __name__ == "__main__":
    main()
