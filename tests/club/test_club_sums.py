"""The club's sums and records at their edges (written from the mutation run of issue 29,
seventh session; docs/testing.md "club-logic and mcr-sets, seventh session"): riichi results
added up over two sessions (RULES.md 11: (points - 30,000) / 1,000 plus the uma
+15/+5/-5/-15, tied places sharing it), the league's tie on rank points broken by score
(docs/club.md "Standings and the league"), a mixed night, an anonymous winner, one club made
of each table's own, and the store's rows read back whole. Every expected number is worked out
here by hand."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from controller.club import keyring, store, tournament
from controller.club.standings import Club
from controller.club.store import ClubStore
from tests.club.fake_time import FakeTime

FOUR = {"1": "Ann", "2": "Bo", "3": "Cai", "4": "Dee"}


def _hand(table: str, session: int, number: int, net: list[int], received: float,
          names: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {"table": table, "session": session, "number": number, "result": "mahjong",
            "winner": 1, "net": dict(zip("1234", net, strict=True)),
            "names": dict(FOUR if names is None else names),
            "scores": dict.fromkeys("1234", 0), "received": received, **extra}


def _session(table: str, session: int, started: float, ruleset: str = "dmjl",
             ended: float | None = 100.0) -> dict[str, Any]:
    return {"table": table, "session": session, "started": started, "ended": ended,
            "ruleset": ruleset}


# Two finished riichi hanchan of the same four, worked out by RULES.md 11:
# session 1: nets +8,000 / -8,000 / 0 / 0 -> 38,000, 22,000, 30,000, 30,000: Ann first
#   8 + 15 = 23; Cai and Dee tied second share (+5 - 5) / 2: 0 each; Bo last -8 - 15 = -23.
# session 2: nets 0 / +2,000 / -2,000 / 0 -> Bo first 2 + 15 = 17; Ann and Dee tied second,
#   0 each; Cai last -2 - 15 = -17.
# Summed: Ann 23, Dee 0, Bo -6, Cai -17; scores (the nets) Ann 8,000, Dee 0, Bo -6,000,
# Cai -2,000.
RIICHI_HANDS = [_hand("t", 1, 1, [8000, -8000, 0, 0], 1.0),
                _hand("t", 2, 1, [0, 2000, -2000, 0], 2.0)]
RIICHI_SESSIONS = [_session("t", 1, 0.5, "riichi"), _session("t", 2, 1.5, "riichi")]
RIICHI_SUMS = [("Ann", 23.0, 8000), ("Dee", 0.0, 0), ("Bo", -6.0, -6000),
               ("Cai", -17.0, -2000)]


def test_the_league_adds_up_each_persons_riichi_results_over_their_sessions() -> None:
    league = Club(RIICHI_HANDS, [], RIICHI_SESSIONS).league()
    assert [(r["name"], r["result"], r["score"]) for r in league["standings"]] == RIICHI_SUMS
    assert [(r["rank"], r["points"], r["sessions"]) for r in league["standings"]] == [
        (1, 23.0, 2), (2, 0.0, 2), (3, -6.0, 2), (4, -17.0, 2)]


def test_tonight_adds_up_each_persons_riichi_results_over_their_sessions() -> None:
    rows = Club(RIICHI_HANDS, [], RIICHI_SESSIONS).tonight(0.0)
    assert [(r["name"], r["result"], r["score"]) for r in rows] == RIICHI_SUMS


def test_the_league_breaks_a_tie_on_rank_points_by_score() -> None:
    """Session 1: Ann 10 (4), Cai 5 (2), Dee -5 (1), Bo -10 (0); session 2: Bo 30 (4), Cai 5
    (2), Dee -5 (1), Ann -30 (0). Ann, Bo and Cai have 4 points each: Bo (score 20), then Cai
    (10), then Ann (-20); Dee 2 points."""
    hands = [_hand("t", 1, 1, [10, -10, 5, -5], 1.0), _hand("t", 2, 1, [-30, 30, 5, -5], 2.0)]
    sessions = [_session("t", 1, 0.5), _session("t", 2, 1.5)]
    table = Club(hands, [], sessions).league()["standings"]
    assert [(r["rank"], r["name"], r["points"], r["score"]) for r in table] == [
        (1, "Bo", 4.0, 20), (2, "Cai", 4.0, 10), (3, "Ann", 4.0, -20), (4, "Dee", 2.0, -10)]


def test_a_mixed_night_ranks_a_positive_riichi_result_above_a_player_without_one() -> None:
    """A finished riichi hanchan at t: nets +14,500 / -4,500 / -5,000 / -5,000 -> 44,500,
    25,500, 25,000, 25,000: Ann 14.5 + 15 = 29.5, Bo second -4.5 + 5 = 0.5, Cai and Dee tied
    third -5 + (-5 - 15) / 2 = -15. At u (dmjl) Eve wins 50. docs/club.md: tonight ranks by
    result, then score, riichi results first: Bo's 0.5 is above Eve, whatever her score."""
    riichi = _hand("t", 1, 1, [14500, -4500, -5000, -5000], 1.0)
    other = _hand("u", 1, 1, [50, -50, 0, 0], 1.0,
                  names={"1": "Eve", "2": "Fay", "3": "Gus", "4": "Hal"})
    rows = Club([riichi, other], [], [_session("t", 1, 0.5, "riichi"),
                                      _session("u", 1, 0.5)]).tonight(0.0)
    by_name = {r["name"]: r for r in rows}
    assert (by_name["Ann"]["result"], by_name["Bo"]["result"], by_name["Cai"]["result"]) == (
        29.5, 0.5, -15.0)
    assert "result" not in by_name["Eve"] and by_name["Eve"]["score"] == 50
    names = [r["name"] for r in rows]
    assert names.index("Ann") < names.index("Bo") < names.index("Eve") < names.index("Fay")


def test_an_anonymous_seats_win_is_nobodys_win_tonight() -> None:
    hand = _hand("t", 1, 1, [-10, -10, -10, 30], 1.0, winner=4,
                 names={"1": "Ann", "2": "Bo", "3": "Cai"})
    rows = Club([hand], [], []).tonight(0.0)
    assert [(r["name"], r["score"], r["won"]) for r in rows] == [
        ("Ann", -10, 0), ("Bo", -10, 0), ("Cai", -10, 0)]


def test_a_player_page_shows_a_finished_session_and_a_win_without_its_score() -> None:
    """A hand whose ``scores`` lack the winner's seat (the schema asks for no seat in
    particular) is a win with no largest hand, not an error."""
    hand = _hand("t", 1, 1, [30, -10, -10, -10], 1.0, scores={"2": 0})
    page = Club([hand], [], [_session("t", 1, 0.5)]).player("Ann")
    assert page["sessions"][0]["finished"] is True
    assert (page["statistics"]["won"], page["statistics"]["largest"]) == (1, 0)


def test_a_session_the_club_does_not_hold_is_not_finished() -> None:
    club = Club([_hand("t", 1, 1, [0, 0, 0, 0], 1.0)], [], [_session("t", 1, 0.5)])
    assert club.is_finished(("t", 1)) is True
    assert club.is_finished(("t", 2)) is False and club.is_finished(("x", 1)) is False


def test_one_club_of_each_tables_own_keeps_every_tables_penalties() -> None:
    """The tournament's round tables read the combined club's penalties (the service)."""
    def fine(table: str) -> dict[str, Any]:
        return {"table": table, "session": 1, "kind": "deduction", "hand": 1, "seat": 2,
                "amount": 7, "names": dict(FOUR)}

    t, u = _hand("t", 1, 1, [0, 0, 0, 0], 1.0), _hand("u", 1, 1, [0, 0, 0, 0], 1.0)
    club = Club.combine([Club([t], [fine("t")], []), Club([u], [fine("u")], [])])
    assert [p["table"] for p in club.penalties] == ["t", "u"]
    tables = tournament.round_tables([t, u], club.penalties, {"t": [], "u": []},
                                     club.is_finished)
    assert {k: {p["seat"]: p["score"] for p in v["places"]}["2"] for k, v in tables.items()} == {
        "t": -7, "u": -7}


def test_a_rounds_table_takes_its_rule_set_from_the_clubs_session() -> None:
    """The service passes the club's own ``ruleset``: a riichi session's places carry results
    (RULES.md 11: session 1 above, Ann 23, Cai and Dee 0, Bo -23)."""
    club = Club(RIICHI_HANDS[:1], [], RIICHI_SESSIONS[:1])
    tables = tournament.round_tables(RIICHI_HANDS[:1], [], {"t": list(FOUR.values())},
                                     club.is_finished, club.ruleset)
    results = {p["seat"]: p["result"] for p in tables["t"]["places"]}
    assert results == {"1": 23.0, "2": -23.0, "3": 0.0, "4": 0.0}


# --- the store ------------------------------------------------------------------------------

def _fact(pos: int, **body: Any) -> dict[str, Any]:
    return {"session": 1, "kind": "hand", "pos": pos, "prev": pos - 1, "number": 1,
            "result": "washout", "winner": None, "names": dict(FOUR),
            "net": dict.fromkeys("1234", 0), **body}


def test_a_table_that_said_it_is_online_is_listed_before_its_first_status(
        tmp_path: Path) -> None:
    db = ClubStore(tmp_path / "club.sqlite")
    db.set_online("amber", True)
    rows = db.tables()
    assert [(r["table"], r["online"], r["status"], r["last_pos"]) for r in rows] == [
        ("amber", True, {}, 0)]


def test_a_hand_is_read_back_as_it_was_sent_with_its_table_and_when_it_came(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "time", FakeTime(500.0))
    db = ClubStore(tmp_path / "club.sqlite")
    fact = _fact(1, number=3, session=2)
    assert db.apply_fact("green", fact) == "applied"
    sent = {k: v for k, v in fact.items() if k != "prev"}
    assert db.hands() == [{**sent, "table": "green", "received": 500.0}]


def test_a_player_added_by_name_alone_has_no_ema_number_or_country(tmp_path: Path) -> None:
    db = ClubStore(tmp_path / "club.sqlite")
    db.add_player("Ann")
    assert db.roster() == [{"name": "Ann", "ema": "", "country": ""}]


def test_a_private_file_is_0600_before_its_text_is_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """keyring.write_private's promise: made 0600 before anything is written (the mode seen
    when its text is forced to disk), and so it stays."""
    modes: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        modes.append(os.fstat(fd).st_mode & 0o777)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    path = tmp_path / "club-keys.json"
    keyring.write_private(path, "{}\n")
    keyring.write_private(path, "{\"a\": 1}\n")
    assert modes == [0o600, 0o600]
    assert path.read_text(encoding="utf-8") == "{\"a\": 1}\n"
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["club-keys.json"]
