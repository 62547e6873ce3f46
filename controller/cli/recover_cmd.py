"""``mahjong-table recover``: copy what is readable out of a damaged event log (issue 22)."""

from __future__ import annotations

import argparse
from typing import Any

from controller.cli import CliError
from controller.cli.argtypes import path


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "recover",
        help="copy every readable session and event of a damaged event log into a new one",
        description="Read a damaged event log (only read: it is not changed) and copy every "
        "session and event that still reads into a new log, with their own numbers; print a "
        "line per session with what was left out. Then put the new file in place of "
        "events.sqlite (docs/store.md, Recovery).")
    p.add_argument("--db", type=path, required=True, metavar="PATH",
                   help="the damaged event log (e.g. data/events.sqlite)")
    p.add_argument("--to", type=path, required=True, metavar="FILE",
                   help="the new event log to write (must not exist)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from controller.store import StoreError
    from controller.store.recover import recover

    try:
        report = recover(args.db, args.to)
    except StoreError as exc:
        raise CliError(str(exc)) from None
    for session in report:
        print(session.line())
    left = sum(len(s.skipped) for s in report)
    print(f"{args.to}: {len(report)} sessions, {sum(s.copied for s in report)} events copied, "
          f"{left} left out")
    return 0
