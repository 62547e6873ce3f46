"""Copy what is readable out of a damaged event log into a new one (issue 22).

Every session row and every event row that still reads (UTF-8, a JSON object, the right
types) is copied with its own number; a row that does not is left out and reported. Where
SQLite itself cannot read a stretch of the file (a damaged page), the events are tried one by
one by number. The damaged file is only read. The result is an ordinary log: `serve
--data-dir` on a directory holding it as events.sqlite resumes its open session, and `replay
--db` and `export` read it."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.store import rows as stored
from controller.store.errors import StoreError
from controller.store.eventlog import EventLog, _reader


@dataclass
class Recovered:
    """One session as copied: its events copied, and those left out with why."""

    session: int
    ruleset: str
    copied: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)
    start_damaged: str | None = None

    def line(self) -> str:
        head = f"session {self.session} ({self.ruleset or '?'}): {self.copied} events copied"
        if self.start_damaged:
            head += f"; its options could not be read ({self.start_damaged}): copied as {{}}"
        if not self.skipped:
            return head
        shown = ", ".join(f"event {seq} ({why})" for seq, why in self.skipped[:5])
        more = f" and {len(self.skipped) - 5} more" if len(self.skipped) > 5 else ""
        return f"{head}; left out: {shown}{more}"


def recover(source: Path, target: Path) -> list[Recovered]:
    """Copy ``source``'s readable rows into the new log ``target`` (which must not exist)."""
    if target.exists():
        raise StoreError(f"{target} exists: give a new file to copy into (--to)")
    if not source.is_file():
        raise StoreError(f"there is no event log at {source}: check --db")
    try:
        old = _reader(source)
    except sqlite3.Error as exc:
        raise StoreError(f"{source} cannot be opened at all ({exc}): try "
                         "`sqlite3 FILE .recover` on a copy") from None
    report: list[Recovered] = []
    with EventLog.open(target) as new:
        conn = new._conn
        try:
            for row in _rows(old, f"SELECT {stored.SESSION_COLUMNS} FROM sessions ORDER BY id"):
                report.append(_copy_session(old, conn, row))
        finally:
            old.close()
    return report


def _rows(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.Error as exc:
        raise StoreError(f"the log's {sql.split()[-3]} cannot be read ({exc}): try "
                         "`sqlite3 FILE .recover` on a copy") from None


def _copy_session(old: sqlite3.Connection, new: sqlite3.Connection,
                  row: tuple[Any, ...]) -> Recovered:
    done = Recovered(int(row[0]), stored.text(row[2]) or "")
    try:
        options = stored.json_object(row[3])
    except ValueError as exc:
        options, done.start_damaged = {}, str(exc)
    started = row[1] if isinstance(row[1], int | float) else 0.0
    ended = row[4] if row[4] is None or isinstance(row[4], int | float) else started
    new.execute("INSERT INTO sessions (id, started, ruleset, options, ended) "
                "VALUES (?, ?, ?, ?, ?)", (done.session, started, done.ruleset,
                                           stored.dumps(options), ended))
    for seq in _event_numbers(old, done.session):
        try:
            found = old.execute(f"SELECT {stored.EVENT_COLUMNS} FROM events "
                                "WHERE seq = ? AND session_id = ?", (seq, done.session)).fetchall()
            if not found:
                continue
            _copy_event(new, found[0])
            done.copied += 1
        except (sqlite3.Error, ValueError, TypeError) as exc:
            done.skipped.append((seq, str(exc)))
    return done


def _event_numbers(old: sqlite3.Connection, session: int) -> list[int]:
    """The session's event numbers; where the index cannot be read, every number up to the
    highest (each then tried on its own)."""
    try:
        return [r[0] for r in old.execute(
            "SELECT seq FROM events WHERE session_id = ? ORDER BY seq", (session,))]
    except sqlite3.Error:
        try:
            top = int(old.execute("SELECT MAX(seq) FROM events").fetchone()[0] or 0)
        except sqlite3.Error:
            return []
        return list(range(1, top + 1))


def _copy_event(new: sqlite3.Connection, r: tuple[Any, ...]) -> None:
    event = stored.json_object(r[4])
    new.execute("INSERT INTO events (seq, session_id, time, source, event, accepted, rule, "
                "message) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (int(r[0]), int(r[1]), stored.number(r[2]), stored.text(r[3]) or "",
                 stored.dumps(event), int(stored.flag(r[5])), stored.text(r[6]),
                 stored.text(r[7])))
