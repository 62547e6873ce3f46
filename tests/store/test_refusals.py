"""Logs the store must refuse, leaving them untouched; writes that fail say what to do."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from controller.store import SCHEMA_VERSION, EventLog, StoreError

EVENT = {"move": {"tile": "ew", "from": "wall", "to": "rack:2"}}


def _snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def _make_log(db: Path, events: int = 0) -> None:
    with EventLog.open(db) as log:
        sid = log.start_session("hua-bao", {}, 0.0)
        for i in range(events):
            log.append(sid, {"correct": {"undo": i}, "pad": "x" * 200}, True, None, None, "t", 0.0)


def _assert_refused_untouched(db: Path, match: str) -> None:
    before = _snapshot(db.parent)
    with pytest.raises(StoreError, match=match) as info:
        EventLog.open(db)
    assert "left untouched" in str(info.value)
    assert _snapshot(db.parent) == before  # same files (no -wal, no -shm), same bytes


def test_newer_schema_is_refused_and_left_untouched(tmp_path: Path) -> None:
    db = tmp_path / "events.sqlite"
    _make_log(db, events=3)
    raw = sqlite3.connect(db)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.close()
    assert not Path(f"{db}-wal").exists()
    _assert_refused_untouched(db, "newer version of mahjong-table")


def test_newer_schema_with_a_leftover_wal_file_is_refused_and_left_untouched(
    tmp_path: Path,
) -> None:
    db = tmp_path / "events.sqlite"
    _make_log(db, events=3)
    raw = sqlite3.connect(db)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    raw.close()
    # A writer that died leaves its WAL behind: the check must not checkpoint or remove it.
    Path(f"{db}-wal").write_bytes(b"")
    Path(f"{db}-shm").write_bytes(b"\0" * 32768)
    _assert_refused_untouched(db, "newer version")


def test_a_file_that_is_not_sqlite_is_refused_and_left_untouched(tmp_path: Path) -> None:
    db = tmp_path / "events.sqlite"
    db.write_bytes(b"this is a table log, not a database\n" * 50)
    _assert_refused_untouched(db, "not an SQLite database")


def test_corrupted_pages_are_refused_and_left_untouched(tmp_path: Path) -> None:
    db = tmp_path / "events.sqlite"
    _make_log(db, events=200)
    data = bytearray(db.read_bytes())
    page = 4096
    assert len(data) > 6 * page
    data[3 * page + 8 : 3 * page + 400] = b"\xff" * 392  # scribble over a b-tree page
    db.write_bytes(bytes(data))
    _assert_refused_untouched(db, "damaged")


def test_another_programs_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    db = tmp_path / "events.sqlite"
    raw = sqlite3.connect(db)
    raw.execute("CREATE TABLE recipes (name TEXT)")
    raw.commit()
    raw.close()
    _assert_refused_untouched(db, "not a mahjong-table event log")


def test_an_empty_file_becomes_a_new_log(tmp_path: Path) -> None:
    db = tmp_path / "events.sqlite"
    db.touch()
    with EventLog.open(db) as log:
        assert log.start_session("hua-bao", {}, 0.0) == 1


def test_missing_directory_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="does not exist; create it or choose another --data-dir"):
        EventLog.open(tmp_path / "nowhere" / "events.sqlite")


def test_full_disk_makes_append_raise_a_clear_error_and_keeps_earlier_events(
    tmp_path: Path,
) -> None:
    db = tmp_path / "events.sqlite"
    with EventLog.open(db) as log:
        sid = log.start_session("hua-bao", {}, 0.0)
        kept = log.append(sid, EVENT, True, None, None, "table", 0.0)
        # Cap the file at its current size: the next pages cannot be allocated (SQLITE_FULL),
        # exactly as when the SD card is full.
        pages = log._conn.execute("PRAGMA page_count").fetchone()[0]
        log._conn.execute(f"PRAGMA max_page_count = {pages}")
        big = {"move": {"tile": "ew", "from": "wall", "to": "rack:2"}, "pad": "x" * 20000}
        with pytest.raises(StoreError) as info:
            log.append(sid, big, True, None, None, "table", 1.0)
        message = str(info.value)
        assert f"cannot write the event log at {db}: disk full" in message
        assert "SQLITE_FULL" in message and "not being accepted" in message
        assert [r.seq for r in log.records(sid)] == [kept]


def test_read_only_log_makes_append_raise_a_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "events.sqlite"
    _make_log(db)
    # Running as root, chmod would not stop SQLite; a read-only open fails the way a read-only
    # mount does, with SQLITE_READONLY from SQLite itself.
    with EventLog.open(db, readonly=True) as log, pytest.raises(StoreError) as info:
        log.append(1, EVENT, True, None, None, "table", 0.0)
    assert "read-only; make --data-dir writable (SQLITE_READONLY" in str(info.value)
    with EventLog.open(db) as log:
        assert list(log.records(1)) == []


def test_bad_session_id_is_refused_without_a_row(tmp_path: Path) -> None:
    db = tmp_path / "events.sqlite"
    with EventLog.open(db) as log:
        with pytest.raises(StoreError, match="refused the row"):
            log.append(42, EVENT, True, None, None, "table", 0.0)
        assert log.last_seq() == 0


def _crashed_copy(src_dir: Path, dst_dir: Path, user_version: int | None) -> Path:
    """A log whose writer died with committed transactions still only in its WAL file."""
    db = src_dir / "events.sqlite"
    _make_log(db, events=5)
    live = sqlite3.connect(db, isolation_level=None)
    live.execute("PRAGMA wal_autocheckpoint = 0")
    live.execute("INSERT INTO events (session_id, time, source, event, accepted) "
                 "VALUES (1, 9.0, 'table', '{\"declare\": {\"seat\": 2, \"call\": \"ready\"}}', 1)")
    if user_version is not None:
        live.execute(f"PRAGMA user_version = {user_version}")
    dst_dir.mkdir()
    for name in ("events.sqlite", "events.sqlite-wal"):  # the files as a power cut leaves them
        (dst_dir / name).write_bytes((src_dir / name).read_bytes())
    live.close()
    assert (dst_dir / "events.sqlite-wal").stat().st_size > 0
    return dst_dir / "events.sqlite"


def test_newer_schema_in_a_leftover_wal_is_refused_and_left_untouched(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    db = _crashed_copy(tmp_path / "a", tmp_path / "b", SCHEMA_VERSION + 1)
    _assert_refused_untouched(db, "newer version")


def test_events_in_a_leftover_wal_are_recovered(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    db = _crashed_copy(tmp_path / "a", tmp_path / "b", None)
    with EventLog.open(db) as log:
        assert [r.event for r in log.records(1)][-1] == {"declare": {"seat": 2, "call": "ready"}}


def test_no_room_to_check_a_leftover_wal_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a").mkdir()
    db = _crashed_copy(tmp_path / "a", tmp_path / "b", None)
    nowhere = tmp_path / "not-a-dir"
    nowhere.write_text("")
    monkeypatch.setattr("tempfile.tempdir", str(nowhere))
    before = _snapshot(db.parent)
    with pytest.raises(StoreError, match="no room for a temporary copy .* set TMPDIR"):
        EventLog.open(db)
    assert _snapshot(db.parent) == before
