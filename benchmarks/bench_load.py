"""The table under web load: does the game keep its pace, and do readers stay quiet?

Starts ``mahjong-table serve --simulate`` (by default the virtual table: virtual reader boards
over pseudo-terminals, the real serial bridge, presence tracking; ``--in-process`` for the
in-process simulation) in a subprocess on a free port, lets it play, then measures side by side
in one run on one server:

1. unloaded for ``--seconds``;
2. loaded for ``--seconds``: ``--pollers`` clients polling ``GET /api/table`` in a tight loop
   (keep-alive, no token) and ``--ws`` idle ``/ws`` clients (connected, never reading);
3. after the load, ``--seconds / 3``.

For each phase, from the service's own event log afterwards: moves per minute, ``reader_silent``
and other anomalies stored; for the loaded phase ``/api/table`` latency p50/p99 and requests/s,
WebSocket clients connected/refused; the service's RSS (peak). Run by hand:

    .venv/bin/python benchmarks/bench_load.py [--seconds 60] [--pollers 200] [--ws 1000]
                                              [--in-process] [--max-ws 1100] [--pace 0.5]

The load generator runs in this process, on the same 2-core machine as the service: its figures
are what a busy club evening on a Pi would see at best. Issue 11's run before the fixes: 10
pollers stored 33,131 reader_silent anomalies in 50 s and the game stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


async def get_table(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(b"GET /api/table HTTP/1.1\r\nHost: bench\r\n\r\n")
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    await reader.readexactly(length)
    if not head.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(head.split(b"\r\n")[0].decode())


async def poller(port: int, stop: asyncio.Event, lat: list[float], errors: list[str]) -> None:
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError as exc:
            errors.append(type(exc).__name__)
            await asyncio.sleep(0.1)
            continue
        try:
            while not stop.is_set():
                t = time.perf_counter()
                await asyncio.wait_for(get_table(reader, writer), 30)
                lat.append(time.perf_counter() - t)
        except (OSError, RuntimeError, TimeoutError, asyncio.IncompleteReadError) as exc:
            errors.append(type(exc).__name__)
        finally:
            writer.close()


async def idle_ws(port: int, stop: asyncio.Event, state: dict[str, int]) -> None:
    try:
        # max_queue=1: the library stops reading after one message, like a client that never
        # reads (the server sees a full socket, not a slow one)
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws", max_queue=1,
                                      open_timeout=30, ping_interval=None) as ws:
            state["connected"] += 1
            await stop.wait()
            del ws
    except Exception as exc:  # refused over the cap (403), dropped, or the machine gave up
        key = "refused" if "403" in str(exc) else "failed"
        state[key] += 1


async def load(port: int, seconds: float, pollers: int, clients: int) -> dict[str, Any]:
    stop = asyncio.Event()
    lat: list[float] = []
    errors: list[str] = []
    ws_state = {"connected": 0, "refused": 0, "failed": 0}
    tasks = [asyncio.create_task(idle_ws(port, stop, ws_state)) for _ in range(clients)]
    tasks += [asyncio.create_task(poller(port, stop, lat, errors)) for _ in range(pollers)]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    for task in tasks:
        task.cancel()
    lat.sort()
    return {
        "requests": len(lat), "per_s": round(len(lat) / seconds, 1),
        "p50_ms": round(statistics.median(lat) * 1000, 1) if lat else None,
        "p99_ms": round(lat[int(len(lat) * 0.99)] * 1000, 1) if lat else None,
        "max_ms": round(lat[-1] * 1000, 1) if lat else None,
        "errors": len(errors), "ws": ws_state,
    }


def counts(db: Path, t0: float, t1: float) -> dict[str, Any]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT event, accepted, time FROM events WHERE time >= ? AND "
                            "time < ? ORDER BY seq", (t0, t1)).fetchall()
    finally:
        conn.close()
    moves = anomalies = silent = 0
    kinds: dict[str, int] = {}
    discards: list[float] = []
    examples: list[str] = []
    silent_boards: dict[str, int] = {}  # board -> its channels reported silent
    for raw, accepted, at in rows:
        event = json.loads(raw)
        if "move" in event and accepted:
            moves += 1
            if event["move"].get("to") == "discard":
                discards.append(at)
        elif "anomaly" in event:
            anomalies += 1
            kind = str(event["anomaly"].get("kind"))
            kinds[kind] = kinds.get(kind, 0) + 1
            if len(examples) < 3:  # the service's own log, not a public text
                examples.append(str(event["anomaly"].get("message")))
            silent += kind == "reader_silent"
            if kind == "reader_silent":
                board = str(event["anomaly"].get("channel", "?")).split("/")[0]
                silent_boards[board] = silent_boards.get(board, 0) + 1
    minutes = (t1 - t0) / 60
    # the players' rhythm: the time from one discard to the next (a turn: a draw or claim, a
    # discard), gaps over 10 s (a hand's end and the next deal) left out. Moves per minute mix
    # the deal's quick moves with play's, so they swing with where a window falls in a hand.
    turns = [b - a for a, b in zip(discards, discards[1:], strict=False) if b - a <= 10.0]
    return {"moves_per_min": round(moves / minutes, 1),
            "turn_median_s": round(statistics.median(turns), 3) if turns else None,
            "anomalies": anomalies, "reader_silent": silent, "anomaly_kinds": kinds,
            "anomaly_examples": examples, "silent_boards": silent_boards,
            "events": len(rows)}


def start(args: argparse.Namespace, data: Path, port: int) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "controller", "serve", "--simulate", "--data-dir", str(data),
           "--port", str(port), "--log-level", "warning", "--seed", "7",
           "--pace", str(args.pace)]
    if args.in_process:
        cmd.append("--in-process")
    if args.max_ws:
        config = data.parent / "table.toml"
        config.write_text(f"[server]\nmax_ws_clients = {args.max_ws}\n"
                          f"ws_per_address = {args.max_ws}\n")
        cmd += ["--config", str(config)]
    return subprocess.Popen(cmd, cwd=args.code, stdout=subprocess.DEVNULL,
                            stderr=open(data.parent / "serve.err", "wb"))  # noqa: SIM115


def wait_ready(port: int, proc: subprocess.Popen[bytes]) -> None:
    import urllib.request

    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit(f"the service exited with {proc.returncode}")
        with contextlib.suppress(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5).read()
            return
        time.sleep(0.3)
    sys.exit("the service did not come up within 60 s")


async def sample_rss(pid: int, stop: asyncio.Event, peak: list[float]) -> None:
    while not stop.is_set():
        peak.append(rss_mb(pid))
        await asyncio.sleep(1.0)


async def run(args: argparse.Namespace, proc: subprocess.Popen[bytes], port: int,
              db: Path) -> dict[str, Any]:
    stop = asyncio.Event()
    rss: list[float] = []
    sampler = asyncio.create_task(sample_rss(proc.pid, stop, rss))
    await asyncio.sleep(10)  # the first deal
    phases: dict[str, Any] = {}
    t0 = time.time()
    await asyncio.sleep(args.seconds)
    t1 = time.time()
    idle_rss = max(rss[-int(args.seconds):] or [0.0])
    web = await load(port, args.seconds, args.pollers, args.ws)
    t2 = time.time()
    loaded_rss = max(rss[-int(args.seconds):] or [0.0])
    await asyncio.sleep(args.seconds / 3)
    t3 = time.time()
    stop.set()
    await sampler
    phases["windows"] = (t0, t1, t2, t3)
    phases["web"] = web
    phases["rss"] = {"unloaded_peak_mb": round(idle_rss, 1), "loaded_peak_mb": round(loaded_rss, 1)}
    return phases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--pollers", type=int, default=200)
    parser.add_argument("--ws", type=int, default=1000)
    parser.add_argument("--pace", type=float, default=0.5)
    parser.add_argument("--in-process", action="store_true")
    parser.add_argument("--max-ws", type=int, default=None,
                        help="[server] max_ws_clients for the run (default: the service's)")
    parser.add_argument("--code", default=str(ROOT), help="checkout whose code is served")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp:
        data = Path(tmp) / "data"
        port = free_port()
        proc = start(args, data, port)
        try:
            wait_ready(port, proc)
            result = asyncio.run(run(args, proc, port, data / "events.sqlite"))
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        t0, t1, t2, t3 = result.pop("windows")
        db = data / "events.sqlite"
        result["unloaded"] = counts(db, t0, t1)
        result["loaded"] = counts(db, t1, t2)
        result["after"] = counts(db, t2, t3)
        result["mode"] = "in-process" if args.in_process else "virtual table over pty"
        result["settings"] = {"seconds": args.seconds, "pollers": args.pollers, "ws": args.ws,
                              "pace": args.pace, "cpus": os.cpu_count()}
        err = (Path(tmp) / "serve.err").read_text(errors="replace")
        result["tracebacks"] = err.count("Traceback")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
