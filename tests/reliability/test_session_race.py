"""Two new-session requests at once (issue 22): at most one session is open, whatever arrives
concurrently. Before, the router looked at the running session, stopped it and started a new
one in three steps; two requests interleaved and one session stayed open for good, with two
newer ones after it. Real concurrent HTTP requests against the service on uvicorn, and real
concurrent writers on one SQLite file."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import httpx
import pytest

from controller.app import build
from controller.config import Config
from controller.loop import GameLoop, SessionChanged
from controller.store import EventLog
from tests.web.support import served

ROUNDS = 6
AT_ONCE = 8


def open_sessions(db: Path) -> list[int]:
    with EventLog.open(db, readonly=True) as log:
        return [s.id for s in log.sessions() if s.ended_at is None]


def at_once(count: int, act: object) -> list[object]:
    """Run ``act(i)`` in ``count`` threads released together; their results."""
    gate = threading.Barrier(count)
    results: list[object] = [None] * count

    def run(i: int) -> None:
        gate.wait(timeout=60)
        results[i] = act(i)  # type: ignore[operator]

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return results


def test_new_session_requests_at_once_leave_one_open(tmp_path: Path) -> None:
    system = build(Config(), tmp_path / "data")
    admin = {"Authorization": f"Bearer {system.tokens.admin}"}
    rulesets = ["hua-bao", "dmjl", "swedish", "mcr"]
    with served(system.app) as base:
        clients = [httpx.Client(base_url=base, timeout=60) for _ in range(AT_ONCE)]
        try:
            for _ in range(ROUNDS):
                answers = at_once(AT_ONCE, lambda i: clients[i].post(
                    "/api/admin/session", headers=admin,
                    json={"ruleset": rulesets[i % 4], "options": {}}).status_code)
                assert all(code == 200 for code in answers), answers
                opened = open_sessions(tmp_path / "data" / "events.sqlite")
                assert opened == [system.loop.session_id], opened
                view = clients[0].get("/api/table").json()
                assert view["session"]["active"] is True
        finally:
            for c in clients:
                c.close()
    with EventLog.open(tmp_path / "data" / "events.sqlite", readonly=True) as log:
        sessions = log.sessions()
    # autostart's session and one per request, each ended but the newest
    assert len(sessions) == 1 + ROUNDS * AT_ONCE
    assert [s.id for s in sessions if s.ended_at is None] == [sessions[-1].id]


def test_writers_at_once_on_one_log_leave_one_open(tmp_path: Path) -> None:
    """The store itself: connections of their own (as two processes would have) starting
    sessions at the same moment; each start ends the open one in its own transaction."""
    db = tmp_path / "events.sqlite"
    EventLog.open(db).close()
    logs = [EventLog.open(db) for _ in range(AT_ONCE)]
    try:
        for _ in range(ROUNDS):
            at_once(AT_ONCE, lambda i: logs[i].start_session("hua-bao", {}, float(i)))
            assert len(open_sessions(db)) == 1, open_sessions(db)
    finally:
        for log in logs:
            log.close()


async def test_an_event_queued_behind_a_new_session_is_not_applied_to_it(tmp_path: Path) -> None:
    """A move made while session 1 ran, queued just behind the operator's new session (the
    loaded run's virtual table: the players' first tile landed in the new session, whose table
    had been swept, and they waited for ever for the game to give the tile back). The loop
    applies an event only to the session that ran when it was posted."""
    loop = GameLoop(Config(), data_dir=tmp_path)
    await loop.start()
    try:
        first = loop.session_id
        move = {"move": {"tile": "7b", "from": "wall", "to": "rack:1"}}
        started = asyncio.ensure_future(loop.start_session("dmjl", {}))
        made = asyncio.ensure_future(loop.submit(move, "table"))  # posted before the start ran
        await started
        with pytest.raises(SessionChanged):
            await made
        assert loop.session_id != first and loop.state.hand is None  # no tile out in the new one
        # made in the new session, the same move is the new session's first tile
        assert (await loop.submit(move, "table")).accepted
        assert loop.state.hand is not None
    finally:
        await loop.stop()
