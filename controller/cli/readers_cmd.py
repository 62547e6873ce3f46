"""``mahjong-table readers``: the configured readers and their health, probed for a moment.

Opens the configured back-end for ``--seconds``, then reports per board (serial, sim) or chip
(mfrc522): up or down, firmware or chip version, channels answering, tags seen, frame counters,
and whether every channel of ``[table.channels]`` answers. Exit 0: all healthy; 1: a reader is
down or a mapped channel is silent; 2: the configuration cannot be used.
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from controller.cli import CliError, load_config, open_readers
from controller.cli.argtypes import path, seconds
from firmware_bridge.types import BoardHealth, ChannelScan

if TYPE_CHECKING:
    from controller.app import System

#: The MFRC522 VERSION register (0x92: v2.0, 0x91: v1.0, 0x88/0xB2: clones).
VERSION_REG = 0x37


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "readers",
        help="list the configured readers and check their health (exit 1 when one is down)",
        description="Open the configured reader back-end for a moment and report each board or "
        "chip: up/down, firmware, channels answering, tags seen, frames and bad frames, and "
        "which zone each channel feeds. Exit 0 when all are healthy, 1 when a reader is down "
        "or a mapped channel is silent, 2 for a configuration error.",
    )
    p.add_argument("--config", type=path, metavar="FILE",
                   help="table configuration (default: none, the virtual table)")
    p.add_argument("--seconds", type=seconds, default=2.0, metavar="S",
                   help="how long to listen to the readers (default 2)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument("--jig", metavar="UID",
                   help="a jig run: move the tile with this UID over every slot while the "
                   "command listens; reports reads %% and neighbour reads per slot "
                   "(hardware_docs/commissioning.md)")
    p.add_argument("--jig-channels", metavar="CH,CH", default=None,
                   help="the slots the jig must visit (default: every mapped rack and meld "
                   "channel that answers)")
    p.set_defaults(func=run)


@dataclass
class Reader:
    """What was seen of one board (serial, sim) or chip (mfrc522) while probing."""

    name: str
    state: str = "down"  # "up" | "down" | "flaky" (mfrc522: had to be reset)
    detail: str = ""
    firmware: str | None = None
    channels: list[str] = field(default_factory=list)  # the channels it has
    answering: set[str] = field(default_factory=set)
    tags: set[str] = field(default_factory=set)
    counters: dict[str, int] = field(default_factory=dict)
    where: dict[str, Any] = field(default_factory=dict)  # serial number or port; SPI wiring

    def to_json(self, zones: dict[str, str]) -> dict[str, Any]:
        return {"name": self.name, "state": self.state, "detail": self.detail,
                "firmware": self.firmware, **self.where,
                "channels": {ch: {"zone": zones.get(ch), "answering": ch in self.answering}
                             for ch in self.channels},
                "tags": sorted(self.tags), **self.counters}


def run(args: argparse.Namespace) -> int:
    if args.seconds <= 0:
        raise CliError(f"--seconds must be more than 0, not {args.seconds}")
    from controller.app import build

    config = load_config(args.config)
    system = build(config)
    zones = system.channels()
    scans: list[ChannelScan] = []
    readers = probe(system, args.seconds, scans)
    problems = check(readers, zones)
    jig = None
    if args.jig:
        jig = jig_run(args, zones, readers, scans)
        problems += jig["problems"]
    report = {"backend": config.readers.backend, "seconds": args.seconds, "ok": not problems,
              "readers": [r.to_json(zones) for r in readers], "zones": zones,
              "unmapped": sorted({ch for r in readers for ch in r.answering} - set(zones)),
              "problems": problems}
    if jig is not None:
        report["jig"] = jig
    if args.json:
        print(json.dumps(report))
    else:
        print("\n".join(render(report)))
    return 1 if problems else 0


# ------------------------------------------------------------------ probing
def jig_run(args: argparse.Namespace, zones: dict[str, str], readers: list[Reader],
            scans: list[ChannelScan]) -> dict[str, Any]:
    """The jig's figures from the scans recorded while probing."""
    from controller.cli.jig import jig_report
    from controller.table.registry import normalize_uid

    try:
        uid = normalize_uid(args.jig)
    except ValueError as exc:
        raise CliError(f"--jig {args.jig}: {exc}") from exc
    if args.jig_channels:
        slots = [c.strip() for c in args.jig_channels.split(",") if c.strip()]
    else:
        answering = {ch for r in readers for ch in r.answering}
        slots = [ch for ch, zone in zones.items()
                 if ch in answering and zone.startswith(("rack:", "melds:"))]
    scans.sort(key=lambda s: s.t)
    return jig_report(scans, uid, slots)


def probe(system: System, seconds: float, record: list[ChannelScan] | None = None,
          ) -> list[Reader]:
    """Open the back-end for ``seconds`` and describe every board or chip (every scan also
    appended to ``record``)."""
    backend = open_readers(system)
    if system.config.readers.backend == "mfrc522":
        return probe_spi(backend, seconds, record)
    return probe_boards(backend, seconds, record)


def probe_boards(backend: Any, seconds: float, record: list[ChannelScan] | None = None,
                 ) -> list[Reader]:
    """Serial boards (or the virtual table's): health events, scans and link counters."""
    seen: dict[str, Reader] = {}
    lock = threading.Lock()

    def sink(event: Any) -> None:
        with lock:
            if isinstance(event, ChannelScan):
                if record is not None:
                    record.append(event)
                board = seen.setdefault(event.channel.rpartition("/")[0],
                                        Reader(event.channel.rpartition("/")[0], "up"))
                board.answering.add(event.channel)
                board.tags |= event.uids
            elif isinstance(event, BoardHealth):
                board = seen.setdefault(event.board, Reader(event.board))
                if event.state == "up":
                    board.state, board.detail = "up", ""
                    board.firmware = event.detail.removeprefix("firmware ") or None
                elif event.state == "down":
                    board.state, board.detail = "down", event.detail

    backend.start(sink)
    try:
        time.sleep(seconds)
    finally:
        links = list(getattr(getattr(backend, "serial", backend), "links", []))
        backend.stop()
    with lock:
        return [_link_reader(link, seen) for link in links]


def _link_reader(link: Any, seen: dict[str, Reader]) -> Reader:
    """Merge one serial link's counters and channel map into what its events showed."""
    name = link.name or link.target
    reader = seen.get(name) or seen.get(link.target) or Reader(name, detail="never answered")
    reader.name = name
    reader.channels = [f"{name}/{ch}" for ch in sorted(link.channels)]
    reader.counters = {k: link.counters[k] for k in ("frames", "bad_frames", "resyncs",
                                                     "reconnects", "gaps")}
    reader.where = {"serial": link.serial_number, "port": None if link.by_serial else link.target}
    if reader.state == "up" and not reader.answering:
        reader.detail = "said hello but sent no scan"
    return reader


def probe_spi(backend: Any, seconds: float, record: list[ChannelScan] | None = None,
              ) -> list[Reader]:
    """MFRC522 chips polled from this thread; each chip's version register says up or down."""
    chips = [Reader(f"{backend.board}/{n}", channels=[f"{backend.board}/{n}"],
                    where={"spi": {k: v for k, v in vars(spec).items() if v is not None}})
             for n, spec in zip(backend.channels, backend.specs, strict=True)]
    try:
        try:
            backend.open()
        except RuntimeError as exc:
            for chip in chips:
                chip.detail = str(exc)
            return chips
        polls = 0
        resets: dict[str, int] = {}
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for chip, scan in zip(chips, backend.poll_once(), strict=True):
                if record is not None:
                    record.append(scan)
                chip.tags |= scan.uids
                chip.counters["reads"] = chip.counters.get("reads", 0) + bool(scan.uids)
            polls += 1
            while (event := backend.get(timeout=0)) is not None:  # what poll_once posted
                if isinstance(event, BoardHealth) and event.state == "down":
                    resets[event.board] = resets.get(event.board, 0) + 1
        for chip, reader in zip(chips, backend.readers, strict=True):
            _chip_health(chip, reader, polls, resets.get(chip.name, 0))
    finally:
        backend.stop()
    return chips


def _chip_health(chip: Reader, reader: Any, polls: int, resets: int) -> None:
    from firmware_bridge.mfrc522_backend import GOOD_VERSIONS

    version = int(reader.chip.Read_MFRC522(VERSION_REG))
    chip.firmware = f"0x{version:02X}"
    chip.counters = {"polls": polls, "reads": chip.counters.get("reads", 0), "resets": resets}
    if version in GOOD_VERSIONS and resets:
        chip.state = "flaky"
        chip.answering.add(chip.name)
        chip.detail = (f"lost its registers {resets} time(s) and was reset: check its 3.3 V "
                       "supply and decoupling capacitor, and the reset wire (wiring.md)")
    elif version in GOOD_VERSIONS:
        chip.state = "up"
        chip.answering.add(chip.name)
    else:
        chip.detail = (f"version register reads 0x{version:02X}: check its power, wiring "
                       "(MISO buffer, wiring.md) and pin_rst")


def check(readers: list[Reader], zones: dict[str, str]) -> list[str]:
    """One line per problem: a reader down, a mapped channel nobody answers."""
    problems = [f"{r.name}: {r.state} ({r.detail or 'no hello'})"
                for r in readers if r.state != "up"]
    answering = {ch for r in readers for ch in r.answering}
    down = {ch for r in readers if r.state != "up" for ch in r.channels}
    up_boards = {r.name.rpartition("/")[0] if "/" in r.name else r.name
                 for r in readers if r.state == "up"}
    unplaced = []  # silent channels of boards we cannot name (down before their hello)
    for channel, zone in sorted(zones.items()):
        board = channel.rpartition("/")[0]
        if channel in answering or channel in down:
            continue
        if board in up_boards:
            problems.append(f"{channel} ({zone}): board {board} is up but has no such channel "
                            "answering: check the antenna number in [table.channels]")
        elif not any(r.state != "up" for r in readers):
            problems.append(f"{channel} ({zone}): no reader called {board} answers: check the "
                            "board name in [table.channels]")
        else:
            unplaced.append(channel)
    if unplaced:
        problems.append(f"not heard, probably on a reader that is down: {channel_ranges(unplaced)}")
    return problems


# ------------------------------------------------------------------ output
def channel_ranges(channels: list[str] | set[str]) -> str:
    """``seat1/2-33, centre/1``: channels grouped by board, consecutive antennas as ranges."""
    by_board: dict[str, list[int]] = {}
    for channel in channels:
        board, _, antenna = channel.rpartition("/")
        by_board.setdefault(board, []).append(int(antenna))
    out = []
    for board, numbers in sorted(by_board.items()):
        runs: list[list[int]] = []
        for n in sorted(numbers):
            if runs and runs[-1][1] == n - 1:
                runs[-1][1] = n
            else:
                runs.append([n, n])
        out += [f"{board}/{a}" if a == b else f"{board}/{a}-{b}" for a, b in runs]
    return ", ".join(out)


def zone_summary(channels: list[str], zones: dict[str, str]) -> str:
    """``rack:1 (0-17), melds:1 (18-33)``: consecutive antennas feeding one zone, grouped."""
    parts: list[tuple[str, int, int]] = []
    for channel in sorted(channels, key=lambda c: int(c.rpartition("/")[2])):
        n, zone = int(channel.rpartition("/")[2]), zones.get(channel, "unmapped")
        if parts and parts[-1][0] == zone and parts[-1][2] == n - 1:
            parts[-1] = (zone, parts[-1][1], n)
        else:
            parts.append((zone, n, n))
    return ", ".join(f"{z} ({a})" if a == b else f"{z} ({a}-{b})" for z, a, b in parts) or "-"


def render_jig(jig: dict[str, Any]) -> list[str]:
    """The jig's figures, one line a slot."""
    lines = [f"jig: reference tile {jig['uid']}, {len(jig['slots'])} slot(s) visited, "
             f"{'PASS' if jig['pass'] else 'FAIL'} (99.9 % reads, no neighbour read)"]
    for s in jig["slots"]:
        near = ", ".join(f"{c} x{n}" for c, n in s["neighbour_reads"].items()) or "none"
        lines.append(f"  {s['channel']}: {s['reads']}/{s['scans']} reads "
                     f"({s['reads_pct']:g} %), neighbour reads: {near}")
    return lines


def render(report: dict[str, Any]) -> list[str]:
    """The report as a table for a person at the table."""
    zones = report["zones"]
    spi = report["backend"] == "mfrc522"
    lines = [f"readers: {report['backend']} back-end, listened {report['seconds']:g} s"]
    head = ("chip", "state", "version", "reads/polls", "tags", "zones") if spi else (
        "board", "state", "firmware", "channels", "tags", "frames", "bad", "zones")
    rows = [head]
    for r in report["readers"]:
        chans = list(r["channels"])
        answering = sum(1 for c in r["channels"].values() if c["answering"])
        if spi:
            rows.append((r["name"], r["state"], r["firmware"] or "-",
                         f"{r.get('reads', 0)}/{r.get('polls', 0)}", str(len(r["tags"])),
                         zone_summary(chans, zones)))
        else:
            rows.append((r["name"], r["state"], r["firmware"] or "-",
                         f"{answering}/{len(chans)}", str(len(r["tags"])),
                         str(r.get("frames", 0)), str(r.get("bad_frames", 0)),
                         zone_summary(chans, zones)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(head) - 1)]
    lines += ["  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=False))
              + "  " + row[-1] for row in rows]
    if report["unmapped"]:
        lines.append("answering but not in [table.channels] (ignored by the table): "
                     + channel_ranges(report["unmapped"]))
    if "jig" in report:
        lines += render_jig(report["jig"])
    lines += [f"problem: {p}" for p in report["problems"]]
    n = len(report["readers"])
    lines.append(f"all {n} {'chips' if spi else 'boards'} up; every mapped channel answers"
                 if report["ok"] else f"{len(report['problems'])} problem(s)")
    return lines
