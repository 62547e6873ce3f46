"""The club's records one by one, without a broker (written from the mutation run of issue 29,
docs/testing.md): the store's sessions, penalties, seat-holder corrections, roster, settings
and table list (store.py's docstring and docs/club.md: each fact once, in order, keyed by
table, session and number or index; a table offline after 75 s without a word), and the pages'
numbers worked out by hand from RULES.md's 4/2/1/0 (standings.py; tournament.py's in
test_club_tournament.py)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from controller.club import standings, store
from controller.club.store import ClubStore

NAMES = {"1": "Ann", "2": "Bo", "3": "Cai", "4": "Dee"}


def _fact(pos: int, kind: str, **body: Any) -> dict[str, Any]:
    return {"session": 1, "kind": kind, "pos": pos, "prev": pos - 8, **body}


def _hand(pos: int, number: int, net: list[int], **extra: Any) -> dict[str, Any]:
    return _fact(pos, "hand", number=number, result="mahjong", winner=1,
                 net=dict(zip("1234", net, strict=True)), names=dict(NAMES), **extra)


def _penalty(pos: int, index: int, **penalty: Any) -> dict[str, Any]:
    return _fact(pos, "penalty", index=index,
                 penalty={"kind": "deduction", "hand": 1, "seat": 3, "amount": 5,
                          "names": dict(NAMES), **penalty})


# --- the store --------------------------------------------------------------------------------

def test_a_sessions_start_and_end_are_kept(tmp_path: Path) -> None:
    db = ClubStore(tmp_path / "club.sqlite")
    facts = [_fact(8, "session_start", ruleset="dmjl", started=50.0),
             _fact(16, "session_start", session=2, ruleset="mcr", started=20.0),
             _fact(24, "session_end", ended=90.0, ruleset="dmjl", hands=0)]
    for fact in facts:
        assert db.apply_fact("t", fact) == "applied"
    got = db.sessions()
    assert [(s["session"], s["started"], s["ruleset"], s["ended"]) for s in got] == [
        (2, 20.0, "mcr", None), (1, 50.0, "dmjl", 90.0)]  # by start
    assert got[0]["summary"] is None and got[0]["table"] == "t"
    # the end as sent, but the table and the prev: what identifies it in the stream
    assert got[1]["summary"] == {k: v for k, v in facts[2].items() if k != "prev"}


def test_penalties_are_kept_by_index_in_order_and_taken_back(tmp_path: Path) -> None:
    db = ClubStore(tmp_path / "club.sqlite")
    assert db.apply_fact("t", _penalty(8, 2, amount=7)) == "applied"
    assert db.apply_fact("t", _penalty(16, 1)) == "applied"
    assert db.apply_fact("u", {**_penalty(8, 1), "session": 3}) == "applied"
    assert [(p["table"], p["session"], p["index"], p["amount"]) for p in db.penalties()] == [
        ("t", 1, 2, 7), ("u", 3, 1, 5), ("t", 1, 1, 5)]  # by position
    assert db.penalties()[0]["kind"] == "deduction" and db.penalties()[0]["hand"] == 1
    assert db.apply_fact("t", _fact(24, "penalty_undone", index=2)) == "applied"
    assert [(p["table"], p["index"]) for p in db.penalties()] == [("u", 1), ("t", 1)]
    # a penalty fact with no body or no index is placed (the position moves) but stores nothing
    assert db.apply_fact("t", _fact(32, "penalty", index=3)) == "applied"
    assert db.apply_fact("t", _fact(40, "penalty", index="4", penalty={})) == "applied"
    assert len(db.penalties()) == 2 and db.last_pos("t") == 40


def test_a_hand_taken_back_is_that_hand_of_that_session_only(tmp_path: Path) -> None:
    db = ClubStore(tmp_path / "club.sqlite")
    db.apply_fact("t", _hand(8, 1, [30, -10, -10, -10]))
    db.apply_fact("t", {**_hand(16, 1, [9, -3, -3, -3]), "session": 2})
    db.apply_fact("t", _hand(24, 2, [0, 0, 0, 0]))
    db.apply_fact("t", _fact(32, "hand", number="3", net={}))  # no number: nothing stored
    db.apply_fact("t", _fact(40, "hand_undone", number=1))
    assert [(h["session"], h["number"], h["net"]["1"]) for h in db.hands()] == [
        (2, 1, 9), (1, 2, 0)]
    assert db.hands("nobody") == [] and len(db.hands("t")) == 2


def test_a_seat_holder_correction_renames_the_hands_and_penalties_it_names(
        tmp_path: Path) -> None:
    db = ClubStore(tmp_path / "club.sqlite")
    db.apply_fact("t", _hand(8, 1, [30, -10, -10, -10]))
    db.apply_fact("t", _hand(16, 2, [30, -10, -10, -10]))
    db.apply_fact("t", {**_hand(24, 2, [1, -1, 0, 0]), "session": 2})
    db.apply_fact("t", _penalty(32, 1))
    db.apply_fact("t", _penalty(40, 2))
    eve = {"1": "Eve", "3": None}
    fact = _fact(48, "holders", hands={"2": eve, "x": eve, "7": eve, "1": ["bad"]},
                 penalties={"2": eve})
    assert db.apply_fact("t", fact) == "applied"
    names = {(h["session"], h["number"]): h["names"] for h in db.hands()}
    everyone = {"1": "Eve", "2": None, "3": None, "4": None}  # a seat not named is nobody
    assert names == {(1, 1): NAMES, (1, 2): everyone, (2, 2): NAMES}
    assert [p["names"] for p in db.penalties()] == [NAMES, everyone]
    assert db.hands()[1]["net"]["1"] == 30  # nets never move, only whose they are


def test_the_roster_is_one_row_per_name_whatever_its_case(tmp_path: Path) -> None:
    db = ClubStore(tmp_path / "club.sqlite")
    db.add_player("Bo", "04120002")
    db.add_player("Ann Lee", "04120001", "Sweden")
    db.add_player("ann lee", "04120009", "")
    assert db.roster() == [{"name": "Ann Lee", "ema": "04120009", "country": ""},
                           {"name": "Bo", "ema": "04120002", "country": ""}]
    assert db.remove_player("ANN LEE") is True
    assert db.remove_player("Ann Lee") is False
    assert [p["name"] for p in db.roster()] == ["Bo"]
    with sqlite3.connect(db.path) as conn:
        conn.execute("INSERT INTO roster VALUES ('Cai', NULL, NULL)")
    assert db.roster()[1] == {"name": "Cai", "ema": "", "country": ""}


def test_settings_are_kept_as_json_and_each_change_moves_the_version(tmp_path: Path) -> None:
    db = ClubStore(tmp_path / "club.sqlite")
    assert db.get("tournament") is None and db.version == 0
    db.put("tournament", {"rounds": [1, 2]})
    db.put("tournament", {"rounds": []})
    db.put("other", 5)
    assert (db.get("tournament"), db.get("other"), db.version) == ({"rounds": []}, 5, 3)
    db.add_player("Ann")
    db.remove_player("Ann")
    db.set_status("t", {})
    db.set_online("t", False)
    assert db.version == 7
    assert db.apply_fact("t", _hand(8, 1, [0, 0, 0, 0])) == "applied" and db.version == 8
    assert db.apply_fact("t", _hand(8, 1, [0, 0, 0, 0])) == "duplicate" and db.version == 8
    assert db.apply_fact("t", _hand(24, 2, [0, 0, 0, 0])) == "gap" and db.version == 8
    hand = {k: v for k, v in _hand(16, 2, [0] * 4).items() if k not in ("pos", "prev")}
    for bad in ({"pos": "16", "prev": 8}, {"pos": 16, "prev": None}, {"prev": 8}, {"pos": 16}):
        assert db.apply_fact("t", {**hand, **bad}) == "conflict"
    assert db.version == 8 and db.last_pos("t") == 8
    reopened = ClubStore(db.path)
    assert reopened.get("tournament") == {"rounds": []}


def test_a_table_is_online_while_it_says_so_and_was_heard_within_75_s(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]

    class Clock:
        @staticmethod
        def time() -> float:
            return clock[0]

    monkeypatch.setattr(store, "time", Clock)
    db = ClubStore(tmp_path / "club.sqlite")
    db.apply_fact("kept", _hand(8, 1, [0, 0, 0, 0]))  # stored, never heard from this run
    db.set_status("blue", {"hand": 3})  # a status alone: online until its will says not
    db.set_online("amber", False)
    db.set_status("amber", {"hand": 1})  # a status does not overrule the last will
    rows = db.tables(1000.0 + 74.9)
    assert [(r["table"], r["online"], r["last_pos"], r["status"]) for r in rows] == [
        ("amber", False, 0, {"hand": 1}), ("blue", True, 0, {"hand": 3}),
        ("kept", False, 8, {})]
    assert db.tables(1000.0 + 75.0)[1]["online"] is False  # 75 s without a word
    clock[0] = 2000.0
    db.set_online("blue", True)
    assert db.tables(2050.0)[1]["online"] is True
    assert db.tables()[1]["online"] is True  # now is the clock's


def test_stored_sessions_of_the_wrong_form_are_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite"
    ClubStore(path).close()
    end = {"kind": "session_end", "session": 1, "pos": 16, "ended": 9.0, "ruleset": "dmjl",
           "hands": 1, "totals": {}, "deductions": {}, "final": {}, "names": {},
           "penalties": []}
    rows = [(1, 5, "dmjl", 9.5, json.dumps(end)), (2, 6.0, None, None, None),
            (4, 7.0, "dmjl", "late", None), (6, 8.0, "dmjl", 9.0, json.dumps({"kind": "x"}))]
    with sqlite3.connect(path) as conn:
        conn.executemany("INSERT INTO sessions VALUES ('t', ?, ?, ?, ?, ?)", rows)
    db = ClubStore(path)
    assert [s["session"] for s in db.sessions()] == [1, 2]
    assert db.sessions()[0]["summary"] == end
    with sqlite3.connect(path) as conn:
        aside = conn.execute("SELECT what, tbl, reason FROM set_aside").fetchall()
    assert [(w, t) for w, t, _ in aside] == [("sessions", "t")] * 2
    assert aside[0][2] == "a time that is not a number: 'late'"
    # what SQLite's column types let through unchanged, checked on their own
    for row in ([True, "dmjl", None, None], [1.0, "dmjl", False, None]):
        with pytest.raises(ValueError, match="^a time that is not a number: '(True|False)'$"):
            store._check_session("t", json.dumps(row))
    with pytest.raises(ValueError, match="^the rule set is not a text$"):
        store._check_session("t", json.dumps([1.0, 7, None, None]))
    store._check_session("t", json.dumps([1, None, 2.5, None]))  # whole seconds are a time


# --- the pages' numbers -------------------------------------------------------------------------

def _played(number: int, net: list[int], received: float, **extra: Any) -> dict[str, Any]:
    names = {**NAMES, "4": None}  # seat 4 anonymous: never in tonight, the league or a page
    return {"table": "t", "session": 1, "number": number, "result": "mahjong", "winner": 1,
            "net": dict(zip("1234", net, strict=True)), "names": names,
            "scores": {"1": 0, "2": 0, "3": 0, "4": 0}, "received": received, **extra}


def test_a_hands_nets_by_name_label_an_anonymous_seat_by_its_table() -> None:
    assert standings.net_by_name(_played(1, [30, -10, -10, -10], 1.0)) == {
        "Ann": 30, "Bo": -10, "Cai": -10, "Seat 4 at t": -10}
    twice = {**_played(1, [30, -10, -10, -10], 1.0), "names": {"1": "Ann", "2": "ANN"}}
    assert standings.net_by_name(twice) == {"Ann": 30, "ANN": -10, "Seat 3 at t": -10,
                                            "Seat 4 at t": -10}


def test_tonight_counts_the_hands_received_since_and_their_sessions_penalties() -> None:
    hands = [_played(1, [30, -10, -10, -10], 10.0),  # before tonight
             _played(2, [-40, 40, 0, 0], 100.0, winner=2),
             _played(3, [0, 0, 0, 0], 101.0, winner=None, result="washout")]
    penalty = {"table": "t", "session": 1, "kind": "deduction", "hand": 1, "seat": 3,
               "amount": 5, "names": NAMES}
    club = standings.Club(hands, [penalty], [])
    rows = club.tonight(since=100.0)
    assert [(r["rank"], r["name"], r["score"], r["hands"], r["won"]) for r in rows] == [
        (1, "Bo", 40, 2, 1), (2, "Cai", -5, 2, 0), (3, "Ann", -40, 2, 0)]
    assert [r["name"] for r in standings.Club(
        [_played(1, [5, 0, 0, -5], 1.0)], [], []).tonight(0.0)] == ["Ann", "Bo", "Cai"]
    assert club.tonight(since=102.0) == []
    assert standings.tonight_since(100_000.0) == 100_000.0 - 12 * 3600


def test_a_player_page_counts_wins_deal_ins_and_the_largest_hand() -> None:
    hands = [_played(1, [30, -10, -10, -10], 1.0, win_source="replacement",
                     scores={"1": 12, "2": 0, "3": 0, "4": 0}, limit_hand="heavenly"),
             _played(2, [-40, 40, 0, 0], 2.0, winner=2, win_source="robbed_kong",
                     discarder=1),
             _played(3, [50, 0, -50, 0], 3.0, win_source="dealt",
                     scores={"1": 25, "2": 0, "3": 0, "4": 0}),
             _played(4, [-8, 0, 8, 0], 4.0, winner=3, win_source="discard", discarder=1),
             _played(5, [-8, 8, 0, 0], 5.0, winner=2, win_source="wall")]
    penalty = {"table": "t", "session": 1, "index": 4, "kind": "transfer", "hand": 2,
               "names": NAMES, "payments": [{"from": 1, "to": 2, "amount": 3}]}
    page = standings.Club(hands, [penalty], [{"table": "t", "session": 1, "started": 1.0,
                                              "ended": 6.0}]).player("ANN")
    assert page["name"] == "Ann"
    assert page["statistics"] == {"won": 2, "self_drawn": 2, "dealt_in": 2, "largest": 25,
                                  "limit_hands": 1, "hands": 5}
    assert [b.get("number", b.get("penalty")) for b in page["balance"]] == [1, 2, 4, 3, 4, 5]
    assert [b["balance"] for b in page["balance"]] == [30, -10, -13, 37, 29, 21]
    (session,) = page["sessions"]
    # seats: Ann 30 - 40 + 50 - 8 - 8 - 3 = 21, Bo -10 + 40 + 8 + 3 = 41: Ann second, 2 points
    assert (session["place"], session["score"], session["hands"], session["points"]) == (
        2, 21, 5, 2.0)
    assert standings.Club(hands, [], []).player("Nobody") == {
        "name": "Nobody", "statistics": dict.fromkeys(
            ("won", "self_drawn", "dealt_in", "largest", "limit_hands", "hands"), 0),
        "sessions": [], "balance": []}


def test_a_table_card_shows_who_sits_now_with_their_score() -> None:
    hands = [_played(1, [30, -10, -10, -10], 1.0)]
    club = standings.Club(hands, [], [{"table": "t", "session": 1, "started": 1.0,
                                       "ended": None, "ruleset": "dmjl"}])
    card = standings.card(club, "t", 1, {"1": "Bo", "2": "Ann", "3": None})
    assert card["finished"] is False and [p["seat"] for p in card["places"]] == [
        "1", "2", "3", "4"]
    assert {s: (v["label"], v["score"]) for s, v in card["seats"].items()} == {
        "1": ("Bo", -10), "2": ("Ann", 30), "3": ("Seat 3 at t", 0), "4": ("Seat 4 at t", -10)}
    empty = standings.card(club, "t", None, {})
    assert empty["finished"] is False and {p["score"] for p in empty["places"]} == {0}
    unplayed = standings.card(club, "t", 2, {})  # a session the club holds nothing of
    assert [(p["seat"], p["score"], p["holders"]) for p in unplayed["places"]] == [
        (s, 0, []) for s in "1234"] and unplayed["finished"] is False
    assert (club.ruleset(("t", 1)), club.ruleset(("t", 9)), club.started(("t", 1)),
            club.started(("t", 9))) == ("dmjl", None, 1.0, None)
    done = standings.Club([{**hands[0], "game_over": True}], [], [])
    assert standings.card(done, "t", 1, {})["finished"] is True


def test_one_club_from_each_tables_own_is_the_club_of_all() -> None:
    t = [_played(1, [30, -10, -10, -10], 1.0), _played(2, [-4, 4, 0, 0], 2.0)]
    u = [{**_played(1, [0, 8, -8, 0], 1.5), "table": "u"}]
    sessions = [{"table": "t", "session": 1, "started": 2.0, "ended": 3.0},
                {"table": "u", "session": 1, "started": 1.0, "ended": 3.0}]
    whole = standings.Club(t + u, [], sessions)
    parts = standings.Club.combine([standings.Club(t, [], sessions[:1]),
                                    standings.Club(u, [], sessions[1:])])
    assert parts.league() == whole.league()
    assert [(s["table"], s["session"]) for s in whole.league()["sessions"]] == [
        ("u", 1), ("t", 1)]  # by start
    assert whole.league(keys={("t", 1)})["sessions"][0]["table"] == "t"
    assert len(whole.league(keys={("t", 1)})["sessions"]) == 1
    assert parts.tonight(0.0) == whole.tonight(0.0)
    assert parts.player("Bo") == whole.player("Bo")
    # by hand, 4/2/1/0 with ties sharing: at t Ann 26 (4), Bo -6 (2), Cai and seat 4 -10
    # (0.5 each); at u Bo 8 (4), Ann and seat 4 0 (1.5 each), Cai -8 (0)
    table = [(r["rank"], r["name"], r["sessions"], r["points"], r["score"])
             for r in whole.league()["standings"]]
    assert table == [(1, "Bo", 2, 6.0, 2), (2, "Ann", 2, 5.5, 26), (3, "Cai", 2, 0.5, -18)]



def test_the_broker_thread_writes_what_the_web_handlers_read(tmp_path: Path) -> None:
    """The store is shared: the MQTT thread applies facts, the web handlers read them."""
    import threading

    db = ClubStore(tmp_path / "club.sqlite")
    results: list[str] = []
    writer = threading.Thread(target=lambda: results.append(
        db.apply_fact("t", _hand(8, 1, [30, -10, -10, -10]))))
    writer.start()
    writer.join(timeout=120)
    assert results == ["applied"]
    assert [h["number"] for h in db.hands()] == [1] and db.last_pos("t") == 8


def test_a_finished_riichi_session_enters_the_league_by_its_results() -> None:
    """The swap of tests/club/test_club_tournament.py's riichi round: results Bo 8, Dee 5,
    Cai -6, Ann -7 (RULES.md 11, worked out there); scores are the nets."""
    swapped = {"1": "Bo", "2": "Ann", "3": "Cai", "4": "Dee"}
    hands = [{**_played(1, [8000, -8000, 0, 0], 1.0), "names": dict(NAMES)},
             {**_played(2, [0, 1000, -1000, 0], 2.0), "names": swapped},
             {**_played(3, [0, 0, 0, 0], 3.0), "names": swapped}]
    session = {"table": "t", "session": 1, "started": 0.5, "ended": 4.0, "ruleset": "riichi"}
    league = standings.Club(hands, [], [session]).league()
    assert {k: v for k, v in league["sessions"][0].items() if k != "places"} == {
        "table": "t", "session": 1, "started": 0.5, "ended": 4.0, "finished": True}
    rows = [(r["rank"], r["name"], r["sessions"], round(r["points"], 6), r["score"],
             r["result"]) for r in league["standings"]]
    assert rows == [(1, "Bo", 1, 8.0, -8000, 8.0), (2, "Dee", 1, 5.0, 0, 5.0),
                    (3, "Cai", 1, -6.0, -1000, -6.0), (4, "Ann", 1, -7.0, 9000, -7.0)]
    tonight = standings.Club(hands, [], [session]).tonight(0.0)
    assert [(r["name"], r["result"]) for r in tonight] == [
        ("Bo", 8.0), ("Dee", 5.0), ("Cai", -6.0), ("Ann", -7.0)]
