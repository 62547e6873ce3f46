"""Rows of the log as stored bytes, read without trusting them (issue 22): a changed character
or a flipped bit in a row is a :class:`DamagedLog` naming its session and event, never a
traceback. Text columns are selected as BLOBs so that a row that is no longer UTF-8 is found
here, row by row, rather than failing a whole fetch inside SQLite."""

from __future__ import annotations

import json
from typing import Any

from controller import jsonsafe

#: The events' columns, text as bytes.
EVENT_COLUMNS = ("seq, session_id, time, CAST(source AS BLOB), CAST(event AS BLOB), accepted, "
                 "CAST(rule AS BLOB), CAST(message AS BLOB)")
SESSION_COLUMNS = "id, started, CAST(ruleset AS BLOB), CAST(options AS BLOB), ended"


def text(raw: Any) -> str | None:
    """A free-text column (source, rule, message): damage shows as replacement characters."""
    if raw is None:
        return None
    if isinstance(raw, bytes):
        return raw.decode("utf-8", "replace")
    return str(raw)


def json_object(raw: Any) -> dict[str, Any]:
    """A column holding a JSON object (an event, a session's options); ValueError saying why
    it is not one."""
    if not isinstance(raw, bytes):
        raise ValueError(f"stored as {type(raw).__name__}, not text")
    try:
        value = jsonsafe.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc.msg} at character {exc.pos}") from None
    if not isinstance(value, dict):
        raise ValueError(f"JSON {type(value).__name__}, not an object")
    return value


def number(raw: Any) -> float:
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        raise ValueError(f"a time stored as {type(raw).__name__}")
    return float(raw)


def flag(raw: Any) -> bool:
    if raw not in (0, 1):
        raise ValueError(f"accepted is {raw!r}, not 0 or 1")
    return bool(raw)


def dumps(value: dict[str, Any]) -> str:
    """A JSON object as stored. ASCII: a lone surrogate from a request ("\\ud800") is stored
    escaped instead of failing to encode (which halted the service as if the disk had
    failed)."""
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"))
