"""``mahjong-table enroll``: tag a tile set on the discard pad, export, import or fix the registry.

The registry is ``registry.sqlite`` in ``--data-dir``; every tile is saved as it is enrolled,
so the walk can stop at any time and continues where it stopped.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from controller import jsonsafe
from controller.cli import CliError
from controller.cli.argtypes import path

DEFAULT_PAD = "centre/0"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "enroll",
        help="tag a tile set: place each tile on the discard pad as asked (resumable)",
        description="Walk through tagging a set: place the tile shown on the discard pad, "
        "the reader's UID is recorded for it, then the next. Stop at any time; running it "
        "again continues. --export/--import copy the registry as .json or .csv.",
    )
    p.add_argument("--data-dir", type=path, required=True, metavar="DIR",
                   help="where registry.sqlite lives")
    p.add_argument("--set", type=int, choices=(136, 144), dest="set_size",
                   help="136 tiles, or 144 with flowers and seasons (default: as stored, or the "
                   "tile set of --config's rule set, or 144)")
    p.add_argument("--reader", choices=("stdin", "serial", "config"), default="stdin",
                   help="where scans come from: stdin (JSON lines {channel, uids, t} or "
                   "'CHANNEL UID ...'), serial boards (--port/--serial), or config: the "
                   "[readers] back-end of --config (mfrc522 chips on the Pi's SPI, serial or sim)")
    p.add_argument("--port", action="append", default=[], metavar="PATH",
                   help="serial: a board's device path")
    p.add_argument("--serial", action="append", default=[], metavar="NUMBER",
                   help="serial: a board's USB serial")
    p.add_argument("--config", type=path, metavar="FILE",
                   help="table config: its discard channels are the pad")
    p.add_argument("--pad-channel", action="append", default=[], metavar="CH",
                   help=f"the discard pad's reader channel (default {DEFAULT_PAD})")
    p.add_argument("--confirm-reads", type=int, default=2, metavar="N",
                   help="agreeing reads before a UID is taken (default 2)")
    action = p.add_mutually_exclusive_group()
    action.add_argument("--export", type=path, metavar="FILE", help="write the registry to FILE")
    action.add_argument("--import", type=path, metavar="FILE", dest="import_",
                        help="add the tiles of an exported FILE (all or nothing)")
    action.add_argument("--forget", metavar="UID", help="remove a tag enrolled by mistake")
    action.add_argument("--status", action="store_true", help="show the progress and stop")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from controller.app import build
    from controller.table import RegistryError
    from controller.table.registry_io import export_file, import_file

    try:
        registry = build(data_dir=args.data_dir).registry(args.set_size or _config_size(args))
        if args.export is not None:
            print(f"{export_file(registry, args.export)} tiles written to {args.export}")
        elif args.import_ is not None:
            added = import_file(registry, args.import_, time.time())
            print(f"{added} tiles imported; {_progress_line(registry)}")
        elif args.forget is not None:
            entry = registry.remove(args.forget)
            print(f"forgot {entry.uid} ({entry.tile}); {_progress_line(registry)}")
        elif args.status:
            print(_progress_line(registry))
        else:
            return _walk(registry, args)
    except RegistryError as exc:
        raise CliError(str(exc)) from None
    return 0


def _config_size(args: argparse.Namespace) -> int | None:
    """A new registry's size from --config's session: its rule set's tile set (riichi and any
    rule set played without bonus tiles: 136). None when a registry is stored (it keeps its
    size) or without --config."""
    from controller.table.registry import REGISTRY_FILE

    if args.config is None or (Path(args.data_dir) / REGISTRY_FILE).exists():
        return None
    from controller.config import ConfigError, load_config
    from controller.scoring import ScoringError, get_ruleset

    try:
        session = load_config(args.config).session
        ruleset = get_ruleset(session.ruleset, dict(session.options))
    except (ConfigError, OSError, ScoringError) as exc:
        raise CliError(str(exc)) from None
    return 144 if ruleset.bonus_tiles else 136


def _walk(registry: Any, args: argparse.Namespace) -> int:
    from controller.table import Enrollment

    enrollment = Enrollment(registry, _pad_channels(args), args.confirm_reads)
    print(_progress_line(registry), flush=True)
    if enrollment.progress.done:
        return 0

    def show(step: Any) -> None:
        print(f"  {step.message}", flush=True)
        if step.kind == "enrolled":
            print(_progress_line(registry), flush=True)

    progress = enrollment.run(_scans(args), show)
    if not progress.done:
        print(f"stopped at {progress.enrolled}/{progress.total}: run `mahjong-table enroll "
              f"--data-dir {args.data_dir}` again to continue")
    return 0


def _progress_line(registry: Any) -> str:
    from controller.table import EnrollmentProgress

    progress = EnrollmentProgress.of(registry)
    if progress.done:
        return f"{progress.bar()} the set is complete"
    return f"{progress.bar()} next: place {progress.next_tile} {progress.next_glyph} on the pad"


def _pad_channels(args: argparse.Namespace) -> list[str]:
    if args.pad_channel:
        return list(args.pad_channel)
    if args.config is not None:
        from controller.config import ConfigError, load_config

        try:
            channels = load_config(args.config).table.channels
        except (ConfigError, OSError) as exc:
            raise CliError(str(exc)) from None
        pads = [c for c, zone in channels.items() if zone == "discard"]
        if not pads:
            raise CliError(f"{args.config} maps no channel to the discard zone: give "
                           "--pad-channel")
        return pads
    return [DEFAULT_PAD]


def _scans(args: argparse.Namespace) -> Iterator[Any]:
    if args.reader == "stdin":
        yield from stdin_scans(sys.stdin)
        return
    from firmware_bridge.types import ChannelScan

    backend = _configured_backend(args) if args.reader == "config" else _serial_backend(args)
    try:
        backend.start()
    except (RuntimeError, OSError) as exc:  # e.g. mfrc522 off a Pi: the message says what to do
        backend.stop()
        raise CliError(f"cannot start the readers: {exc}") from None
    try:
        while True:
            event = backend.get(timeout=0.5)
            if isinstance(event, ChannelScan):
                yield event
    finally:
        backend.stop()


def _serial_backend(args: argparse.Namespace) -> Any:
    if not args.port and not args.serial:
        raise CliError("--reader serial needs --port PATH or --serial NUMBER")
    from firmware_bridge.readers import open_backend

    try:
        return open_backend("serial", ports=args.port, serials=args.serial)
    except (ValueError, OSError) as exc:
        raise CliError(f"cannot open the serial readers: {exc}") from None


def _configured_backend(args: argparse.Namespace) -> Any:
    """The back-end of the table config's [readers], as `readers` and `monitor` open it (seat
    buttons left out: not needed here)."""
    if args.config is None:
        raise CliError("--reader config needs --config FILE: its [readers] names the back-end")
    from controller.app import build
    from controller.cli import load_config, open_readers

    return open_readers(build(load_config(args.config), args.data_dir))


def stdin_scans(stream: Any) -> Iterator[Any]:
    """Scans typed or piped in: ``{"channel": ..., "uids": [...], "t": ...}`` or ``CH UID ...``."""
    from firmware_bridge.types import ChannelScan

    for number, line in enumerate(stream, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if not text.startswith("{"):
            channel, *uids = text.split()
            yield ChannelScan(channel, frozenset(uids), time.monotonic())
            continue
        try:
            data = jsonsafe.loads(text)
            yield ChannelScan(str(data["channel"]), frozenset(map(str, data["uids"])),
                              float(data.get("t", time.monotonic())))
        except (ValueError, KeyError, TypeError) as exc:
            raise CliError(f"standard input line {number}: not a scan ({exc}): write "
                           '{"channel": "centre/0", "uids": ["04:A2:19:C1"], "t": 1.0}') from None
