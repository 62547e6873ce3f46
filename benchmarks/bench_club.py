"""The club hall under load: N virtual tables publish at game speed through one Mosquitto to one
club service; reports broker messages per second, the club page's update latency (the table's
status time to the club's WebSocket push at a connected page) p50/p99, and the club's memory.

Each table is the real publisher (``controller.club.publisher``) following its own real event
log (SQLite), into which a writer appends a recorded random game at ``--rate`` events a second
(a table at game speed: about one tile moved a second). The club service is the real
``mahjong-table club`` in a subprocess. On a small, shared machine the figures are noisy.

    .venv/bin/python benchmarks/bench_club.py [--tables 50] [--seconds 60] [--rate 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.club.mqtt import BrokerConfig  # noqa: E402
from controller.club.publisher import ClubPublisher  # noqa: E402
from controller.store import EventLog  # noqa: E402
from tests.game.randomgame import random_session  # noqa: E402
from tests.reliability.support import free_port  # noqa: E402


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_broker(work: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    conf = work / "mosquitto.conf"
    lines = [f"listener {port} 127.0.0.1", "allow_anonymous true", "persistence false",
             "max_queued_messages 100000"]
    if os.geteuid() == 0:
        lines.append("user root")
    conf.write_text("\n".join(lines) + "\n")
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    proc = subprocess.Popen([mosquitto, "-c", str(conf)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    return proc, port


def writer(data_dir: Path, seed: int, rate: float, stop: threading.Event) -> None:
    """Append a recorded game to the table's log at ``rate`` events a second."""
    events = random_session(seed=seed, hands=20)
    with EventLog.open(data_dir / "events.sqlite") as log:
        sid = log.start_session("hua-bao", {}, time.time())
        gap = 1.0 / rate
        next_at = time.monotonic() + (seed % 10) * gap / 10  # tables out of step
        for event in events:
            if stop.is_set():
                return
            time.sleep(max(0.0, next_at - time.monotonic()))
            next_at += gap
            log.append(sid, event, True, None, None, "bench", time.time())


async def watch(url: str, seconds: float, lat: list[float]) -> int:
    """A club page's socket: for each push, now minus the newest table status time in it."""
    pushes = 0
    seen: dict[str, float] = {}
    async with websockets.connect(url, max_size=None) as ws:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                left = max(0.1, deadline - time.monotonic())
                raw = await asyncio.wait_for(ws.recv(), timeout=left)
            except TimeoutError:
                break
            now = time.time()
            pushes += 1
            for table in json.loads(raw)["tables"]:
                at = table.get("at")
                if at and at != seen.get(table["table"]):  # a new status since the last push
                    seen[table["table"]] = at
                    lat.append((now - at) * 1000)
    return pushes


def club_messages(base: str) -> int:
    with urllib.request.urlopen(base + "/api/health", timeout=5) as r:
        return int(json.loads(r.read())["messages"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--rate", type=float, default=1.0, help="events a second at each table")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-club-"))
    broker, port = start_broker(work)
    club_port = free_port()
    club = subprocess.Popen([sys.executable, "-m", "controller", "club", "--broker",
                             f"127.0.0.1:{port}", "--data-dir", str(work / "club"), "--port",
                             str(club_port), "--log-level", "warning"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{club_port}"
    stop = threading.Event()
    publishers, writers = [], []
    try:
        for _ in range(100):
            try:
                club_messages(base)
                break
            except OSError:
                time.sleep(0.1)
        for i in range(args.tables):
            d = work / f"t{i:03d}"
            d.mkdir()
            pub = ClubPublisher(d, f"t{i:03d}", BrokerConfig("127.0.0.1", port), poll=0.25)
            pub.start()
            publishers.append(pub)
            w = threading.Thread(target=writer, args=(d, i + 1, args.rate, stop), daemon=True)
            w.start()
            writers.append(w)
        time.sleep(3.0)  # everyone connected and dealing
        lat: list[float] = []
        m0, t0 = club_messages(base), time.monotonic()
        c0, b0 = cpu_seconds(club.pid), cpu_seconds(broker.pid)
        pushes = asyncio.run(watch(f"ws://127.0.0.1:{club_port}/ws/club", args.seconds, lat))
        m1, t1 = club_messages(base), time.monotonic()
        c1, b1 = cpu_seconds(club.pid), cpu_seconds(broker.pid)
        rss = rss_mb(club.pid)
        hands = json.loads(urllib.request.urlopen(base + "/api/club/hands").read())
        lat.sort()
        q = statistics.quantiles(lat, n=100) if len(lat) > 2 else [0.0] * 99
        print(json.dumps({
            "tables": args.tables, "events_per_second_per_table": args.rate,
            "seconds": round(t1 - t0, 1),
            "club_messages_per_second": round((m1 - m0) / (t1 - t0), 1),
            "page_pushes": pushes, "latency_samples": len(lat),
            "update_latency_ms_p50": round(q[49], 1), "update_latency_ms_p99": round(q[98], 1),
            "club_rss_mb": round(rss, 1), "hands_at_club": len(hands),
            "club_cpu_percent": round(100 * (c1 - c0) / (t1 - t0), 1),
            "broker_cpu_percent": round(100 * (b1 - b0) / (t1 - t0), 1),
        }, indent=2))
    finally:
        stop.set()
        for pub in publishers:
            pub.stop()
        club.terminate()
        club.wait(10)
        broker.terminate()
        broker.wait(10)
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
