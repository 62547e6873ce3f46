"""Numbers by name (issue 21, "By name"): a seat named "Ann Lee" during hand 2 at the real
table (game loop, SQLite log, web API); its log folded into facts as the publisher folds it and
taken by the club's store and API. Expected numbers are summed here from the table's own hand
records (nets and the names of each hand), not from the code that makes the pages."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.club.app import create_club_app
from controller.club.mqtt import BrokerConfig
from controller.club.service import ClubService
from controller.sessions import session_facts
from controller.store import EventLog
from tests.reliability.support import free_port
from tests.web.support import Table, hand_over, in_play

ANN = "Ann Lee"


class Club:
    """The club service (no broker: facts are handed to its store in the publisher's order)."""

    def __init__(self, data_dir: Path) -> None:
        self.service = ClubService(data_dir, BrokerConfig("127.0.0.1", free_port()))
        self.client = TestClient(create_club_app(self.service))
        self.client.__enter__()
        self.pos = 0

    def take_log(self, db: Path, table: str = "green") -> None:
        """Every fact of the table's log; facts the club already holds are duplicates."""
        pos = 0
        with EventLog.open(db, readonly=True) as log:
            for info in log.sessions():
                for fact in session_facts(info, list(log.records(info.id))):
                    pos += 1
                    message = {**fact.body, "table": table, "session": fact.session,
                               "kind": fact.kind, "pos": pos, "prev": pos - 1}
                    assert self.service.store.apply_fact(table, message) in (
                        "applied", "duplicate")

    def get(self, path: str) -> Any:
        r = self.client.get(path)
        assert r.status_code == 200, r.text
        return r.json()


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    made = Club(tmp_path / "club")
    yield made
    made.client.__exit__(None, None, None)


def _number(view: dict[str, Any]) -> int:
    return int((view.get("hand") or {}).get("number") or 0)


def _anns(hands: list[dict[str, Any]]) -> tuple[list[int], int]:
    """The hands recorded with Ann at seat 1 and their nets' sum (the independent sum)."""
    mine = [h for h in hands if (h.get("names") or {}).get("1") == ANN]
    return [h["number"] for h in mine], sum(int(h["net"]["1"]) for h in mine)


def _status(club: Club, table: Table) -> None:
    """The retained status the table's publisher sends (who sits where, the session)."""
    view = table.client.get("/api/table").json()
    sid = table.client.get("/api/sessions").json()["sessions"][0]["session"]
    club.service.store.set_status("green", {"session": sid, "names": view["names"],
                                            "hand": _number(view), "phase": "play"})


def test_ann_lee_seated_during_hand_2(table: Table, club: Club) -> None:
    c, admin = table.client, table.admin()
    for seat, name in ((2, "Bo"), (3, "Cai"), (4, "Dee")):
        assert c.post("/api/admin/players", json={"seat": seat, "name": name},
                      headers=admin).status_code == 200
    table.play_until(lambda v: _number(v) == 2 and in_play(v))
    joined = c.post("/api/seats/1/player", json={"name": ANN}, headers=table.seat(1))
    assert joined.status_code == 200 and joined.json()["accepted"]
    table.play_until(lambda v: len(v.get("hands") or []) >= 3 and hand_over(v))
    board = c.get("/api/hands").json()
    numbers, score = _anns(board["hands"])
    assert numbers and 1 not in numbers  # hand 1 was played before she sat down
    anonymous = sum(int(h["net"]["1"]) for h in board["hands"] if h["names"]["1"] is None)

    # the table's board: four places, seat 1 lists each holder's part; rank points provisional
    assert len(board["places"]) == 4 and board["finished"] is False
    seat1 = next(p for p in board["places"] if p["seat"] == "1")
    parts = {h["label"]: (h["numbers"], h["score"], h["points"]) for h in seat1["holders"]}
    assert parts == {"Seat 1": ([1], anonymous, None), ANN: (numbers, score, None)}
    assert seat1["score"] == anonymous + score == board["totals"]["1"]

    # the club: every page gives Ann the same number; the session under way is provisional
    club.take_log(table.system.data_dir / "events.sqlite")
    _status(club, table)
    card = club.get("/api/club/tables")[0]
    assert card["totals"][ANN] == score and card["players"]["1"] == ANN
    assert len(card["places"]) == 4
    tonight = {r["name"]: r["score"] for r in club.get("/api/club/standings")["tonight"]}
    assert tonight[ANN] == score and "Seat 1 at green" not in tonight
    league = club.get("/api/club/standings")["league"]
    assert league["standings"] == []  # no rank points for a session under way
    assert [len(s["places"]) for s in league["sessions"]] == [4]
    page = club.get("/api/club/players/Ann Lee")
    assert [(s["score"], s["points"], s["finished"]) for s in page["sessions"]] == [
        (score, None, False)]
    assert page["statistics"]["hands"] == len(numbers)
    assert page["balance"][-1]["balance"] == score
    nobody = club.client.get("/api/club/players/Seat 1 at green")  # an anonymous seat
    assert nobody.status_code == 404 and "no player called Seat 1 at green" in nobody.text

    # the operator ends the session: the league counts it, anonymous seats stay out of it
    assert c.delete("/api/admin/session", headers=admin).status_code == 200
    club.take_log(table.system.data_dir / "events.sqlite")
    league = club.get("/api/club/standings")["league"]
    ranked = {r["name"]: r for r in league["standings"]}
    assert set(ranked) == {ANN, "Bo", "Cai", "Dee"}
    place = next(p for p in league["sessions"][0]["places"] if p["seat"] == "1")
    share = place["points"] * len(numbers) / (len(numbers) + 1)
    assert ranked[ANN]["points"] == pytest.approx(share) and ranked[ANN]["score"] == score
    assert ranked[ANN]["sessions"] == 1
    assert club.get("/api/club/players/Ann Lee")["sessions"][0]["points"] == pytest.approx(share)


def test_the_operator_says_ann_held_seat_1_from_hand_3(table: Table, club: Club) -> None:
    """The name was given during hand 2 but she sat down for hand 3: a logged correction;
    the table's board, its export and the club follow it."""
    c, admin = table.client, table.admin()
    table.play_until(lambda v: _number(v) == 2 and in_play(v))
    assert c.post("/api/admin/players", json={"seat": 1, "name": ANN},
                  headers=admin).status_code == 200
    table.play_until(lambda v: len(v.get("hands") or []) >= 3 and hand_over(v))
    assert _anns(c.get("/api/hands").json()["hands"])[0] == [2, 3]
    club.take_log(table.system.data_dir / "events.sqlite")
    fixed = c.post("/api/admin/holder", json={"seat": 1, "name": ANN, "from": 3},
                   headers=admin)
    assert fixed.status_code == 200 and fixed.json()["accepted"], fixed.text
    recent = c.get("/api/admin/recent", params={"count": 1}, headers=admin).json()
    assert recent["events"] == ["Who held a seat was corrected for hand 2"]
    board = c.get("/api/hands").json()
    numbers, score = _anns(board["hands"])
    assert numbers == [3]
    seat1 = next(p for p in board["places"] if p["seat"] == "1")
    assert {h["label"]: h["numbers"] for h in seat1["holders"]} == {"Seat 1": [1, 2],
                                                                      ANN: [3]}
    sid = c.get("/api/sessions").json()["sessions"][0]["session"]
    lines = c.get(f"/api/sessions/{sid}/export", params={"format": "jsonl"}).text
    assert '"1": "Ann Lee"' not in lines.splitlines()[2]  # hand 2's line: seat 1 anonymous
    club.take_log(table.system.data_dir / "events.sqlite")
    _status(club, table)
    held = {h["number"]: h["names"]["1"] for h in club.get("/api/club/hands")}
    assert held == {1: None, 2: None, 3: ANN}
    tonight = {r["name"]: r["score"] for r in club.get("/api/club/standings")["tonight"]}
    assert tonight[ANN] == score == club.get("/api/club/tables")[0]["totals"][ANN]
    refused = c.post("/api/admin/holder", json={"seat": 1, "name": ANN, "from": 9},
                     headers=admin)
    assert refused.status_code == 409 and "has not finished" in refused.text


def test_the_games_own_end_finishes_the_session(club: Club) -> None:
    """A game played to its end (the north round over) and never ended by the operator: its
    last hand fact says so and the league counts the session, with rank points."""
    from controller import game
    from controller.sessions import SessionFold
    from tests.game.randomgame import random_session

    events = [random_session(seed=1, hands=40)[0],
              *({"player": {"seat": p, "name": n}} for p, n in ((1, ANN), (2, "Bo"))),
              *random_session(seed=1, hands=40)[1:]]
    fold, pos, state = SessionFold(1, "hua-bao", time.time()), 0, game.new_game()
    for seq, event in enumerate(events, start=1):
        state = game.apply(state, event).state
        for fact in fold.feed(seq, event, None):
            pos += 1
            club.service.store.apply_fact("green", {**fact.body, "session": 1, "table": "green",
                                                    "kind": fact.kind, "pos": pos,
                                                    "prev": pos - 1})
        if state.game_over:
            break
    assert state.game_over
    held = club.get("/api/club/hands")
    assert [h["game_over"] for h in held] == [False] * (len(held) - 1) + [True]
    league = club.get("/api/club/standings")["league"]
    assert league["sessions"][0]["finished"] is True and league["sessions"][0]["ended"] is None
    ranked = {r["name"]: r for r in league["standings"]}
    assert set(ranked) == {ANN, "Bo"}  # seats 3 and 4 were never named
    nets = [sum(h["net"][p] for h in held) for p in "1234"]
    above = sum(1 for n in nets if n > nets[0])
    tied = sum(1 for n in nets if n == nets[0])
    assert ranked[ANN]["points"] == pytest.approx(sum((4, 2, 1, 0)[above:above + tied]) / tied)
    assert ranked[ANN]["score"] == nets[0]


def test_after_a_swap_the_table_and_the_club_show_one_number_per_person(
        table: Table, club: Club) -> None:
    """Ann plays hand 1 at seat 1, then the operator swaps seats 1 and 2: the table's seat
    head (``seated`` of /api/hands), the club's card, tonight and her page all give her whole
    session (both seats' parts), summed here from the hands' own records."""
    c, admin = table.client, table.admin()
    for seat, name in ((1, ANN), (2, "Bo")):
        assert c.post("/api/admin/players", json={"seat": seat, "name": name},
                      headers=admin).status_code == 200
    table.play_until(lambda v: len(v.get("hands") or []) >= 1 and hand_over(v))
    assert c.post("/api/admin/players/swap", json={"a": 1, "b": 2},
                  headers=admin).json()["accepted"]
    table.play_until(lambda v: len(v.get("hands") or []) >= 2 and hand_over(v))
    board = c.get("/api/hands").json()
    held = [(h["number"], p) for h in board["hands"] for p in "1234"
            if (h.get("names") or {}).get(p) == ANN]
    assert {p for _, p in held} == {"1", "2"}  # her parts at both seats
    mine = sum(int(h["net"][p]) for h in board["hands"] for n, p in held if n == h["number"])
    assert board["seated"]["2"] == {"name": ANN, "label": ANN, "score": mine}
    club.take_log(table.system.data_dir / "events.sqlite")
    _status(club, table)
    assert club.get("/api/club/tables")[0]["totals"][ANN] == mine
    tonight = {r["name"]: r["score"] for r in club.get("/api/club/standings")["tonight"]}
    assert tonight[ANN] == mine
    assert club.get("/api/club/players/Ann Lee")["sessions"][0]["score"] == mine
