"""The club service's HTTP API: public pages and JSON, admin (roster, tournament) by token."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.club.app import create_club_app
from controller.club.mqtt import BrokerConfig
from controller.club.service import ClubService
from tests.reliability.support import free_port


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[TestClient, ClubService]]:
    # no broker listens there: the club serves what it holds and keeps trying to connect
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))
    with TestClient(create_club_app(service)) as client:
        yield client, service


def _hand(pos: int, prev: int, number: int) -> dict[str, object]:
    return {"kind": "hand", "session": 1, "pos": pos, "prev": prev, "number": number,
            "result": "mahjong", "winner": 2, "win_source": "wall", "discarder": None,
            "scores": {"1": 0, "2": 24, "3": 0, "4": 0},
            "net": {"1": -48, "2": 96, "3": -24, "4": -24},
            "winds": {"1": "east", "2": "south", "3": "west", "4": "north"},
            "names": {"1": "Ann", "2": "Bo", "3": None, "4": "Dee"}, "payments": []}


def test_tables_hands_and_standings_are_public(club: tuple[TestClient, ClubService]) -> None:
    client, service = club
    service.store.set_status("green", {"session": 1, "hand": 2, "wall": 40, "turn": 3,
                                       "turn_wind": "west", "names": {"1": "Ann", "2": "Bo"},
                                       "totals": {"1": -48, "2": 96, "3": -24, "4": -24}})
    service.store.apply_fact("green", {"kind": "session_start", "session": 1, "pos": 8,
                                       "prev": 0, "ruleset": "hua-bao", "started": 1.0})
    service.store.apply_fact("green", _hand(16, 8, 1))
    tables = client.get("/api/club/tables").json()
    assert tables[0]["table"] == "green" and tables[0]["online"] is True
    assert tables[0]["players"]["1"] == "Ann" and tables[0]["players"]["3"] == "Seat 3 at green"
    assert tables[0]["totals"]["Bo"] == 96 and tables[0]["turn_name"] == "Seat 3 at green"
    hands = client.get("/api/club/hands", params={"table": "green"}).json()
    assert [(h["table"], h["session"], h["number"], h["result"], h["winner"]) for h in hands] \
        == [("green", 1, 1, "mahjong", 2)]
    assert hands[0]["net"]["2"] == 96 and hands[0]["net_by_name"]["Bo"] == 96
    assert client.get("/api/club/hands", params={"table": "red"}).json() == []
    standings = client.get("/api/club/standings").json()
    assert standings["tonight"][0]["name"] == "Bo"
    assert client.get("/").status_code == 200
    assert client.get("/api/club/players/Bo").json()["statistics"]["won"] == 1


def test_roster_and_tournament_need_the_admin_token(club: tuple[TestClient, ClubService]
                                                    ) -> None:
    client, service = club
    admin = {"Authorization": f"Bearer {service.admin_token}"}
    assert client.post("/api/club/roster", json={"name": "Ann"}).status_code == 401
    assert client.post("/api/club/roster", json={"name": "Ann"},
                       headers={"Authorization": "Bearer wrong"}).status_code == 401
    players = [f"P{i}" for i in range(8)]
    for name in players:
        r = client.post("/api/club/roster", json={"name": name, "ema": f"0400{name}",
                                                  "country": "SE"}, headers=admin)
        assert r.status_code == 200
    assert client.get("/api/club/roster").json()["players"] == sorted(players)
    body = {"players": players, "rounds": 3, "minutes": 1, "tables": ["t1", "t2"]}
    assert client.post("/api/club/tournament", json=body).status_code == 401
    bad = client.post("/api/club/tournament", json={**body, "players": players[:6]},
                      headers=admin)
    assert bad.status_code == 409 and "multiple of 4" in bad.text
    made = client.post("/api/club/tournament", json=body, headers=admin).json()
    assert len(made["plan"]) == 3 and made["repeats"]["pairs_meeting_twice"] == 4
    assert client.post("/api/club/tournament/rounds/2", headers=admin).status_code == 409
    rnd = client.post("/api/club/tournament/rounds/1", headers=admin).json()
    assert rnd["ends_at"] - rnd["started"] == 60 and set(rnd["seating"]) == {"t1", "t2"}
    state = client.get("/api/club/tournament").json()["tournament"]
    assert len(state["rounds_played"]) == 1 and len(state["final"]) == 8
    csv_text = client.get("/api/club/tournament/ranking.csv").text
    assert csv_text.splitlines()[0] == "rank,name,EMA number,country,table points,score"
    assert "0400P" in csv_text


def test_roster_names_of_the_wrong_form_are_422(club: tuple[TestClient, ClubService]) -> None:
    client, service = club
    admin = {"Authorization": f"Bearer {service.admin_token}"}
    for name in ("", "a" * 41, "Ann\x01", 7):
        r = client.post("/api/club/roster", json={"name": name}, headers=admin)
        assert r.status_code == 422, (name, r.text)
    assert client.get("/api/club/roster").json()["players"] == []
