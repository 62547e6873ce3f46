"""The health pages tell the truth about the club link: a club whose receiving thread dies
says ``ok: false`` until the thread is back (restarted, the message it died on never handled
twice), and a table refuses a broker that lets anyone in unless told ``--insecure-broker``
(its /api/health says so), all over a real Mosquitto."""

from __future__ import annotations

import time
from pathlib import Path

from fastapi.testclient import TestClient

from controller.app import build
from controller.club import topics
from controller.club.app import create_club_app
from controller.club.keyring import Credentials
from controller.club.service import ClubService
from controller.config import Config
from controller.web import club_link
from tests.club.broker import Mosquitto, club_login, enrol, table_publisher, until
from tests.club.hall import Attacker


class Fatal(BaseException):
    """What no handler catches (as a MemoryError deep in a library might escape one)."""


def _status(creds: Credentials, at: float) -> dict[str, object]:
    topic = topics.table_topic(creds.table, "status")
    return creds.signer.sign(topic, {"table": creds.table, "online": True, "last_pos": 0,
                                     "at": at})


def test_a_dead_receiving_thread_is_restarted_and_health_says_so(tmp_path: Path) -> None:
    path = enrol(tmp_path / "club", "green", tmp_path / "green.json")
    creds = Credentials.load(path)
    broker = Mosquitto(tmp_path / "broker", tmp_path / "club")
    broker.start()
    club = ClubService(tmp_path / "club", club_login(broker), restart_after=3.0)
    calls: list[float] = []  # each handled status's time, as the club holds it then

    def dies_once() -> None:
        status = {t["table"]: t["status"] for t in club.store.tables()}["green"]
        calls.append(status["at"])
        if len(calls) == 1:
            raise Fatal("the receiving thread dies here")

    club.subscriber.on_change = dies_once
    green = Attacker(broker.port, "green", creds.broker_password, "green")
    try:
        with TestClient(create_club_app(club)) as http:
            until(lambda: http.get("/api/health").json()["broker_connected"], 30, "connected")
            assert http.get("/api/health").json()["ok"] is True
            first = time.time()
            green.send(topics.table_topic("green", "status"), _status(creds, first))
            until(lambda: http.get("/api/health").json()["ok"] is False, 30, "ok: false")
            down = http.get("/api/health").json()
            assert down["receiving"] is False and down["restarts"] == 1
            until(lambda: http.get("/api/health").json()["ok"] is True, 60, "restarted")
            until(lambda: club.subscriber.connected, 30, "connected again")
            green.send(topics.table_topic("green", "status"), _status(creds, first + 1))
            # a third, once the second is handled: the broker delivers in order, so had the
            # first come again it would have been handled before this one (no waiting on time)
            until(lambda: first + 1 in calls, 30, "the next message handled")
            green.send(topics.table_topic("green", "status"), _status(creds, first + 2))
            until(lambda: first + 2 in calls, 30, "the third message handled")
            assert calls == [first, first + 1, first + 2]  # the first handled once
            assert http.get("/api/health").json()["restarts"] == 1
            assert [t["table"] for t in http.get("/api/club/tables").json()] == ["green"]
    finally:
        green.stop()
        broker.stop()


def test_a_table_refuses_a_broker_that_lets_anyone_in(tmp_path: Path) -> None:
    path = enrol(tmp_path / "club", "green", tmp_path / "green.json")
    broker = Mosquitto(tmp_path / "broker")  # open, as Debian ships it
    broker.start()
    publisher = table_publisher(tmp_path / "table", path, broker, poll=0.05)
    system = build(Config(), tmp_path / "table")
    club_link.attach(system.loop, publisher)
    publisher.start()
    try:
        with TestClient(system.app) as http:
            until(lambda: publisher.refused is not None and "anyone" in publisher.refused, 30,
                  "the open broker refused")
            health = http.get("/api/health").json()
            assert health["ok"] is False and "--insecure-broker" in health["club"]["refused"]
            assert not publisher.connected
    finally:
        publisher.stop()
    told = table_publisher(tmp_path / "table", path, broker, poll=0.05, insecure=True)
    told.start()
    try:
        until(lambda: told.connected, 30, "--insecure-broker connects")
        assert told.health()["ok"] and told.refused is None
    finally:
        told.stop()
        broker.stop()


def test_a_message_set_aside_is_acknowledged_and_never_brought_again(tmp_path: Path) -> None:
    """An unsigned fact is set aside and acknowledged: a club started again on its persistent
    session at the broker is not handed it again (a message never acknowledged would be)."""
    path = enrol(tmp_path / "club", "green", tmp_path / "green.json")
    creds = Credentials.load(path)
    broker = Mosquitto(tmp_path / "broker", tmp_path / "club")
    broker.start()
    green = Attacker(broker.port, "green", creds.broker_password, "green")
    facts = topics.table_topic("green", "facts")
    forged = {"table": "green", "session": 1, "kind": "session_start", "pos": 8, "prev": 0,
              "ruleset": "hua-bao", "options": {}, "started": 1.0}
    try:
        first = ClubService(tmp_path / "club", club_login(broker))
        with TestClient(create_club_app(first)) as http:

            def heard() -> bool:  # a fresh status until the club's subscription is in place
                green.send(topics.table_topic("green", "status"), _status(creds, time.time()))
                return bool(http.get("/api/club/tables").json())

            until(heard, 60, "the club subscribed")
            green.send(facts, forged)  # not signed
            until(lambda: http.get("/api/health").json()["set_aside"] == 1, 60, "set aside")
        again = ClubService(tmp_path / "club", club_login(broker))
        with TestClient(create_club_app(again)) as http:
            until(lambda: again.subscriber.connected, 30, "connected again")
            at = time.time()
            green.send(topics.table_topic("green", "status"), _status(creds, at))
            # the session kept the subscription: its unacknowledged messages come first
            until(lambda: [t["at"] for t in http.get("/api/club/tables").json()] == [at], 60,
                  "the status after the restart taken")
            health = http.get("/api/health").json()
            assert health["set_aside"] == 0
            assert again.store.last_pos("green") == 0
    finally:
        green.stop()
        broker.stop()
