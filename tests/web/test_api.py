"""The HTTP API against the real engine and a real SQLite store: views, history, declarations,
operator actions, and the tokens every protected route demands."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.support import Table, hand_over, in_play

POSITIONS = (1, 2, 3, 4)


def test_health_and_table_after_start(table: Table) -> None:
    health = table.client.get("/api/health").json()
    assert health["ok"] and health["accepting_moves"] and health["session_active"]
    view = table.client.get("/api/table").json()
    assert view["session"]["ruleset"] == "hua-bao" and view["session"]["active"]
    assert view["service"]["halted"] is None
    assert view["players"] == {"1": "Seat 1", "2": "Seat 2", "3": "Seat 3", "4": "Seat 4"}


def _admin_routes(table: Table) -> list[tuple[str, str]]:
    """Every admin operation, from the app's own OpenAPI description."""
    paths = table.client.get("/openapi.json").json()["paths"]
    return [(method.upper(), path.replace("{position}", "2"))
            for path, ops in paths.items() if path.startswith("/api/admin")
            for method in ops]


def test_every_admin_action_is_refused_without_the_admin_token(table: Table) -> None:
    routes = _admin_routes(table)
    assert len(routes) >= 10
    seq = table.loop.seq
    wrong = [{}, {"Authorization": "Bearer nope"}, table.seat(1),
             {"Authorization": table.tokens.admin}]  # no "Bearer": not a bearer token
    for method, path in routes:
        for headers in wrong:
            res = table.client.request(method, path, headers=headers, json={"count": 1})
            assert res.status_code == 401, (method, path, headers.keys())
            assert "admin token" in res.json()["detail"]
            assert table.tokens.admin not in res.text
    assert table.loop.seq == seq and table.loop.session_active


@pytest.mark.parametrize("position", POSITIONS)
def test_a_seat_view_needs_that_seats_token(table: Table, position: int) -> None:
    table.play_until(in_play)
    url = f"/api/seats/{position}"
    others = [table.seat(p) for p in POSITIONS if p != position] + [table.admin(), {}]
    for headers in others:
        res = table.client.get(url, headers=headers)
        assert res.status_code == 401 and f"seat {position}" in res.json()["detail"]
        assert "hand" not in res.json()
    own = table.client.get(url, headers=table.seat(position)).json()
    public = own["table"]["hand"]["seats"][str(position)]
    assert own["position"] == position
    assert len(own["hand"]) == public["rack_count"]
    assert sorted(own["hand"]) == sorted(table.loop.seat_view(position)["hand"])


def test_seat_declarations_need_the_token_and_refusals_name_the_rule(table: Table) -> None:
    table.play_until(in_play)
    res = table.client.post("/api/seats/3/declare", json={"call": "mahjong"},
                            headers=table.seat(2))
    assert res.status_code == 401
    seq = table.loop.seq
    res = table.client.post("/api/seats/3/declare", json={"call": "mahjong"},
                            headers=table.seat(3))
    assert res.status_code == 409
    body = res.json()
    assert body["violation"]["rule"] == "mahjong_incomplete_hand"
    assert "mahjong_incomplete_hand" in body["detail"]
    assert table.loop.seq == seq + 1  # refused, and recorded as a violation


@pytest.mark.parametrize(
    ("body", "needle"),
    [({"call": "pung"}, "call"), ({}, "call"), ({"call": "ready", "x": 1}, "x")],
)
def test_malformed_declarations_are_422_naming_the_field(
    table: Table, body: dict[str, Any], needle: str
) -> None:
    res = table.client.post("/api/seats/1/declare", json=body, headers=table.seat(1))
    assert res.status_code == 422
    assert needle in res.text


def test_unknown_seat_is_refused(table: Table) -> None:
    assert table.client.get("/api/seats/5", headers=table.seat(1)).status_code in (401, 422)
    assert table.client.get("/api/seats/0").status_code in (401, 422)


def test_undo_takes_back_the_last_event(table: Table) -> None:
    view = table.play_until(lambda v: in_play(v) and (v["hand"]["live_wall"] or 0) < 60)
    before = {p: s["concealed_count"] for p, s in view["hand"]["seats"].items()}
    table.step()
    res = table.client.post("/api/admin/undo", json={"count": 1}, headers=table.admin())
    assert res.status_code == 200 and res.json()["accepted"]
    after = table.client.get("/api/table").json()["hand"]
    assert {p: s["concealed_count"] for p, s in after["seats"].items()} == before
    assert after["live_wall"] == view["hand"]["live_wall"]


def test_washout_ends_the_hand_and_shows_every_hand(table: Table) -> None:
    table.play_until(in_play)
    res = table.client.post("/api/admin/end-hand", json={"result": "washout"},
                            headers=table.admin())
    assert res.status_code == 200
    view = table.client.get("/api/table").json()
    assert view["hand"]["phase"] == "over" and view["hand"]["result"]["result"] == "washout"
    details = view["hand"]["result"]["details"]
    for p in POSITIONS:
        assert sorted(details[str(p)]["hand"]) == sorted(table.loop.seat_view(p)["hand"])
    hands = table.client.get("/api/hands").json()
    assert [h["result"] for h in hands["hands"]] == ["washout"]
    assert table.client.get("/api/hands/1").json()["net"] == {str(p): 0 for p in POSITIONS}
    res = table.client.get("/api/hands/2")
    assert res.status_code == 404 and "hand 2" in res.json()["detail"]


def test_reassign_validates_its_zone(table: Table) -> None:
    res = table.client.post("/api/admin/reassign", headers=table.admin(),
                            json={"zone": "rack:9", "tile": "5b", "as": "6b"})
    assert res.status_code == 422 and "zone" in res.text


def test_stop_and_start_sessions(table: Table) -> None:
    res = table.client.delete("/api/admin/session", headers=table.admin())
    assert res.status_code == 200 and not res.json()["session"]["active"]
    res = table.client.post("/api/seats/1/declare", json={"call": "ready"},
                            headers=table.seat(1))
    assert res.status_code == 409 and "no session" in res.json()["detail"]
    res = table.client.post("/api/admin/session", headers=table.admin(),
                            json={"ruleset": "swedish", "options": {}})
    assert res.status_code == 200
    view = res.json()
    assert view["session"]["active"] and view["session"]["ruleset"] == "swedish"
    res = table.client.post("/api/admin/session", headers=table.admin(),
                            json={"ruleset": "swedish", "options": {"no_such_option": 1}})
    assert res.status_code == 409 and "no_such_option" in res.json()["detail"]


def test_seat_link_and_qr_code(table: Table) -> None:
    link = table.client.get("/api/admin/seats/3/link", headers=table.admin()).json()["url"]
    assert link.endswith(f"/seat/3#token={table.tokens.seats[3]}")
    res = table.client.get("/api/admin/seats/3/qr.svg", headers=table.admin())
    assert res.status_code == 200 and res.headers["content-type"].startswith("image/svg+xml")
    assert res.text.lstrip().startswith("<svg") and "viewBox" in res.text


def test_finished_hands_have_explained_scores_payments_and_statistics(table: Table) -> None:
    table.play_until(lambda v: len(v["hands"]) >= 2 and hand_over(v))
    data = table.client.get("/api/hands").json()
    assert len(data["hands"]) == 2
    totals = {p: 0 for p in ("1", "2", "3", "4")}
    for entry in data["hands"]:
        for p in totals:
            totals[p] += entry["net"][p]
        assert set(entry["details"]) == set(totals)
        if entry["result"] == "mahjong":
            winner = str(entry["winner"])
            assert entry["details"][winner]["score"]["score"] == entry["scores"][winner]
            paid = sum(p["amount"] for p in entry["payments"] if str(p["to"]) == winner)
            got = sum(p["amount"] for p in entry["payments"] if str(p["from"]) == winner)
            assert paid - got == entry["net"][winner]
            assert entry["win_source"] in ("wall", "replacement", "dealt", "discard",
                                           "robbed_kong")
    assert totals == data["totals"]
    stats = data["statistics"]
    wins = sum(1 for e in data["hands"] if e["result"] == "mahjong")
    assert sum(s["won"] for s in stats.values()) == wins
    discard_wins = sum(1 for e in data["hands"] if e.get("win_source") in ("discard",
                                                                            "robbed_kong"))
    assert sum(s["dealt_in"] for s in stats.values()) == discard_wins
    assert all(s["balance"][-1] == data["totals"][p] for p, s in stats.items())


def test_openapi_lists_the_api(table: Table) -> None:
    paths = table.client.get("/openapi.json").json()["paths"]
    for path in ("/api/health", "/api/table", "/api/hands", "/api/hands/{number}",
                 "/api/seats/{position}", "/api/seats/{position}/declare",
                 "/api/admin/session", "/api/admin/undo"):
        assert path in paths


def test_the_new_session_form_gets_each_rule_sets_own_options(table: Any) -> None:
    """/api/rulesets: riichi offers RULES.md 11's options with the rule book's defaults and none
    of the classical ones it fixes (limit, bonus tiles, ...); a classical rule set its own."""
    sets = table.client.get("/api/rulesets").json()["rulesets"]
    assert sets["riichi"]["options"] == {
        "kazoe": "sanbaiman", "double_yakuman": False, "multiple_yakuman": False,
        "renhou": "mangan", "kiriage": False, "double_wind_pair_fu": 4, "multiple_ron": "all",
        "kuikae_allowed": False, "abortive_draws": False, "nagashi_mangan": False, "pao": True}
    assert sets["hua-bao"]["options"]["limit"] == 500 and "kazoe" not in sets["hua-bao"]["options"]
