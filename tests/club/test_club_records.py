"""The club's records one by one, without a broker (written from the mutation run of issue 29,
docs/testing.md): the store's sessions, penalties, seat-holder corrections, roster, settings
and table list (store.py's docstring and docs/club.md: each fact once, in order, keyed by
table, session and number or index; a table offline after 75 s without a word), and the pages'
numbers in test_club_standings.py and test_club_tournament.py)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from controller.club import store
from controller.club.store import ClubStore
from tests.club.fake_time import FakeTime

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
    clock = FakeTime(1000.0)
    monkeypatch.setattr(store, "time", clock)
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
    clock.now = 2000.0
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


def test_a_fact_is_the_same_whatever_its_signature_or_key_order(tmp_path: Path) -> None:
    db = ClubStore(tmp_path / "club.sqlite")
    fact = {**_hand(8, 1, [30, -10, -10, -10]), "sig": "made with the old key"}
    assert db.apply_fact("t", fact) == "applied"
    again = dict(reversed(list({**fact, "sig": "made with the new key"}.items())))
    assert db.apply_fact("t", again) == "duplicate"
    assert db.last_pos("nobody") == 0 and db.closed is False
    db.close()
    assert db.closed is True


def test_a_fact_that_fails_half_way_changes_nothing(tmp_path: Path) -> None:
    db = ClubStore(tmp_path / "club.sqlite")
    with pytest.raises(ValueError):
        db.apply_fact("t", {**_hand(8, 1, [0] * 4), "session": "one"})
    assert db.last_pos("t") == 0 and db.hands() == []
    assert db.apply_fact("t", _hand(8, 1, [0] * 4)) == "applied"  # no transaction left open


def test_a_hand_is_read_back_with_its_table_and_when_it_came(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "time", FakeTime(1234.5))
    db = ClubStore(tmp_path / "club.sqlite")
    db.apply_fact("green", {**_hand(8, 1, [0] * 4), "table": "green", "sig": "s"})
    (hand,) = db.hands()
    assert (hand["table"], hand["session"], hand["number"], hand["received"]) == (
        "green", 1, 1, 1234.5)
    end = {**_fact(16, "session_end", ended=9.0), "table": "green"}
    db.apply_fact("green", _fact(16, "session_start", started=1.0))
    db.apply_fact("green", {**end, "pos": 24, "prev": 16})
    summary = db.sessions()[0]["summary"]
    assert "table" not in summary and "prev" not in summary and summary["ended"] == 9.0


def test_a_correction_skips_what_it_cannot_place_and_goes_on(tmp_path: Path) -> None:
    db = ClubStore(tmp_path / "club.sqlite")
    db.apply_fact("t", _hand(8, 1, [0] * 4))
    db.apply_fact("t", _hand(16, 2, [0] * 4))
    eve = {"1": "Eve"}
    fact = _fact(24, "holders", hands={"x": eve, "7": eve, "1": ["bad"], "2": eve})
    assert db.apply_fact("t", fact) == "applied"  # no penalties named: none changed
    assert [h["names"]["1"] for h in db.hands()] == ["Ann", "Eve"]


def test_kept_rows_are_kept_when_the_store_opens_again(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "club.sqlite"
    db = ClubStore(path)
    full = {"dealer": 1, "prevailing_wind": "east", "win_source": "wall", "discarder": None,
            "scores": dict.fromkeys("1234", 0),
            "winds": {"1": "east", "2": "south", "3": "west", "4": "north"},
            "payments": [], "limit_hand": None}
    # a hand that meets the schema, at the first position there is (prev 0, pos 1)
    assert db.apply_fact("t", {**_hand(1, 1, [0] * 4), **full, "prev": 0}) == "applied"
    db.apply_fact("t", _penalty(9, 1))
    db.close()
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO sessions VALUES ('t', 2, 'x' || printf('%.50d', 0), NULL, "
                     "NULL, NULL)")
    with caplog.at_level("WARNING", logger="controller.club.store"):
        again = ClubStore(path)
    assert len(again.hands()) == 1 and len(again.penalties()) == 1
    (said,) = [r.getMessage() for r in caplog.records]
    assert said.startswith("a stored row of sessions (table t) fails the schema and is set "
                           "aside: a time that is not a number: 'x0000")
    with sqlite3.connect(path) as conn:
        ((body, reason),) = conn.execute("SELECT body, reason FROM set_aside").fetchall()
    assert body == json.dumps(["x" + "0" * 50, None, None, None]).replace(", ", ",")
    assert reason == "a time that is not a number: " + repr("x" + "0" * 39)  # 40 kept
