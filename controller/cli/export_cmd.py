"""``mahjong-table export``: a session of the event log as a table log (JSON lines), CSV, or a
riichi session as the logs other tools read (tenhou.net/6 JSON, mjai JSON lines)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from controller.cli import CliError
from controller.cli.argtypes import path

LOG_FILE = "events.sqlite"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "export",
        help="export a session as a table log (JSON lines) or CSV of hands and payments",
        description=(
            "Export one session of the event log. jsonl: the table log of FORMATS.md (the "
            "`session` line, then the events), which `mahjong-table replay` reads back. csv: the "
            "dashboard's export, one row per finished hand (scores, nets, payments, winds, "
            "names, win source, discarder), then the penalties and places (docs/store.md). "
            "tenhou, mjai: a riichi session's finished hands as tenhou.net/6 JSON or mjai JSON "
            "lines, for replay viewers and AI reviewers (docs/formats.md)."
        ),
    )
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--db", type=path, metavar="PATH",
                       help="the event log file (e.g. data/events.sqlite)")
    where.add_argument("--data-dir", type=path, metavar="DIR",
                       help=f"the service's data directory ({LOG_FILE})")
    parser.add_argument("--session", type=int, metavar="N", help="session id (default: the latest)")
    parser.add_argument("--format", choices=("jsonl", "csv", "tenhou", "mjai"), required=True)
    parser.add_argument("-o", "--output", type=path, metavar="FILE",
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
            info = log.session(args.session)  # fail before creating the output file
            text = _csv(db, info.id) if args.format == "csv" else None
            if args.format in ("tenhou", "mjai"):
                text = _riichi_log(db, info.id, args.format)
            out = sys.stdout if args.output is None else _open_output(args.output)
            try:
                if text is None:
                    export_jsonl(log, out, args.session, notes=args.notes)
                else:
                    out.write(text)
            finally:
                if out is not sys.stdout:
                    out.close()
    except StoreError as exc:
        raise CliError(str(exc)) from None
    return 0


def _csv(db: Path, session: int) -> str:
    """The dashboard's CSV of the session (``controller.reports``: one layout for both)."""
    from controller.reports import export_csv
    from controller.sessions.catalog import Catalog

    detail = Catalog(db).session(session)
    if detail.get("damaged"):
        raise CliError(
            f"the event log {db} is damaged: session {session}, {detail['damaged']}; keep a "
            f"copy, then `mahjong-table recover --db {db} --to NEW_FILE` copies every readable "
            "event (docs/store.md, Recovery)")
    return export_csv(detail)


def _riichi_log(db: Path, session: int, fmt: str) -> str:
    """The session's finished hands as tenhou.net/6 JSON or mjai lines (controller.sessions)."""
    import json

    from controller.sessions.kyoku import TraceError, trace
    from controller.store import session_events

    try:
        tr = trace(session_events(db, session))
    except TraceError as exc:
        raise CliError(str(exc)) from None
    if fmt == "tenhou":
        from controller.sessions.tenhou import export

        return json.dumps(export(tr, f"session {session}"), ensure_ascii=False) + "\n"
    from controller.sessions.mjai import events

    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events(tr))


def _open_output(path: Path) -> Any:
    try:
        return path.open("w", encoding="utf-8", newline="")
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror}; choose another -o FILE") from None
