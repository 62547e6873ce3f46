"""The event log's normal life: sessions, appends, reading back in order, readers while writing."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.store import SCHEMA_VERSION, EventLog, StoreError, session_events

DRAW = {"move": {"tile": "5b", "from": "wall", "to": "rack:1", "uid": "04:A2:19:C1"}}
DISCARD = {"move": {"tile": "5b", "from": "rack:1", "to": "discard"}}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "events.sqlite"


def test_append_returns_increasing_seqs_and_records_read_back(db: Path) -> None:
    with EventLog.open(db) as log:
        sid = log.start_session("hua-bao", {"bonus_tiles": False}, 100.0)
        first = log.append(sid, DRAW, True, None, None, "table", 101.0)
        second = log.append(sid, DISCARD, False, "discard_out_of_turn", "not your turn", "table",
                            102.5)
        records = list(log.records(sid))
    assert second > first
    assert [r.seq for r in records] == [first, second]
    assert records[0].event == DRAW and records[0].accepted and records[0].rule is None
    assert records[1].event == DISCARD and not records[1].accepted
    assert (records[1].rule, records[1].message) == ("discard_out_of_turn", "not your turn")
    assert (records[1].time, records[1].at, records[1].source) == (102.5, 102.5, "table")


def test_reopened_log_keeps_sessions_and_events(db: Path) -> None:
    with EventLog.open(db) as log:
        sid = log.start_session("swedish", {"limit": 1000}, 1.0)
        log.append(sid, DRAW, True, None, None, "table", 2.0)
    with EventLog.open(db) as log:
        info = log.session()
        assert (info.id, info.ruleset, info.options) == (sid, "swedish", {"limit": 1000})
        assert [r.event for r in log.records(sid)] == [DRAW]
        assert log.last_seq() == 1


def test_schema_version_wal_and_full_sync(db: Path) -> None:
    with EventLog.open(db) as log:
        conn = log._conn  # the pragmas are per connection: ask the one that writes
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    raw.close()


def test_sessions_latest_and_end(db: Path) -> None:
    with EventLog.open(db) as log:
        assert log.latest_session() is None
        with pytest.raises(StoreError, match="no sessions"):
            log.session()
        a = log.start_session("hua-bao", {}, 1.0)
        b = log.start_session("dmjl", {}, 2.0)
        assert log.session(a).ended_at == 2.0  # a new session ends the open one (issue 22)
        log.end_session(a, 3.0)  # an ended session keeps its end
        latest = log.latest_session()
        assert latest is not None and latest.id == b and latest.ended_at is None
        assert log.session(a).ended_at == 2.0
        log.end_session(b, 4.0)
        assert log.session(b).ended_at == 4.0
        with pytest.raises(StoreError, match=f"no session 99 \\(sessions: {a}, {b}\\)"):
            log.session(99)


def test_records_of_one_session_only_and_after(db: Path) -> None:
    with EventLog.open(db) as log:
        a = log.start_session("hua-bao", {}, 1.0)
        b = log.start_session("hua-bao", {}, 1.0)
        seqs = [log.append(a if i % 2 else b, {"declare": {"seat": 1, "call": "ready"}, "i": i},
                           True, None, None, "dashboard", float(i)) for i in range(1200)]
        mine = [r.event["i"] for r in log.records(a)]
        later = [r.seq for r in log.records(a, after=seqs[1001])]
    assert mine == list(range(1, 1200, 2))  # spans several read batches, in order
    assert later == [s for i, s in enumerate(seqs) if i % 2 and s > seqs[1001]]


def test_reader_sees_each_append_while_the_writer_is_open(db: Path) -> None:
    writer = EventLog.open(db)
    sid = writer.start_session("hua-bao", {}, 0.0)
    reader = EventLog.open(db, readonly=True)
    try:
        for i in range(5):
            seq = writer.append(sid, {"correct": {"undo": i}}, True, None, None, "operator", 1.0)
            assert [r.seq for r in reader.records(sid)][-1] == seq
    finally:
        reader.close()
        writer.close()


def test_session_events_yields_a_table_log(db: Path) -> None:
    with EventLog.open(db) as log:
        sid = log.start_session("hua-bao", {"bonus_tiles": False}, 0.0)
        # The service also records the session line as an event: it must not appear twice.
        log.append(sid, {"session": {"ruleset": "hua-bao", "options": {"bonus_tiles": False}}},
                   True, None, None, "admin", 0.0)
        log.append(sid, DRAW, True, None, None, "table", 1.0)
        log.append(sid, {"anomaly": {"kind": "unknown_uid", "uid": "AA:BB:CC:DD"}}, True, None,
                   None, "table", 1.5)
        log.append(sid, DISCARD, False, "discard_out_of_turn", "x", "table", 2.0)
    lines = list(session_events(db))
    assert lines == [{"session": {"ruleset": "hua-bao", "options": {"bonus_tiles": False}}},
                     DRAW, DISCARD]


def test_readonly_open_of_a_missing_log_is_a_clear_error(db: Path) -> None:
    with pytest.raises(StoreError, match="there is no event log"):
        EventLog.open(db, readonly=True)
    assert not db.exists()


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-10**9, 10**9) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                 max_size=3),
    max_leaves=8,
)


@pytest.fixture(scope="module")
def shared_log(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EventLog]:
    with EventLog.open(tmp_path_factory.mktemp("prop") / "events.sqlite") as log:
        yield log


@given(st.lists(st.dictionaries(st.sampled_from(["move", "declare", "correct", "timer"]), _json,
                                min_size=1, max_size=1), max_size=8))
def test_any_json_event_comes_back_equal(shared_log: EventLog,
                                         events: list[dict[str, object]]) -> None:
    sid = shared_log.start_session("hua-bao", {}, 0.0)  # a session per example, one file
    for e in events:
        shared_log.append(sid, e, True, None, None, "table", 0.0)
    assert [r.event for r in shared_log.records(sid)] == events


def test_a_write_is_seen_by_readers_only_once_committed(db: Path) -> None:
    """``write`` + ``commit`` are an append in two steps: in between, readers (and the log's
    own record list) do not see the event; a rollback leaves no trace and the log goes on."""
    with EventLog.open(db) as log:
        sid = log.start_session("hua-bao", {}, 1.0)
        first = log.append(sid, {"n": 1}, True, None, None, "table", 1.5)
        with EventLog.open(db, readonly=True) as reader:
            seq = log.write(sid, {"n": 2}, True, None, None, "table", 2.0)
            assert seq == first + 1 and reader.last_seq() == first
            log.commit()
            assert reader.last_seq() == seq
            taken_back = log.write(sid, {"n": 3}, False, "r", "m", "table", 3.0)
            log.rollback()
            assert reader.last_seq() == seq
            again = log.append(sid, {"n": 4}, True, None, None, "table", 4.0)
            assert again >= taken_back and reader.last_seq() == again
        assert [r.event["n"] for r in log.records(sid)] == [1, 2, 4]
