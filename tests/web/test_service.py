"""The service loop: restart is replay, a store failure halts recording (and says why), and no
request can crash the loop or put anything unrecorded into the game."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from controller.app import build
from controller.config import Config, SimulationConfig, TimersConfig
from controller.store import EventLog
from tests.web.support import Table, hand_over, in_play


def _comparable(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "service"}


def test_restart_replays_the_log_to_the_same_state(
    make_table: Callable[..., Table], tmp_path: Path
) -> None:
    data = tmp_path / "shared"
    first = make_table(data_dir=data)
    first.play_until(lambda v: len(v["hands"]) >= 1 and in_play(v))
    for _ in range(7):
        first.step()
    before = first.client.get("/api/table").json()
    hands_before = first.client.get("/api/hands").json()
    seat_before = first.client.get("/api/seats/2", headers=first.seat(2)).json()["hand"]
    first.close()

    second = make_table(data_dir=data)
    assert second.tokens == first.tokens
    assert _comparable(second.client.get("/api/table").json()) == _comparable(before)
    assert second.client.get("/api/hands").json() == hands_before
    assert second.client.get("/api/seats/2", headers=second.seat(2)).json()["hand"] == seat_before


def test_a_stopped_session_is_not_resumed(make_table: Callable[..., Table], tmp_path: Path) -> None:
    data = tmp_path / "shared"
    first = make_table(data_dir=data)
    first.play_until(in_play)
    first.client.delete("/api/admin/session", headers=first.admin())
    first.close()
    second = make_table(data_dir=data)
    view = second.client.get("/api/table").json()
    assert view["session"]["active"] and view["hand"] is None  # a fresh session (autostart)
    with EventLog.open(data / "events.sqlite", readonly=True) as log:
        assert [s.ended_at is not None for s in log.sessions()] == [True, False]


def test_a_full_disk_stops_moves_and_says_why(table: Table) -> None:
    table.play_until(in_play)
    store = table.loop._store
    assert store is not None
    # A real SQLITE_FULL: cap the database at its current size, as a full SD card would.
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count = {pages}")
    seq, before = table.loop.seq, table.client.get("/api/table").json()["hand"]
    for _ in range(200):  # until an append needs a new page
        res = table.client.post("/api/seats/1/declare", json={"call": "ready"},
                                headers=table.seat(1))
        if res.status_code == 503:
            break
    assert res.status_code == 503 and "disk full" in res.json()["detail"]
    health = table.client.get("/api/health").json()
    assert not health["ok"] and not health["accepting_moves"] and "disk full" in health["halted"]
    view = table.client.get("/api/table").json()
    assert "disk full" in view["service"]["halted"]
    # Nothing unrecorded entered the game: the state is that of the last recorded event.
    with EventLog.open(store.path, readonly=True) as log:
        recorded = log.last_seq()
    assert table.loop.seq == recorded and recorded >= seq
    assert view["hand"]["seats"] == before["seats"]
    res = table.client.post("/api/seats/1/declare", json={"call": "claim"},
                            headers=table.seat(1))
    assert res.status_code == 503


def test_garbage_events_are_refused_and_recorded_without_harm(table: Table) -> None:
    table.play_until(in_play)
    view = table.loop.public_view()["hand"]
    for event in ({"move": {"tile": "zz", "from": "wall", "to": "rack:1"}},
                  {"nonsense": 1}, {"declare": {"seat": 9, "call": "claim"}},
                  {"move": "5b"}, {}):
        applied = table.submit(event)
        assert not applied.accepted and applied.violation is not None
    assert table.loop.public_view()["hand"]["seats"] == view["seats"]
    assert table.client.get("/api/health").json()["ok"]
    table.play_until(hand_over)  # the game goes on


def test_the_in_process_simulation_plays_hands(tmp_path: Path) -> None:
    config = Config(simulation=SimulationConfig(pace=0.0, seed=3))
    with TestClient(build(config, tmp_path / "sim", table="simulation").app) as client:
        deadline = time.time() + 30
        while time.time() < deadline and not client.get("/api/table").json()["hands"]:
            time.sleep(0.1)
        hands = client.get("/api/hands").json()["hands"]
        readers = client.get("/api/health").json()["readers"]
    assert hands and hands[0]["result"] in ("mahjong", "washout")
    assert readers["simulation"]["ok"]


def test_timer_overruns_are_recorded_by_the_loop(tmp_path: Path) -> None:
    timers = TimersConfig(enabled=True, claim_seconds=0.05, turn_seconds=0.05,
                          first_turn_seconds=0.05)
    system = build(Config(timers=timers), tmp_path / "timers")
    service = system.loop
    with TestClient(system.app) as client:
        t = Table(client, system)
        t.play_until(lambda v: in_play(v) and v["hand"]["timers"]["turn_deadline"] is not None)
        view = client.get("/api/table").json()
        assert view["session"]["timers"] and view["service"]["turn_seconds"] == 0.05
        deadline, timer = time.time() + 5, []
        while time.time() < deadline and not timer:  # nobody plays on: the turn overruns
            time.sleep(0.05)
            with EventLog.open(service.data_dir / "events.sqlite", readonly=True) as log:
                timer = [r for r in log.records(service.session_id) if r.source == "timer"]
    assert timer and timer[0].accepted and timer[0].event["timer"]["kind"] == "turn"
    assert timer[0].event["timer"]["overrun"] >= 0
