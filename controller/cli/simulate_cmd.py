"""``mahjong-table simulate``: simulated players play N hands on the virtual table.

The whole hardware path runs: virtual boards on pseudo-terminals, the real serial back-end, the
presence tracker, the service loop with its SQLite log. Prints the ``replay`` summary of
FORMATS.md plus the serial link's counters, and writes the session's table log.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from controller.cli import CliError
from controller.cli.argtypes import bit_error_rate, indent, json_value, path, seconds
from controller.scoring import PLAYABLE

RULESETS = PLAYABLE
#: seconds the simulated players wait for a misread to be corrected: `simulate` has no
#: operator, so the run stops with the zone named instead of waiting for ever (a person
#: corrects one in well under a minute; the players wait twice that)
AGREE_TIMEOUT = 120.0


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "simulate",
        help="simulated players play hands on the virtual table (through the serial path)",
        description="Four simulated players play N hands on the virtual table: virtual reader "
        "boards over pseudo-terminals, the real serial bridge, presence tracking and the game "
        "engine. Prints a JSON summary (the replay output plus link counters).",
    )
    p.add_argument("--ruleset", choices=RULESETS, default="hua-bao")
    p.add_argument("--options", default="{}",
                   help="rule-set options as JSON, e.g. '{\"limit\": 300}'")
    p.add_argument("--hands", type=int, default=1, help="hands to play (default 1)")
    p.add_argument("--seed", type=int, default=1, help="the same seed gives the same game")
    p.add_argument("--noise", type=bit_error_rate, default=0.0, metavar="BER",
                   help="bit-error rate on every serial line, e.g. 1e-3")
    p.add_argument("--unplug-every", type=seconds, metavar="SECONDS",
                   help="unplug a random virtual board this often (it is plugged back in)")
    p.add_argument("--log", type=path, required=True, metavar="FILE",
                   help="write the session's table log (JSON lines) here")
    p.add_argument("--data-dir", type=path,
                   help="keep the SQLite event log here (default: a temporary folder)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    p.add_argument("--indent", type=indent, default=None,
                   help="indent the JSON output (as `replay --indent`)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.hands < 1:
        raise CliError("--hands must be at least 1")
    try:
        options = json_value(args.options, "--options")
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if not isinstance(options, dict):
        raise CliError("--options must be a JSON object, e.g. '{\"limit\": 300}'")
    try:
        args.log.parent.mkdir(parents=True, exist_ok=True)
        args.log.touch()
    except OSError as exc:
        raise CliError(f"cannot write the log {args.log}: {exc.strerror}") from None
    from controller.scoring import ScoringError, get_ruleset

    try:
        get_ruleset(args.ruleset, options)
    except ScoringError as exc:
        raise CliError(str(exc)) from None
    if args.data_dir:
        summary = asyncio.run(simulate(args, options, args.data_dir))
    else:
        with tempfile.TemporaryDirectory(prefix="mahjong-sim-") as tmp:
            summary = asyncio.run(simulate(args, options, Path(tmp)))
    # The same JSON form as `replay` prints (one line unless --indent), plus the link counters.
    print(json.dumps(summary, indent=args.indent, ensure_ascii=False))
    return 0


async def simulate(args: argparse.Namespace, options: dict[str, Any], data_dir: Path
                   ) -> dict[str, Any]:
    """Run the service with the virtual table until N hands are played; the summary."""
    from controller.app import build
    from controller.config import default_config
    from controller.loop import LOG_FILE
    from controller.sources.virtual import SimOptions, SimRun, virtual_table_source
    from controller.store.eventlog import EventLog
    from controller.store.export import export_jsonl

    base = default_config()
    config = base.model_copy(update={"session": base.session.model_copy(
        update={"ruleset": args.ruleset, "options": options, "autostart": True})})
    # no operator here: a table the game misreads is not waited on for ever
    sim = SimOptions(seed=args.seed, hands=args.hands, noise=args.noise,
                     unplug_every=args.unplug_every, agree_timeout=AGREE_TIMEOUT)
    run_state = SimRun()
    service = build(config, data_dir,
                    sources={"virtual-table": virtual_table_source(sim, run_state)}).loop
    await service.start()
    if service.halted:
        raise CliError(service.halted)
    try:
        await _wait(service, run_state, args)
    finally:
        await service.stop()
    if run_state.error:
        raise CliError(f"the virtual table stopped: {run_state.error}")
    with EventLog.open(data_dir / LOG_FILE, readonly=True) as log, \
            args.log.open("w", encoding="utf-8") as out:
        export_jsonl(log, out)
    from controller.cli.replay_cmd import parse_lines, summarize

    with args.log.open(encoding="utf-8") as fh:
        summary: dict[str, Any] = dict(summarize(parse_lines(fh.read().splitlines())))
    summary["link"] = run_state.link
    summary["unplugs"] = run_state.unplugs
    # moves the controller had not registered after register_timeout idle seconds: the players
    # went on (each is a warning line naming the tiles); a violation that follows one is the
    # table's pace, not the game's rules
    summary["stalls"] = run_state.stalls
    return summary


async def _wait(service: Any, run_state: Any, args: argparse.Namespace) -> None:
    shown = -1
    while not run_state.done.is_set():
        await asyncio.sleep(0.2)
        done = len(service.public_view().get("hands") or [])
        if done != shown and not args.quiet:
            shown = done
            print(f"simulate: {done}/{args.hands} hands played", file=sys.stderr)
