"""Tournament rounds at a table (the simulated players play): the round's players are seated by
name, at time-up the hand in play is played out and the session ends; the next round starts a
new session."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.app import build
from controller.club.rounds import RoundKeeper, round_source
from controller.config import Config
from controller.sources.simulation import simulation_source
from controller.store import EventLog
from tests.waiting import until

SEATING = {"green": ["Ann", "Bo", "Cai", "Dee"], "blue": ["Eve", "Fay", "Gus", "Hal"]}


def test_a_round_seats_its_players_and_ends_after_the_hand_in_play(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Time-up comes when the test moves the table's clock past the round's end (once the
    round's names show), not a wall-clock second after the round began: on a busy host the
    keeper's turn could come after such a second, and the round would be over before it began."""
    skipped = [0.0]  # seconds the table's clock has been moved on
    caplog.set_level(logging.INFO, logger="controller.club.rounds")

    def clock() -> float:
        return time.time() + skipped[0]

    club = SimpleNamespace(table="green", round=None)
    system = build(Config(), tmp_path / "data", clock=clock, sources={
        "simulation": simulation_source(0.0, 3), "club-rounds": round_source(club, every=0.05)})
    loop = system.loop
    with TestClient(system.app) as client:
        now = loop.clock()
        club.round = {"round": 1, "started": now, "ends_at": now + 3600.0, "seating": SEATING}
        until(lambda: client.get("/api/table").json()["names"]["4"] == "Dee")
        until(lambda: loop.state.hand is not None, what="a hand dealt")
        skipped[0] += 3600.0  # time is up: the hand in play is played out, then the session ends
        until(lambda: not loop.session_active)
        first = client.get("/api/sessions").json()["sessions"][0]
        assert first["ended"] is not None and first["hands"] >= 1
        detail = client.get(f"/api/sessions/{first['session']}").json()
        assert detail["hands"][-1]["names"] == {"1": "Ann", "2": "Bo", "3": "Cai", "4": "Dee"}
        # every hand the session counts was played out (a hand dealt after the last one is void)
        assert all(hand["result"] in ("mahjong", "washout") for hand in detail["hands"])
        now = loop.clock()
        club.round = {"round": 2, "started": now, "ends_at": now + 3600.0,
                      "seating": {"green": ["Hal", "Ann", "Gus", "Bo"]}}
        until(lambda: len(client.get("/api/sessions").json()["sessions"]) == 2)
        until(lambda: client.get("/api/table").json()["names"]["1"] == "Hal",
              what="round 2's seating at the table",
              status=lambda: (client.get("/api/table").json()["names"], loop.session_active,
                              loop.state.hand.phase if loop.state.hand else None))
        skipped[0] += 3600.0
        until(lambda: not loop.session_active)
    # what the operator reads in the table's log: each round's session begun and ended
    said = [r.getMessage() for r in caplog.records if r.name == "controller.club.rounds"]
    assert [x for x in said if x.startswith("round ")][-3:] == [
        "round 1: time is up and the hand is over: session ended",
        "round 2: a new session",
        "round 2: time is up and the hand is over: session ended"]
    assert not any(x.startswith("round keeper:") for x in said)
    # the names were given by the club's rounds: the log says so for each player event
    with EventLog.open(tmp_path / "data" / "events.sqlite", readonly=True) as log:
        sources = {r.source for info in log.sessions() for r in log.records(info.id)
                   if "player" in r.event}
    assert sources == {"club"}


def test_a_session_started_just_before_time_up_gets_the_round_s_names() -> None:
    """The keeper started the round's session, and its next turn came after the round's end
    (a one-second round on a busy host): the names are given all the same, then the session
    ends (no hand had begun). Before, time-up skipped the seating and the session ran nameless."""
    clock = [100.0]
    keeper = RoundKeeper(lambda: clock[0])
    rnd = {"round": 2, "ends_at": 101.0, "seating": SEATING}
    empty: dict[str, Any] = {"hands": [], "hand": None, "names": {}}
    assert keeper.step(rnd, "green", empty, active=False) == ("start", None)
    clock[0] = 102.0
    action, events = keeper.step(rnd, "green", empty, active=True)
    assert action == "seat" and events[0] == {"player": {"seat": 1, "name": "Ann"}}
    assert keeper.step(rnd, "green", empty, active=True) == (
        "stop", {"between_hands": True})


def test_a_new_session_during_the_round_gets_the_round_s_names_again() -> None:
    """The operator started another session during the round: the names follow it."""
    clock = [100.0]
    keeper = RoundKeeper(lambda: clock[0])
    rnd = {"round": 1, "ends_at": 150.0, "seating": SEATING}
    view: dict[str, Any] = {"hands": [], "hand": None, "names": {}}
    assert keeper.step(rnd, "green", view, active=True, session=1)[0] == "seat"
    assert keeper.step(rnd, "green", view, active=True, session=1) == ("wait", None)
    action, events = keeper.step(rnd, "green", view, active=True, session=2)
    assert action == "seat" and [e["player"]["name"] for e in events] == SEATING["green"]


def test_the_keeper_waits_for_the_hand_in_play() -> None:
    clock = [100.0]
    keeper = RoundKeeper(lambda: clock[0])
    rnd = {"round": 1, "ends_at": 150.0, "seating": SEATING}
    playing = {"hands": [{}], "hand": {"phase": "play"}, "names": {}}
    assert keeper.step(rnd, "green", playing, active=False) == ("start", None)
    action, events = keeper.step(rnd, "green", playing, active=True)
    assert action == "seat" and events[0] == {"player": {"seat": 1, "name": "Ann"}}
    assert keeper.step(rnd, "green", playing, active=True) == ("wait", None)
    clock[0] = 151.0
    assert keeper.step(rnd, "green", playing, active=True) == ("wait", None)
    assert keeper.step(rnd, "green", playing, active=True) == ("wait", None)
    done = {"hands": [{}, {}], "hand": {"phase": "over"}, "names": {}}
    assert keeper.step(rnd, "green", done, active=True) == ("stop", {"between_hands": False})
    assert keeper.step(rnd, "green", done, active=False) == ("wait", None)


def test_time_up_between_hands_stops_only_if_no_hand_has_begun() -> None:
    clock = [100.0]
    keeper = RoundKeeper(lambda: clock[0])
    rnd = {"round": 1, "ends_at": 150.0, "seating": SEATING}
    between = {"hands": [{}], "hand": {"phase": "over"}, "names": {}}
    assert keeper.step(rnd, "green", between, active=False) == ("start", None)
    assert keeper.step(rnd, "green", between, active=True)[0] == "seat"
    clock[0] = 151.0
    assert keeper.step(rnd, "green", between, active=True) == ("stop", {"between_hands": True})
