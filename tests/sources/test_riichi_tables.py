"""Riichi played by the simulated players (issue 23): through the whole hardware path (the dora
pad read like any zone), and hanchan after hanchan (`serve --simulate --ruleset riichi`)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.app import build
from controller.config import Config, SessionConfig, SimulationConfig
from controller.sources.virtual import SimOptions, virtual_table_source
from controller.tiles import ALL_CODES

START = 30_000


def _until(client: TestClient, check: Any, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    view: dict[str, Any] = {}
    while time.monotonic() < deadline:
        view = client.get("/api/table").json()
        if check(view):
            return view
        time.sleep(0.05)
    raise AssertionError(f"not reached in {timeout} s: {view.get('hand')}")


def _named_tiles(obj: Any) -> set[str]:
    """Every tile code named anywhere in a JSON value (keys and strings)."""
    text = json.dumps(obj)
    return {c for c in ALL_CODES if f'"{c}"' in text}


def test_serve_simulate_plays_riichi_through_the_hardware_path(tmp_path: Path) -> None:
    """The first hand: the indicators came through the pad's reader as moves wall -> dora;
    the points are 30,000 each plus the nets, less the deposits left on the table. Seed 12:
    the dealer's riichi and win from the wall (an indicator and an ura indicator through the
    pad), 161 events with the table cleared (seed 5: a win from the wall, 346)."""
    system = build(Config(session=SessionConfig(ruleset="riichi")), tmp_path,
                   sources={"table": virtual_table_source(SimOptions(seed=12))})
    with TestClient(system.app) as client:
        view = _until(client, lambda v: len(v["hands"]) >= 1, timeout=300.0)
        record = view["hands"][0]
        riichi = view["riichi"]
        assert view["session"]["ruleset"] == "riichi"
        assert 1 <= len(record["dora_indicators"]) <= 5
        left = record.get("riichi_sticks", 0) + len(record["riichi"])
        if record["result"] == "mahjong":
            left = 0
        assert sum(record["net"].values()) == -1000 * left
        assert record["points"] == {p: START + record["net"][p] for p in record["net"]}
        assert riichi["honba"] in (0, 1)
        assert view["hand"]["last_violation"] is None
        # the table's own places rank the hanchan by result (RULES.md 11), provisional while
        # under way: the deposits stay on the table, the uma of the places as they stand
        got = client.get("/api/hands").json()
        places = got["places"]
        assert not got["finished"] and [p["place"] for p in places] == sorted(
            p["place"] for p in places)
        for place in places:
            assert place["final_points"] == START + place["score"] and place["points"] is None
            tied = sum(1 for q in places if q["final_points"] == place["final_points"])
            first = place["place"] - 1  # tied seats share the uma of the places they hold
            assert place["uma"] == sum((15, 5, -5, -15)[first:first + tied]) / tied
            assert place["result"] == pytest.approx(place["score"] / 1000 + place["uma"])
        if record["result"] == "washout":  # only "tenpai"/"noten", never a tile of a rack
            details = view["hand"]["result"]["details"]
            assert not _named_tiles(details)
            assert set(riichi["tenpai"].values()) <= {"tenpai", "noten"}


def test_serve_simulate_plays_hanchan_after_hanchan(tmp_path: Path) -> None:
    """The players' first hanchan ends after the south round; a new session of riichi
    follows by itself (the in-process players, at full speed)."""
    sim = SimulationConfig(pace=0.0, seed=2)
    system = build(Config(session=SessionConfig(ruleset="riichi"), simulation=sim), tmp_path,
                   table="simulation")
    with TestClient(system.app) as client:
        first = system.loop.session_id
        deadline = time.monotonic() + 600.0
        over: dict[str, Any] | None = None
        while time.monotonic() < deadline and system.loop.session_id == first:
            view = client.get("/api/table").json()
            if view["session"]["game_over"]:
                over = view
            time.sleep(0.02)
        assert system.loop.session_id != first, "no second hanchan began"
        view = _until(client, lambda v: v["session"]["ruleset"] == "riichi"
                      and v["session"]["active"], timeout=60.0)
        assert view["riichi"]["honba"] == 0 and view["riichi"]["final"] is None
    if over is not None:  # seen between the two: the first one's final
        final = over["riichi"]["final"]
        assert sum(final["points"].values()) == 4 * START
        assert sorted(final["uma"].values()) in ([-15, -5, 5, 15],) or len(
            set(final["points"].values())) < 4
        assert over["hands"][-1]["prevailing_wind"] == "south"
