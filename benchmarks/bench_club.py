"""The club hall under load, signed against unsigned, side by side in one run: N virtual tables
publish at game speed through one Mosquitto (locked as `club enrol-table` writes it) to one
club service; for each mode it reports the latency from a table's hand fact to the club's page
(the push that shows the table's new hand count, p50/p99), from a table's status to the page,
the club's CPU and memory, and the broker's CPU.

Each table is the real publisher (``controller.club.publisher``) following its own real event
log (SQLite), into which a writer appends a recorded random game at ``--rate`` events a second
(a table at game speed: about one tile moved a second). The club service runs in a subprocess
(``ClubService`` under uvicorn, as `mahjong-table club` runs it); "unsigned" is the same code
with the signatures left out on both sides (the table signs nothing, the club checks the
schema but no signature). The modes alternate (unsigned, signed, unsigned, signed, ...) so that
a machine getting busier weighs on both. On a small, shared machine the figures are noisy.

    .venv/bin/python benchmarks/bench_club.py [--tables 50] [--seconds 60] [--rate 2] [--rounds 2]
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
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# Only what the club service needs at module level: the club's subprocess runs this file too
# (--serve-club), and its memory is measured; the tables' side is imported in main().
from controller.club import brokerconf  # noqa: E402
from controller.club.keyring import CLUB_USER, Keyring  # noqa: E402
from controller.club.mqtt import BrokerConfig  # noqa: E402
from controller.club.signing import Signer, Verifier  # noqa: E402


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed_publisher() -> Any:
    """The real publisher, noting when each hand fact went out (for the latency to the page)."""
    from controller.club.publisher import ClubPublisher

    class Timed(ClubPublisher):
        sent: dict[tuple[str, int], float]

        def _send(self, pos: int, fact: Any) -> bool:
            at = time.time()
            done = super()._send(pos, fact)
            if done and fact.kind == "hand":
                self.sent.setdefault((self.table, int(fact.body["number"])), at)
            return done

    return Timed


def enrol_all(club_dir: Path, tables: int) -> dict[str, tuple[Signer, str]]:
    """Enrol the tables (keys and broker passwords) as `club enrol-table` does."""
    keyring = Keyring(club_dir)
    out = {}
    for i in range(tables):
        name = f"t{i:03d}"
        signer, password = keyring.enrol(name)
        brokerconf.set_password(club_dir, name, password)
        out[name] = (signer, password)
    return out


def start_broker(club_dir: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    conf = brokerconf.write_config(club_dir, port, "127.0.0.1")
    lines = [x for x in conf.read_text().splitlines() if not x.startswith("persistence")]
    lines += ["persistence false", "max_queued_messages 100000"]
    conf.write_text("\n".join(lines) + "\n")
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    proc = subprocess.Popen([mosquitto, "-c", str(conf)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    return proc, port


def serve_club(data_dir: str, port: int, broker_port: int, signed: bool) -> None:
    """The club service in this process (the subprocess of a phase)."""
    import uvicorn

    from controller.club.app import create_club_app
    from controller.club.service import ClubService

    login = BrokerConfig("127.0.0.1", broker_port, CLUB_USER,
                         brokerconf.club_password(Path(data_dir)))
    club = ClubService(Path(data_dir), login, signed=signed)
    uvicorn.run(create_club_app(club), host="127.0.0.1", port=port, log_level="warning")


def writer(data_dir: Path, seed: int, rate: float, stop: threading.Event) -> None:
    """Append a recorded game to the table's log at ``rate`` events a second."""
    from controller.store import EventLog
    from tests.game.randomgame import random_session

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


async def watch(url: str, seconds: float, sent: dict[tuple[str, int], float]
                ) -> dict[str, list[float]]:
    """A club page's socket: per push, the new statuses' age and, for a table whose hand
    count moved on, the time since that hand's fact went out."""
    import websockets

    out: dict[str, list[float]] = {"status": [], "fact": []}
    seen: dict[str, float] = {}
    async with websockets.connect(url, max_size=None) as ws:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                break
            now = time.time()
            for table in json.loads(raw)["tables"]:
                at, name = table.get("at"), table["table"]
                if at and at != seen.get(name):  # a new status since the last push
                    seen[name] = at
                    out["status"].append((now - at) * 1000)
                fact_at = sent.pop((name, int(table.get("hands") or 0)), None)
                if fact_at is not None:
                    out["fact"].append((now - fact_at) * 1000)
    return out


def _get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=5) as r:
        return json.loads(r.read())


def _quantiles(values: list[float]) -> tuple[float, float]:
    if len(values) < 3:
        return (round(max(values, default=0.0), 1),) * 2
    q = statistics.quantiles(sorted(values), n=100)
    return round(q[49], 1), round(q[98], 1)


def _start_tables(work: Path, keys: dict[str, tuple[Signer, str]], port: int, signed: bool,
                  club_public: str, rate: float, stop: threading.Event) -> list[Any]:
    timed = timed_publisher()
    sent: dict[tuple[str, int], float] = {}
    publishers = []
    for i, (name, (signer, password)) in enumerate(sorted(keys.items())):
        d = work / name
        d.mkdir(parents=True)
        pub = timed(d, name, BrokerConfig("127.0.0.1", port, name, password),
                    signer=signer if signed else None,
                    club=Verifier.from_text(club_public) if signed else None, poll=0.25)
        pub.sent = sent
        pub.start()
        publishers.append(pub)
        threading.Thread(target=writer, args=(d, i + 1, rate, stop), daemon=True).start()
    return publishers


def phase(work: Path, base_dir: Path, keys: dict[str, tuple[Signer, str]], signed: bool,
          args: Any) -> dict[str, Any]:
    """One mode for ``args.seconds``: a fresh broker (no retained message of the other mode),
    a fresh club database and fresh table logs."""
    club_dir = work / "club"
    shutil.copytree(base_dir, club_dir)
    broker, port = start_broker(club_dir)
    club_port = free_port()
    club = subprocess.Popen([sys.executable, __file__, "--serve-club", str(club_dir),
                             str(club_port), str(port), "signed" if signed else "unsigned"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{club_port}"
    stop = threading.Event()
    publishers: list[Any] = []
    try:
        for _ in range(200):
            try:
                _get(base, "/api/health")
                break
            except OSError:
                time.sleep(0.1)
        club_public = Keyring(club_dir).signer.public_text()
        publishers = _start_tables(work, keys, port, signed, club_public, args.rate, stop)
        time.sleep(3.0)  # everyone connected and dealing
        m0, t0 = _get(base, "/api/health")["messages"], time.monotonic()
        c0, b0 = cpu_seconds(club.pid), cpu_seconds(broker.pid)
        lat = asyncio.run(watch(f"ws://127.0.0.1:{club_port}/ws/club", args.seconds,
                                publishers[0].sent))
        health, t1 = _get(base, "/api/health"), time.monotonic()
        c1, b1 = cpu_seconds(club.pid), cpu_seconds(broker.pid)
        return _figures(signed, lat, health, m0, t1 - t0, c1 - c0, b1 - b0, rss_mb(club.pid),
                        len(_get(base, "/api/club/hands")))
    finally:
        stop.set()
        for pub in publishers:
            pub.stop()
        club.terminate()
        club.wait(10)
        broker.terminate()
        broker.wait(10)
        shutil.rmtree(work, ignore_errors=True)


def _figures(signed: bool, lat: dict[str, list[float]], health: dict[str, Any], m0: int,
             seconds: float, club_cpu: float, broker_cpu: float, rss: float,
             hands: int) -> dict[str, Any]:
    f50, f99 = _quantiles(lat["fact"])
    s50, s99 = _quantiles(lat["status"])
    return {"mode": "signed" if signed else "unsigned", "seconds": round(seconds, 1),
            "club_messages_per_second": round((health["messages"] - m0) / seconds, 1),
            "fact_to_page_ms_p50": f50, "fact_to_page_ms_p99": f99,
            "fact_samples": len(lat["fact"]), "status_to_page_ms_p50": s50,
            "status_to_page_ms_p99": s99, "status_samples": len(lat["status"]),
            "club_cpu_percent": round(100 * club_cpu / seconds, 1),
            "club_cpu_ms_per_message": round(1000 * club_cpu / max(1, health["messages"] - m0),
                                             3),
            "club_rss_mb": round(rss, 1),
            "broker_cpu_percent": round(100 * broker_cpu / seconds, 1),
            "hands_at_club": hands, "set_aside": health["set_aside"]}


def main() -> int:
    if len(sys.argv) == 6 and sys.argv[1] == "--serve-club":
        serve_club(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "signed")
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0, help="per mode and round")
    ap.add_argument("--rate", type=float, default=2.0, help="events a second at each table")
    ap.add_argument("--rounds", type=int, default=2, help="unsigned + signed pairs")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-club-"))
    base_dir = work / "club-base"
    keys = enrol_all(base_dir, args.tables)
    brokerconf.club_password(base_dir)
    rows = []
    try:
        for _ in range(args.rounds):
            for signed in (False, True):
                rows.append(phase(work / "phase", base_dir, keys, signed, args))
                print(json.dumps(rows[-1]), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps({"tables": args.tables, "events_per_second_per_table": args.rate,
                      "runs": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
