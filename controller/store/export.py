"""Export a session from the event log as the JSON-lines table log (FORMATS.md).

The CSV of hands and payments is the dashboard's: ``controller.reports`` over the catalog.
"""

from __future__ import annotations

import json
from typing import TextIO

from controller.store.eventlog import EventLog
from controller.store.tablelog import table_log


def export_jsonl(
    log: EventLog, out: TextIO, session_id: int | None = None, notes: bool = False
) -> int:
    """Write the session's table log, one JSON object a line; return the number of lines."""
    count = 0
    for event in table_log(log, session_id, notes=notes):
        out.write(json.dumps(event, ensure_ascii=False, separators=(", ", ": ")) + "\n")
        count += 1
    return count
