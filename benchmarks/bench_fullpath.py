"""The full path: the last byte of a scan frame on the pty -> the WebSocket message at a client.

Run: .venv/bin/python benchmarks/bench_fullpath.py [--seconds 20] [--clients 1 50]
     [--boards apart|threads] [--cpu auto|off|N] [--players live|ahead]

The service runs here with the virtual table (as `serve --simulate`): virtual reader boards
write frames on pseudo-terminals, the real serial back-end reads them, the presence tracker
makes moves, the game loop applies and writes them in SQLite, the broadcaster pushes the new
state over uvicorn's WebSocket while the loop commits (syncs) the record, with the game on its
own thread and uvicorn's options as `serve` runs them. The measured client runs in a process of
its own; with ``--clients 50`` the 49 others (all acknowledging each message as the pages do)
run in another, as other screens are other devices. The boards, too, are devices: by default
(``--boards apart``) they run in a process of their own (firmware_bridge/sim_process.py) at the
firmware's timings (20 ms scans, 250 ms snapshots, firmware/fw_board.py), so their scanning
takes none of the service's interpreter; ``--boards threads`` runs them as `serve --simulate`
does, as threads of the service at the virtual table's quicker test timings (2 ms, 50 ms), a
heavier load than a table makes. The simulated players decide in the service either way (unless
``--players ahead``, below). The service runs on one CPU as `serve` runs it (``--cpu``, default
auto: the last CPU; controller/web/cpu.py), and the devices' processes keep to the other CPUs,
as on a table, where they are other machines; ``--cpu off`` lets every process run anywhere.
``--players ahead`` makes every decision of the simulated players before the run (the same
players, rule set and seed; the table then plays the script out, and a live game that leaves it
is an error): at a table people decide, and the Pi only sees their moves. Every process stamps
with CLOCK_MONOTONIC, one clock for the whole machine.

Measured on the draws (a tile arriving in a rack from the wall): the arrival frame itself
decides such a move. Moves that need the old zone to fall quiet wait ``absent_after`` by design
(a debounce, like the hardware's two agreeing reads) and are not a software cost; they are
counted but left out. Compared with the 86 ms physical floor of HARDWARE_NOTES.md (target: p99
at most 5 %).

Stages (p50 and p99 each): ``pty_to_loop`` the frame's last byte -> the move posted to the
loop (serial read, decode, presence); ``loop_apply_write`` -> the screens told (apply, the
INSERT, the history); ``push_to_client`` -> the message at the client (the web thread's view,
JSON, the sends), split in ``push_to_write`` -> uvicorn's write to the measured client's socket
has returned (on loopback the bytes are then in the client's socket) and ``write_to_client`` ->
the client has the message (its process woken on a CPU it shares with the boards and the other
clients' process; at a table, another device's own wake-up); ``commit_alongside`` the SQLite
commit and sync, which runs meanwhile and is not on the path (docs/store.md). Stage percentiles
do not add up to the total's. ``to_socket_p50_ms`` and ``to_socket_p99_ms``: the frame's last
byte -> the write to the measured client's socket returned, the service's whole part of the path.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

FLOOR_MS = 86.0
DEVICE_CPUS = "BENCH_FULLPATH_DEVICE_CPUS"  # the devices' CPUs, when the service has one
ALL_CPUS = set(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else set()
ROOT = Path(__file__).resolve().parents[1]


def _uid(value: Any) -> str:
    raw = value.hex() if isinstance(value, bytes | bytearray) else str(value)
    return raw.replace(":", "").lower()


class Stamps:
    """Frame and event times: the arrival frames written (uid, just before, just after), and
    for every accepted draw its uid and when it was posted to the loop and done."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.frames: list[tuple[str, float, float]] = []
        self.draws: dict[int, tuple[str, float, float]] = {}  # seq -> (uid, posted, done)
        self.shown: dict[int, float] = {}  # seq -> the screens were told (the push begins)
        self.written: list[tuple[float, str]] = []  # the measured client's sends: (done, text)
        self.push: Any = None  # the service's broadcaster (its stats at the end)
        self.other = 0

    def patch_boards(self) -> None:
        """Stamp every arrival frame the virtual boards of this process write."""
        from firmware_bridge.sim_board import VirtualBoard

        original = VirtualBoard._emit_locked
        frames, lock = self.frames, self.lock

        def emit(board: Any, name: str, **args: Any) -> None:
            if not (name == "scan" and args.get("present") == 1):
                original(board, name, **args)
                return
            before = time.monotonic()
            original(board, name, **args)  # returns once the frame's last byte is on the pty
            after = time.monotonic()
            with lock:
                frames.append((_uid(args["uid"]), before, after))

        VirtualBoard._emit_locked = emit  # type: ignore[method-assign,assignment]

    def by_seq(self) -> dict[int, float]:
        """seq -> when the frame that decided the draw was on the pty: the tile's last arrival
        frame begun before the move was posted (its stamp after the write, unless the host was
        quicker than that stamp)."""
        latest: dict[str, list[tuple[float, float]]] = {}
        for uid, before, after in sorted(self.frames, key=lambda f: f[1]):
            latest.setdefault(uid, []).append((before, after))
        out: dict[int, float] = {}
        for seq, (uid, posted, _) in self.draws.items():
            written = [f for f in latest.get(uid, ()) if f[0] <= posted]
            if written:
                before, after = written[-1]
                out[seq] = after if after <= posted else before
        return out

    def patch_sends(self) -> None:
        """Stamp each send to the measured client (its URL says ``measured=1``) when uvicorn's
        write to its socket has returned: the service's part of the push ends there, the rest is
        the network and the client's own wake-up (here another process on this machine; at a
        table, another device)."""
        from controller.web.broadcaster import Client

        take, mark_sent = Client.take, Client.mark_sent
        written = self.written

        def taken(client: Any) -> str | None:
            message = take(client)
            if message is not None and client.ws.query_params.get("measured"):
                client.bench_last = message
            return message

        def sent(client: Any) -> None:
            last = getattr(client, "bench_last", None)
            if last is not None:
                written.append((time.monotonic(), last))
                client.bench_last = None
            mark_sent(client)

        Client.take, Client.mark_sent = taken, sent  # type: ignore[method-assign]

    def written_by_seq(self) -> list[tuple[float, int]]:
        return sorted((t, int(json.loads(text)["table"]["seq"])) for t, text in self.written)

    def wrap_submit(self, service: Any) -> None:
        def shown(change: Any) -> None:
            self.shown[int(change.seq)] = time.monotonic()

        service.subscribe(shown, screen=True)  # told with the web's push, before the commit
        submit = service.submit

        async def stamped(event: dict[str, Any], source: str) -> Any:
            posted = time.monotonic()
            applied = await submit(event, source)
            done = time.monotonic()
            move = event.get("move") or {}
            if applied.accepted and move.get("from") == "wall" and move.get("uid"):
                self.draws[int(applied.seq)] = (_uid(move["uid"]), posted, done)
            elif applied.accepted:
                self.other += 1
            return applied

        service.submit = stamped


class Foreseen:
    """The simulated players with every decision made before the run (``--players ahead``): at
    a table people decide, and the Pi only sees their moves; deciding in the service puts the
    simulation's own work (a discard weighed: up to 7 ms) on the CPU whose latency is
    measured. The session is played out with the engine first, by the same players (same rule
    set, options and seed); the live game must follow it step for step (checked by the
    number of game-changing events: a different game is an error, not a measurement)."""

    def __init__(self, ruleset: str, options: dict[str, Any], seed: int, hands: int) -> None:
        from controller.game import apply, new_game, public_view
        from controller.players.director import Director

        director = Director(ruleset, options, hands, seed)
        state = new_game()
        self.script: list[tuple[int, dict[str, Any], bool]] = []
        while (event := director.next_action(state)) is not None:
            if "session" not in event:  # the service starts the session itself
                self.script.append((state.depth, event, director.pending()))
            state = apply(state, event).state
        # the options as the session shows them (every default filled in), as the table's
        # players are given them
        session = public_view(state).get("session") or {}
        self.key = (ruleset, dict(session.get("options") or {}), seed)
        self._pending = False

    def follow(self, real: Any) -> Foreseen:
        """These players, for the live table's (checked to be the same players)."""
        if (real.ruleset_name, real.options, real.seed) != self.key:
            raise RuntimeError(f"the script was played by {self.key}, the table has "
                               f"{(real.ruleset_name, real.options, real.seed)}")
        return self

    def next_action(self, state: Any) -> dict[str, Any] | None:
        if not self.script:
            return None
        depth, event, self._pending = self.script.pop(0)
        if state.depth != depth:
            raise RuntimeError(f"the live game left the players' script at event depth "
                               f"{state.depth} (expected {depth}): run with --players live")
        return event

    def pending(self) -> bool:
        return self._pending


def players_ahead(config: Any, hands: int) -> None:
    """The virtual table of ``config``'s session plays from a script decided now."""
    import controller.sources.virtual as virtual

    made = virtual._new_director
    script = Foreseen(config.session.ruleset, dict(config.session.options),
                      config.simulation.seed, hands)

    def new_director(loop: Any, options: Any) -> Any:
        return script.follow(made(loop, options))

    virtual._new_director = new_director


def device_cpus() -> set[int] | None:
    """The CPUs the service does not use, when it runs on one (``--cpu``)."""
    cpus = os.environ.get(DEVICE_CPUS)
    return {int(c) for c in cpus.split(",")} if cpus else None


def as_device() -> None:
    """In a process that stands for other devices (screens): keep off the service's CPU."""
    cpus = device_cpus()
    if cpus:
        os.sched_setaffinity(0, cpus)


def boards_child(stamp_path: str, options: str) -> None:
    """The virtual boards' process (``--boards apart``), its arrival frames stamped."""
    from firmware_bridge import sim_process

    stamps = Stamps()
    stamps.patch_boards()
    try:
        sim_process.main([options], cpus=device_cpus())
    finally:
        tmp = stamp_path + ".tmp"
        Path(tmp).write_text(json.dumps(stamps.frames))
        os.replace(tmp, stamp_path)


def serve(port: int, data_dir: Path, stamps: Stamps, pace: float, ws: str | None,
          boards: str, players: str = "live", seconds: float = 20.0) -> Any:
    import uvicorn

    from controller.app import build
    from controller.config import Config, SimulationConfig

    # The virtual table, as `serve --simulate` runs it; with ``boards == "apart"`` its boards
    # run in a process of their own at the firmware's timings, as the table's boards do.
    apart = {"boards_apart": True, "scan_ms": 20.0, "snapshot_ms": 250.0}
    sim = SimulationConfig(pace=pace, seed=3, **(apart if boards == "apart" else {}))
    config = Config(simulation=sim)
    if players == "ahead":  # a hand takes 10 s and more at the default pace
        players_ahead(config, hands=int(seconds / 5) + 4)
    system = build(config, data_dir, table="virtual")
    system.game_thread = True  # as `serve` runs it: the game on its own thread
    stamps.wrap_submit(system.loop)
    stamps.patch_sends()
    stamps.push = system.app.state.broadcaster
    from controller.web.app import UVICORN_OPTIONS

    options = {**UVICORN_OPTIONS, **({"ws": ws} if ws else {})}
    server = uvicorn.Server(uvicorn.Config(system.app, host="127.0.0.1", port=port,
                                           log_level="warning", **options))
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.time() + 30
    while not server.started and time.time() < deadline:
        time.sleep(0.05)
    return server


async def clients(url: str, n: int, seconds: float) -> list[tuple[float, int]]:
    """n acknowledging clients; the first one's (receive time, seq) pairs."""
    import websockets

    measured: list[tuple[float, int]] = []
    stop = time.monotonic() + seconds

    async def one(first: bool) -> None:
        async with websockets.connect(url, max_size=2**22) as ws:
            while time.monotonic() < stop:
                try:
                    left = max(0.1, stop - time.monotonic())
                    raw = await asyncio.wait_for(ws.recv(), timeout=left)
                except TimeoutError:
                    break
                t = time.monotonic()
                if first:
                    measured.append((t, int(json.loads(raw)["table"]["seq"])))
                await ws.send('{"ack":1}')

    await asyncio.gather(*(one(i == 0) for i in range(n)))
    return measured


def client_main(url: str, n: int, seconds: float) -> None:
    as_device()
    print(json.dumps(asyncio.run(clients(url, n, seconds))))


def latencies(frames: dict[int, float], received: list[tuple[float, int]]) -> list[float]:
    """For every stamped draw (seq -> its frame's time, ``Stamps.by_seq``): the first message
    that carries its seq (or a later one)."""
    out: list[float] = []
    received.sort()
    if not received:
        return out
    start = received[0][0]  # only frames written while the client was connected
    for seq, t_frame in sorted(frames.items()):
        if t_frame < start:
            continue
        t_recv = next((t for t, s in received if s >= seq and t >= t_frame), None)
        if t_recv is not None:
            out.append((t_recv - t_frame) * 1000)
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def run(n: int, seconds: float, pace: float, ws: str | None = None,
        boards: str = "apart", cpu: int | None = None, players: str = "live") -> dict[str, Any]:
    stamps = Stamps()
    if cpu is not None:  # as `serve` runs: every thread of the service on one CPU; and the
        from controller.web.cpu import pin  # devices on the others, as other machines

        os.environ[DEVICE_CPUS] = ",".join(str(c) for c in sorted(ALL_CPUS - {cpu}))
        pin(cpu)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    with tempfile.TemporaryDirectory() as data:
        stamp_file = Path(data) / "frames.json"
        if boards == "apart":  # the boards' process stamps its frames, written when it ends
            from firmware_bridge.sim_process import BoardsProcess

            BoardsProcess.command = (sys.executable, __file__, "--boards-child", str(stamp_file))
        else:
            stamps.patch_boards()
        server = serve(port, Path(data), stamps, pace, ws, boards, players, seconds + 10)
        time.sleep(2.0)  # the session starts, the boards say hello
        url = f"ws://127.0.0.1:{port}/ws?flow=ack"
        others = None
        if n > 1:  # the other clients: a process of their own, as other screens are devices
            others = subprocess.Popen(
                [sys.executable, __file__, "--client", url, "--n", str(n - 1), "--seconds",
                 str(seconds + 3)], stdout=subprocess.DEVNULL, cwd=ROOT,
                preexec_fn=lambda: os.nice(19))
            time.sleep(2.0)
        try:
            out = subprocess.run(
                [sys.executable, __file__, "--client", url + "&measured=1", "--n", "1", "--seconds",
                 str(seconds)], capture_output=True, text=True, check=True, cwd=ROOT).stdout
        finally:
            if others is not None:
                others.wait(timeout=30)
            superseded = stamps.push.stats()["dropped"] if stamps.push is not None else None
            server.should_exit = True
            time.sleep(1.0)
            if boards == "apart":
                deadline = time.monotonic() + 20
                while not stamp_file.exists() and time.monotonic() < deadline:
                    time.sleep(0.1)
                stamps.frames = [tuple(f) for f in json.loads(stamp_file.read_text())]
    received = [tuple(x) for x in json.loads(out)]
    frames = stamps.by_seq()
    values = latencies(frames, received)  # type: ignore[arg-type]
    p50, p99 = pct(values, 0.5), pct(values, 0.99)
    start = min((t for t, _ in received), default=0.0)
    kept = [(seq, t) for seq, t in frames.items() if t >= start]
    kept = [(seq, t) for seq, t in kept if seq in stamps.shown]
    draws = stamps.draws
    table = [(draws[s][1] - t) * 1000 for s, t in kept]  # frame -> posted to the loop
    loop = [(stamps.shown[s] - draws[s][1]) * 1000 for s, _ in kept]  # apply + write
    synced = [(draws[s][2] - stamps.shown[s]) * 1000 for s, _ in kept]  # the commit
    seqs = [seq for seq, _ in kept]
    written = stamps.written_by_seq()
    to_socket = latencies(frames, list(written))  # frame -> its socket: the service's part
    push = push_times(stamps.shown, seqs, sorted(received))
    to_write = push_times(stamps.shown, seqs, written)  # told -> the write to its socket done
    sent_at = dict(push_times_pairs(stamps.shown, seqs, written))
    to_client = [(t - sent_at[seq]) * 1000 for seq, t in push_times_pairs(
        stamps.shown, seqs, sorted(received)) if seq in sent_at]  # written -> at the client

    def stages(q: float) -> dict[str, float]:
        return {"pty_to_loop": round(pct(table, q), 2), "loop_apply_write": round(pct(loop, q), 2),
                "push_to_client": round(pct(push, q), 2),
                "push_to_write": round(pct(to_write, q), 2),
                "write_to_client": round(pct(to_client, q), 2),
                "commit_alongside": round(pct(synced, q), 2)}

    return {"boards": boards, "players": players, "clients": n, "draws": len(values),
            "other_events": stamps.other,
            "states_superseded": superseded,  # states the push left out for slow clients
            "p50_ms": round(p50, 2), "p99_ms": round(p99, 2), "max_ms": round(max(values), 2),
            "p99_share_of_floor": f"{100 * p99 / FLOOR_MS:.1f} %",
            "to_socket_p50_ms": round(pct(to_socket, 0.5), 2),
            "to_socket_p99_ms": round(pct(to_socket, 0.99), 2),
            "stages_p50_ms": stages(0.5), "stages_p99_ms": stages(0.99)}


def push_times_pairs(shown: dict[int, float], seqs: list[int],
                     received: list[tuple[float, int]]) -> list[tuple[int, float]]:
    """For every stamped draw: (its seq, the first time after the screens were told that a
    message carrying it, or a later state, was sent or received)."""
    out: list[tuple[int, float]] = []
    for seq in seqs:
        told = shown.get(seq)
        t_recv = next((t for t, s in received if s >= seq and told is not None and t >= told),
                      None)
        if told is not None and t_recv is not None:
            out.append((seq, t_recv))
    return out


def push_times(shown: dict[int, float], seqs: list[int],
               received: list[tuple[float, int]]) -> list[float]:
    """For every stamped draw: from the screens being told to the message sent or received."""
    return [(t - shown[seq]) * 1000 for seq, t in push_times_pairs(shown, seqs, received)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 50])
    parser.add_argument("--pace", type=float, default=0.1,
                        help="seconds between the simulated players' acts (a real table makes "
                        "a few events a second; 0 plays as fast as the controller registers)")
    parser.add_argument("--ws", help="uvicorn's WebSocket implementation instead of the "
                        "service's (websockets, websockets-sansio; wsproto once `pip install "
                        "wsproto`), to compare")
    parser.add_argument("--boards", choices=["apart", "threads"], default="apart",
                        help="the virtual boards in a process of their own at the firmware's "
                        "timings (20 ms scans, 250 ms snapshots), as a table's boards are "
                        "devices of their own (default), or as threads of the service at the "
                        "virtual table's quicker test timings, as `serve --simulate` runs them")
    parser.add_argument("--cpu", default="auto", metavar="auto|off|N",
                        help="the CPU the service runs on, as `serve --cpu` (default auto, as "
                        "serve runs it); the devices' processes then keep to the others")
    parser.add_argument("--players", choices=["live", "ahead"], default="live",
                        help="the simulated players decide in the service as `serve "
                        "--simulate` runs them (default), or every decision is made before "
                        "the run and the table plays it out (at a real table people decide, "
                        "not the Pi)")
    parser.add_argument("--boards-child", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--client", help=argparse.SUPPRESS)
    parser.add_argument("--n", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.ws == "wsproto":
        try:
            import wsproto  # noqa: F401
        except ImportError:
            parser.error("--ws wsproto needs the wsproto package: .venv/bin/pip install wsproto")
    if args.boards_child:
        boards_child(*args.boards_child)
        return
    from controller.web.cpu import for_service, parse

    try:
        cpu = for_service(parse(args.cpu))
    except ValueError as exc:  # CpuError too: a CPU this process may not use
        parser.error(str(exc))
    if args.client:
        client_main(args.client, args.n, args.seconds)
        return
    for n in args.clients:
        result = run(n, args.seconds, args.pace, args.ws, args.boards, cpu, args.players)
        print(json.dumps({**result, "service_cpu": cpu}))


if __name__ == "__main__":
    main()
