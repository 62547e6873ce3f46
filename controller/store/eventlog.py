"""The append-only event log (Contract 6): every accepted or refused event, durable before
anything acts on it.

One SQLite file in WAL mode with ``synchronous=FULL``: an append is committed and synced before
it returns, and readers (export, replay, the dashboard) can read while the service writes.
``write`` + ``commit`` are an append in two steps, so the game loop can let the screens draw a
move while its record is synced (docs/store.md).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from controller.store import rows as stored
from controller.store.errors import DamagedLog, StoreError
from controller.store.files import private_files
from controller.store.schema import inspect_log, migrate

_BATCH = 500
_NOT_RECORDED = "the event was not recorded and is not being accepted"


@dataclass(frozen=True)
class Record:
    """One row of the log: an event as the table or a seat produced it, and what became of it."""

    seq: int
    session_id: int
    time: float
    source: str
    event: dict[str, Any]
    accepted: bool
    rule: str | None
    message: str | None

    @property
    def at(self) -> float:
        """The event's time (the name the game's ``apply`` uses)."""
        return self.time


@dataclass(frozen=True)
class SessionInfo:
    """A session: one sitting at the table under one rule set."""

    id: int
    started: float
    ruleset: str
    options: dict[str, Any]
    ended_at: float | None = None
    #: why the session's own row cannot be read (its options; issue 22), else None
    damaged: str | None = None


class EventLog:
    """An open event log. Use :meth:`open`; one writer process, any number of readers."""

    def __init__(self, path: Path, conn: sqlite3.Connection, readonly: bool) -> None:
        self.path = path
        self.readonly = readonly
        self._conn = conn
        self._lock = threading.RLock()  # write..commit hold it; the same thread may read

    @classmethod
    def open(cls, path: str | Path, *, readonly: bool = False) -> EventLog:
        """Open (or create) the log at ``path``.

        A log written by a newer schema, or a damaged file, raises :class:`StoreError` and is
        left byte-for-byte untouched: it is only inspected read-only before anything is written.
        """
        path = Path(path)
        inspection = inspect_log(path, thorough=not readonly)
        if readonly:
            if inspection.version == 0:
                raise StoreError(f"there is no event log at {path}: check --db or --data-dir")
            return cls(path, _reader(path), readonly=True)
        if not path.parent.is_dir():
            raise StoreError(
                f"cannot create the event log at {path}: the directory {path.parent} does not "
                "exist; create it or choose another --data-dir"
            )
        conn = _connect(path, str(path))
        try:
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            private_files(path, Path(f"{path}-wal"), Path(f"{path}-shm"))
            if str(mode).lower() != "wal":
                raise StoreError(f"the event log {path} cannot use WAL mode (got {mode}): "
                                 "put --data-dir on a local file system")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
            migrate(conn, inspection.version)
            _probe_writable(conn)
        except sqlite3.Error as exc:
            conn.close()
            raise write_error(path, exc, "the log was not opened") from exc
        except StoreError:
            conn.close()
            raise
        return cls(path, conn, readonly=False)

    # --- writing ------------------------------------------------------------------------------

    def start_session(self, ruleset: str, options: Mapping[str, Any], at: float) -> int:
        """Record a new session and return its id (committed before it returns). A session
        still open is ended at ``at`` in the same transaction: at most one session is open,
        whoever starts one and however many at once (issue 22: two requests at once left one
        open for good)."""
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")  # one writer at a time, across processes
                self._conn.execute("UPDATE sessions SET ended = ? WHERE ended IS NULL", (at,))
                cursor = self._conn.execute(
                    "INSERT INTO sessions (started, ruleset, options) VALUES (?, ?, ?)",
                    (at, ruleset, stored.dumps(dict(options))))
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise self._failure(exc, "the session was not started") from exc
        rowid = cursor.lastrowid
        assert rowid is not None
        return rowid

    def end_session(self, session_id: int, at: float) -> None:
        """Mark a session as ended (a restart then does not resume it)."""
        with self._lock:
            try:
                self._conn.execute(
                    "UPDATE sessions SET ended = ? WHERE id = ? AND ended IS NULL", (at, session_id)
                )
            except sqlite3.Error as exc:
                raise write_error(self.path, exc, "the session was not ended") from exc

    def append(
        self,
        session_id: int,
        event: Mapping[str, Any],
        accepted: bool,
        rule: str | None,
        message: str | None,
        source: str,
        at: float,
    ) -> int:
        """Append one event and return its ``seq``; it is committed and synced when this returns."""
        seq = self.write(session_id, event, accepted, rule, message, source, at)
        self.commit()
        return seq

    def append_many(self, session_id: int, events: Sequence[Mapping[str, Any]], source: str,
                    at: float) -> None:
        """Append accepted events in one transaction (an imported game: all or nothing)."""
        rows = [(session_id, at, source, stored.dumps(dict(e)), 1, None, None) for e in events]
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                self._conn.executemany(
                    "INSERT INTO events (session_id, time, source, event, accepted, rule, "
                    "message) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise self._failure(exc, "the events were not recorded") from exc

    def write(
        self,
        session_id: int,
        event: Mapping[str, Any],
        accepted: bool,
        rule: str | None,
        message: str | None,
        source: str,
        at: float,
    ) -> int:
        """Write one event in a transaction of its own and return its ``seq``. It is neither
        durable nor seen by readers until :meth:`commit`; until then this log takes no other
        write or read (``commit`` or, after a failure, nothing: the transaction is gone)."""
        params = (session_id, at, source, stored.dumps(dict(event)), int(accepted), rule, message)
        self._lock.acquire()
        try:
            self._conn.execute("BEGIN")
            cursor = self._conn.execute(
                "INSERT INTO events (session_id, time, source, event, accepted, rule, message) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)", params)
        except BaseException as exc:
            self._abandon()
            if isinstance(exc, sqlite3.Error):
                raise self._failure(exc, _NOT_RECORDED) from exc
            raise
        rowid = cursor.lastrowid
        assert rowid is not None
        return rowid

    def commit(self) -> None:
        """Commit and sync the event of :meth:`write` (SQLite's sync runs without the GIL, so
        other threads go on meanwhile); on failure nothing of it is in the log."""
        try:
            self._conn.execute("COMMIT")
        except BaseException as exc:
            self._abandon()
            if isinstance(exc, sqlite3.Error):
                raise self._failure(exc, _NOT_RECORDED) from exc
            raise
        self._lock.release()

    def rollback(self) -> None:
        """Take back the event of :meth:`write` instead of committing it."""
        self._abandon()

    def _abandon(self) -> None:
        """After a failed write or commit: roll back what is left of it, free the log."""
        try:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # the transaction is gone either way: SQLite rolls back a failed commit
        finally:
            self._lock.release()

    def _insert(self, sql: str, params: tuple[Any, ...], consequence: str) -> int:
        with self._lock:
            try:
                # Autocommit: the INSERT is its own transaction, synced (synchronous=FULL)
                # before execute() returns.
                cursor = self._conn.execute(sql, params)
            except sqlite3.Error as exc:
                raise self._failure(exc, consequence) from exc
        rowid = cursor.lastrowid
        assert rowid is not None
        return rowid

    def _failure(self, exc: sqlite3.Error, consequence: str) -> StoreError:
        """A write's SQLite error as the StoreError that says what to do."""
        if isinstance(exc, sqlite3.IntegrityError):
            return StoreError(f"the event log {self.path} refused the row: {exc}")
        return write_error(self.path, exc, consequence)

    # --- reading ------------------------------------------------------------------------------

    def sessions(self) -> list[SessionInfo]:
        """Every session; one whose row is damaged has ``damaged`` set (its options empty)."""
        rows = self._query(f"SELECT {stored.SESSION_COLUMNS} FROM sessions ORDER BY id", ())
        return [_session(r) for r in rows]

    def latest_session(self) -> SessionInfo | None:
        """The newest session, ended or not; None for an empty log."""
        sessions = self.sessions()
        return sessions[-1] if sessions else None

    def session(self, session_id: int | None = None) -> SessionInfo:
        """The session with ``session_id``, or the latest one when it is None."""
        sessions = self.sessions()
        if not sessions:
            raise StoreError(f"the event log {self.path} has no sessions yet")
        if session_id is None:
            return sessions[-1]
        for info in sessions:
            if info.id == session_id:
                return info
        known = ", ".join(str(s.id) for s in sessions)
        raise StoreError(
            f"the event log {self.path} has no session {session_id} (sessions: {known})"
        )

    def records(self, session_id: int, after: int = 0) -> Iterator[Record]:
        """The session's events in order, those with ``seq > after``; safe while appending."""
        last = after
        while True:
            try:
                rows = self._query(
                    f"SELECT {stored.EVENT_COLUMNS} FROM events "
                    "WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                    (session_id, last, _BATCH),
                )
            except StoreError as exc:  # a damaged page: SQLite itself cannot read on
                raise DamagedLog(self.path, session_id, f"the events after event {last}",
                                 str(exc.__cause__ or exc)) from None
            for r in rows:
                yield self._record(r)
            if len(rows) < _BATCH:
                return
            last = rows[-1][0]

    def _record(self, r: tuple[Any, ...]) -> Record:
        try:
            return Record(int(r[0]), int(r[1]), stored.number(r[2]), stored.text(r[3]) or "",
                          stored.json_object(r[4]), stored.flag(r[5]), stored.text(r[6]),
                          stored.text(r[7]))
        except (ValueError, TypeError) as exc:
            raise DamagedLog(self.path, r[1], f"event {r[0]}", str(exc)) from None

    def last_seq(self) -> int:
        rows = self._query("SELECT COALESCE(MAX(seq), 0) FROM events", ())
        return int(rows[0][0])

    def _query(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(
                    f"cannot read the event log {self.path}: {exc} ({_code(exc)}); check the "
                    "storage, or copy the file away and run `sqlite3 FILE .recover`"
                ) from exc

    # --- lifetime -----------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> EventLog:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _session(r: tuple[Any, ...]) -> SessionInfo:
    ruleset = stored.text(r[2]) or ""
    try:
        ended = None if r[4] is None else stored.number(r[4])
    except ValueError:
        ended = 0.0  # an end that cannot be read: the session is not resumed
    try:
        return SessionInfo(int(r[0]), stored.number(r[1]), ruleset, stored.json_object(r[3]),
                           ended)
    except (ValueError, TypeError) as exc:
        return SessionInfo(int(r[0]), 0.0, ruleset, {}, ended, damaged=str(exc))


def write_error(path: Path, exc: sqlite3.Error, consequence: str) -> StoreError:
    """Turn an SQLite write failure into a message that says what to do."""
    name = _code(exc)
    if name.startswith("SQLITE_FULL"):
        what = "disk full; free space or move --data-dir"
    elif name.startswith("SQLITE_READONLY"):
        what = "the file or its directory is read-only; make --data-dir writable"
    elif name.startswith("SQLITE_IOERR"):
        what = "disk I/O error; check the storage (SD card) and --data-dir"
    elif name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        what = "the log is locked by another process; stop the other mahjong-table process"
    elif name.startswith("SQLITE_CANTOPEN"):
        what = "the file cannot be opened; check that --data-dir exists and is writable"
    else:
        what = str(exc)
    return StoreError(f"cannot write the event log at {path}: {what} ({name}); {consequence}")


def _code(exc: sqlite3.Error) -> str:
    return str(getattr(exc, "sqlite_errorname", None) or type(exc).__name__)


def _probe_writable(conn: sqlite3.Connection) -> None:
    """Fail at open, not at the first move: on a read-only file system SQLite quietly opens
    the file read-only. Rewriting the schema version (same value, rolled back) tells."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        conn.execute(f"PRAGMA user_version = {version}")
    finally:
        conn.execute("ROLLBACK")


def _reader(path: Path) -> sqlite3.Connection:
    """A read-only connection that sees the writer's appends; on a read-only medium (where
    the -shm index cannot be created) and with no WAL left, an immutable one."""
    conn: sqlite3.Connection | None = None
    try:
        conn = _connect(path, f"{path.absolute().as_uri()}?mode=ro")
        conn.execute("SELECT 1 FROM sessions LIMIT 1").fetchall()
        return conn
    except (StoreError, sqlite3.Error) as exc:
        if conn is not None:
            conn.close()
        if Path(f"{path}-wal").exists():
            raise StoreError(f"cannot read the event log {path}: {exc}; check that the "
                             "service's data directory is readable") from exc
    return _connect(path, f"{path.absolute().as_uri()}?mode=ro&immutable=1")


def _connect(path: Path, target: str) -> sqlite3.Connection:
    try:
        return sqlite3.connect(
            target, uri=target.startswith("file:"), isolation_level=None,
            check_same_thread=False, timeout=5.0,
        )
    except sqlite3.Error as exc:
        raise write_error(path, exc, "the log was not opened") from exc
