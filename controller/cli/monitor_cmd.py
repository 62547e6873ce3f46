"""``mahjong-table monitor``: live scans, moves and button presses from the configured hardware.

The first check after wiring a table: scans go through the real presence tracker with the
config's channel -> zone map and the registry of the data directory, so what it prints is what
the service would see. No game runs: a tile taken off the table is shown going to the wall.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import signal
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.cli import CliError, load_config, open_readers
from controller.cli.argtypes import path, pause, seconds

if TYPE_CHECKING:
    from controller.app import System

Event = dict[str, Any]


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "monitor",
        help="print live scans, moves and button presses from the configured readers",
        description="Open the configured readers (and seat buttons) and print what they see: "
        "changed scans, the moves and anomalies the presence tracker makes of them (tile codes "
        "from the data directory's registry), board health and button presses. Ctrl-C ends it. "
        "With the sim back-end a slow demo moves tiles on the virtual table.",
    )
    p.add_argument("--config", type=path, metavar="FILE",
                   help="table configuration (default: none, the virtual table)")
    p.add_argument("--data-dir", type=path, metavar="DIR",
                   help="where registry.sqlite is (default: the config's [data] dir)")
    p.add_argument("--seconds", type=seconds, metavar="N", help="stop after N seconds")
    p.add_argument("--all-scans", action="store_true",
                   help="print every scan, not only those that changed")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("--no-demo", action="store_true",
                   help="sim back-end: leave the virtual table alone (no demo moves)")
    p.add_argument("--pace", type=pause, default=0.3, metavar="S",
                   help="sim demo: seconds between its moves (default 0.3)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from controller.app import build

    if args.seconds is not None and args.seconds <= 0:
        raise CliError(f"--seconds must be more than 0, not {args.seconds}")
    config = load_config(args.config)
    system = build(config, args.data_dir)
    zones = system.channels()
    if not zones:
        raise CliError("the config maps no reader channel to a zone: add [table.channels], "
                       "e.g. \"centre/0\" = \"discard\"")
    out = Printer(zones, args.json, args.all_scans)
    registry = tile_names(system, out)
    readers = config.readers
    tracker = system.tracker(registry, zones)
    tracker.set_hand_over(True)  # no game: a tile leaving goes to the wall, it is not missing
    backend = open_readers(system, buttons=True)
    table = getattr(getattr(backend, "backend", backend), "table", None)
    demo = None
    if table is not None and not args.no_demo:
        demo = SimDemo(table, list(registry), seed=readers.sim.seed or 0, pace=args.pace)
        out.note(f"demo: tiles are moved on the virtual table every {args.pace:g} s "
                 "(--no-demo to leave it alone)")
    try:
        backend.start()
    except RuntimeError as exc:
        raise CliError(str(exc)) from None
    stop = threading.Event()
    try:
        with ctrl_c_sets(stop):
            watch(backend, tracker, out, args.seconds, demo, readers.scan_interval, stop)
    except KeyboardInterrupt:
        pass  # Ctrl-C where no handler could be installed: still the normal way to end it
    finally:
        backend.stop()
    out.summary()
    return 0


def tile_names(system: System, out: Printer) -> Mapping[str, str]:
    """UID -> tile code: the data directory's registry; for the sim without one, its own set."""
    from controller.table import REGISTRY_FILE, RegistryError

    config, data_dir = system.config, system.data_dir
    registry: Mapping[str, str] = {}
    if (Path(data_dir) / REGISTRY_FILE).exists():
        try:
            registry = system.registry()
        except RegistryError as exc:
            raise CliError(str(exc)) from None
    if registry:
        out.note(f"{len(registry)} tiles enrolled in {data_dir}")
        return registry
    if config.readers.backend == "sim":
        from controller.sources.world import TileBox

        out.note(f"no tiles enrolled in {data_dir}: using the virtual table's own tagged set")
        return TileBox(bonus_tiles=True, seed=config.readers.sim.seed or 0).registry
    out.note(f"no tiles enrolled in {data_dir}: tiles show as UIDs (unknown_uid); run "
             f"`mahjong-table enroll --data-dir {data_dir}` to name them")
    return registry


@contextlib.contextmanager
def ctrl_c_sets(stop: threading.Event) -> Iterator[None]:
    """While inside, Ctrl-C (SIGINT) sets ``stop`` instead of raising KeyboardInterrupt, so a
    line being printed is never cut in half by it (only possible from the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, lambda _sig, _frame: stop.set())
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def watch(backend: Any, tracker: Any, out: Printer, seconds: float | None,
          demo: SimDemo | None, tick_every: float,
          stop: threading.Event | None = None) -> None:
    """Take bridge events until ``seconds`` have passed, ``stop`` is set, or forever, printing
    them."""
    from firmware_bridge.types import BoardHealth, ButtonPress, ChannelScan

    stop = stop or threading.Event()
    start = time.monotonic()
    last_tick = start
    while (seconds is None or time.monotonic() - start < seconds) and not stop.is_set():
        item = backend.get(timeout=min(tick_every, 0.05))
        now = time.monotonic()
        out.at = now - start
        if isinstance(item, ChannelScan):
            out.scan(item, tracker.registry)
            out.events(tracker.scan(item), tracker.registry)
        elif isinstance(item, BoardHealth):
            out.health(item)
        elif isinstance(item, ButtonPress):
            out.button(item)
        if now - last_tick >= tick_every:
            last_tick = now
            out.events(tracker.tick(now), tracker.registry)
        if demo is not None:
            demo.due(now)


class Printer:
    """Lines for a person (or JSON lines), and the counts for the closing summary."""

    def __init__(self, zones: Mapping[str, str], as_json: bool, all_scans: bool) -> None:
        self.zones = zones
        self.as_json = as_json
        self.all_scans = all_scans
        self.at = 0.0
        self.last: dict[str, frozenset[str]] = {}
        self.counts = dict.fromkeys(("scans", "moves", "anomalies", "buttons"), 0)

    def emit(self, kind: str, body: Any, text: str) -> None:
        if self.as_json:
            print(json.dumps({"t": round(self.at, 3), kind: body}), flush=True)
        else:
            print(f"{self.at:8.2f}  {text}", flush=True)

    def note(self, text: str) -> None:
        if self.as_json:
            print(json.dumps({"note": text}), flush=True)
        else:
            print(f"note: {text}", flush=True)

    def scan(self, scan: Any, registry: Mapping[str, str]) -> None:
        self.counts["scans"] += 1
        if not self.all_scans and self.last.get(scan.channel, frozenset()) == scan.uids:
            return
        self.last[scan.channel] = scan.uids
        zone = self.zones.get(scan.channel, "unmapped")
        tiles = [show(uid, registry) for uid in sorted(scan.uids)]
        self.emit("scan", {"channel": scan.channel, "zone": zone, "uids": sorted(scan.uids),
                           "tiles": [registry.get(u) for u in sorted(scan.uids)]},
                  f"scan  {scan.channel:<10} {zone:<9} {' '.join(tiles) or '(empty)'}")

    def events(self, events: list[Event], registry: Mapping[str, str]) -> None:
        for event in events:
            if "move" in event:
                self.counts["moves"] += 1
                m = event["move"]
                self.emit("move", m, f"MOVE  {show(m.get('uid', ''), registry, m['tile'])}  "
                          f"{m['from']} -> {m['to']}")
            elif "anomaly" in event:
                self.counts["anomalies"] += 1
                a = event["anomaly"]
                self.emit("anomaly", a, f"anomaly {a['kind']}: {a.get('message', '')}")

    def health(self, h: Any) -> None:
        self.emit("health", {"board": h.board, "state": h.state, "detail": h.detail},
                  f"board {h.board} {h.state}" + (f" ({h.detail})" if h.detail else ""))

    def button(self, press: Any) -> None:
        from controller.sources.table import BUTTON_CALLS

        self.counts["buttons"] += 1
        call = BUTTON_CALLS.get(press.button)
        self.emit("button", {"seat": press.seat, "button": press.button, "declare": call},
                  f"BUTTON seat {press.seat} {press.button.upper()} -> declare {call}")

    def summary(self) -> None:
        c = self.counts
        text = (f"stopped after {self.at:.1f} s: {c['scans']} scans, {c['moves']} moves, "
                f"{c['anomalies']} anomalies, {c['buttons']} button presses")
        if self.as_json:
            print(json.dumps({"summary": {**c, "seconds": round(self.at, 3)}}), flush=True)
        else:
            print(text, flush=True)


def show(uid: str, registry: Mapping[str, str], tile: str | None = None) -> str:
    """``5b 🀔`` for a known tile, the UID for an unknown one."""
    from controller.tiles import glyph

    code = tile or registry.get(uid)
    return f"{code} {glyph(code)}" if code else uid


class SimDemo:
    """Moves tagged tiles on the virtual table like a slow game: each seat in turn draws a tile
    to its rack and discards one to the pad; the pad is cleared before the next discard."""

    def __init__(self, table: Any, uids: list[str], seed: int = 0, pace: float = 0.3) -> None:
        self.table = table
        self.rng = random.Random(f"monitor-demo-{seed}")
        self.uids = sorted(uids)
        self.pace = pace
        self.next_at = 0.0
        labels = sorted(table.labels().items(), key=lambda cz: _antenna_order(cz[0]))
        self.racks = {n: [c for c, z in labels if z == f"rack:{n}"] for n in range(1, 5)}
        self.pad = next((c for c, z in labels if z == "discard"), None)
        self._steps = self._script()

    def due(self, now: float) -> None:
        """Take the next step when its time has come."""
        if self.uids and now >= self.next_at:
            self.next_at = now + self.pace
            next(self._steps)

    def _script(self) -> Iterator[None]:
        while True:
            wall = list(self.uids)
            self.rng.shuffle(wall)
            held: dict[str, str] = {}  # channel -> uid on a rack slot
            for _ in range(len(wall)):
                if not wall:
                    break
                seat = len(held) % 4 + 1 if len(held) < 16 else self.rng.randint(1, 4)
                free = [c for c in self.racks[seat] if c not in held]
                if not free:
                    break
                held[free[0]] = uid = wall.pop()
                self.table.place(uid, free[0])
                yield
                if len(held) > 16 and self.pad is not None:  # dealt: now draw and discard
                    slot = self.rng.choice([c for c in self.racks[seat] if c in held])
                    gone = held.pop(slot)
                    self.table.place(gone, self.pad)
                    yield
                    self.table.remove(gone)
                    yield
            for uid in held.values():
                self.table.remove(uid)
            yield


def _antenna_order(channel: str) -> tuple[str, int]:
    board, _, n = channel.rpartition("/")
    return board, int(n)
