"""The club service's pages, admin roster and push (controller/club/app.py) without a broker:
what club-wire's quick mutation selection reached only through the HTTP fuzz and the browser
tests (issue 29, eighth session; docs/testing.md), and a round played ranked by the service.
Expected values from docs/club.md and the files the routes serve, never from the routes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.club.app import create_club_app
from controller.club.mqtt import BrokerConfig
from controller.club.service import ClubService
from tests.reliability.support import free_port

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "controller" / "club" / "static"
TABLE_STATIC = ROOT / "controller" / "web" / "static"


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[TestClient, ClubService]]:
    # no broker listens there: the club serves what it holds and keeps trying to connect
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))
    with TestClient(create_club_app(service)) as client:
        yield client, service


def _won_by_bo(service: ClubService) -> None:
    service.store.apply_fact("green", {"kind": "session_start", "session": 1, "pos": 8,
                                       "prev": 0, "ruleset": "hua-bao", "started": 1.0})
    service.store.apply_fact("green", {
        "kind": "hand", "session": 1, "pos": 16, "prev": 8, "number": 1, "result": "mahjong",
        "winner": 2, "win_source": "wall", "discarder": None,
        "scores": {"1": 0, "2": 24, "3": 0, "4": 0},
        "net": {"1": -48, "2": 96, "3": -24, "4": -24},
        "winds": {"1": "east", "2": "south", "3": "west", "4": "north"},
        "names": {"1": "Ann", "2": "Bo", "3": None, "4": "Dee"}, "payments": []})


def test_each_page_is_its_file(club: tuple[TestClient, ClubService]) -> None:
    client, service = club
    _won_by_bo(service)
    pages = {"/": STATIC / "club.html", "/tournament": STATIC / "tournament.html",
             "/player/Bo": STATIC / "player.html", "/favicon.ico": STATIC / "favicon.svg",
             "/static/tiles.js": TABLE_STATIC / "tiles.js",
             "/static/i18n.js": TABLE_STATIC / "i18n.js"}
    for path, file in pages.items():
        r = client.get(path)
        assert (r.status_code, r.content) == (200, file.read_bytes()), path
    assert client.get("/favicon.ico").headers["content-type"] == "image/svg+xml"
    for path in ("/static/tiles.js", "/static/i18n.js"):
        assert client.get(path).headers["content-type"].startswith("text/javascript")
    # a name nobody played under: the page that says so, as a 404
    r = client.get("/player/Nobody")
    assert (r.status_code, r.content) == (404, (STATIC / "noplayer.html").read_bytes())


def test_the_tile_set_is_the_42_codes_with_their_names(
        club: tuple[TestClient, ClubService]) -> None:
    client, _ = club
    body = client.get("/api/tiles").json()
    # TABLE.md's codes: the three suits, winds, dragons, flowers and seasons
    codes = [f"{n}{s}" for s in "bcd" for n in range(1, 10)] + [
        "ew", "sw", "ww", "nw", "rd", "gd", "wd", *(f"{n}f" for n in range(1, 5)),
        *(f"{n}s" for n in range(1, 5))]
    assert sorted(body["order"]) == sorted(codes) and len(body["order"]) == 42
    assert set(body["names"]) == set(codes) and body["groups"] == {}
    assert all(isinstance(n, str) and n for n in body["names"].values())


def test_the_admin_roster_and_removing_a_player_need_the_token(
        club: tuple[TestClient, ClubService]) -> None:
    client, service = club
    admin = {"Authorization": f"Bearer {service.admin_token}"}
    for name, ema in (("Ann", "04000001"), ("Bo", "")):
        assert client.post("/api/club/roster", json={"name": name, "ema": ema, "country": "SE"},
                           headers=admin).status_code == 200
    assert client.get("/api/club/admin/roster").status_code == 401
    assert client.delete("/api/club/roster/Ann").status_code == 401
    rows = client.get("/api/club/admin/roster", headers=admin).json()["players"]
    assert [(p["name"], p["ema"], p["country"]) for p in rows] == [
        ("Ann", "04000001", "SE"), ("Bo", "", "SE")]
    r = client.delete("/api/club/roster/Cy", headers=admin)
    assert r.status_code == 404 and r.json()["detail"] == "Cy is not on the roster"
    r = client.delete("/api/club/roster/Ann", headers=admin)
    assert r.status_code == 200 and [p["name"] for p in r.json()["players"]] == ["Bo"]
    assert client.get("/api/club/roster").json()["players"] == ["Bo"]


def test_the_push_sends_the_tables_and_again_when_they_change(
        club: tuple[TestClient, ClubService]) -> None:
    client, service = club
    with client.websocket_connect("/ws/club") as ws:
        first = ws.receive_json()
        assert first == {"version": service.store.version, "tables": []}
        service.store.set_status("green", {"session": 1, "hand": 2, "names": {"1": "Ann"}})
        service._on_change()  # what the receiving thread does after storing a message
        second = ws.receive_json()  # at once, or at the push's own 10-second look at the store
        assert second["version"] == service.store.version != first["version"]
        assert [t["table"] for t in second["tables"]] == ["green"]
        assert second["tables"][0]["players"]["1"] == "Ann"


def test_the_push_starts_with_the_store_as_it_is_and_outlives_the_pages_own_messages(
        club: tuple[TestClient, ClubService]) -> None:
    """A page that connects after the store changed once still gets the tables at once (its
    first message is the store's version 1), and a message the page sends (a browser may
    ping) neither ends the push nor stops the next change from reaching it."""
    client, service = club
    assert service.store.version == 0
    service.store.set_status("green", {"session": 1, "hand": 2, "names": {"1": "Ann"}})
    with client.websocket_connect("/ws/club") as ws:
        first = ws.receive_json()
        assert first["version"] == 1
        assert [t["table"] for t in first["tables"]] == ["green"]
        ws.send_text("ping")
        service.store.set_status("blue", {"session": 3, "hand": 1, "names": {}})
        service._on_change()
        second = ws.receive_json()
        assert second["version"] == 2
        assert [t["table"] for t in second["tables"]] == ["blue", "green"]
        ws.send_text("ping")
        service.store.set_status("blue", {"session": 3, "hand": 2, "names": {}})
        service._on_change()
        assert ws.receive_json()["version"] == 3


def test_a_round_played_is_ranked_by_its_tables_places(
        club: tuple[TestClient, ClubService]) -> None:
    """docs/club.md: a round's tables give each person their place's rank points 4/2/1/0 (tied
    places share theirs) once the table's session is finished; the final ranking adds them up.
    One table: seat 2 won 96, seat 1 paid 48, seats 3 and 4 paid 24 each (tied: 1.5 each)."""
    client, service = club
    admin = {"Authorization": f"Bearer {service.admin_token}"}
    players = ["Ann", "Bo", "Cy", "Dee"]
    body = {"players": players, "rounds": 1, "minutes": 30, "tables": ["t1"]}
    assert client.post("/api/club/tournament", json=body, headers=admin).status_code == 200
    rnd = client.post("/api/club/tournament/rounds/1", headers=admin).json()
    names = {str(seat): name for seat, name in enumerate(rnd["seating"]["t1"], start=1)}
    net = {"1": -48, "2": 96, "3": -24, "4": -24}
    facts = [
        {"kind": "session_start", "session": 1, "pos": 8, "prev": 0, "ruleset": "hua-bao",
         "started": rnd["started"]},
        {"kind": "hand", "session": 1, "pos": 16, "prev": 8, "number": 1, "result": "mahjong",
         "winner": 2, "win_source": "wall", "discarder": None,
         "scores": {"1": 0, "2": 24, "3": 0, "4": 0}, "net": net,
         "winds": {"1": "east", "2": "south", "3": "west", "4": "north"}, "names": names,
         "payments": []},
        {"kind": "session_end", "session": 1, "pos": 24, "prev": 16, "ended": rnd["started"] + 60,
         "ruleset": "hua-bao", "hands": 1, "totals": net, "deductions": {}, "final": net,
         "names": names, "penalties": []}]
    for fact in facts:
        assert service.store.apply_fact("t1", fact) == "applied"
    state = client.get("/api/club/tournament").json()["tournament"]
    (played,) = state["rounds_played"]
    assert played["tables"]["t1"]["finished"] is True
    expected = [(names["2"], 4.0), *sorted([(names["3"], 1.5), (names["4"], 1.5)]),
                (names["1"], 0.0)]
    assert [(r["name"], r["table_points"]) for r in played["ranking"]] == expected
    assert [(r["name"], r["table_points"]) for r in state["final"]] == expected


def test_the_admin_token_is_asked_for_by_name_and_read_as_rfc_9110_writes_it(
        club: tuple[TestClient, ClubService]) -> None:
    """A refusal says where the token is and challenges for a Bearer token; the scheme's case
    and the spaces after it are free (RFC 9110 11.4: auth-scheme 1*SP token68)."""
    client, service = club
    r = client.get("/api/club/admin/roster")
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
    assert r.json()["detail"] == ("this needs the club's admin token (shown by `mahjong-table "
                                  "club` at start, kept in club-token.json)")
    for header in (f"bearer {service.admin_token}", f"Bearer   {service.admin_token}"):
        assert client.get("/api/club/admin/roster",
                          headers={"Authorization": header}).status_code == 200, header
    for header in (service.admin_token, f"Basic {service.admin_token}", "Bearer"):
        assert client.get("/api/club/admin/roster",
                          headers={"Authorization": header}).status_code == 401, header
