"""The club's own SQLite: what the tables published, each finished hand once.

Facts (checked and verified by the caller) are applied in each table's order: a fact whose
``prev`` is the table's last position is applied and the position moves on in the same
transaction; one at or before it is a duplicate only when it is the very fact held at that
position (its digest), else a conflict (refused); one after a gap is not applied and the caller
asks the table to send again. Hands are keyed by (table, session, number), penalties by
(table, session, index). Rows an older version stored that do not meet today's schema are
moved to ``set_aside`` when the store opens, so every page answers for what is stored.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from controller.club import schema, sql

log = logging.getLogger("controller.club.store")


def fact_digest(table: str, fact: dict[str, Any]) -> str:
    """What identifies a fact at its position: its content but its ``prev`` (and ``sig``)."""
    body = {k: v for k, v in fact.items() if k not in ("prev", "sig")}
    text = json.dumps({**body, "table": table}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


#: Seconds without a word from a table after which it counts as offline.
STALE = 75.0


class ClubStore:
    """Thread-safe: the MQTT thread writes, the web handlers read."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.closed = False
        self._conn = sqlite3.connect(str(self.path), isolation_level=None,
                                     check_same_thread=False, timeout=10.0)
        for pragma in sql.PRAGMAS:
            self._conn.execute(pragma)
        self._conn.executescript(sql.SCHEMA)
        self._set_aside_bad_rows()
        self._lock = threading.Lock()
        self._status: dict[str, dict[str, Any]] = {}
        self._online: dict[str, bool] = {}
        self._heard: dict[str, float] = {}  # when the club last heard from a table
        self.version = 0  # moves on with every change (the pages' push)

    def close(self) -> None:
        with self._lock:
            self._conn.close()
            self.closed = True

    def _rows(self, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._conn.execute(statement, params).fetchall()

    # --- from the broker ------------------------------------------------------------------------

    # A table's status and online flag are kept in memory: the broker retains both and hands
    # them over again on every (re)connection; only facts are written (one commit each).

    def set_status(self, table: str, status: dict[str, Any]) -> None:
        with self._lock:
            self._status[table] = status
            self._heard[table] = time.time()
            self._online.setdefault(table, True)
            self.version += 1

    def set_online(self, table: str, online: bool) -> None:
        with self._lock:
            self._online[table] = online
            self._heard[table] = time.time()
            self.version += 1

    def last_pos(self, table: str) -> int:
        rows = self._rows(sql.LAST_POS, (table,))
        return int(rows[0][0]) if rows else 0

    def apply_fact(self, table: str, fact: dict[str, Any]) -> str:
        """'applied', 'duplicate', 'conflict' or 'gap' (then nothing was changed)."""
        pos, prev = fact.get("pos"), fact.get("prev")
        if not isinstance(pos, int) or not isinstance(prev, int):
            return "conflict"  # not a fact we can place: refused
        digest = fact_digest(table, fact)
        with self._lock:
            conn = self._conn
            conn.execute(sql.BEGIN)
            try:
                conn.execute(sql.ADD_TABLE, (table,))
                last = int(conn.execute(sql.LAST_POS, (table,)).fetchone()[0])
                if pos <= last:
                    held = conn.execute(sql.HELD_DIGEST, (table, pos)).fetchone()
                    conn.execute(sql.ROLLBACK)
                    return "duplicate" if held and held[0] == digest else "conflict"
                if prev != last:
                    conn.execute(sql.ROLLBACK)
                    return "gap"
                _apply(conn, table, fact)
                conn.execute(sql.KEEP_DIGEST, (table, pos, digest))
                conn.execute(sql.MOVE_ON, (pos, table))
                conn.execute(sql.COMMIT)
            except BaseException:
                conn.execute(sql.ROLLBACK)
                raise
            self.version += 1
        return "applied"

    def _set_aside_bad_rows(self) -> None:
        """Move the stored rows that fail today's schema to ``set_aside`` (kept, not shown)."""
        checks = (
            ("hands", lambda tbl, body: schema.check("fact", {**json.loads(body), "table": tbl,
                                                               "prev": 0})),
            ("penalties",
             lambda _tbl, body: schema.PenaltyBody.model_validate(json.loads(body))),
            ("sessions", _check_session))
        for what, check in checks:
            for rowid, tbl, body in self._conn.execute(sql.STORED_ROWS[what][0]).fetchall():
                try:
                    check(tbl, body)
                except (ValueError, TypeError, RecursionError) as exc:
                    self._move_aside(what, rowid, tbl, body, str(exc)[:200])

    def _move_aside(self, what: str, rowid: int, tbl: Any, body: Any, reason: str) -> None:
        log.warning("a stored row of %s (table %s) fails the schema and is set aside: %s",
                    what, tbl, reason)
        self._conn.execute(sql.BEGIN)
        self._conn.execute(sql.SET_ASIDE, (what, str(tbl), str(body), reason, time.time()))
        self._conn.execute(sql.STORED_ROWS[what][1], (rowid,))
        self._conn.execute(sql.COMMIT)

    # --- reading --------------------------------------------------------------------------------

    def tables(self, now: float | None = None) -> list[dict[str, Any]]:
        """Every table seen: its status and online flag (this run), last position (kept).

        A table counts as online while its flag says so and the club heard from it within
        STALE seconds (a table repeats its status every 30 s): a table that died while the
        broker was down has no last will, and its retained "online" would stay true."""
        kept = {r[0]: r[1] for r in self._rows(sql.TABLES)}
        now = time.time() if now is None else now
        with self._lock:
            names = sorted(set(kept) | set(self._status) | set(self._online))
            return [{"table": n, "status": self._status.get(n) or {},
                     "online": self._online.get(n, False)
                     and now - self._heard.get(n, 0.0) < STALE,
                     "last_pos": kept.get(n, 0)} for n in names]

    def hands(self, table: str | None = None) -> list[dict[str, Any]]:
        rows = (self._rows(sql.HANDS) if table is None
                else self._rows(sql.TABLE_HANDS, (table,)))
        return [{**json.loads(r[5]), "table": r[0], "session": r[1], "number": r[2],
                 "received": r[4]} for r in rows]

    def penalties(self) -> list[dict[str, Any]]:
        rows = self._rows(sql.PENALTIES)
        return [{**json.loads(r[3]), "table": r[0], "session": r[1], "index": r[2]}
                for r in rows]

    def sessions(self) -> list[dict[str, Any]]:
        rows = self._rows(sql.SESSIONS)
        return [{"table": r[0], "session": r[1], "started": r[2], "ruleset": r[3],
                 "ended": r[4], "summary": json.loads(r[5]) if r[5] else None} for r in rows]

    # --- the roster and the club's own settings -------------------------------------------------

    def roster(self) -> list[dict[str, Any]]:
        rows = self._rows(sql.ROSTER)
        return [{"name": r[0], "ema": r[1] or "", "country": r[2] or ""} for r in rows]

    def add_player(self, name: str, ema: str = "", country: str = "") -> None:
        with self._lock:
            self._conn.execute(sql.ADD_PLAYER, (name, ema, country))
            self.version += 1

    def remove_player(self, name: str) -> bool:
        with self._lock:
            cur = self._conn.execute(sql.REMOVE_PLAYER, (name,))
            self.version += 1
            return cur.rowcount > 0

    def get(self, key: str) -> Any:
        rows = self._rows(sql.GET, (key,))
        return json.loads(rows[0][0]) if rows else None

    def put(self, key: str, value: Any) -> None:
        with self._lock:
            self._conn.execute(sql.PUT, (key, json.dumps(value)))
            self.version += 1


def _check_session(table: str, row: str) -> None:
    """A stored session: started and ended numbers (or null), the rule set a text, the summary
    a session's end as the schema has it."""
    started, ruleset, ended, summary = json.loads(row)
    for value in (started, ended):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise ValueError(f"a time that is not a number: {str(value)[:40]!r}")
    if ruleset is not None and not isinstance(ruleset, str):
        raise ValueError("the rule set is not a text")
    if summary is not None:
        schema.check("fact", {**json.loads(summary), "table": table, "prev": 0})


def _apply(conn: sqlite3.Connection, table: str, fact: dict[str, Any]) -> None:
    kind = fact.get("kind")
    session = int(fact.get("session") or 0)
    body = {k: v for k, v in fact.items() if k not in ("table", "prev")}
    if kind == "session_start":
        conn.execute(sql.START_SESSION, (table, session, fact.get("started"),
                                         fact.get("ruleset")))
    elif kind == "session_end":
        conn.execute(sql.END_SESSION, (fact.get("ended"), json.dumps(body), table, session))
    elif kind == "hand" and isinstance(fact.get("number"), int):
        conn.execute(sql.PUT_HAND, (table, session, fact["number"], fact["pos"], time.time(),
                                    json.dumps(body)))
    elif kind == "hand_undone":
        conn.execute(sql.TAKE_HAND_BACK, (table, session, fact.get("number")))
    elif (kind == "penalty" and isinstance(fact.get("index"), int)
          and isinstance(fact.get("penalty"), dict)):
        conn.execute(sql.PUT_PENALTY, (table, session, fact["index"], fact["pos"],
                                       json.dumps(fact["penalty"])))
    elif kind == "holders":
        _holders(conn, table, session, fact)
    elif kind == "penalty_undone":
        conn.execute(sql.TAKE_PENALTY_BACK, (table, session, fact.get("index")))


def _holders(conn: sqlite3.Connection, table: str, session: int, fact: dict[str, Any]) -> None:
    """A seat-holder correction at the table: the names of these hands and penalties."""
    for what, (read, write) in sql.HOLDER_ROWS.items():
        given = fact.get(what)
        for number, names in (given.items() if isinstance(given, dict) else ()):
            if not str(number).isdigit() or not isinstance(names, dict):
                continue
            row = conn.execute(read, (table, session, int(number))).fetchone()
            if row is None:
                continue
            body = json.loads(row[0])
            body["names"] = {p: names.get(p) for p in ("1", "2", "3", "4")}
            conn.execute(write, (json.dumps(body), table, session, int(number)))
