"""The host's floor for the full path's hand-overs, with no work: how much of
``bench_fullpath.py``'s latency is this machine waking threads and processes up.

Run: .venv/bin/python benchmarks/bench_hops.py [--seconds 20] [--rounds 2] [--clients 1 50]

A "board" process writes a 12-byte frame on a pty every 20 ms (the firmware's scan period); a
"screen" process (and, with ``--clients 50``, 49 others in a process beside it at nice 19,
as bench_fullpath.py runs them, each answering every message with a 9-byte acknowledgement as
the pages do; the measured one too) reads 2 kB messages (a public state's
size) from TCP sockets and stamps each one. Between them, in this process and on one CPU as
`serve` runs the service (the devices' processes on the other CPUs), the same hand-overs as
the service's path, and nothing else:

- ``threads`` (the service until the eighth session): a link thread reads the pty with
  pyserial (10 ms read timeout, as ``LinkOptions``) and hands the frame to the game thread's
  event loop (``call_soon_threadsafe``), which hands it to the web thread's event loop, which
  writes the message to every screen's socket;
- ``game_reads`` (the service now, ``SerialBackend.read_on``): the pty read on the game
  thread's loop (``add_reader``), then the web thread;
- ``one_loop``: the pty read and the sends on one event loop.

The variants run alternately, round after round, so that they share the host's moods; each
row is every round's frames together. Latency: the frame's last byte on the pty -> the message
at the measured screen (CLOCK_MONOTONIC, one clock for the machine), as in bench_fullpath.py,
and its p99 as a share of the 86 ms physical floor (the target there: at most 5 %).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import struct
import subprocess
import sys
import threading
import time
import tty
from collections.abc import Callable
from typing import Any

import serial
from bench_fullpath import FLOOR_MS, pct  # the same floor and percentile as the full path

FRAME = struct.Struct(">4sQ")  # 12 bytes: a marker and the frame's number
MESSAGE_SIZE = 2000
PERIOD_S = 0.02
VARIANTS = ("threads", "game_reads", "one_loop")


def _devices_cpus(service_cpu: int | None) -> set[int] | None:
    if service_cpu is None or not hasattr(os, "sched_getaffinity"):
        return None
    others = set(os.sched_getaffinity(0)) - {service_cpu}
    return others or None


# ---------------------------------------------------------------- the devices (child processes)


def board_main(fd: int, seconds: float, out: str) -> None:
    """Write a numbered frame every PERIOD_S on the pty's master end (inherited as ``fd``);
    stamp each just before and just after its bytes are written."""
    stamps: list[tuple[float, float]] = []
    time.sleep(1.0)  # the service opens the other end
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        before = time.monotonic()
        os.write(fd, FRAME.pack(b"SCAN", n))
        stamps.append((before, time.monotonic()))
        n += 1
        time.sleep(PERIOD_S)
    with open(out, "w") as f:
        json.dump(stamps, f)


async def _screens(port: int, n: int, seconds: float) -> list[tuple[int, float]]:
    got: list[tuple[int, float]] = []
    end = time.monotonic() + seconds

    async def one(measured: bool) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while time.monotonic() < end:
                try:
                    body = await asyncio.wait_for(reader.readexactly(MESSAGE_SIZE),
                                                  max(0.1, end - time.monotonic()))
                except (TimeoutError, asyncio.IncompleteReadError):
                    break
                if measured:
                    got.append((FRAME.unpack_from(body)[1], time.monotonic()))
                writer.write(b'{"ack":1}')
        finally:
            writer.close()

    await asyncio.gather(*(one(i == 0) for i in range(n)))
    return got


def screens_main(port: int, n: int, seconds: float) -> None:
    print(json.dumps(asyncio.run(_screens(port, n, seconds))))


# ---------------------------------------------------------------- the service's hand-overs


class Loop:
    """An event loop on a thread of its own."""

    def __init__(self, name: str) -> None:
        self.aio = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.aio.run_forever, name=name, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.aio.call_soon_threadsafe(self.aio.stop)
        self.thread.join(5)
        self.aio.close()


class Web:
    """The web thread's part: a socket server; each frame goes to every screen's socket."""

    def __init__(self, loop: Loop) -> None:
        self.loop = loop
        self.writers: list[asyncio.StreamWriter] = []
        self.port = 0
        self.turn = 0

        async def start() -> None:
            server = await asyncio.start_server(self._client, "127.0.0.1", 0)
            self.port = server.sockets[0].getsockname()[1]

        asyncio.run_coroutine_threadsafe(start(), loop.aio).result(10)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writers.append(writer)
        try:
            while await reader.read(4096):  # the acknowledgements, read and dropped
                pass
        finally:
            self.writers.remove(writer)

    def push(self, number: int) -> None:
        body = FRAME.pack(b"PUSH", number).ljust(MESSAGE_SIZE, b" ")
        writers = self.writers
        if writers:  # each push starts with the next screen, as the service's broadcaster
            self.turn = (self.turn + 1) % len(writers)
            writers = writers[self.turn:] + writers[:self.turn]
        for writer in writers:
            writer.write(body)


class Link:
    """The pty's reader end: frames decoded by their fixed size, each passed to ``deliver``."""

    def __init__(self, path: str, deliver: Callable[[int], None]) -> None:
        self.port = serial.Serial(path, 115200, timeout=0.01)
        self.deliver = deliver
        self.buffer = b""
        self.running = True

    def feed(self, data: bytes) -> None:
        self.buffer += data
        while len(self.buffer) >= FRAME.size:
            self.deliver(FRAME.unpack_from(self.buffer)[1])
            self.buffer = self.buffer[FRAME.size:]

    def read_forever(self) -> None:  # a link thread, as serial_backend.BoardLink
        while self.running:
            data = self.port.read(max(1, self.port.in_waiting))
            if data:
                self.feed(data)

    def on_readable(self) -> None:  # the same read, from an event loop
        data = self.port.read(self.port.in_waiting)
        if data:
            self.feed(data)


def run_variant(variant: str, clients: int, seconds: float, cpu: int | None,
                tmp: str) -> list[float]:
    """One run: the latencies (ms) of the frames the measured screen received."""
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    web_loop = Loop("web")
    game_loop = Loop("game") if variant != "one_loop" else None
    web = Web(web_loop)

    def to_web(number: int) -> None:
        web_loop.aio.call_soon_threadsafe(web.push, number)

    link: Link
    reader: threading.Thread | None = None
    if variant == "threads":
        assert game_loop is not None
        game = game_loop.aio
        link = Link(path, lambda n: game.call_soon_threadsafe(to_web, n))
        reader = threading.Thread(target=link.read_forever, name="link", daemon=True)
        reader.start()
    elif variant == "game_reads":
        assert game_loop is not None
        link = Link(path, to_web)
        game_loop.aio.call_soon_threadsafe(game_loop.aio.add_reader, link.port.fileno(),
                                           link.on_readable)
    else:
        link = Link(path, web.push)
        web_loop.aio.call_soon_threadsafe(web_loop.aio.add_reader, link.port.fileno(),
                                          link.on_readable)
    devices = _devices_cpus(cpu)
    pin: Callable[[], None] | None = (
        (lambda: os.sched_setaffinity(0, devices)) if devices else None)  # type: ignore[arg-type]
    stamps_file = os.path.join(tmp, f"{variant}.json")
    me = [sys.executable, os.path.abspath(__file__)]
    board = subprocess.Popen(me + ["--board", str(master), str(seconds + 1), stamps_file],
                             preexec_fn=pin, pass_fds=(master,))
    others = None
    if clients > 1:  # at nice 19, as bench_fullpath.py runs them: other devices
        def pin_nice() -> None:
            if pin is not None:
                pin()
            os.nice(19)

        others = subprocess.Popen(me + ["--screens", str(web.port), str(clients - 1),
                                        str(seconds + 2)], stdout=subprocess.DEVNULL,
                                  preexec_fn=pin_nice)
    measured = subprocess.run(me + ["--screens", str(web.port), "1", str(seconds + 1.5)],
                              capture_output=True, text=True, check=True,
                              preexec_fn=pin).stdout
    board.wait(30)
    if others is not None:
        others.wait(30)
    link.running = False
    if reader is not None:
        reader.join(2)
    for loop in (game_loop, web_loop):
        if loop is not None:
            loop.stop()
    link.port.close()
    os.close(master)
    os.close(slave)
    with open(stamps_file) as f:
        written = json.load(f)
    # From the stamp after the write, unless the message came sooner than the writer could
    # stamp (it was descheduled right after its write): then from the one before it.
    out: list[float] = []
    for n, t in json.loads(measured):
        if 0 <= n < len(written):
            before, after = written[n]
            out.append((t - (after if after <= t else before)) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="per variant and round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 50])
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    parser.add_argument("--cpu", default="auto", metavar="auto|off|N",
                        help="the CPU the service part runs on, as `serve --cpu`")
    parser.add_argument("--board", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--screens", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.board:
        board_main(int(args.board[0]), float(args.board[1]), args.board[2])
        return
    if args.screens:
        screens_main(int(args.screens[0]), int(args.screens[1]), float(args.screens[2]))
        return
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from controller.web.cpu import for_service, parse, pin

    try:
        cpu = for_service(parse(args.cpu))
    except ValueError as exc:
        parser.error(str(exc))
    if cpu is not None:
        pin(cpu)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for clients in args.clients:
            results: dict[str, list[float]] = {v: [] for v in args.variants}
            for r in range(args.rounds):
                for variant in args.variants:
                    print(f"clients {clients}, round {r + 1}/{args.rounds}: {variant} ...",
                          file=sys.stderr, flush=True)
                    results[variant] += run_variant(variant, clients, args.seconds, cpu, tmp)
            base = pct(results[args.variants[0]], 0.99)
            for variant, values in results.items():
                p99 = pct(values, 0.99)
                out: dict[str, Any] = {
                    "clients": clients, "variant": variant, "frames": len(values),
                    "p50_ms": round(pct(values, 0.5), 3), "p90_ms": round(pct(values, 0.9), 3),
                    "p99_ms": round(p99, 3), "max_ms": round(max(values, default=0), 3),
                    "p99_share_of_floor": f"{100 * p99 / FLOOR_MS:.1f} %",
                    f"p99_vs_{args.variants[0]}": round(p99 / base, 2) if base else None,
                    "service_cpu": cpu}
                print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
