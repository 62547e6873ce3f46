"""A stored session as table-log lines (FORMATS.md), for `replay --db` and `export`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from controller.store.errors import DamagedLog
from controller.store.eventlog import EventLog

#: The kinds `replay --db` plays back: anomaly and timer notes change no tile.
TABLE_LOG_KINDS = frozenset({"move", "declare", "correct", "player", "penalty"})


def table_log(
    log: EventLog, session_id: int | None = None, notes: bool = False
) -> Iterator[dict[str, Any]]:
    """A session as table-log lines (FORMATS.md): the ``session`` line, then its events in order.

    ``anomaly`` and ``timer`` notes change no tiles and are left out unless ``notes`` is set.
    """
    info = log.session(session_id)
    if info.damaged:
        raise DamagedLog(log.path, info.id, "its start (rule set and options)", info.damaged)
    yield {"session": {"ruleset": info.ruleset, "options": info.options}}
    for record in log.records(info.id):
        kind = next(iter(record.event), None)
        if kind in TABLE_LOG_KINDS or (notes and kind != "session"):
            yield record.event


def session_events(db: str | Path, session: int | None = None) -> Iterator[dict[str, Any]]:
    """Open the log at ``db`` read-only and yield one session's table log (the latest by default).

    This is what ``mahjong-table replay --db PATH [--session N]`` plays back.
    """
    with EventLog.open(db, readonly=True) as log:
        yield from table_log(log, session)


def numbered_table_log(
    log: EventLog, session_id: int | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """``table_log``'s lines with each event's stored ``seq`` (0 for the ``session`` line), for
    a review that points back at the stored events (``mahjong-table review``)."""
    info = log.session(session_id)
    if info.damaged:
        raise DamagedLog(log.path, info.id, "its start (rule set and options)", info.damaged)
    yield 0, {"session": {"ruleset": info.ruleset, "options": info.options}}
    for record in log.records(info.id):
        if next(iter(record.event), None) in TABLE_LOG_KINDS:
            yield record.seq, record.event
