"""The MQTT client wrapper both sides use (controller/club/mqtt.py), against docs/club.md's
"The connection to the broker" and paho-mqtt 2.x's documented behaviour: every message handed
over with its retained flag and acknowledged whatever its handler does, a topic that is not
UTF-8 set aside, the receiving thread restarted after 1 s doubling to 30 s with one log line
each time, the message it died on set aside once, the persistent session, the reconnect
back-off (1 s doubling to 8 s), at most 20 messages in flight, TLS with the hall's CA, and
the probe of an open broker.

Most tests need no broker: a message is given to the client at paho's own boundary
(``_handle_on_message``, where paho's network thread hands a message over), and the network
loop paho runs in the thread (``loop_forever``) is replaced by one that delivers messages or
dies as a fault in the library would. A fake MQTT server (a few packets of MQTT 3.1.1 read and
written by hand) stands where a broker must answer late, never or never acknowledge; a real
Mosquitto where its own behaviour is the reference (sessions, TLS)."""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
import pytest

from controller.club import mqtt
from controller.club.mqtt import BrokerConfig, Client, SetAside, lets_anyone_in, make_client
from tests.club.broker import Mosquitto, until
from tests.club.fake_time import FakeTime
from tests.club.test_tls import _certificates, _listening
from tests.reliability.support import free_port

LOGGER = "controller.club.mqtt"
LONG = "mahjong/tables/" + "t" * 115  # 130 characters: a topic longer than a log line keeps


def _message(topic: bytes, payload: bytes, *, mid: int = 7, qos: int = 1,
             retain: bool = False) -> paho.MQTTMessage:
    message = paho.MQTTMessage(mid=mid, topic=topic)
    message.payload, message.qos, message.retain = payload, qos, retain
    return message


def _acks(client: Client, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The PUBACKs the client sends (paho's ``_send_puback``), by message id."""
    sent: list[int] = []
    monkeypatch.setattr(client, "_send_puback",
                        lambda mid: sent.append(mid) or paho.MQTTErrorCode.MQTT_ERR_SUCCESS)
    return sent


def _lines(caplog: pytest.LogCaptureFixture, level: int = logging.WARNING) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LOGGER and r.levelno == level]


# --- a message at paho's boundary -------------------------------------------------------------


def test_a_fresh_client_is_not_receiving_and_takes_a_message_without_a_handler(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``receiving`` is false until the thread runs (docs: false while the thread is down);
    a message that comes before anyone set a handler is taken and acknowledged, not fatal."""
    client = Client("c1", clean=True)
    assert client.receiving is False and client.crashes == 0
    acks = _acks(client, monkeypatch)
    client._handle_on_message(_message(b"mahjong/club/round", b"{}", mid=3))
    assert acks == [3]


def test_a_message_reaches_the_handler_with_its_retained_flag_and_is_acknowledged_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client("c1", clean=True)
    acks = _acks(client, monkeypatch)
    got: list[tuple[str, bytes, bool]] = []
    client.handle = lambda topic, payload, retained: got.append((topic, payload, retained))
    client._handle_on_message(_message(b"mahjong/club/roster", b'{"a": 1}', mid=5, retain=True))
    client._handle_on_message(_message(b"mahjong/club/round", b"{}", mid=6, retain=False))
    client._handle_on_message(_message(b"mahjong/club/round", b"q0", mid=0, qos=0))
    assert got == [("mahjong/club/roster", b'{"a": 1}', True),
                   ("mahjong/club/round", b"{}", False), ("mahjong/club/round", b"q0", False)]
    assert [type(r) for _t, _p, r in got] == [bool, bool, bool]
    assert acks == [5, 6]  # QoS 0 has no acknowledgement in MQTT


def test_a_message_is_acknowledged_even_when_handing_it_over_fails(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/club.md: every message is acknowledged whatever happens beyond paho's boundary
    (manual acks sent in a ``finally``): paho's own acknowledgement would come only after the
    handler returned, so a fault there would leave the message unacknowledged."""
    client = Client("c1", clean=True)
    acks = _acks(client, monkeypatch)

    def fault(_topic: str, _payload: bytes, _retained: bool) -> None:
        raise RuntimeError("a fault beyond the boundary")

    client.handle = fault
    with pytest.raises(RuntimeError):
        client._handle_on_message(_message(b"mahjong/club/round", b"{}", mid=9))
    assert acks == [9]


def test_a_topic_that_is_not_utf8_is_set_aside_with_an_unknown_sender(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Set aside as "?" (a topic that cannot be read), sender "?" when nothing says who
    writes there, reason "its topic is not UTF-8", its size; never handed over; acknowledged."""
    client = Client("c1", clean=True)
    acks = _acks(client, monkeypatch)
    client.set_aside = SetAside("the club")
    handled: list[str] = []
    client.handle = lambda topic, _p, _r: handled.append(topic)
    monkeypatch.setattr(mqtt, "time", FakeTime(1000.0))
    client._handle_on_message(_message(b"mahjong/tables/\xff\xfe/facts", b"12345", mid=4))
    assert handled == [] and acks == [4]
    assert client.set_aside.count == 1
    assert list(client.set_aside.last) == [{"topic": "?", "sender": "?", "bytes": 5,
                                            "reason": "its topic is not UTF-8", "at": 1000.0}]


def test_without_a_set_aside_count_the_client_logs_what_it_set_aside(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    client = Client("c1", clean=True)
    _acks(client, monkeypatch)
    caplog.set_level(logging.WARNING, logger=LOGGER)
    client._handle_on_message(_message(b"\xc3\x28", b"x", mid=2))
    assert _lines(caplog) == ["set aside a message on ?: its topic is not UTF-8"]


# --- the receiving thread: restarts, back-off, the message in hand ----------------------------


class _Gate:
    """Stands for the ``threading`` module inside mqtt.py: its Event's ``wait`` (the back-off
    between restarts) records the delay and returns at once (or when ``hold`` is opened)."""

    def __init__(self, hold: threading.Event | None = None) -> None:
        self.waits: list[float] = []
        self.hold = hold
        self.Lock = threading.Lock
        gate = self

        class Event:
            def __init__(self) -> None:
                self.flag = False

            def set(self) -> None:
                self.flag = True

            def wait(self, delay: float | None = None) -> bool:
                gate.waits.append(delay if delay is not None else -1.0)
                if gate.hold is not None:
                    gate.hold.wait(60)
                return self.flag

        self.Event = Event


def _run(client: Client, monkeypatch: pytest.MonkeyPatch,
         loops: list[Callable[[], None]], refused: Exception | None = None) -> list[str]:
    """Run the client's receiving thread with paho's ``loop_forever`` replaced by ``loops``
    (one per call; after the last one the loop ends as at a disconnect) and ``reconnect``
    raising ``refused`` if given; the calls made to ``reconnect`` and the loops run, in
    order, once the thread has ended."""
    calls: list[str] = []
    todo = list(loops)

    def loop_forever(**_kwargs: Any) -> paho.MQTTErrorCode:
        calls.append("loop")
        if todo:
            todo.pop(0)()
        return paho.MQTTErrorCode.MQTT_ERR_SUCCESS

    def reconnect() -> paho.MQTTErrorCode:
        calls.append("reconnect")
        if refused is not None:
            raise refused
        return paho.MQTTErrorCode.MQTT_ERR_SUCCESS

    monkeypatch.setattr(client, "loop_forever", loop_forever)
    monkeypatch.setattr(client, "reconnect", reconnect)
    client.loop_start()
    thread = client._thread
    assert thread is not None
    until(lambda: not thread.is_alive(), 60, "the receiving thread ended")
    return calls


def _die(exc: BaseException) -> Callable[[], None]:
    def loop() -> None:
        raise exc
    return loop


@pytest.mark.parametrize(("make", "delays"), [
    (lambda: Client("c1", clean=True), [1, 2, 4, 8, 16, 30, 30]),
    (lambda: make_client(BrokerConfig("127.0.0.1", 1), "c1"), [1, 2, 4, 8, 16, 30, 30]),
    (lambda: make_client(BrokerConfig("127.0.0.1", 1), "c1", restart_after=4.0),
     [4, 8, 16, 30, 30, 30, 30]),
], ids=["client", "make_client", "make_client-4s"])
def test_the_receiving_thread_is_restarted_after_1_s_doubling_to_30_s_with_a_log_line_each_time(
        make: Callable[[], Client], delays: list[int], monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """docs/club.md: restarted after 1 s (``restart_after``), doubling to 30 s; each death is
    one ERROR line naming the exception, its text cut to 200 characters, and the delay; the
    thread dies 7 times here, then its loop ends normally (a disconnect): 7 restarts counted,
    and ``receiving`` false once it has ended."""
    gate = _Gate()
    monkeypatch.setattr(mqtt, "threading", gate)
    client = make()
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    text = "0123456789" * 25  # 250 characters
    calls = _run(client, monkeypatch, [_die(RuntimeError(text))] * 7)
    assert calls == ["loop"] + ["reconnect", "loop"] * 7
    assert gate.waits == delays
    assert client.crashes == 7 and client.receiving is False
    assert _lines(caplog, logging.ERROR) == [
        f"the MQTT receiving thread died (RuntimeError: {text[:200]}); restarting in {d} s"
        for d in delays]


def test_a_reconnect_that_fails_after_a_restart_is_one_debug_line_and_the_loop_goes_on(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """docs/club.md (the log table): the fresh connection after a restart fails at once (the
    broker refuses): one DEBUG line ``reconnect after a restart: TEXT``, no restart counted for
    it, and the thread goes on into paho's loop (which tries again with its own back-off)."""
    gate = _Gate()
    monkeypatch.setattr(mqtt, "threading", gate)
    client = Client("c1", clean=True)
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    calls = _run(client, monkeypatch, [_die(RuntimeError("the library's fault"))],
                 refused=ConnectionRefusedError("[Errno 111] Connection refused"))
    assert calls == ["loop", "reconnect", "loop"]
    assert client.crashes == 1 and gate.waits == [1]
    assert _lines(caplog, logging.DEBUG) == [
        "reconnect after a restart: [Errno 111] Connection refused"]
    assert [r.levelno for r in caplog.records if r.name == LOGGER] == [
        logging.ERROR, logging.DEBUG]


def test_a_stop_during_the_back_off_ends_the_thread_without_a_new_connection(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """paho's ``loop_stop`` (which ``stop`` ends with) asked while the thread waits to restart:
    it ends without reconnecting."""
    hold = threading.Event()
    gate = _Gate(hold)
    monkeypatch.setattr(mqtt, "threading", gate)
    client = Client("c1", clean=True)
    stopper = threading.Thread(target=lambda: until(lambda: gate.waits, 60, "back-off")
                               and client.loop_stop())
    stopper.start()
    calls: list[str] = []

    def loop_forever(**_kwargs: Any) -> paho.MQTTErrorCode:
        calls.append("loop")
        if len(calls) == 1:
            raise MemoryError("the library's fault")
        return paho.MQTTErrorCode.MQTT_ERR_SUCCESS

    monkeypatch.setattr(client, "loop_forever", loop_forever)
    monkeypatch.setattr(client, "reconnect", lambda: calls.append("reconnect"))
    client.loop_start()
    until(lambda: client._thread_terminate, 60, "loop_stop asked")
    hold.set()  # the back-off is over, its time ran out (not woken by stop())
    stopper.join(60)
    assert not stopper.is_alive()
    assert calls == ["loop"] and client.crashes == 1 and client.receiving is False


@pytest.mark.parametrize("counted", [True, False], ids=["set-aside-count", "log-only"])
def test_the_message_in_hand_when_the_thread_died_is_set_aside_once_when_delivered_again(
        counted: bool, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The thread dies handling (LONG, b"same"); after the restart the broker delivers
    (other topic, b"same") - a different message: handled; (LONG, b"same") again - set aside
    unread, with the table the topic names as sender; and a third time - handled (the
    message is set aside once)."""
    monkeypatch.setattr(mqtt, "threading", _Gate())
    client = Client("c1", clean=True)
    acks = _acks(client, monkeypatch)
    caplog.set_level(logging.WARNING, logger=LOGGER)
    if counted:
        client.set_aside = SetAside("the table")
        client.sender_of = lambda topic: f"sender of {topic[:20]}"
    handled: list[tuple[str, bytes]] = []
    armed = [True]

    def handle(topic: str, payload: bytes, _retained: bool) -> None:
        if armed and topic == LONG:
            armed.clear()
            raise MemoryError("dies in the handler")
        handled.append((topic, payload))

    client.handle = handle

    def deliver(*messages: tuple[str, int]) -> Callable[[], None]:
        def loop() -> None:
            for topic, mid in messages:
                client._handle_on_message(_message(topic.encode(), b"same", mid=mid))
        return loop

    calls = _run(client, monkeypatch, [deliver((LONG, 1)),
                                       deliver(("mahjong/club/round", 2), (LONG, 3),
                                               (LONG, 4))])
    assert calls == ["loop", "reconnect", "loop"] and client.crashes == 1
    assert handled == [("mahjong/club/round", b"same"), (LONG, b"same")]
    assert acks == [1, 2, 3, 4]
    reason = "it was in hand when the receiving thread died (set aside unread)"
    if counted:
        assert client.set_aside is not None and client.set_aside.count == 1
        entry = dict(client.set_aside.last[0])
        del entry["at"]
        assert entry == {"topic": LONG[:120], "sender": "sender of mahjong/tables/ttttt",
                         "reason": reason, "bytes": 4}
    else:
        assert _lines(caplog) == [f"set aside a message on {LONG[:120]}: {reason}"]


# --- a fake MQTT server: CONNECT answered (or not, or late), PUBLISH recorded, never acked ----


class FakeBroker:
    """One MQTT 3.1.1 server connection at a time, read and written by hand: each CONNECT's
    client id recorded and answered with a CONNACK (accepted) once ``answer`` is set (never
    if ``silent``), each PUBLISH recorded as (qos, topic) and never acknowledged."""

    def __init__(self, *, silent: bool = False) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.silent = silent
        self.answer = threading.Event()
        self.answer.set()
        self.client_ids: list[str] = []
        self.published: list[tuple[int, str]] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            with conn:
                self._talk(conn)

    @staticmethod
    def _read(conn: socket.socket, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = conn.recv(n - len(data))
            if not chunk:
                raise ConnectionError
            data += chunk
        return data

    def _talk(self, conn: socket.socket) -> None:
        try:
            while True:
                head = self._read(conn, 1)[0]
                length, shift = 0, 0
                while True:  # the remaining length, 7 bits a byte (MQTT 3.1.1 2.2.3)
                    byte = self._read(conn, 1)[0]
                    length += (byte & 0x7F) << shift
                    shift += 7
                    if not byte & 0x80:
                        break
                body = self._read(conn, length)
                kind = head >> 4
                if kind == 1:  # CONNECT: name, level, flags, keepalive, then the client id
                    name_len = int.from_bytes(body[0:2], "big")
                    at = 2 + name_len + 4
                    id_len = int.from_bytes(body[at:at + 2], "big")
                    self.client_ids.append(body[at + 2:at + 2 + id_len].decode())
                    if self.silent:
                        continue
                    self.answer.wait(60)
                    conn.sendall(b"\x20\x02\x00\x00")
                elif kind == 3:  # PUBLISH
                    topic_len = int.from_bytes(body[0:2], "big")
                    self.published.append(((head >> 1) & 3, body[2:2 + topic_len].decode()))
                elif kind == 12:  # PINGREQ
                    conn.sendall(b"\xd0\x00")
                elif kind == 14:  # DISCONNECT
                    return
        except (ConnectionError, OSError):
            return

    def close(self) -> None:
        self.server.close()


@pytest.fixture
def fake_broker() -> Iterator[FakeBroker]:
    broker = FakeBroker()
    yield broker
    broker.close()


def test_at_most_20_messages_are_in_flight_unacknowledged(fake_broker: FakeBroker) -> None:
    """30 QoS 1 messages to a broker that acknowledges none: paho sends 20 (``max_inflight``
    20, docs/club.md) and queues the rest; a QoS 0 marker published after them is not held
    back (QoS 0 has no flight), so when it arrives every QoS 1 message sent before it has."""
    client = make_client(BrokerConfig("127.0.0.1", fake_broker.port), "inflight")
    connected = threading.Event()
    client.on_connect = lambda *_: connected.set()
    client.connect_async("127.0.0.1", fake_broker.port)
    client.loop_start()
    try:
        assert connected.wait(60)
        for n in range(30):
            client.publish(f"q/{n}", b"x", qos=1)
        client.publish("marker", b"", qos=0)
        until(lambda: (0, "marker") in fake_broker.published, 60, "the marker")
        before = fake_broker.published[:fake_broker.published.index((0, "marker"))]
        assert before == [(1, f"q/{n}") for n in range(20)]
    finally:
        client.stop()


def _loops(monkeypatch: pytest.MonkeyPatch, clock: FakeTime,
           after: Callable[[int], None] = lambda _n: None) -> list[float]:
    """paho's ``Client.loop`` counted (its timeouts); each wait moves the probe's clock on 1 s
    (a host where every wait takes a second), then ``after(number of loops so far)``."""
    timeouts: list[float] = []
    original = paho.Client.loop

    def loop(self: paho.Client, timeout: float = 1.0) -> paho.MQTTErrorCode:
        rc = original(self, timeout)
        timeouts.append(timeout)
        clock.now += 1.0
        after(len(timeouts))
        return rc

    monkeypatch.setattr(paho.Client, "loop", loop)
    monkeypatch.setattr(mqtt, "time", clock)
    return timeouts


def test_the_probe_asks_without_a_client_id_and_waits_for_a_late_answer(
        fake_broker: FakeBroker, monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe of an open broker (docs/club.md: a table tries once without user name and
    password) sends an empty client id (MQTT 3.1.1 3.1.3.1: the broker gives it one of its
    own, so the probe never takes over anyone's connection), and a broker that answers only
    after two of the probe's waits is still heard: open (True). (A long timeout: on a busy
    host the answer may take a few more waits.)"""
    fake_broker.answer.clear()
    timeouts = _loops(monkeypatch, FakeTime(100.0),
                      lambda n: fake_broker.answer.set() if n == 2 else None)
    assert lets_anyone_in(BrokerConfig("127.0.0.1", fake_broker.port), timeout=60) is True
    assert fake_broker.client_ids == [""]
    assert len(timeouts) >= 3 and set(timeouts) == {0.2}


def test_the_probe_stops_asking_once_answered(fake_broker: FakeBroker,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """With a clock that never moves, the probe ends only because the answer came."""
    monkeypatch.setattr(mqtt, "time", FakeTime(100.0))
    done: list[bool | None] = []
    probe = threading.Thread(target=lambda: done.append(
        lets_anyone_in(BrokerConfig("127.0.0.1", fake_broker.port))), daemon=True)
    probe.start()
    until(lambda: not probe.is_alive(), 60, "the probe answered")
    assert done == [True]


def test_a_broker_that_never_answers_is_not_reached_after_5_s(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A broker that takes the connection but never answers: the probe waits 5 s (by its
    clock, which moves 1 s a wait here: waits at 0, 1, 2, 3 and 4 s, none at 5) and says
    "not reached" (None)."""
    silent = FakeBroker(silent=True)
    try:
        timeouts = _loops(monkeypatch, FakeTime(100.0))
        assert lets_anyone_in(BrokerConfig("127.0.0.1", silent.port)) is None
        assert len(timeouts) == 5
    finally:
        silent.close()


# --- reconnecting, sessions and TLS -----------------------------------------------------------


class _PahoClock:
    """Stands for the ``time`` module and ``time_func`` inside paho: ``sleep`` (paho's wait
    before trying to connect again) is recorded and moves the clock on at once."""

    def __init__(self, events: list[Any]) -> None:
        self.now = 1000.0
        self.events = events
        self._real_sleep = __import__("time").sleep

    def monotonic(self) -> float:
        return self.now

    def time(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.events.append(seconds)
        self.now += seconds
        self._real_sleep(0.002)  # let the test's thread run


def test_a_broker_not_reached_is_tried_again_after_1_s_doubling_to_8_s_without_a_restart(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Nothing listens on the port: paho tries to connect again and again (``reconnect``),
    its back-off 1 s doubling to 8 s (docs/club.md; paho's ``reconnect_delay_set``): paho 2.2
    waits 1 s after the first failure in its first-connection loop and 2 s more in its main
    loop before the second try, so the attempts are 1 + 2 = 3 s apart, then 4, then 8 (the
    cap) and 8 again. A broker not there at the start is no death of the receiving thread
    (no restart, no ERROR line)."""
    events: list[Any] = []
    monkeypatch.setattr(paho, "time", _PahoClock(events))
    monkeypatch.setattr(paho, "time_func", paho.time.monotonic)
    original = paho.Client.reconnect

    def reconnect(self: paho.Client) -> paho.MQTTErrorCode:
        events.append("attempt")
        return original(self)

    monkeypatch.setattr(paho.Client, "reconnect", reconnect)
    caplog.set_level(logging.ERROR, logger=LOGGER)
    port = free_port()
    client = make_client(BrokerConfig("127.0.0.1", port), "nobody-there")
    client.connect_async("127.0.0.1", port)
    client.loop_start()
    try:
        until(lambda: events.count("attempt") >= 7, 60, "seven attempts")
    finally:
        client.stop()
    waits: list[float] = []
    for event in events:
        if event == "attempt":
            waits.append(0.0)
        else:
            waits[-1] += event
    assert waits[:6] == [3, 4, 8, 8, 8, 8]
    assert client.crashes == 0 and _lines(caplog, logging.ERROR) == []


@pytest.mark.parametrize(("clean", "present"), [(False, [False, True]), (True, [False, False])],
                         ids=["persistent", "clean"])
def test_a_persistent_session_is_found_again_by_mosquitto(
        clean: bool, present: list[bool], tmp_path: Path) -> None:
    """The club's client (``clean=False``, docs/club.md: persistent session, QoS 1) finds its
    session at the broker when it connects again (CONNACK's session-present flag, MQTT 3.1.1
    3.2.2.2); a clean one never does."""
    broker = Mosquitto(tmp_path / "broker")
    broker.start()
    seen: list[bool] = []
    try:
        for round_ in (1, 2):
            client = make_client(BrokerConfig("127.0.0.1", broker.port), "the-club",
                                 clean=clean)
            client.on_connect = lambda _c, _u, flags, _r, _p: seen.append(
                bool(flags.session_present))
            client.connect_async("127.0.0.1", broker.port)
            client.loop_start()
            until(lambda n=round_: len(seen) == n, 60, "connected")
            client.subscribe("mahjong/#", qos=1)
            client.stop()
            until(lambda c=client: not c.is_connected(), 60, "disconnected")
        assert seen == present
    finally:
        broker.stop()


def test_tls_with_the_halls_ca_for_the_client_and_the_probe(tmp_path: Path) -> None:
    """docs/club.md's TLS: a listener with a certificate signed by the hall's CA; given that
    CA (``--club-ca`` / ``--broker-ca``), the probe finds the (open) TLS listener and the
    client connects."""
    ca, crt, key = _certificates(tmp_path)
    broker = Mosquitto(tmp_path / "broker")
    tls_port = free_port()
    broker.conf.write_text(broker.conf.read_text()
                           + f"listener {tls_port} 127.0.0.1\ncertfile {crt}\nkeyfile {key}\n")
    broker.start()
    try:
        until(lambda: _listening(tls_port), 30, "the TLS listener")
        config = BrokerConfig("localhost", tls_port, ca_file=ca)
        assert lets_anyone_in(config) is True
        client = make_client(config, "over-tls")
        answers: list[bool] = []
        client.on_connect = lambda _c, _u, _f, reason, _p: answers.append(
            not reason.is_failure)
        client.connect_async("localhost", tls_port)
        client.loop_start()
        try:
            until(lambda: answers, 30, "connected over TLS")
            assert answers[0] is True
        finally:
            client.stop()
    finally:
        broker.stop()
