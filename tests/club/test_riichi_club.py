"""Riichi at the club (RULES.md 11): a session's places ranked by its result in thousands (the
points less 30,000, over 1,000, the uma +15/+5/-5/-15, tied places sharing it, the deposits
left to first place, 20 less per chombo); and a whole hanchan of simulated players from a
table's log through its real publisher and a real Mosquitto into the club's standings, league
and the EMA riichi export. Every expected number is worked out here from RULES.md 11."""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.club import schema
from controller.club.app import create_club_app
from controller.club.service import ClubService
from controller.game import apply, new_game, replay_summary
from controller.players.director import Director
from controller.sessions import places as pl
from controller.sessions.ledger import SessionFold
from controller.store import EventLog
from tests.club.broker import Mosquitto, club_login, enrolled_broker, table_publisher, until

WATCH = {"watch": "watch-secret"}
NAMES = ("Ann", "Bo", "Cai", "Dee")
UMA = (15, 5, -5, -15)  # RULES.md 11, places 1 to 4


def _hand(number: int, net: list[int], **extra: Any) -> dict[str, Any]:
    return {"number": number, "net": dict(zip("1234", net, strict=True)),
            "names": dict(zip("1234", NAMES, strict=True)), **extra}


def test_a_riichi_session_is_placed_by_its_result_with_the_uma() -> None:
    # hand 1: seat 1 riichi (-1,000 to the table), seat 2 wins 8,000 from seat 3 and takes the
    # stick; hand 2: seats 1 and 2 in riichi, an exhaustive draw, seat 4 alone tenpai (1,000
    # from each other) and both sticks stay on the table: the nets sum to -2,000
    hands = [_hand(1, [-1000, 9000, -8000, 0]),
             _hand(2, [-2000, -2000, -1000, 3000])]
    places = pl.session_places(hands, [], table="green", finished=True, ruleset="riichi")
    # points 27,000 / 37,000 / 21,000 / 33,000; seat 2, first, takes the 2,000 left: 39,000
    by_seat = {p["seat"]: p for p in places}
    assert {s: p["final_points"] for s, p in by_seat.items()} == {
        "1": 27_000, "2": 39_000, "3": 21_000, "4": 33_000}
    assert [p["seat"] for p in places] == ["2", "4", "1", "3"]
    # result: (points - 30,000) / 1,000 + uma
    expected = {"2": 9 + 15, "4": 3 + 5, "1": -3 - 5, "3": -9 - 15}
    assert {s: p["result"] for s, p in by_seat.items()} == expected
    assert {s: p["points"] for s, p in by_seat.items()} == expected  # what the league adds
    assert sum(p["result"] for p in places) == 0
    # under way: the deposits stay on the table, the uma as the places stand, no points yet
    going = {p["seat"]: p for p in pl.session_places(hands, [], finished=False,
                                                      ruleset="riichi")}
    assert going["2"]["result"] == 7 + 15 and going["2"]["points"] is None


def test_tied_places_share_the_uma_and_a_chombo_costs_20_after_it() -> None:
    hands = [_hand(1, [4000, 4000, -4000, -4000])]  # two first, two third
    chombo = {"kind": "chombo", "seat": 3, "amount": 20_000, "payments": [],
              "names": dict(zip("1234", NAMES, strict=True))}
    places = {p["seat"]: p for p in pl.session_places(hands, [chombo], finished=True,
                                                       ruleset="riichi")}
    # 1st and 2nd share (15 + 5) / 2 = 10; 3rd and 4th share (-5 - 15) / 2 = -10
    assert places["1"]["result"] == 4 + 10 and places["2"]["result"] == 4 + 10
    assert places["3"]["result"] == -4 - 10 - 20 and places["4"]["result"] == -4 - 10
    assert places["1"]["place"] == places["2"]["place"] == 1
    cancelled = {**chombo, "cancelled": True}
    again = {p["seat"]: p for p in pl.session_places(hands, [cancelled], finished=True,
                                                      ruleset="riichi")}
    assert again["3"]["result"] == -14


def test_other_rule_sets_keep_their_rank_points() -> None:
    places = pl.session_places([_hand(1, [30, 10, -10, -30])], [], finished=True)
    assert [p["points"] for p in places] == [4.0, 2.0, 1.0, 0.0]
    assert all("result" not in p for p in places)


# --- a whole hanchan, end to end ----------------------------------------------------------------


def _hanchan(seed: int) -> tuple[list[dict[str, Any]], Any]:
    director = Director("riichi", {}, hands=10**6, seed=seed, careful=False)
    state, events = new_game(), []
    while (event := director.next_action(state)) is not None:
        outcome = apply(state, event)
        assert outcome.accepted, outcome.violation
        state = outcome.state
        events.append(event)
        if len(events) == 1:  # the players sit down once the session has begun
            for seat, name in enumerate(NAMES, start=1):
                named = {"player": {"seat": seat, "name": name}}
                state = apply(state, named).state
                events.append(named)
    assert state.game_over
    return events, state


def _by_rule_book(hands: list[dict[str, Any]]) -> dict[str, float]:
    """Each player's result from the hands' nets alone (RULES.md 11)."""
    points = {p: 30_000 + sum(h["net"][p] for h in hands) for p in "1234"}
    left = -sum(sum(h["net"].values()) for h in hands)  # the deposits still on the table
    top = max(points.values())
    firsts = [p for p in points if points[p] == top]
    for p in firsts:
        points[p] += left // len(firsts)
    order = sorted(points.values(), reverse=True)
    assert len(set(order)) == 4, "a seed without tied places"
    return {NAMES[int(p) - 1]: (points[p] - 30_000) / 1000 + UMA[order.index(points[p])]
            for p in points}


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    yield from enrolled_broker(tmp_path, WATCH)


def test_a_riichi_hanchan_reaches_the_standings_league_and_ema_export(
        tmp_path: Path, broker: Mosquitto) -> None:
    events, state = _hanchan(seed=3)  # two of its hands are settled again by the ura
    hands = replay_summary(state)["hands"]
    expected = _by_rule_book(hands)
    assert expected == {NAMES[int(p) - 1]: r for p, r in state.rt.final["result"].items()}
    # every fact the table will send is one the club's schema takes
    fold, first_sent = SessionFold(1, "riichi", 1.0), {}
    for seq, event in enumerate(events, start=1):
        for fact in fold.feed(seq, event, 1.0):
            schema.check("fact", {"kind": fact.kind, "table": "t1", "session": 1, "pos": seq,
                                  "prev": seq - 1, **fact.body})
            if fact.kind == "hand":
                first_sent.setdefault(fact.body["number"], fact.body["net"])
    assert any(first_sent[h["number"]] != h["net"] for h in hands)  # the ura changed a hand
    (tmp_path / "t1").mkdir()
    service = ClubService(tmp_path / "club", club_login(broker))
    with TestClient(create_club_app(service)):
        service.new_tournament(list(NAMES), 1, 600, ["t1"])
        service.start_round(1, now=time.time() - 1)
        with EventLog.open(tmp_path / "t1" / "events.sqlite") as log:
            sid = log.start_session("riichi", {}, time.time())
            for event in events:
                log.append(sid, event, True, None, None, "test", time.time())
        publisher = table_publisher(tmp_path / "t1", tmp_path / "t1.json", broker, poll=0.05)
        publisher.start()
        try:
            until(lambda: len(service.store.hands("t1")) == len(hands)
                  and service.store.last_pos("t1") == publisher.published > 0, timeout=120)
        finally:
            publisher.stop()
        held = {h["number"]: h["net"] for h in service.store.hands("t1")}
        assert held == {h["number"]: h["net"] for h in hands}  # the ura re-settlements too
        got = service.standings()
        league = got["league"]["standings"]
        assert {r["name"]: r["result"] for r in league} == pytest.approx(expected)
        assert {r["name"]: r["points"] for r in league} == pytest.approx(expected)
        ranked = sorted(expected, key=lambda n: -expected[n])
        assert [r["name"] for r in league] == ranked
        assert [r["name"] for r in got["tonight"]] == ranked
        assert {r["name"]: r["result"] for r in got["tonight"]} == pytest.approx(expected)
        session = got["league"]["sessions"][0]
        assert session["finished"] and [p["place"] for p in session["places"]] == [1, 2, 3, 4]
        text = service_csv(service)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["name"] for r in rows] == ranked
    final_points = {NAMES[int(p) - 1]: v for p, v in state.rt.final["points"].items()}
    for row in rows:
        name = row["name"]
        assert float(row["result"]) == pytest.approx(expected[name])
        assert float(row["game 1 result"]) == pytest.approx(expected[name])
        assert int(row["game 1 place"]) == ranked.index(name) + 1
        assert int(row["game 1 points"]) == final_points[name]


def service_csv(service: ClubService) -> str:
    from controller.club.tournament import ema_csv

    state = service.tournament()
    assert state is not None
    return ema_csv(state["final"], "riichi")
