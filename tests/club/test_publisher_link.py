"""The table's link to the club broker, part by part, with the MQTT client and the event log
stood in for (no broker, no thread of its own unless said): what the table asks of the broker
(its client id, keepalive, last will, the online message, its subscriptions, each at the QoS
and retain docs/club.md "Topics" gives), when it tries again (every 5 s; 1 s after a failed
read), what it says in its log (docs/club.md "The table's log lines", each line whole), and
what a stop does; and one line from a real Mosquitto (a wrong password). The same link over a
real Mosquitto: tests/club/test_table_link.py, test_table_status.py and test_publisher.py."""

from __future__ import annotations

import logging
import threading
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from controller.club import publisher as publisher_module
from controller.club import schema
from controller.club.keyring import Credentials
from controller.club.mqtt import BrokerConfig
from controller.club.publisher import ClubPublisher
from controller.club.signing import Signer, Verifier
from controller.store import StoreError
from tests.club.broker import Mosquitto, enrol
from tests.club.fake_paho import FakeClient
from tests.waiting import until

BROKER = BrokerConfig("hall.local", 1884, "t1", "secret")
LOGGER = "controller.club.publisher"
ONLINE = "mahjong/tables/t1/online"  # docs/club.md "Topics"
#: docs/club.md "Topics": what the table reads, each at QoS 1
READS = [("mahjong/tables/t1/resend", 1), ("mahjong/club/round", 1), ("mahjong/club/roster", 1)]
CONNECTING = "connecting to the club broker hall.local:1884 as table t1"
NOT_YET = ("the club broker hall.local:1884 does not answer yet; the table plays on and tries "
           "again every few seconds")
CONNECTED = "connected to the club broker hall.local:1884"
LOST = ("lost the club broker hall.local:1884; the table plays on and the backlog goes out "
        "when it is back")
OPEN_BROKER = ("the club broker lets anyone in without a password: anyone could write the "
               "club's results; lock it (docs/club.md) or start the table with "
               "--insecure-broker")


class Made:
    """``make_client`` stood in for: the clients made, in order (its default restart_after
    is make_client's own, 1 s)."""

    def __init__(self) -> None:
        self.clients: list[FakeClient] = []

    def __call__(self, config: BrokerConfig, client_id: str | None, *, clean: bool = True,
                 restart_after: float = 1.0) -> FakeClient:
        self.clients.append(FakeClient(config, client_id, restart_after))
        return self.clients[-1]


class Loop:
    """The publisher's stop event stood in for: unset for ``rounds`` turns of the loop, then
    set; every wait is recorded and returns at once."""

    def __init__(self, rounds: int) -> None:
        self.left = rounds
        self.waits: list[float | None] = []

    def is_set(self) -> bool:
        if self.left <= 0:
            return True
        self.left -= 1
        return False

    def wait(self, timeout: float | None = None) -> bool:
        self.waits.append(timeout)
        return False

    def set(self) -> None:
        self.left = 0

    def clear(self) -> None:
        pass


class FakeStore:
    """An event log with no session (``_read`` finds nothing); closes counted."""

    def __init__(self) -> None:
        self.closed = 0

    def sessions(self) -> list[Any]:
        return []

    def close(self) -> None:
        self.closed += 1


@pytest.fixture
def signer() -> Signer:
    return Signer.generate()


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> Made:
    made = Made()
    monkeypatch.setattr(publisher_module, "make_client", made)
    return made


def _publisher(tmp_path: Path, signer: Signer, **options: Any) -> ClubPublisher:
    return ClubPublisher(tmp_path, "t1", BROKER, signer=signer, club=None, **options)


def _broker_answers(monkeypatch: pytest.MonkeyPatch, answer: bool | None) -> list[BrokerConfig]:
    """``lets_anyone_in`` stood in for: True (open), False (locked), None (not reached)."""
    asked: list[BrokerConfig] = []

    def probe(config: BrokerConfig) -> bool | None:
        asked.append(config)
        return answer

    monkeypatch.setattr(publisher_module, "lets_anyone_in", probe)
    return asked


def _connecting(tmp_path: Path, signer: Signer, made: Made,
                monkeypatch: pytest.MonkeyPatch) -> tuple[ClubPublisher, FakeClient]:
    """Table t1's publisher after ``_connect`` at a locked broker: its client, not yet
    connected (no CONNACK)."""
    _broker_answers(monkeypatch, False)
    publisher = _publisher(tmp_path, signer)
    publisher._connect()
    [client] = made.clients
    return publisher, client


def _said(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records if r.name == LOGGER]


def _online(signer: Signer, payload: bytes, online: bool, before: float) -> None:
    """An online message: the table's name and state, a time ``at`` taken now, signed with the
    table's key over the online topic (docs/club.md "Signed messages")."""
    message = schema.parse(payload)
    assert Verifier.from_text(signer.public_text()).verify(ONLINE, message)
    assert before <= message.pop("at") <= time.time()
    assert isinstance(message.pop("sig"), str)
    assert message == {"table": "t1", "online": online}


# --- connecting ---------------------------------------------------------------------------------


def test_the_client_the_table_connects_with(
        tmp_path: Path, signer: Signer, made: Made, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Client id ``table-NAME``, the receiving thread's restart delay as given, the broker's
    address and a keepalive of 10 s, and the last will ``{"online": false}`` on the online
    topic, signed, QoS 1, retained (docs/club.md "The table's log lines" and "Topics")."""
    asked = _broker_answers(monkeypatch, False)
    publisher = _publisher(tmp_path, signer, restart_after=4.0)
    caplog.set_level(logging.INFO, logger=LOGGER)
    before = time.time()
    assert publisher._connect() is True
    assert asked == [BROKER]
    [client] = made.clients
    assert publisher._client is client
    assert (client.config, client.client_id, client.restart_after) == (BROKER, "table-t1", 4.0)
    [will, connect, start] = client.calls
    assert will[0:2] == ("will_set", ONLINE) and will[3:] == (1, True)
    _online(signer, will[2], False, before)
    assert connect == ("connect_async", "hall.local", 1884, 10)
    assert start == ("loop_start",)
    # what the client hands the table: its callbacks, its set-aside count, and the sender
    # a club message set aside at paho's boundary is logged with (docs/club.md)
    assert client.on_connect == publisher._on_connect
    assert client.on_disconnect == publisher._on_disconnect
    assert client.handle == publisher._on_message
    assert client.set_aside is publisher.set_aside
    assert client.sender_of is not None
    assert client.sender_of("mahjong/club/round") == "whoever wrote the club's topic"
    assert publisher.refused is None
    assert _said(caplog) == [(logging.INFO, CONNECTING)]
    # paho's "connection failed" (the broker went away before it answered) is "not yet"
    client.on_connect_fail(client, None)
    assert _said(caplog) == [(logging.INFO, CONNECTING), (logging.WARNING, NOT_YET)]


def test_a_broker_not_reached_is_said_once_and_tried_again_every_5_s(
        tmp_path: Path, signer: Signer, made: Made, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """docs/club.md: "the table tries again every 5 s"; "connecting" and "does not answer
    yet" are each said once however many times it tries; nothing is read meanwhile."""
    _broker_answers(monkeypatch, None)
    publisher = _publisher(tmp_path, signer)
    caplog.set_level(logging.INFO, logger=LOGGER)
    opened: list[int] = []
    monkeypatch.setattr(publisher, "_open", lambda: opened.append(1))
    publisher._stop = loop = Loop(rounds=3)  # type: ignore[assignment]
    publisher._wake = Loop(rounds=10**6)  # type: ignore[assignment]
    publisher._run()
    assert loop.waits == [5.0, 5.0, 5.0]
    assert opened == [] and made.clients == [] and publisher._client is None
    assert _said(caplog) == [(logging.INFO, CONNECTING), (logging.WARNING, NOT_YET)]
    assert publisher.health()["ok"] is True and publisher.refused is None


def test_an_open_broker_is_refused_in_words_and_tried_again_every_5_s(
        tmp_path: Path, signer: Signer, made: Made, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """docs/club.md "Running the broker": a broker that takes a client without a password is
    refused, the log and ``/api/health`` (``club.refused``, ``ok`` false) say why, and the
    table tries again every 5 s without connecting."""
    _broker_answers(monkeypatch, True)
    publisher = _publisher(tmp_path, signer)
    caplog.set_level(logging.INFO, logger=LOGGER)
    publisher._stop = loop = Loop(rounds=2)  # type: ignore[assignment]
    publisher._wake = Loop(rounds=10**6)  # type: ignore[assignment]
    publisher._run()
    assert loop.waits == [5.0, 5.0] and made.clients == []
    assert publisher.refused == OPEN_BROKER
    health = publisher.health()
    assert health["ok"] is False and health["refused"] == OPEN_BROKER
    assert _said(caplog) == [(logging.INFO, CONNECTING), (logging.ERROR, OPEN_BROKER),
                             (logging.ERROR, OPEN_BROKER)]


def test_insecure_broker_skips_the_check(
        tmp_path: Path, signer: Signer, made: Made, monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _broker_answers(monkeypatch, True)
    publisher = _publisher(tmp_path, signer, insecure=True)
    assert publisher._connect() is True
    assert asked == [] and len(made.clients) == 1 and publisher.refused is None


# --- the loop -----------------------------------------------------------------------------------


def _running(tmp_path: Path, signer: Signer, monkeypatch: pytest.MonkeyPatch, rounds: int,
             step: Callable[[Any], None]) -> tuple[ClubPublisher, Loop, list[FakeStore],
                                                    list[float]]:
    """The publisher's loop run ``rounds`` turns in this thread, connected at once, the log
    opened as a FakeStore, ``step`` as its step, time.sleep recorded."""
    _broker_answers(monkeypatch, False)
    publisher = _publisher(tmp_path, signer)
    stores: list[FakeStore] = []

    def open_() -> FakeStore:
        stores.append(FakeStore())
        return stores[-1]

    slept: list[float] = []
    monkeypatch.setattr(publisher_module, "time", types.SimpleNamespace(
        sleep=slept.append, time=time.time, monotonic=time.monotonic))
    monkeypatch.setattr(publisher, "_open", open_)
    monkeypatch.setattr(publisher, "_step", step)
    publisher._stop = loop = Loop(rounds)  # type: ignore[assignment]
    publisher._wake = Loop(rounds=10**6)  # type: ignore[assignment]
    publisher._run()
    return publisher, loop, stores, slept


def test_once_connected_the_loop_reads_at_once_and_closes_the_log_at_the_end(
        tmp_path: Path, signer: Signer, made: Made, monkeypatch: pytest.MonkeyPatch) -> None:
    steps: list[Any] = []
    publisher, loop, stores, slept = _running(tmp_path, signer, monkeypatch, 3, steps.append)
    assert len(made.clients) == 1  # connected once, and not waited 5 s after it
    assert loop.waits == [] and slept == []
    [store] = stores  # opened once, read at every turn, closed when the loop ends
    assert steps == [store, store, store]
    assert store.closed == 1


def _failing_once(steps: list[Any], exc: Exception) -> Callable[[Any], None]:
    """A publisher step that records the store it is given and raises ``exc`` the first time."""
    def step(store: Any) -> None:
        steps.append(store)
        if len(steps) == 1:
            raise exc
    return step


def test_a_log_that_cannot_be_read_is_said_closed_and_opened_again_after_1_s(
        tmp_path: Path, signer: Signer, made: Made, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """docs/club.md "The table's log lines": "cannot read the event log for the club: ..."
    (WARNING), the log closed, and after 1 s opened again."""
    caplog.set_level(logging.INFO, logger=LOGGER)
    steps: list[Any] = []
    step = _failing_once(steps, StoreError("database disk image is malformed"))
    publisher, loop, stores, slept = _running(tmp_path, signer, monkeypatch, 2, step)
    assert len(stores) == 2 and steps == stores
    assert [s.closed for s in stores] == [1, 1]  # the bad one at once, the new one at the end
    assert slept == [1.0] and loop.waits == []
    assert _said(caplog)[1:] == [
        (logging.WARNING, "cannot read the event log for the club: database disk image is "
                          "malformed")]


def test_any_other_error_is_logged_with_its_traceback_and_tried_again_after_1_s(
        tmp_path: Path, signer: Signer, made: Made, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    steps: list[Any] = []
    step = _failing_once(steps, RuntimeError("a bug"))
    publisher, loop, stores, slept = _running(tmp_path, signer, monkeypatch, 2, step)
    [store] = stores  # kept open: only a failed read closes it
    assert steps == [store, store] and store.closed == 1
    assert slept == [1.0]
    [record] = [r for r in caplog.records if r.name == LOGGER and r.levelno > logging.INFO]
    assert (record.levelno, record.getMessage()) == (logging.ERROR,
                                                     "club publisher error; retrying")
    assert record.exc_info is not None and str(record.exc_info[1]) == "a bug"


def test_a_resend_request_rewinds_only_to_before_what_was_published(
        tmp_path: Path, signer: Signer, caplog: pytest.LogCaptureFixture) -> None:
    """docs/club.md: the table sends everything after LAST again; a request for what follows
    the table's own position asks for nothing (no line, nothing forgotten)."""
    publisher = _publisher(tmp_path, signer)
    caplog.set_level(logging.INFO, logger=LOGGER)
    publisher.published = 40
    publisher._rewind = 40
    publisher._step(FakeStore())  # type: ignore[arg-type]
    assert _said(caplog) == [] and publisher.published == 40
    publisher._rewind = 16
    publisher._step(FakeStore())  # type: ignore[arg-type]
    assert _said(caplog) == [(logging.INFO, "the club asks again for what follows position 16")]
    assert publisher.published == 16


# --- paho's callbacks ---------------------------------------------------------------------------


def test_connected_the_table_says_it_is_online_and_reads_the_clubs_topics(
        tmp_path: Path, signer: Signer, made: Made, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    publisher, client = _connecting(tmp_path, signer, made, monkeypatch)
    monkeypatch.setattr(publisher_module, "time", types.SimpleNamespace(  # a still clock
        time=time.time, monotonic=lambda: 1000.0, sleep=time.sleep))
    publisher._send_status()  # the status once: not again while it is the same (30 s)
    publisher._send_status()
    assert [c[1] for c in client.calls if c[0] == "publish"] == ["mahjong/tables/t1/status"]
    client.calls.clear()
    before = time.time()
    publisher._on_connect(client, None, None, ReasonCode(PacketTypes.CONNACK, identifier=0),
                          None)
    [online, subscribe] = client.calls
    assert online[0:2] == ("publish", ONLINE) and online[3:] == (1, True)
    _online(signer, online[2], True, before)
    assert subscribe == ("subscribe", READS)
    assert publisher._wake.is_set()  # the loop looks at once, and sends the status again
    client.calls.clear()
    publisher._send_status()
    assert [c[1] for c in client.calls if c[0] == "publish"] == ["mahjong/tables/t1/status"]
    assert publisher.health()["connected"] is True
    assert _said(caplog) == [(logging.INFO, CONNECTING), (logging.INFO, CONNECTED)]
    # connected once, a later failed attempt is not "does not answer yet"
    client.on_connect_fail(client, None)
    assert _said(caplog)[2:] == []


def test_a_broker_that_refuses_the_table_is_said_with_its_reason(
        tmp_path: Path, signer: Signer, caplog: pytest.LogCaptureFixture) -> None:
    """A wrong password: Mosquitto answers MQTT 3.1.1's "not authorised" (return code 5),
    which paho names "Not authorized"; nothing is sent, the table is not connected."""
    publisher = _publisher(tmp_path, signer)
    caplog.set_level(logging.INFO, logger=LOGGER)
    client = FakeClient(BROKER, "table-t1", 1.0)
    publisher._on_connect(client, None, None, ReasonCode(PacketTypes.CONNACK, identifier=135),
                          None)
    assert client.calls == [] and publisher.connected is False
    assert _said(caplog) == [(logging.WARNING, "the club broker refused the table: Not "
                                               "authorized")]


def test_a_wrong_password_at_a_real_broker_is_not_authorized(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The line docs/club.md's table explains, from a real Mosquitto locked as the club
    writes it: a table whose password the broker does not know."""
    enrol(tmp_path / "club", "t1", tmp_path / "t1.json")
    broker = Mosquitto(tmp_path / "broker", tmp_path / "club")
    broker.start()
    creds = Credentials.load(tmp_path / "t1.json")
    (tmp_path / "t1").mkdir()
    wrong = ClubPublisher(tmp_path / "t1", "t1", BrokerConfig("127.0.0.1", broker.port, "t1",
                                                              "not the password"),
                          signer=creds.signer, club=creds.club, poll=0.05)
    caplog.set_level(logging.INFO, logger=LOGGER)
    wrong.start()
    try:
        until(lambda: len(_said(caplog)) >= 2, 60, "the broker's answer said")
    finally:
        wrong.stop()
        broker.stop()
    assert _said(caplog)[:2] == [
        (logging.INFO, f"connecting to the club broker 127.0.0.1:{broker.port} as table t1"),
        (logging.WARNING, "the club broker refused the table: Not authorized")]
    assert wrong.connected is False


def test_lost_is_said_only_when_a_connection_is_gone(
        tmp_path: Path, signer: Signer, made: Made, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    publisher, client = _connecting(tmp_path, signer, made, monkeypatch)
    publisher._on_disconnect(client, None, None, None, None)  # never connected: nothing
    assert _said(caplog) == [(logging.INFO, CONNECTING)]
    success = ReasonCode(PacketTypes.CONNACK, identifier=0)
    publisher._on_connect(client, None, None, success, None)
    publisher._on_disconnect(client, None, None, None, None)
    assert _said(caplog)[1:] == [(logging.INFO, CONNECTED), (logging.WARNING, LOST)]
    assert publisher.health()["connected"] is False
    publisher._on_disconnect(client, None, None, None, None)  # a failed attempt after it
    assert _said(caplog)[3:] == []
    publisher._on_connect(client, None, None, success, None)
    publisher._stop.set()  # being stopped: the disconnection is the table's own
    publisher._on_disconnect(client, None, None, None, None)
    assert _said(caplog)[3:] == [(logging.INFO, CONNECTED)]
    assert publisher.connected is False


def test_a_club_message_that_breaks_the_table_is_logged_and_the_link_goes_on(
        tmp_path: Path, signer: Signer, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The line names the topic's first 120 characters, with the traceback."""
    publisher = _publisher(tmp_path, signer)
    topic = "mahjong/club/" + "r" * 100 + "s" * 30  # 143 characters

    def take(*_args: Any) -> bool:
        raise RuntimeError("a bug in the inbox")

    monkeypatch.setattr(publisher.inbox, "take", take)
    publisher._on_message(topic, b"{}", False)
    [record] = [r for r in caplog.records if r.name == LOGGER]
    assert (record.levelno, record.getMessage()) == (
        logging.ERROR, "club message on mahjong/club/" + "r" * 100 + "s" * 7)
    assert record.exc_info is not None and str(record.exc_info[1]) == "a bug in the inbox"


# --- start and stop -----------------------------------------------------------------------------


def test_the_publisher_runs_in_a_daemon_thread_named_club_publisher(
        tmp_path: Path, signer: Signer, monkeypatch: pytest.MonkeyPatch) -> None:
    publisher = _publisher(tmp_path, signer)
    release = threading.Event()
    running: list[threading.Thread] = []

    def run() -> None:
        running.append(threading.current_thread())
        release.wait(60)

    monkeypatch.setattr(publisher, "_run", run)
    publisher.start()
    try:
        thread = publisher._thread
        assert thread is not None
        assert thread.name == "club-publisher" and thread.daemon is True
        until(lambda: running, 60, "the publisher's loop running")
        assert running == [thread]
    finally:
        release.set()
        assert publisher._thread is not None
        publisher._thread.join(60)


class FakeThread:
    def __init__(self) -> None:
        self.joins: list[float | None] = []

    def join(self, timeout: float | None = None) -> None:
        self.joins.append(timeout)


def test_a_stop_says_offline_and_waits_at_most_2_s_and_5_s(
        tmp_path: Path, signer: Signer, made: Made, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/club.md "The table's log lines": a table being stopped waits up to 5 s for its
    publisher's thread and 2 s for the broker to take the offline message (retained, QoS 1)."""
    never = _publisher(tmp_path, signer)
    never.stop()  # never started: nothing to wait for, nothing to say
    publisher, client = _connecting(tmp_path, signer, made, monkeypatch)
    publisher._on_connect(client, None, None, ReasonCode(PacketTypes.CONNACK, identifier=0),
                          None)
    client.calls.clear()
    client.waits.clear()
    publisher._thread = thread = FakeThread()  # type: ignore[assignment]
    before = time.time()
    publisher.stop()
    assert thread.joins == [5]
    [offline, stop] = client.calls
    assert offline[0:2] == ("publish", ONLINE) and offline[3:] == (1, True)
    _online(signer, offline[2], False, before)
    assert client.waits == [2] and stop == ("stop",)
    assert publisher._stop.is_set() and publisher._wake.is_set()


def test_a_stop_while_not_connected_sends_nothing(
        tmp_path: Path, signer: Signer, made: Made, monkeypatch: pytest.MonkeyPatch) -> None:
    publisher, client = _connecting(tmp_path, signer, made, monkeypatch)
    client.calls.clear()
    publisher.stop()
    assert client.calls == [("stop",)]
