"""``mahjong-table export``: a session of the event log as a table log (JSON lines) or CSV."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from controller.cli import CliError

LOG_FILE = "events.sqlite"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "export",
        help="export a session as a table log (JSON lines) or CSV of hands and payments",
        description=(
            "Export one session of the event log. jsonl: the table log of FORMATS.md (the "
            "`session` line, then the events), which `mahjong-table replay` reads back. csv: one "
            "row per hand with scores, net amounts and payments."
        ),
    )
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--db", type=Path, metavar="PATH",
                       help="the event log file (e.g. data/events.sqlite)")
    where.add_argument("--data-dir", type=Path, metavar="DIR",
                       help=f"the service's data directory ({LOG_FILE})")
    parser.add_argument("--session", type=int, metavar="N", help="session id (default: the latest)")
    parser.add_argument("--format", choices=("jsonl", "csv"), required=True)
    parser.add_argument("-o", "--output", type=Path, metavar="FILE",
                        help="output file (default: standard output)")
    parser.add_argument(
        "--notes", action="store_true", help="jsonl: keep anomaly and timer notes in the log"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from controller.store import EventLog, StoreError
    from controller.store.export import export_jsonl

    db: Path = args.db if args.db is not None else args.data_dir / LOG_FILE
    try:
        with EventLog.open(db, readonly=True) as log:
            log.session(args.session)  # fail before creating the output file
            out = sys.stdout if args.output is None else _open_output(args.output)
            try:
                if args.format == "jsonl":
                    export_jsonl(log, out, args.session, notes=args.notes)
                else:
                    _csv(log, out, args.session)
            finally:
                if out is not sys.stdout:
                    out.close()
    except StoreError as exc:
        raise CliError(str(exc)) from None
    return 0


def _csv(log: Any, out: Any, session: int | None) -> None:
    from controller.reports import export_csv
    from controller.store import StoreError

    try:
        export_csv(log, out, session)
    except StoreError:
        raise
    except Exception as exc:  # the engine or the rules refused the log: one line, no traceback
        raise CliError(
            f"the session could not be replayed for the CSV export ({type(exc).__name__}: "
            f"{exc}); export it as jsonl and check it with `mahjong-table replay`"
        ) from None


def _open_output(path: Path) -> Any:
    try:
        return path.open("w", encoding="utf-8", newline="")
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror}; choose another -o FILE") from None
