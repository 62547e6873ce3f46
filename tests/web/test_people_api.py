"""Names, penalties and past sessions through the API of the real service and store."""

from __future__ import annotations

import csv
import io
import json

from tests.web.support import Table, hand_over


def _hands_done(n: int):  # noqa: ANN202 - a predicate
    return lambda view: len(view.get("hands") or []) >= n and hand_over(view)


def test_names_by_seat_and_operator_appear_with_each_hands_winds(table: Table) -> None:
    c = table.client
    joined = c.post("/api/seats/1/player", json={"name": "Ann"}, headers=table.seat(1))
    assert joined.status_code == 200 and joined.json()["accepted"]
    assert c.post("/api/seats/1/player", json={"name": "Ann"}).status_code == 401
    wrong_seat = c.post("/api/seats/2/player", json={"name": "Bo"}, headers=table.seat(1))
    assert wrong_seat.status_code == 401
    for seat, name in ((2, "Bo"), (3, "Cai"), (4, "Dee")):
        r = c.post("/api/admin/players", json={"seat": seat, "name": name}, headers=table.admin())
        assert r.status_code == 200, r.text
    taken = c.post("/api/admin/players", json={"seat": 4, "name": "ann"}, headers=table.admin())
    assert taken.status_code == 409 and "already plays at seat 1" in taken.text
    table.play_until(_hands_done(1))
    swap = c.post("/api/admin/players/swap", json={"a": 1, "b": 2}, headers=table.admin())
    assert swap.status_code == 200, swap.text
    view = c.get("/api/table").json()
    assert view["players"] == {"1": "Bo", "2": "Ann", "3": "Cai", "4": "Dee"}
    first = c.get("/api/hands").json()["hands"][0]
    assert first["names"] == {"1": "Ann", "2": "Bo", "3": "Cai", "4": "Dee"}
    assert first["winds"][str(first["dealer"])] == "east"


def test_penalties_enter_the_totals_and_can_be_taken_back(table: Table) -> None:
    c = table.client
    table.play_until(_hands_done(1))
    before = c.get("/api/table").json()["totals"]
    r = c.post("/api/admin/penalty", json={"kind": "transfer", "from": 2, "to": 4, "amount": 25,
                                           "reason": "tiles shown"}, headers=table.admin())
    assert r.status_code == 200, r.text
    r = c.post("/api/admin/penalty", json={"kind": "deduction", "seat": 3, "amount": 10},
               headers=table.admin())
    assert r.status_code == 200, r.text
    view = c.get("/api/table").json()
    assert view["totals"]["2"] == before["2"] - 25 and view["totals"]["4"] == before["4"] + 25
    assert sum(view["totals"].values()) == 0
    assert view["deductions"] == {"1": 0, "2": 0, "3": 10, "4": 0}
    assert [p["kind"] for p in view["penalties"]] == ["transfer", "deduction"]
    assert view["penalties"][0]["payments"] == [{"from": 2, "to": 4, "amount": 25}]
    assert c.post("/api/admin/penalty", json={"kind": "deduction", "seat": 3}).status_code == 401
    back = c.delete("/api/admin/penalty/1", headers=table.admin())
    assert back.status_code == 200
    assert c.get("/api/table").json()["totals"] == before
    again = c.delete("/api/admin/penalty/1", headers=table.admin())
    assert again.status_code == 409


def test_past_sessions_are_listed_opened_and_exported(table: Table) -> None:
    c = table.client
    c.post("/api/admin/players", json={"seat": 1, "name": "Ann"}, headers=table.admin())
    table.play_until(_hands_done(2))
    totals = c.get("/api/table").json()["totals"]
    started = c.post("/api/admin/session", json={"ruleset": "dmjl"}, headers=table.admin())
    assert started.status_code == 200
    listed = c.get("/api/sessions").json()["sessions"]
    assert [s["ruleset"] for s in listed] == ["dmjl", "hua-bao"]
    old = listed[1]
    assert old["ended"] is not None and old["hands"] >= 2 and old["players"]["1"] == "Ann"
    assert old["totals"] == totals
    detail = c.get(f"/api/sessions/{old['session']}").json()
    assert len(detail["hands"]) == old["hands"]
    mahjong = [h for h in detail["hands"] if h["result"] == "mahjong"]
    if mahjong:  # explained scores and who paid whom
        assert mahjong[0]["payments"] and mahjong[0]["details"]
    rows = list(csv.DictReader(io.StringIO(
        c.get(f"/api/sessions/{old['session']}/export", params={"format": "csv"}).text)))
    played = [r for r in rows if r["hand"].isdigit()]
    assert [int(r["hand"]) for r in played] == [h["number"] for h in detail["hands"]]
    assert rows[0]["name_1"] == "Ann" and rows[0]["wind_1"]
    assert sum(r["hand"].startswith("place ") for r in rows) >= 4  # every holder's part
    lines = c.get(f"/api/sessions/{old['session']}/export", params={"format": "jsonl"}).text
    parsed = [json.loads(x) for x in lines.splitlines()]
    assert parsed[0]["session"]["ruleset"] == "hua-bao"
    assert parsed[-2]["totals"]["totals"] == totals
    assert len(parsed[-1]["places"]["places"]) == 4 and parsed[-1]["places"]["finished"]
    assert c.get("/api/sessions/999").status_code == 404


def test_the_clubs_round_shows_in_the_public_view(table: Table) -> None:
    from types import SimpleNamespace

    from controller.web import club_link

    now = table.loop.clock()
    link = SimpleNamespace(table="green", roster=["Ann", "Zed"],
                           round={"round": 3, "started": now - 10, "ends_at": now + 600,
                                  "seating": {"green": ["Ann", "Bo", "Cai", "Dee"]}})
    club_link.attach(table.loop, link)  # type: ignore[arg-type]
    shown = table.client.get("/api/table").json()["round"]
    assert shown["round"] == 3 and shown["seating"] == ["Ann", "Bo", "Cai", "Dee"]
    assert shown["time_up"] is False
    link.round["ends_at"] = now - 1
    assert table.client.get("/api/table").json()["round"]["time_up"] is True
    assert table.client.get("/api/roster").json()["players"] == ["Ann", "Zed"]


def test_names_and_numbers_of_the_wrong_form_are_422_and_change_nothing(table: Table) -> None:
    c = table.client
    for name in ("", "a" * 41, "Ann\x01", "Ann\nBo", 7):
        for path, body, head in (("/api/seats/1/player", {"name": name}, table.seat(1)),
                                 ("/api/admin/players", {"seat": 2, "name": name},
                                  table.admin())):
            r = c.post(path, json=body, headers=head)
            assert r.status_code == 422, (path, name, r.text)
    assert c.post("/api/admin/players", json={"seat": True, "name": "Bo"},
                  headers=table.admin()).status_code == 422
    assert c.post("/api/admin/players", json={"seat": 2, "name": None},
                  headers=table.admin()).status_code == 200  # None frees the seat
    assert c.post("/api/admin/penalty", json={"kind": "deduction", "seat": 1, "amount": True},
                  headers=table.admin()).status_code == 422
    assert c.get("/api/table").json()["players"] == {str(p): f"Seat {p}" for p in range(1, 5)}


def test_the_cli_and_the_dashboard_export_the_same_csv(table: Table, capsys) -> None:  # noqa: ANN001
    """Issue 24, one export: `export --format csv` and the dashboard's download are the same
    text (columns, order, rows); its winning facts agree with `replay --db`, the game's own
    replay of the log (another path: no catalog, no report)."""
    from controller.cli import main

    c = table.client
    c.post("/api/admin/players", json={"seat": 1, "name": "Ann"}, headers=table.admin())
    table.play_until(_hands_done(3))
    c.post("/api/admin/penalty", json={"kind": "deduction", "seat": 3, "amount": 10},
           headers=table.admin())
    assert c.post("/api/admin/session", json={"ruleset": "dmjl"},
                  headers=table.admin()).status_code == 200
    old = c.get("/api/sessions").json()["sessions"][1]["session"]
    web = c.get(f"/api/sessions/{old}/export", params={"format": "csv"}).text
    db = table.loop.data_dir / "events.sqlite"
    capsys.readouterr()
    assert main(["export", "--db", str(db), "--session", str(old), "--format", "csv"]) == 0
    assert capsys.readouterr().out == web
    header = web.splitlines()[0].split(",")
    assert header[:6] == ["session", "hand", "dealer", "prevailing_wind", "result", "winner"]
    assert header[-2:] == ["win_source", "discarder"] and "name_1" in header
    rows = [r for r in csv.DictReader(io.StringIO(web)) if r["hand"].isdigit()]
    assert main(["replay", "--db", str(db), "--session", str(old)]) == 0
    replayed = [h for h in json.loads(capsys.readouterr().out)["hands"] if h["result"]]
    assert len(rows) == len(replayed) >= 3
    for row, hand in zip(rows, replayed, strict=True):
        assert row["win_source"] == (hand["win_source"] or "")
        assert row["discarder"] == ("" if hand["discarder"] is None else str(hand["discarder"]))
        assert row["name_1"] == "Ann"
    assert any(r["hand"] == "penalty 1" and r["payments"] == "3 -10"
               for r in csv.DictReader(io.StringIO(web)))
