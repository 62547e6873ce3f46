"""The club's receiving side and its service, at the edges club-wire's mutation run left
untested (issue 29, twenty-second session; docs/club.md "The club service's log lines and
files"): a status as new as the one held, the online flag, the resend request (its topic, its
fields, QoS 1 not retained, signed, at most once every 2 s a table), a message the club fails
on (logged and set aside), a message whose topic is not UTF-8; over a real Mosquitto the
club's connection as the broker logs it (client id, persistent session, keepalive 10 s), its
log lines, the drops it counts and a fact kept for it while it was away; the service started
again after a stop, its unsigned baseline, the admin token's mode whatever the umask, the
league counted once a hand, tonight from the time asked for, the round message of a new
tournament.

Expected values come from docs/club.md, the MQTT 3.1.1 specification as Mosquitto applies it,
or the hand computations in the docstrings."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
import pytest

from controller.club import subscriber as subscriber_module
from controller.club import topics
from controller.club.keyring import Credentials, Keyring
from controller.club.mqtt import BrokerConfig
from controller.club.service import ClubService
from controller.club.signing import Signer
from controller.club.store import ClubStore
from controller.club.subscriber import ClubSubscriber
from tests.club.broker import Mosquitto, enrol, until
from tests.club.fake_time import FakeTime
from tests.club.one_hand import one_hand_session
from tests.reliability.support import free_port

STATUS = topics.table_topic("t1", "status")
ONLINE = topics.table_topic("t1", "online")
FACTS = topics.table_topic("t1", "facts")
RESEND = topics.table_topic("t1", "resend")


class Sent:
    """What the club hands its MQTT client to publish, with paho's own defaults (``qos=0``,
    ``retain=False``) for what it leaves out."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, dict[str, Any], int, bool]] = []

    def publish(self, topic: str, payload: bytes, qos: int = 0, retain: bool = False,
                properties: Any = None) -> None:
        self.messages.append((topic, json.loads(payload), qos, retain))

    def on(self, topic: str) -> list[tuple[dict[str, Any], int, bool]]:
        return [(m, q, r) for t, m, q, r in self.messages if t == topic]


def _club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tables: tuple[str, ...] = ("t1",),
          **options: Any) -> tuple[ClubSubscriber, ClubStore, dict[str, Credentials], Sent]:
    """A club with ``tables`` enrolled, its store, each table's credentials and what it
    publishes (recorded instead of sent; no broker)."""
    creds = {t: Credentials.load(enrol(tmp_path / "club", t, tmp_path / f"{t}.json"))
             for t in tables}
    store = ClubStore(tmp_path / "club.sqlite")
    club = ClubSubscriber(store, BrokerConfig("127.0.0.1", free_port()),
                          keyring=Keyring(tmp_path / "club"), **options)
    sent = Sent()
    monkeypatch.setattr(club._client, "publish", sent.publish)
    return club, store, creds, sent


def _send(club: ClubSubscriber, signer: Signer | None, topic: str,
          message: dict[str, Any]) -> int:
    """Hand the club a message as its receiving thread does; its size in bytes."""
    payload = topics.encode(signer.sign(topic, message) if signer is not None else message)
    club._on_message(topic, payload, False)
    return len(payload)


#: The log lines docs/club.md's table "The club service's log lines and files" tells the
#: operator about, as it writes them (its words in capitals stand for any text), and their
#: levels; ``test_the_log_lines_are_the_ones_docs_club_md_lists`` holds the two together.
LOG_LINES = [
    ("club service connected to HOST:PORT", "INFO"),
    ("the broker refused the club service: REASON", "WARNING"),
    ("could not keep a message on TOPIC", "ERROR"),
    ("the club set aside a message on TOPIC (sender: TABLE; N bytes): REASON", "WARNING")]


def _documented_rows() -> list[tuple[str, str]]:
    text = (Path(__file__).parents[2] / "docs" / "club.md").read_text(encoding="utf-8")
    section = text.split("### The club service's log lines and files", 1)[1].split("\n#", 1)[0]
    return [(words, level) for words, level
            in re.findall(r"^\| `([^`]+)`[^|]*\| (\w+) \|", section, re.MULTILINE)]


def test_the_log_lines_are_the_ones_docs_club_md_lists() -> None:
    assert _documented_rows() == LOG_LINES


def _as_documented(record: logging.LogRecord) -> bool:
    """Whether a log record is one of ``LOG_LINES`` at its level (the set-aside line may end
    with `` (K more since the last line)``)."""
    for words, level in LOG_LINES:
        pattern = re.sub(r"\b[A-Z]+\b", ".+", re.escape(words).replace("\\ ", " "))
        if (re.fullmatch(pattern + r"(?: \(\d+ more since the last line\))?",
                         record.getMessage())
                and record.levelno == getattr(logging, level)):
            return True
    return False


def _status(table: str, at: float, last_pos: int = 0) -> dict[str, Any]:
    return {"table": table, "online": True, "last_pos": last_pos, "session": None, "at": at}


def _start(table: str, pos: int = 8, prev: int = 0) -> dict[str, Any]:
    return {"table": table, "kind": "session_start", "session": 1, "pos": pos, "prev": prev,
            "ruleset": "hua-bao", "started": 1000.0}


# --- a status, the online flag (docs/club.md "The table's publisher") -----------------------

def test_a_status_as_new_as_the_one_held_is_taken_and_so_is_the_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"A status older than the one the club holds is refused": one with the same ``at`` is
    not older (a table repeats an unchanged status within the same clock tick), and a table's
    first status is taken whatever its time (``at`` 0.5 s after 1970 is a valid time)."""
    club, store, creds, _ = _club(tmp_path, monkeypatch)
    signer = creds["t1"].signer
    _send(club, signer, STATUS, _status("t1", 0.5))
    assert store.tables()[0]["status"]["at"] == 0.5
    _send(club, signer, STATUS, {**_status("t1", 0.5), "hand": 1})
    assert store.tables()[0]["status"] == {**_status("t1", 0.5), "hand": 1}
    assert club.set_aside.count == 0
    _send(club, signer, STATUS, _status("t1", 0.25))  # it would have been seen
    assert club.set_aside.count == 1
    store.close()


def test_the_online_message_sets_the_tables_online_flag_both_ways(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``mahjong/tables/NAME/online`` {"online": true} while the table is connected, false (its
    last will) when it drops off: the card's ``online`` follows it, nothing is set aside."""
    club, store, creds, _ = _club(tmp_path, monkeypatch)
    signer = creds["t1"].signer
    seen: list[bool] = []
    for online in (True, False, True):
        _send(club, signer, ONLINE, {"table": "t1", "online": online, "at": time.time()})
        seen.append(store.tables()[0]["online"])
    assert seen == [True, False, True]
    assert [r["table"] for r in store.tables()] == ["t1"]
    assert club.set_aside.count == 0 and club.received == 3
    store.close()


# --- the resend request (docs/club.md "The table's publisher", "Topics") ---------------------

def _resend_sent(sent: Sent, creds: Credentials, table: str = "t1") -> list[dict[str, Any]]:
    """The resend requests sent to ``table``, each checked: QoS 1, not retained ("Topics"),
    signed with the club's key, which the table holds (its credentials)."""
    topic = topics.table_topic(table, "resend")
    out = []
    for message, qos, retain in sent.on(topic):
        assert (qos, retain) == (1, False)
        assert creds.club.verify(topic, message)
        out.append({k: v for k, v in message.items() if k != "sig"})
    return out


def test_a_status_ahead_of_the_club_asks_for_the_facts_after_its_last_position(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The club holds t1's facts up to position 8. A status whose ``last_pos`` is 8 asks for
    nothing; one whose ``last_pos`` is 16 asks t1 for everything after 8: ``{"table": "t1",
    "after": 8, "issued": <the club's clock>}``, signed, on ``mahjong/tables/t1/resend``."""
    clock = FakeTime(10_000.0)
    monkeypatch.setattr(subscriber_module, "time", clock)
    club, store, creds, sent = _club(tmp_path, monkeypatch)
    signer = creds["t1"].signer
    _send(club, signer, FACTS, _start("t1"))
    assert store.last_pos("t1") == 8
    _send(club, signer, STATUS, _status("t1", 100.0, last_pos=8))
    assert _resend_sent(sent, creds["t1"]) == []
    _send(club, signer, STATUS, _status("t1", 101.0, last_pos=16))
    assert _resend_sent(sent, creds["t1"]) == [
        {"table": "t1", "after": 8, "issued": 10_000.0}]
    assert [t for t, *_ in sent.messages] == [RESEND]
    assert club.set_aside.count == 0
    store.close()


def test_a_gap_asks_again_at_most_once_every_two_seconds_a_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fact whose ``prev`` is not the club's last position (a gap) asks the table for the
    facts after that position; a table is asked at most once every 2 s (docs/club.md): gaps
    at 10 000 s, 10 001.9 s and 10 002 s on the club's monotonic clock ask at 10 000 and at
    10 002; another table's gap at 10 001 s asks that table at once. A gap sets nothing
    aside (only a conflict does)."""
    clock = FakeTime(10_000.0)
    monkeypatch.setattr(subscriber_module, "time", clock)
    club, store, creds, sent = _club(tmp_path, monkeypatch, tables=("t1", "t2"))
    _send(club, creds["t1"].signer, FACTS, _start("t1"))
    gap = _start("t1", pos=24, prev=16)
    _send(club, creds["t1"].signer, FACTS, gap)
    assert _resend_sent(sent, creds["t1"]) == [{"table": "t1", "after": 8, "issued": 10_000.0}]
    clock.now = 10_001.0
    _send(club, creds["t2"].signer, topics.table_topic("t2", "facts"),
          _start("t2", pos=16, prev=8))
    assert _resend_sent(sent, creds["t2"], "t2") == [
        {"table": "t2", "after": 0, "issued": 10_001.0}]
    clock.now = 10_001.9
    _send(club, creds["t1"].signer, FACTS, gap)
    assert len(_resend_sent(sent, creds["t1"])) == 1
    clock.now = 10_002.0
    _send(club, creds["t1"].signer, FACTS, gap)
    assert _resend_sent(sent, creds["t1"])[1:] == [
        {"table": "t1", "after": 8, "issued": 10_002.0}]
    assert club.set_aside.count == 0 and store.last_pos("t1") == 8
    store.close()


def test_the_clubs_messages_go_out_with_qos_1(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The roster and the round are retained, QoS 1, signed by the club, with ``issued``
    (docs/club.md "Topics", "Signed messages")."""
    clock = FakeTime(500.0)
    monkeypatch.setattr(subscriber_module, "time", clock)
    club, store, creds, sent = _club(tmp_path, monkeypatch)
    club.publish(topics.ROSTER, {"players": ["Ann"]})
    [(message, qos, retain)] = sent.on(topics.ROSTER)
    assert (qos, retain) == (1, True)
    assert creds["t1"].club.verify(topics.ROSTER, message)
    assert {k: v for k, v in message.items() if k != "sig"} == {
        "players": ["Ann"], "issued": 500.0}
    store.close()


# --- a message the club fails on, one whose topic is not UTF-8 ----------------------------------

def test_a_message_the_club_fails_on_is_logged_with_its_topic_and_set_aside(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """One message must not stop the club: a fault beyond the checks (here in what the club
    does after storing a status) is logged at ERROR with the traceback, ``could not keep a
    message on TOPIC``, and the message set aside as the club's own failure (the reason
    docs/club.md's table gives), with its sender and size, in ``/api/health``'s
    ``last_set_aside`` and the set-aside warning line."""
    clock = FakeTime(700.0)
    monkeypatch.setattr(subscriber_module, "time", clock)

    def fail() -> None:
        raise RuntimeError("the page push broke")

    club, store, creds, _ = _club(tmp_path, monkeypatch, on_change=fail)
    caplog.set_level(logging.INFO)
    size = _send(club, creds["t1"].signer, STATUS, _status("t1", 100.0))
    [error] = [r for r in caplog.records if r.name == "controller.club.subscriber"]
    assert (error.levelno, error.getMessage()) == (
        logging.ERROR, "could not keep a message on mahjong/tables/t1/status")
    assert error.exc_info is not None and error.exc_info[0] is RuntimeError
    assert all(_as_documented(r) for r in caplog.records if r.name.startswith("controller.club"))
    [entry] = club.set_aside.last
    assert {k: v for k, v in entry.items() if k != "at"} == {
        "topic": STATUS, "sender": "t1", "reason": "the club failed on it (see the log)",
        "bytes": size}
    assert club.set_aside.count == 1
    assert [r.getMessage() for r in caplog.records if r.name == "controller.club.mqtt"] == [
        f"the club set aside a message on mahjong/tables/t1/status (sender: t1; {size} "
        "bytes): the club failed on it (see the log)"]
    store.close()


def test_a_message_whose_topic_is_not_utf8_is_set_aside_with_no_sender(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """At paho's boundary (docs/club.md "The receiving threads") a message whose topic is not
    UTF-8 is set aside unread, counted in the club's own ``set_aside`` (``/api/health``),
    its sender ``?`` (no table's topic names one) and the warning line says "the club"."""
    club, store, _, _ = _club(tmp_path, monkeypatch)
    caplog.set_level(logging.WARNING, logger="controller.club.mqtt")
    message = paho.MQTTMessage(mid=0, topic=b"mahjong/tables/\xff/status")
    message.payload = b"{}"
    club._client._handle_on_message(message)
    assert club.set_aside.count == 1
    assert [(x["topic"], x["sender"], x["reason"], x["bytes"]) for x in club.set_aside.last] \
        == [("?", "?", "its topic is not UTF-8", 2)]
    assert [r.getMessage() for r in caplog.records if r.name == "controller.club.mqtt"] == [
        "the club set aside a message on ? (sender: ?; 2 bytes): its topic is not UTF-8"]
    assert club.received == 0
    assert all(_as_documented(r) for r in caplog.records if r.name.startswith("controller.club"))
    store.close()


# --- the connection, over a real Mosquitto (docs/club.md "The club service") ------------------

def _connected_line(broker: Mosquitto, client_id: str) -> str:
    """Mosquitto's own log line for a client that connected with ``client_id``: ``pN`` the
    protocol (2: MQTT 3.1.1), ``cN`` a clean session (0: persistent), ``kN`` the keepalive."""
    log = broker.dir / "mosquitto.log"

    def line() -> str | None:
        text = log.read_text(encoding="utf-8") if log.exists() else ""
        found = re.search(rf"New client connected from 127\.0\.0\.1:\d+ as {client_id} "
                          r"\((.*?)\)\.", text)
        return found.group(1) if found else None

    return str(until(line, what=f"{client_id} connecting"))


def test_the_club_connects_once_persistently_and_logs_it(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The club connects as client ``club`` with a persistent session (clean session off) and
    a keepalive of 10 s, MQTT 3.1.1 (docs/club.md), and says so at INFO; a fact published
    (QoS 1, not retained) while it was away is kept by the broker for its session and
    reaches it when it connects again."""
    broker = Mosquitto(tmp_path / "broker")
    caplog.set_level(logging.INFO, logger="controller.club.subscriber")
    store = ClubStore(tmp_path / "club.sqlite")
    config = BrokerConfig("127.0.0.1", broker.port)
    club = ClubSubscriber(store, config, keyring=None)
    broker.start()  # stopped whatever fails from here
    try:
        club.start()
        until(lambda: club.connected, what="the club connecting")
        assert _connected_line(broker, "club") == "p2, c0, k10"
        assert [(r.levelno, r.getMessage()) for r in caplog.records
                if r.name == "controller.club.subscriber"] == [
            (logging.INFO, f"club service connected to 127.0.0.1:{broker.port}")]
        assert all(_as_documented(r) for r in caplog.records
                   if r.name == "controller.club.subscriber")
        table = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="t1",
                            protocol=paho.MQTTv311)
        table.connect("127.0.0.1", broker.port)
        table.loop_start()
        # the club's subscription stands once a table's message reaches it
        table.publish(ONLINE, topics.encode({"table": "t1", "online": True, "at": 1.0}), qos=1)
        until(lambda: club.received == 1, what="the club subscribed")
        club.stop()
        sent = table.publish(FACTS, topics.encode(_start("t1")), qos=1)
        sent.wait_for_publish(timeout=60)
        assert sent.is_published()
        table.disconnect()
        table.loop_stop()
        again = ClubSubscriber(store, config, keyring=None)
        again.start()
        try:
            until(lambda: store.last_pos("t1") == 8, what="the fact kept for the club")
        finally:
            again.stop()
    finally:
        club.stop()
        broker.stop()
        store.close()


def test_the_club_counts_each_time_the_broker_drops_it(tmp_path: Path) -> None:
    """The service connects as ``club`` unless told otherwise; ``broker_disconnects`` counts
    the drops, ``broker_connected`` is false between (``/api/health``, docs/club.md): the
    broker killed twice, started again on its port each time, makes 2."""
    broker = Mosquitto(tmp_path / "broker")
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", broker.port))
    club = service.subscriber
    broker.start()
    try:
        club.start()
        assert _connected_line(broker, "club") == "p2, c0, k10"  # the service's own id
        for drops in (1, 2):
            until(lambda: club.connected, what="the club connected")
            assert service.health()["broker_connected"] is True
            broker.kill()
            until(lambda: not club.connected, what="the club noticing the drop")
            health = service.health()
            assert (health["broker_connected"], health["broker_disconnects"]) == (False, drops)
            broker.start()
        until(lambda: club.connected, what="the club connected again")
        assert service.health()["broker_disconnects"] == 2
    finally:
        club.stop()
        broker.stop()
        service.store.close()


def test_a_refused_club_says_so_in_its_log(tmp_path: Path,
                                           caplog: pytest.LogCaptureFixture) -> None:
    """A wrong broker password: the broker answers CONNACK 5, which paho names "Not
    authorized"; the club logs a WARNING ``the broker refused the club service: Not
    authorized`` and is not connected (docs/club.md "The club service's log lines")."""
    enrol(tmp_path / "club", "t1", tmp_path / "t1.json")
    broker = Mosquitto(tmp_path / "broker", tmp_path / "club")
    caplog.set_level(logging.INFO, logger="controller.club.subscriber")
    store = ClubStore(tmp_path / "club.sqlite")
    club = ClubSubscriber(store, BrokerConfig("127.0.0.1", broker.port, "club", "wrong"),
                          keyring=None)

    def said() -> list[tuple[int, str]]:
        return [(r.levelno, r.getMessage()) for r in caplog.records
                if r.name == "controller.club.subscriber"]

    broker.start()
    try:
        club.start()
        until(said, what="the refusal logged")
        assert said()[0] == (logging.WARNING,
                             "the broker refused the club service: Not authorized")
        assert not club.connected
        assert all(_as_documented(r) for r in caplog.records
                   if r.name == "controller.club.subscriber")
    finally:
        club.stop()
        broker.stop()
        store.close()


def test_the_service_connects_with_the_client_id_and_restart_delay_it_is_given(
        tmp_path: Path) -> None:
    """``ClubService(..., client_id, restart_after=)`` reaches the connection: the broker
    logs the id given; the receiving thread's first restart waits ``restart_after`` (1 s
    unless told, docs/club.md "The receiving threads")."""
    plain = ClubService(tmp_path / "a", BrokerConfig("127.0.0.1", free_port()))
    assert plain.subscriber._client.restart_after == 1.0
    plain.store.close()
    broker = Mosquitto(tmp_path / "broker")
    service = ClubService(tmp_path / "b", BrokerConfig("127.0.0.1", broker.port), "club-b",
                          restart_after=0.25)
    assert service.subscriber._client.restart_after == 0.25
    broker.start()
    try:
        service.subscriber.start()
        assert _connected_line(broker, "club-b") == "p2, c0, k10"
    finally:
        service.subscriber.stop()
        broker.stop()
        service.store.close()


# --- the service (docs/club.md "The club service") ----------------------------------------------

def test_a_service_started_again_after_a_stop_keeps_taking_messages(tmp_path: Path) -> None:
    """One app, several lifespans: a service stopped and started again opens its database
    again, stores what arrives, and wakes the page push (``changed``) for it."""
    enrol(tmp_path / "club", "t1", tmp_path / "t1.json")
    signer = Credentials.load(tmp_path / "t1.json").signer
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))

    async def lifespans() -> None:
        await service.start()
        await service.stop()
        await service.start()
        assert not service.changed.is_set()
        # the receiving thread's call, from another thread
        await asyncio.to_thread(_send, service.subscriber, signer, STATUS,
                                _status("t1", 100.0))
        await asyncio.wait_for(service.changed.wait(), timeout=60)
        assert [(c["table"], c["at"]) for c in service.tables()] == [("t1", 100.0)]
        await service.stop()

    try:
        asyncio.run(lifespans())
    finally:
        service.subscriber.stop()
    assert service.subscriber.set_aside.count == 0


def test_an_unsigned_service_takes_unsigned_messages(tmp_path: Path) -> None:
    """``signed=False`` (the benchmark's unsigned baseline only) takes a table's message
    without a signature and without an enrolment."""
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()),
                          signed=False)
    assert service.keyring is None
    _send(service.subscriber, None, STATUS, _status("t1", 100.0))
    assert service.store.tables()[0]["status"] == _status("t1", 100.0)
    assert service.subscriber.set_aside.count == 0
    service.store.close()


def test_the_league_counts_each_tables_hands_and_penalties_once_at_their_table(
        tmp_path: Path) -> None:
    """Two tables, one session each on 1 March 2026 (``one_hand_session``), amber's seat 1 losing 10
    more by a deduction: the 2026 league and each table's card hold each person once with
    their own table's numbers: amber-1 -48 - 10 = -58, amber-2 +96, amber-3 and amber-4 -24;
    blue-1 -48 (no deduction at blue), blue-2 +96, blue-3 and blue-4 -24."""
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))
    started = time.mktime((2026, 3, 1, 20, 0, 0, 0, 0, -1))
    one_hand_session(service.store, "amber", started, deduction=10)
    one_hand_session(service.store, "blue", started)
    league = service.standings(2026)["league"]
    assert {r["name"]: r["score"] for r in league["standings"]} == {
        "amber-1": -58, "amber-2": 96, "amber-3": -24, "amber-4": -24,
        "blue-1": -48, "blue-2": 96, "blue-3": -24, "blue-4": -24}
    for table in ("amber", "blue"):
        service.store.set_status(table, {"session": 1, "names": {
            str(s): f"{table}-{s}" for s in range(1, 5)}})
    assert {c["table"]: c["totals"] for c in service.tables()} == {
        "amber": {"amber-1": -58, "amber-2": 96, "amber-3": -24, "amber-4": -24},
        "blue": {"blue-1": -48, "blue-2": 96, "blue-3": -24, "blue-4": -24}}
    service.store.close()


def test_tonight_is_the_twelve_hours_before_the_time_asked_for(tmp_path: Path) -> None:
    """``standings(now=...)``: tonight is the hands received in the 12 h before ``now``
    (docs/club.md "Standings and the league"): the hands received just now count at now,
    and not a day later."""
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))
    one_hand_session(service.store, "amber", time.time())
    now = time.time()
    assert {r["name"]: r["score"] for r in service.standings(now=now)["tonight"]} == {
        "amber-1": -48, "amber-2": 96, "amber-3": -24, "amber-4": -24}
    assert service.standings(now=now + 86_400)["tonight"] == []
    service.store.close()


def test_a_tables_numbers_are_recounted_only_when_a_fact_arrived(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The club's pages read each table's hands again only for a table whose position moved
    on since the last count (a page push then costs look-ups, not a recount): amber and blue
    counted once, then nothing read again, then only blue after a fact at blue."""
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))
    one_hand_session(service.store, "amber", 1_000.0)
    service.store.set_status("amber", {"session": 1})
    service.store.set_status("blue", {"session": None})
    read: list[str | None] = []
    hands = service.store.hands

    def counted(table: str | None = None) -> list[dict[str, Any]]:
        read.append(table)
        return hands(table)

    monkeypatch.setattr(service.store, "hands", counted)
    first = service.tables()
    assert sorted(t or "" for t in read) == ["amber", "blue"]
    read.clear()
    assert service.tables() == first and service.standings(1970)["league"] is not None
    assert read == []
    assert service.store.apply_fact("blue", {
        "kind": "session_start", "session": 1, "pos": 8, "prev": 0, "ruleset": "hua-bao",
        "started": 2_000.0}) == "applied"
    service.tables()
    assert read == ["blue"]
    service.store.close()


def test_a_new_tournament_clears_the_round_on_the_broker(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new tournament publishes ``mahjong/club/round`` {"round": null} (no round yet:
    docs/club.md "Signed messages"), retained, QoS 1, signed by the club."""
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))
    sent = Sent()
    monkeypatch.setattr(service.subscriber._client, "publish", sent.publish)
    service.new_tournament([f"P{i}" for i in range(8)], 2, 30, ["t1", "t2"])
    [(message, qos, retain)] = sent.on(topics.ROUND)
    assert (qos, retain) == (1, True)
    assert service.keyring is not None
    assert {k for k in message if k not in ("sig", "issued")} == {"round"}
    assert message["round"] is None
    service.store.close()


def test_a_riichi_tables_round_is_ranked_by_points_and_result(tmp_path: Path) -> None:
    """A one-round tournament of four at a riichi table (RULES.md: everyone starts with
    30,000; result = (points - 30,000) / 1,000 + uma +15/+5/-5/-15, tied places sharing
    theirs): seat 1 wins 8,000 from seat 2 and the session ends. Seat 1: 38,000, 8 + 15 =
    23.0; seats 3 and 4 tied second at 30,000, 0 + (5 - 5) / 2 = 0.0; seat 2: 22,000, -8 - 15
    = -23.0. The round's ranking gives each person their points and result."""
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))
    service.new_tournament(["Ann", "Bo", "Cai", "Dee"], 1, 30, ["t1"])
    seated = service.start_round(1, now=1_000.0)["seating"]["t1"]
    names = {str(i): name for i, name in enumerate(seated, start=1)}
    net = {"1": 8000, "2": -8000, "3": 0, "4": 0}
    for fact in (
            {"kind": "session_start", "session": 1, "pos": 8, "prev": 0, "ruleset": "riichi",
             "started": 1_100.0},
            {"kind": "hand", "session": 1, "pos": 16, "prev": 8, "number": 1,
             "result": "mahjong", "winner": 1, "win_source": "discard", "discarder": 2,
             "scores": {"1": 8000, "2": 0, "3": 0, "4": 0}, "net": net,
             "winds": {"1": "east", "2": "south", "3": "west", "4": "north"},
             "names": names, "payments": []},
            {"kind": "session_end", "session": 1, "pos": 24, "prev": 16, "ended": 1_200.0,
             "ruleset": "riichi", "hands": 1, "totals": net, "deductions": {}, "final": net,
             "names": names, "penalties": []}):
        assert service.store.apply_fact("t1", fact) == "applied"
    state = service.tournament()
    assert state is not None
    ranking = state["rounds_played"][0]["ranking"]
    assert {r["name"]: (r["place"], r["points"], r["result"], r["finished"])
            for r in ranking} == {
        names["1"]: (1, 38_000, 23.0, True), names["3"]: (2, 30_000, 0.0, True),
        names["4"]: (2, 30_000, 0.0, True), names["2"]: (4, 22_000, -23.0, True)}
    service.store.close()
