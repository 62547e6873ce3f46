"""``mahjong-table review --db events.sqlite``: what each discard of a stored session cost, as
JSON (docs/analysis.md): shanten before and after, the ranked discards with their ukeire, where
the chosen one stood, riichi's furiten and yaku; summed per hand and per seat."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from controller.cli import CliError
from controller.cli.argtypes import indent, positive, seat


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "review",
        help="what each discard of a stored session cost (shanten, ukeire, best discards)",
        description="Replay a stored session through the game engine and, for each discard of "
        "each seat (or of --seat), print how far the hand was from ready before and after, "
        "every discard it could have made ranked by the shanten left and the tiles that would "
        "improve it (counting only tiles the seat could not see), where the chosen one stood, "
        "and for riichi furiten and yaku when ready; summed per hand and per seat. JSON.",
        epilog="The output and the readings: docs/analysis.md (in the project's clone).",
    )
    p.add_argument("--db", required=True, help="the service's event log (events.sqlite)")
    p.add_argument("--session", type=positive, help="the session id (default: the latest)")
    p.add_argument("--seat", type=seat, help="only this seat (1-4; default: all four)")
    p.add_argument("--hand", type=positive,
                   help="only this hand: its number as `replay --db` lists the hands (1 first)")
    p.add_argument("--indent", type=indent, default=None, help="indent the JSON output")
    p.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from controller.analysis import replay_session, session_review
    from controller.store import EventLog, StoreError, numbered_table_log

    try:
        with EventLog.open(args.db, readonly=True) as log:
            session = log.session(args.session).id
            replayed = replay_session(numbered_table_log(log, session))
    except StoreError as exc:
        raise CliError(str(exc)) from None
    if args.hand is not None and not 1 <= args.hand <= replayed.hands:
        raise CliError(f"session {session} has no hand {args.hand} (it has {replayed.hands}: "
                       "see `mahjong-table replay --db`)")
    hands = [args.hand] if args.hand is not None else None
    seats = [args.seat] if args.seat is not None else [1, 2, 3, 4]
    review = session_review(replayed, seats, hands, None if args.quiet else _progress)
    print(json.dumps({"session": session, **review}, indent=args.indent, ensure_ascii=False))
    return 0


def _progress(done: int, total: int) -> None:
    print(f"review: hand {done} of {total} analysed", file=sys.stderr, flush=True)
