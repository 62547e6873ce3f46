"""``mahjong-table import --format tenhou FILE``: a tenhou.net/6 log as the table's own log
(JSON lines of FORMATS.md), replayed through the engine; standard output, or a new session of
the event log with ``--db`` (docs/formats.md, "Import")."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from controller.cli import CliError
from controller.cli.argtypes import file_name, path


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "import",
        help="turn a tenhou.net/6 log into the table's own log, replayed by the engine",
        description=(
            "Read a tenhou.net/6 JSON log (FILE, - for standard input), turn every hand into "
            "the table's moves and declarations, replay them through the engine and check each "
            "hand's result against the log's deltas. Writes the table log (JSON lines, as "
            "`export --format jsonl`) to standard output, or with --db adds it to an event log "
            "as a new session. A hand the table cannot play, or scores differently, is one "
            "line on standard error and exit status 2; nothing is written."),
        epilog="What converts and what cannot: docs/formats.md, \"Import\".",
    )
    parser.add_argument("file", type=file_name,
                        help="the tenhou.net/6 JSON log, - for standard input")
    parser.add_argument("--format", choices=("tenhou",), required=True)
    parser.add_argument("--db", type=path, metavar="PATH",
                        help="add the game to this event log as a new session (not while the "
                        "service has a session open in it)")
    parser.add_argument(
        "--allow-differences", action="store_true",
        help="write the log even where a hand's result on the table differs from the log's "
        "(red fives, Tenhou's double-ron deposits): each is named on standard error")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from controller.sessions.tenhou_import import ImportRefused, convert

    log = _read(args.file)
    try:
        events, differences = convert(log)
    except ImportRefused as exc:
        raise CliError(f"{args.file}: {exc}; nothing written") from None
    if differences and not args.allow_differences:
        more = f" (and {len(differences) - 1} more)" if len(differences) > 1 else ""
        raise CliError(f"{args.file}: {differences[0]}{more}; nothing written "
                       "(--allow-differences writes it anyway)")
    for line in differences:
        print(f"{args.file}: {line}", file=sys.stderr)
    if args.db is not None:
        session = _store(args.db, events)
        print(f"imported {args.file} into {args.db} as session {session}", file=sys.stderr)
        return 0
    for event in events:
        sys.stdout.write(json.dumps(event, ensure_ascii=False) + "\n")
    return 0


def _read(path: str) -> dict[str, Any]:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise CliError(f"{path} is not UTF-8 text: give a tenhou.net/6 JSON log") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"{path}: malformed JSON ({exc.msg}, line {exc.lineno}): give a "
                       "tenhou.net/6 JSON log") from None
    if not isinstance(data, dict):
        raise CliError(f"{path}: not a tenhou.net/6 log (a JSON object with \"log\")")
    return data


def _store(db: Path, events: list[dict[str, Any]]) -> int:
    """A new session of the event log holding the imported game (as the service stores one)."""
    import time

    from controller.store import EventLog, StoreError

    try:
        with EventLog.open(db) as log:
            latest = log.latest_session()
            if latest is not None and latest.ended_at is None:
                raise CliError(f"session {latest.id} of {db} is still open (is the table "
                               "playing?): stop the service first, or import to standard output")
            head = events[0]["session"]
            now = time.time()
            session = log.start_session(head["ruleset"], head["options"], now)
            # the session line is stored as the service stores a session's start, so every
            # reader of the log (the dashboard's sessions, the review's list) folds it alike
            log.append_many(session, events, "import", now)
            log.end_session(session, now)
            return session
    except StoreError as exc:
        raise CliError(str(exc)) from None
