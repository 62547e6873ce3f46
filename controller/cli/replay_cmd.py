"""``mahjong-table replay FILE|-``: play a table log back and print hands, totals and violations
(FORMATS.md). Malformed input exits 2 with one line naming the line number."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from controller import jsonsafe
from controller.cli import CliError
from controller.cli.argtypes import file_name, indent


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "replay",
        help="play a table log (JSON lines) back: hands, scores, totals, violations",
        description="Play back a table log (JSON lines, FILE or - for standard input) and print "
        "the hands with their scores and nets, the session totals, every violation with its "
        "line number, and the state at the end of the log, as JSON.",
        epilog="The formats, with examples that run: docs/formats.md (in the project's clone).",
    )
    p.add_argument("file", type=file_name, nargs="?", help="the table log, - for standard input")
    p.add_argument("--db", help="replay a session of the service's event log (events.sqlite)")
    p.add_argument("--session", type=int, help="with --db: the session id (default: latest)")
    p.add_argument("--indent", type=indent, default=None, help="indent the JSON output")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if (args.file is None) == (args.db is None):
        raise CliError("give a table log FILE (- for standard input) or --db PATH, not both")
    if args.db is not None:
        summary = summarize(_stored(args.db, args.session))
    else:
        summary = summarize(parse_lines(_read(args.file).splitlines()))
    print(json.dumps(summary, indent=args.indent, ensure_ascii=False))
    return 0


def _stored(db: str, session: int | None) -> Iterator[tuple[int, dict[str, Any], float | None]]:
    """A stored session as the lines `mahjong-table export --format jsonl` would write."""
    from controller.store import StoreError, session_events

    try:
        for number, event in enumerate(session_events(db, session), start=1):
            yield number, event, None
    except StoreError as exc:
        raise CliError(str(exc)) from None


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise CliError(f"{path} is not UTF-8 text: give a table log of JSON lines") from None


def parse_lines(lines: Iterable[str]) -> Iterator[tuple[int, dict[str, Any], float | None]]:
    """(line number, event, time) for every non-blank line; CliError for a malformed one."""
    from controller.game import EventError, check_event

    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            event = jsonsafe.loads(line)
        except json.JSONDecodeError as exc:
            raise CliError(f"line {number}: malformed JSON ({exc.msg})") from None
        try:
            check_event(event)
        except EventError as exc:
            raise CliError(f"line {number}: {exc}") from None
        at = event.get("at")
        yield number, event, float(at) if isinstance(at, int | float) else None


def summarize(events: Iterable[tuple[int, dict[str, Any], float | None]]) -> dict[str, Any]:
    """Fold (line, event, time) triples and return the FORMATS.md replay output.

    The hook for replaying a stored session: feed it the records of an event log.
    """
    from controller.game import apply, new_game, replay_summary

    state = new_game()
    for number, event, at in events:
        outcome = apply(state, event, at, line=number)
        v = outcome.violation
        if v is not None and v.rule in ("bad_session", "session_in_progress", "no_session"):
            raise CliError(f"line {number}: {v.message}")
        state = outcome.state
    return replay_summary(state)
