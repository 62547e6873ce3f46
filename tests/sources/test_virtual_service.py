"""The game loop with the virtual table as its table source (`serve --simulate`)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from controller.app import build
from controller.config import Config, SessionConfig
from controller.sources.virtual import SimOptions, virtual_table_source


def _until(client: TestClient, check: Any, timeout: float = 240.0) -> dict[str, Any]:
    """Poll the table until ``check``; ``timeout`` is only where the test gives up: with both
    cores busy and a load average of 30-50 the first deal (53 tiles, each read twice by its
    board over the serial path) took 60-180 s (issue 22's loaded runs), as in
    test_corrections_virtual.py."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = client.get("/api/table").json()
        if check(view):
            return view
        time.sleep(0.05)
    raise AssertionError(f"not reached in {timeout} s: {view.get('hand')}")


def _playing(view: dict[str, Any]) -> bool:
    hand = view.get("hand") or {}
    return hand.get("phase") == "play"


def test_seat_calls_and_corrections_reach_the_game_while_simulated_players_play(
        tmp_path: Path) -> None:
    """No blanket refusal: a seat's call and an operator's undo are the game's to answer
    (tests/sources/test_corrections_virtual.py plays corrections through to the hand's end)."""
    system = build(Config(session=SessionConfig(ruleset="hua-bao")), tmp_path,
                   sources={"table": virtual_table_source(SimOptions(seed=3))})
    with TestClient(system.app) as client:
        _until(client, _playing)
        tokens = system.tokens
        seat = {"Authorization": f"Bearer {tokens.seats[2]}"}
        admin = {"Authorization": f"Bearer {tokens.admin}"}
        call = client.post("/api/seats/2/declare", json={"call": "mahjong"}, headers=seat)
        if call.status_code == 409:  # refused by the game's rule, recorded as a violation
            assert call.json()["violation"]["rule"] == "mahjong_incomplete_hand"
        else:
            assert call.status_code == 200 and call.json()["accepted"]
        undo = client.post("/api/admin/undo", json={"count": 1}, headers=admin)
        assert undo.status_code == 200 and undo.json()["accepted"], undo.text
        enrollment = client.get("/api/admin/enrollment", headers=admin).json()
        assert enrollment["enrolled"] == 0  # the physical table's registry: untouched
        assert "the virtual table brings its own tagged set" in enrollment["note"]
        seq = client.get("/api/table").json()["seq"]
        _until(client, lambda v: v["seq"] > seq + 5)  # the players play on


def test_a_new_session_with_another_rule_set_is_played_on_the_virtual_table(
        tmp_path: Path) -> None:
    system = build(Config(session=SessionConfig(ruleset="hua-bao")), tmp_path,
                   sources={"table": virtual_table_source(SimOptions(seed=4))})
    with TestClient(system.app) as client:
        _until(client, _playing)
        admin = {"Authorization": f"Bearer {system.tokens.admin}"}
        started = client.post("/api/admin/session", headers=admin,
                              json={"ruleset": "swedish", "options": {}})
        assert started.status_code == 200, started.text
        view = _until(client, lambda v: v["session"]["ruleset"] == "swedish" and _playing(v)
                      and (v["hand"]["live_wall"] or 0) < 125)
        assert view["hand"]["live_wall"] <= 130  # 144 tiles: 130 drawable
        assert system.loop.status().readers.get("virtual-table", {}).get("ok", True)
        assert view["hand"]["last_violation"] is None


def test_serve_simulate_plays_mcr_through_the_hardware_path(tmp_path: Path) -> None:
    """`serve --simulate --ruleset mcr`: the first hand is won with 8 fans or more, shown as
    fans (the score's unit), and settled to a zero sum. Seed 21: won on a discard with 10
    fans, 206 events with the table cleared (seed 5: won from the wall, 282)."""
    system = build(Config(session=SessionConfig(ruleset="mcr")), tmp_path,
                   sources={"table": virtual_table_source(SimOptions(seed=21))})
    with TestClient(system.app) as client:
        view = _until(client, lambda v: len(v["hands"]) >= 1, timeout=360.0)
        record = view["hands"][0]
        assert view["session"]["ruleset"] == "mcr" and record["result"] == "mahjong"
        winner = str(record["winner"])
        assert record["scores"][winner] >= 8 and sum(record["net"].values()) == 0
        assert view["penalties"] == []


def test_the_virtual_table_plays_with_its_boards_in_a_process_of_their_own(
        tmp_path: Path) -> None:
    """`[simulation] boards_apart`: the same game, the boards' frames coming from another
    process over the pseudo-terminals (as the full-path benchmark runs it)."""
    from controller.config import SimulationConfig

    sim = SimulationConfig(pace=0.0, seed=3, scan_ms=20.0, snapshot_ms=250.0,
                           boards_apart=True)
    system = build(Config(session=SessionConfig(ruleset="hua-bao"), simulation=sim), tmp_path,
                   table="virtual")
    with TestClient(system.app) as client:
        view = _until(client, lambda v: _playing(v) and (v["hand"]["live_wall"] or 99) < 70)
        assert view["hand"]["last_violation"] is None
        health = system.loop.status().readers
        assert health.get("virtual-table", {}).get("ok", True)
        assert {"seat1", "seat2", "seat3", "seat4", "centre"} <= set(health)
