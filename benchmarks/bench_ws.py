"""WebSocket push under load: N clients (some deliberately slow) watch a fast simulated game.

Starts ``mahjong-table serve --simulate --in-process`` in a subprocess on a free port, connects
the clients, and reports push latency (receive time minus the message's server_time), the
per-client queue high-water mark against its bound, dropped stale states, and the service's RSS.

    .venv/bin/python benchmarks/bench_ws.py [--clients 50] [--slow 5] [--seconds 30] [--pace 0.01]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as res:
        return json.load(res)


def wait_ready(base: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.time() + 30
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit(f"the service exited with {proc.returncode}")
        try:
            get_json(f"{base}/api/health")
            return
        except OSError:
            time.sleep(0.2)
    sys.exit("the service did not come up within 30 s")


async def client(
    url: str, slow: bool, stop: float, latencies: list[float], counts: list[int]
) -> None:
    """One dashboard: reads and acknowledges every message, as the pages do."""
    async with websockets.connect(url, max_size=2**22) as ws:
        n = 0
        while time.time() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.time()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            latencies.append(time.time() - float(msg["server_time"]))
            n += 1
            if slow:
                await asyncio.sleep(0.5)  # a phone on bad Wi-Fi: falls behind on purpose
            await ws.send('{"ack":1}')
        counts.append(n)


async def run_clients(
    base_ws: str, n: int, slow: int, seconds: float
) -> tuple[list[float], list[float], list[int]]:
    fast_lat: list[float] = []
    slow_lat: list[float] = []
    counts: list[int] = []
    stop = time.time() + seconds
    await asyncio.gather(*(
        client(f"{base_ws}/ws?flow=ack", i < slow, stop, slow_lat if i < slow else fast_lat, counts)
        for i in range(n)
    ))
    return fast_lat, slow_lat, counts


def percentile(values: list[float], q: float) -> float:
    """The q-quantile in milliseconds (0.0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)


def measure(args: argparse.Namespace) -> tuple[dict[str, Any], list[float], list[float],
                                               list[int], list[float]]:
    """Run the service and the clients: (health after, fast and slow latencies, message
    counts, RSS samples with the idle one first)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        cmd = [sys.executable, "-m", "controller", "serve", "--simulate", "--in-process",
               "--pace", str(args.pace), "--port", str(port), "--data-dir", data,
               "--log-level", "warning"]
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
        try:
            wait_ready(base, proc)
            rss = [rss_mb(proc.pid)]

            async def everything() -> tuple[list[float], list[float], list[int]]:
                async def sample() -> None:
                    while True:
                        rss.append(rss_mb(proc.pid))
                        await asyncio.sleep(0.5)

                sampler = asyncio.create_task(sample())
                try:
                    return await run_clients(f"ws://127.0.0.1:{port}", args.clients, args.slow,
                                             args.seconds)
                finally:
                    sampler.cancel()

            seq0 = get_json(f"{base}/api/health")["seq"]
            fast_lat, slow_lat, counts = asyncio.run(everything())
            health = get_json(f"{base}/api/health")
            health["events"] = health["seq"] - seq0
        finally:
            proc.terminate()
            proc.wait(10)
    return health, fast_lat, slow_lat, counts, rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--slow", type=int, default=5, help="clients that read only every 0.5 s")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--pace", type=float, default=0.01)
    args = parser.parse_args()
    health, fast_lat, slow_lat, counts, rss = measure(args)
    push = health.get("push", {})
    fast_counts = sorted(counts)[args.slow:] or counts
    report = {
        "clients": args.clients, "slow_clients": args.slow, "seconds": args.seconds,
        "events_applied": health["events"],
        "events_per_second": round(health["events"] / args.seconds, 1),
        "messages_received": sum(counts),
        "messages_per_fast_client_median": statistics.median(fast_counts) if fast_counts else 0,
        "latency_ms_p50": percentile(fast_lat, 0.50), "latency_ms_p99": percentile(fast_lat, 0.99),
        "latency_ms_max": percentile(fast_lat, 1.0),
        "slow_client_latency_ms_p99": percentile(slow_lat, 0.99),
        "queue_bound": push.get("bound"), "queue_high_water": push.get("high_water"),
        "stale_states_dropped": push.get("dropped"),
        "rss_mb_idle": round(rss[0], 1), "rss_mb_peak": round(max(rss), 1),
    }
    print(json.dumps(report, indent=2))
    ok = (push.get("high_water", 0) <= push.get("bound", 0)) and max(rss) <= 80
    print("queue bound held and RSS <= 80 MB" if ok else "TARGET MISSED", file=sys.stderr)
    os._exit(0 if ok else 1)


if __name__ == "__main__":
    main()
