"""A table's event log (``DATA/events.sqlite``) written straight from game events, as the
table's service would have appended them: what the publisher reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from controller.store import EventLog


def write_log(data_dir: Path, sessions: list[list[dict[str, Any]]], ended: int = 0) -> Path:
    """``sessions`` (each a list of events, the first a ``session`` event) in order, session
    i started and its events appended at 1000 + i; the first ``ended`` of them ended at
    1500 + i. Returns the log's path."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "events.sqlite"
    with EventLog.open(path) as log:
        for i, events in enumerate(sessions):
            sid = log.start_session(events[0]["session"]["ruleset"], {}, 1000.0 + i)
            for event in events:
                log.append(sid, event, True, None, None, "test", 1000.0 + i)
            if i < ended:
                log.end_session(sid, 1500.0 + i)
    return path
