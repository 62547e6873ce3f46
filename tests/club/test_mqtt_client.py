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
import types
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
         loops: list[Callable[[], None]]) -> list[str]:
    """Run the client's receiving thread with paho's ``loop_forever`` replaced by ``loops``
    (one per call; after the last one the loop ends as at a disconnect); the calls made to
    ``reconnect`` and the loops run, in order, once the thread has ended."""
    calls: list[str] = []
    todo = list(loops)

    def loop_forever(**_kwargs: Any) -> paho.MQTTErrorCode:
        calls.append("loop")
        if todo:
            todo.pop(0)()
        return paho.MQTTErrorCode.MQTT_ERR_SUCCESS

    def reconnect() -> paho.MQTTErrorCode:
        calls.append("reconnect")
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
