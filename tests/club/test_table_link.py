"""The table's side of the club link over a real Mosquitto: its receiving thread (the one that
takes the club's round, roster and resend requests) killed by a fault at paho's own message
boundary is restarted, the table's /api/health says ``ok: false`` while it is down and true
after, the message it died on is set aside when the broker brings it again, and the table goes
on delivering its facts; and the log says "connecting" at the start and "lost" only once a
connection existed."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
import pytest
from fastapi.testclient import TestClient

from controller.club import topics
from controller.club.app import create_club_app
from controller.club.service import ClubService
from controller.web import club_link
from tests.club.broker import Mosquitto, club_login, enrol, table_publisher, until
from tests.web.support import Table, hand_over

POISON = ["Fault Line"]  # the roster whose handling meets the fault


def _inject_fault(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """paho's ``Client._handle_on_message`` (where paho's network thread hands a message to
    the user's callback) raises for the roster that lists only POISON, as a fault in the
    library would: below everything the project's own code catches."""
    original = paho.Client._handle_on_message
    hits: list[str] = []

    def faulty(client: paho.Client, message: paho.MQTTMessage) -> None:
        if message.topic == topics.ROSTER and json.loads(message.payload).get(
                "players") == POISON:
            hits.append(message.topic)
            raise RuntimeError("a fault injected at paho's message boundary")
        original(client, message)

    monkeypatch.setattr(paho.Client, "_handle_on_message", faulty)
    return hits


def _hands_at_club(club: ClubService) -> int:
    return len(club.store.hands("green"))


def _finished(table: Table) -> int:
    return len(table.client.get("/api/hands").json()["hands"])


def test_the_tables_receiving_thread_is_restarted_and_health_tells_the_truth(
        tmp_path: Path, table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    hits = _inject_fault(monkeypatch)
    path = enrol(tmp_path / "club", "green", tmp_path / "green.json")
    broker = Mosquitto(tmp_path / "broker", tmp_path / "club")
    broker.start()
    club = ClubService(tmp_path / "club", club_login(broker))
    publisher = table_publisher(table.system.data_dir, path, broker, poll=0.05,
                                restart_after=4.0)
    club_link.attach(table.loop, publisher)
    table.loop.subscribe(lambda _change: publisher.wake())

    def health() -> dict[str, Any]:
        answer: dict[str, Any] = table.client.get("/api/health").json()
        return answer

    try:
        with TestClient(create_club_app(club)):
            publisher.start()
            until(lambda: publisher.connected and health()["ok"], 60, "the table connected")
            table.play_until(lambda v: len(v.get("hands") or []) >= 1 and hand_over(v))
            until(lambda: _hands_at_club(club) == 1, 60, "hand 1 at the club")

            club.add_player(POISON[0], "", "")  # the club's signed, retained roster
            until(lambda: health()["ok"] is False, 60, "the table's health: ok false")
            down = health()["club"]
            assert down["receiving"] is False and down["restarts"] == 1 and hits
            until(lambda: health()["ok"] is True, 90, "restarted: ok true again")
            # on its fresh connection the broker brings the retained roster again: set aside
            # unread, so the thread did not die a second time
            until(lambda: publisher.set_aside.count >= 1, 60, "the poisoned roster set aside")
            assert "in hand when the receiving thread died" in \
                publisher.set_aside.last[-1]["reason"]
            assert health()["club"]["restarts"] == 1 and len(hits) == 1

            club.add_player("Bo", "", "")  # the next roster is taken
            until(lambda: publisher.roster == ["Bo", POISON[0]], 60, "the new roster taken")
            table.play_until(lambda v: len(v.get("hands") or []) >= 2 and hand_over(v))
            until(lambda: _hands_at_club(club) == _finished(table) == 2, 60,
                  "the table still delivers its facts")
            assert health()["ok"] is True and health()["club"]["restarts"] == 1
    finally:
        publisher.stop()
        broker.stop()


def test_the_table_says_connecting_at_start_and_lost_only_after_a_connection(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = enrol(tmp_path / "club", "green", tmp_path / "green.json")
    broker = Mosquitto(tmp_path / "broker", tmp_path / "club")  # not started yet
    (tmp_path / "table").mkdir()
    publisher = table_publisher(tmp_path / "table", path, broker, poll=0.05)
    caplog.set_level(logging.INFO, logger="controller.club.publisher")

    def said() -> list[str]:
        return [r.getMessage() for r in caplog.records
                if r.name == "controller.club.publisher"]

    publisher.start()
    try:
        until(lambda: any("does not answer yet" in x for x in said()), 60, "not yet said")
        first = said()
        assert first[0] == (f"connecting to the club broker 127.0.0.1:{broker.port} "
                            "as table green")
        assert not any("lost" in x for x in first)
        # the table's /api/health "club" part while the broker does not answer: ok (the table
        # plays on), nothing connected, received, refused, published, set aside or restarted
        assert publisher.health() == {"ok": True, "connected": False, "receiving": False,
                                      "refused": None, "published": 0, "set_aside": 0,
                                      "restarts": 0}
        broker.start()
        until(lambda: publisher.connected, 60, "connected once the broker runs")
        until(lambda: publisher.health()["receiving"], 60, "receiving once connected")
        assert publisher.health() == {"ok": True, "connected": True, "receiving": True,
                                      "refused": None, "published": 0, "set_aside": 0,
                                      "restarts": 0}
        assert any(x.startswith("connected to the club broker") for x in said())
        assert not any("lost" in x for x in said())
        not_yet = (f"the club broker 127.0.0.1:{broker.port} does not answer yet; the table "
                   "plays on and tries again every few seconds")
        assert sum(x == not_yet for x in said()) == 1  # said once, not every 5 s
        assert sum("does not answer yet" in x for x in said()) == 1
        broker.kill()
        until(lambda: any("lost the club broker" in x for x in said()), 60, "lost said")
        lines = said()
        assert lines.index(next(x for x in lines if x.startswith("connected to"))) < \
            lines.index(next(x for x in lines if "lost the club broker" in x))
    finally:
        publisher.stop()
        broker.stop()
