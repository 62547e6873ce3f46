"""Issue 21's attacks, played against a real Mosquitto while two tables play: anonymously on
an open broker (the tables told --insecure-broker: only the signatures and the schema stand
in the way) and with another table's credentials on the broker the club writes (the access
rules too). Afterwards: the club holds exactly what the tables played (numbers unchanged),
nothing from the attacker is stored, both tables still play their session to the end, and the
health endpoints tell the truth (nothing died, the bad messages were set aside)."""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from controller.club import topics
from controller.club.signing import Signer
from tests.club.broker import until
from tests.club.hall import Attacker, Hall

HANDS = 3
NAMES = ("Mallory", "Eve Forged", "Trudy")


def _forged_hand(table: str, pos: int, prev: int, number: int) -> dict[str, Any]:
    return {"table": table, "session": 1, "kind": "hand", "pos": pos, "prev": prev,
            "number": number, "dealer": 1, "prevailing_wind": "east", "result": "mahjong",
            "winner": 1, "win_source": "wall", "discarder": None,
            "scores": {"1": 300000, "2": 0, "3": 0, "4": 0},
            "net": {"1": 300000, "2": -100000, "3": -100000, "4": -100000},
            "winds": {"1": "east", "2": "south", "3": "west", "4": "north"},
            "names": {"1": "Mallory", "2": None, "3": None, "4": None},
            "payments": [], "limit_hand": None}


def _attacks(hall: Hall, signer: Signer | None, target: str) -> list[tuple[str, Any, bool]]:
    """(topic, message, retained) for every attack of the issue, aimed at ``target``'s topics
    (the victim's, or the attacker's own where its credentials only allow that)."""
    last = hall.club.store.last_pos("green")
    facts, status = topics.table_topic(target, "facts"), topics.table_topic(target, "status")

    def signed(topic: str, message: dict[str, Any]) -> dict[str, Any]:
        return signer.sign(topic, message) if signer is not None else message

    deep = b'{"table":"' + target.encode() + b'","names":' + b"[" * 30000 + b"]" * 30000 + b"}"
    future = time.time() + 10**6
    rnd = {"round": 1, "started": time.time() - 7200, "ends_at": time.time() - 3600,
           "seating": {n: list(NAMES) + ["Zed"] for n in ("green", "blue")},
           "issued": future}
    return [
        (facts, signed(facts, _forged_hand(target, last + 8, last, 99)), False),
        (facts, signed(facts, {"table": target, "session": 1, "kind": "hand_undone",
                               "pos": last + 16, "prev": last, "number": 1}), False),
        (facts, signed(facts, _forged_hand(target, 10**12, last, 100)), False),
        (facts, signed(facts, {**_forged_hand(target, last + 24, last, 101),
                               "net": {"1": "lots", "2": 0, "3": 0, "4": 0}}), False),
        (topics.ROUND, signed(topics.ROUND, rnd), True),
        (topics.ROUND, {**rnd, "ends_at": "soon", "sig": "AAAA"}, True),
        (topics.ROUND, deep, True),
        (topics.ROSTER, signed(topics.ROSTER, {"players": list(NAMES), "issued": future}), True),
        (topics.table_topic("green", "resend"), {"table": "green", "after": 0,
                                                 "issued": future}, False),
        (status, deep, True),
        (status, signed(status, {"table": target, "online": True, "last_pos": 0,
                                 "at": future, "names": ["Mallory"]}), True),
        *[(facts, b'{"table":"' + target.encode() + b'","pad":"' + b"x" * 20_000_000 + b'"}',
           False) for _ in range(3)],
    ]


def _check_after(hall: Hall, tmp: Path) -> None:
    """The club's numbers are the tables' own, nothing of the attacker's is kept, every table
    played its session out, and the health pages are true."""
    for table in hall.tables.values():
        until(lambda t=table: len(t.finished()) >= HANDS, 240, f"{table.name} plays on")
        until(lambda t=table: hall.club.store.last_pos(t.name) == t.publisher.published
              and t.publisher.published > 0, 60, f"{table.name} all at the club")
        assert table.loop.session_active, f"{table.name}'s session was stopped"
        def at_club(t: Any = table) -> dict[int, Any]:
            return {h["number"]: h["net"] for h in hall.http.get(
                "/api/club/hands", params={"table": t.name}).json()}
        # a hand that just finished is published a moment later: waited for, then compared
        until(lambda t=table: at_club(t) == t.finished(), 60, f"{table.name}'s hands at the club")
        assert at_club() == table.finished()
        view = table.http.get("/api/table").json()
        assert view["round"] is None and not set(NAMES) & set(view["names"].values())
        seat = table.http.get("/api/seats/1", headers={
            "Authorization": f"Bearer {table.system.tokens.seats[1]}"})
        assert seat.status_code == 200
        health = table.http.get("/api/health").json()
        assert health["ok"] and health["club"]["receiving"] and health["club"]["restarts"] == 0
    answers = [hall.http.get(path) for path in (
        "/api/club/tables", "/api/club/hands", "/api/club/standings", "/api/club/players/Mallory",
        "/api/club/roster")]
    assert [r.status_code for r in answers] == [200, 200, 200, 404, 200]
    assert "no player called Mallory" in answers[3].text  # never seated at a table
    text = "".join(r.text for r in answers[:3] + answers[4:])
    assert not any(name in text for name in NAMES), "an invented name reached the club's pages"
    assert {t["table"] for t in answers[0].json()} <= {"green", "blue", "mallory"}
    with hall.http.websocket_connect("/ws/club") as ws:  # the club's page socket answers
        assert {t["table"] for t in ws.receive_json()["tables"]} >= set(hall.tables)
    health = hall.http.get("/api/health").json()
    assert health["ok"] and health["receiving"] and health["restarts"] == 0
    assert health["set_aside"] >= 1
    db = hall.club_dir / "club.sqlite"
    with sqlite3.connect(db) as conn:  # every table of club.sqlite, and its files' bytes
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = "
                                             "'table'")]
        stored = json.dumps([conn.execute(f"SELECT * FROM {t}").fetchall()  # noqa: S608
                             for t in names])
    assert {"hands", "penalties", "sessions", "facts", "set_aside"} <= set(names)
    assert not any(name in stored for name in NAMES) and "lots" not in stored
    raw = b"".join(p.read_bytes() for p in db.parent.glob("club.sqlite*"))
    assert not any(name.encode() in raw for name in NAMES) and b"xxxxxxxx" not in raw
    assert db.stat().st_size < 2_000_000


def _logged(caplog: pytest.LogCaptureFixture, side: str, topic: str, sender: str) -> None:
    """A set-aside message's log line names its topic and its sender (docs/club.md)."""
    lines = [r.getMessage() for r in caplog.records if r.name == "controller.club.mqtt"]
    start = f"{side} set aside a message on {topic} (sender: {sender}; "
    assert any(line.startswith(start) for line in lines), (start, lines[:20])


@contextmanager
def _evening(tmp_path: Path, caplog: pytest.LogCaptureFixture, locked: bool) -> Iterator[Hall]:
    """The hall (the broker open or locked), once both tables are heard at the club; the club's
    MQTT warnings caught for the test to read."""
    caplog.set_level(logging.WARNING, logger="controller.club.mqtt")
    hall = Hall(tmp_path, locked=locked, hands=HANDS)
    try:
        until(lambda: all(hall.club.store.last_pos(n) for n in hall.tables), 120,
              "both tables at the club")
        yield hall
    finally:
        hall.stop()


@pytest.mark.slow
def test_anonymous_attacks_on_an_open_broker_change_nothing(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with _evening(tmp_path, caplog, locked=False) as hall:
        attacker = Attacker(hall.broker.port)
        assert attacker.accepted  # the open broker lets anyone in: signatures must hold
        for topic, message, retain in _attacks(hall, None, "green"):
            attacker.send(topic, message, retain)
        # the same, signed with another enrolled table's key
        for topic, message, retain in _attacks(hall, hall.mallory.signer, "green")[:9]:
            attacker.send(topic, message, retain)
        _play_back(hall, attacker)
        attacker.stop()
        _reasons(hall, "green", ("not signed with green's key", "valid integer",
                                 "nested deeper than 6", "valid dictionary", "at most 524288",
                                 "not signed with blue's key"))
        # each table refused the forged, malformed and nested rounds and rosters (and green
        # the resend request)
        until(lambda: hall.tables["blue"].publisher.set_aside.count >= 8, 30, "blue refused")
        until(lambda: hall.tables["green"].publisher.set_aside.count >= 10, 30, "green refused")
        _logged(caplog, "the club", "mahjong/tables/green/facts", "green")
        _logged(caplog, "the table", topics.ROUND, "whoever wrote the club's topic")
        _check_after(hall, tmp_path)


@pytest.mark.slow
def test_another_tables_credentials_on_the_locked_broker_change_nothing(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with _evening(tmp_path, caplog, locked=True) as hall:
        assert not Attacker(hall.broker.port).accepted  # no anonymous client at all
        # mallory may write only its own topics: the victim's are refused by the broker,
        # its own carry the poison (signed with its own key, so only the schema stops it)
        attacker = Attacker(hall.broker.port, "mallory", _password(tmp_path), "club")
        assert attacker.accepted
        for target in ("green", "mallory"):
            for topic, message, retain in _attacks(hall, hall.mallory.signer, target):
                attacker.send(topic, message, retain)
                if not attacker.client.is_connected():  # the size limit cut it off
                    attacker.stop()
                    attacker = Attacker(hall.broker.port, "mallory", _password(tmp_path),
                                        "club")
        # taking the club's client id: the broker binds ids to user names, the club stays on
        for _ in range(10):
            again = Attacker(hall.broker.port, "mallory", _password(tmp_path), "club")
            again.stop()
        attacker.stop()
        # the broker saw mallory each time, and never closed the club's connection for another
        log = (hall.broker.dir / "mosquitto.log").read_text()
        assert log.count("as mallory (") >= 10 and "as club (" in log
        assert "Client club already connected" not in log
        _reasons(hall, "mallory", ("valid integer", "nested deeper than 6", "valid dictionary"))
        _logged(caplog, "the club", "mahjong/tables/mallory/status", "mallory")
        # the broker refused every write to the club's topics: no table had anything to refuse
        assert [t.publisher.set_aside.count for t in hall.tables.values()] == [0, 0]
        _check_after(hall, tmp_path)


def _play_back(hall: Hall, attacker: Attacker) -> None:
    """Green's own signed facts, as anyone on the open broker heard them: played back as they
    were (a duplicate: ignored), with another ``prev`` (reordered: the signature fails) and on
    blue's topic (not blue's signature)."""
    assert hall.listener is not None
    facts = topics.table_topic("green", "facts")
    heard = [json.loads(p) for t, p in hall.listener.heard if t == facts]
    assert len(heard) >= 2, "the listener heard green's facts"
    for fact in heard[:4]:
        attacker.send(facts, fact)
        attacker.send(facts, {**fact, "prev": 0})
    attacker.send(topics.table_topic("blue", "facts"), {**heard[1], "table": "blue"})


def _reasons(hall: Hall, table: str, expected: tuple[str, ...]) -> None:
    """The club sets aside messages on the table's topics (and blue's, played back there) for
    each expected reason, and for no other table."""

    def held() -> list[tuple[str, str]]:
        return [(x["topic"], x["reason"]) for x in hall.club.subscriber.set_aside.last]

    until(lambda: all(any(reason in r for _, r in held()) for reason in expected), 60,
          f"the club set aside {expected}: {held()}")
    assert all(topic.split("/")[2] in (table, "blue") for topic, _ in held()), held()


def _password(tmp: Path) -> str:
    return str(json.loads((tmp / "mallory.json").read_text())["broker_password"])
