"""One way to make the MQTT client (paho-mqtt 2.x) for both sides: credentials, TLS, reconnects,
a receiving thread that outlives anything a message does, and the log of messages set aside.

Every message received is acknowledged whatever its handler does (manual acks, sent in a
``finally``), so a bad message is never redelivered forever. Should the receiving thread die
all the same, it is restarted after a back-off (1 s, doubling to 30 s) with a fresh connection;
the message it was handling when it died is then acknowledged and set aside unread if the
broker delivers it again. ``receiving`` is false while the thread is down (the health pages).
"""

from __future__ import annotations

import hashlib
import logging
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho

log = logging.getLogger("controller.club.mqtt")
Handler = Callable[[str, bytes, bool], None]  # topic, payload, retained


@dataclass(frozen=True)
class BrokerConfig:
    host: str
    port: int
    username: str | None = None
    password: str | None = None
    ca_file: Path | None = None  # TLS: the CA that signed the broker's certificate


def read_password(path: Path | None) -> str | None:
    """The password from a file (first line), so that it never shows in a process list."""
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8").splitlines()[0].strip()
    except (OSError, IndexError) as exc:
        raise ValueError(f"cannot read the broker password from {path}: {exc}") from None


class SetAside:
    """Messages refused (bad form, bad signature, out of order): counted, the last 20 kept
    for the health page, one log line per topic at most every 10 s (a flood stays short)."""

    def __init__(self, side: str) -> None:
        self.side = side
        self.count = 0
        self.last: deque[dict[str, Any]] = deque(maxlen=20)
        self._logged: dict[str, float] = {}
        self._quiet: dict[str, int] = {}
        self._lock = threading.Lock()

    def add(self, topic: str, sender: str, reason: str, size: int) -> None:
        now = time.monotonic()
        with self._lock:
            self.count += 1
            self.last.append({"topic": topic[:120], "sender": sender, "reason": reason,
                              "bytes": size, "at": time.time()})
            if now - self._logged.get(topic, -1e9) < 10.0:
                self._quiet[topic] = self._quiet.get(topic, 0) + 1
                return
            self._logged[topic] = now
            quiet = self._quiet.pop(topic, 0)
        more = f" ({quiet} more since the last line)" if quiet else ""
        log.warning("%s set aside a message on %s (sender: %s; %d bytes): %s%s", self.side,
                    topic[:120], sender, size, reason, more)


class Client(paho.Client):
    """A paho client whose network thread is restarted when it dies (see the module text)."""

    def __init__(self, client_id: str, *, clean: bool, restart_after: float = 1.0) -> None:
        super().__init__(paho.CallbackAPIVersion.VERSION2, client_id=client_id,
                         clean_session=clean, protocol=paho.MQTTv311)
        self.manual_ack_set(True)
        self.handle: Handler = lambda _t, _p, _r: None
        self.set_aside: SetAside | None = None  # where a message set aside here is counted
        self.sender_of: Callable[[str], str] = lambda _topic: "?"
        self.receiving = False
        self.crashes = 0
        self.restart_after = restart_after
        self._stopping = threading.Event()
        self._in_hand: bytes | None = None  # the digest of the message being handled
        self._poison: set[bytes] = set()
        self.on_message = self._dispatch

    def _dispatch(self, _client: Any, _ud: Any, msg: Any) -> None:
        self.handle(msg.topic, bytes(msg.payload), bool(msg.retain))

    # paho calls this for every message it has read (it then calls ``on_message``): the
    # boundary where a message is acknowledged whatever happens beyond it, and remembered
    # while in hand, so that a message that killed the thread is never handled twice.
    def _handle_on_message(self, message: paho.MQTTMessage) -> None:
        payload = bytes(message.payload)
        try:
            topic: str | None = message.topic
        except UnicodeDecodeError:
            topic = None
        digest = hashlib.sha256((topic or "").encode() + b"\0" + payload).digest()
        try:
            if topic is None:
                self._aside("?", "its topic is not UTF-8", payload)
            elif digest in self._poison:  # it was in hand when the thread died
                self._poison.discard(digest)
                self._aside(topic, "it was in hand when the receiving thread died (set aside "
                            "unread)", payload)
            else:
                self._in_hand = digest
                super()._handle_on_message(message)
                self._in_hand = None
        finally:
            if message.qos > 0:
                self.ack(message.mid, message.qos)

    def _aside(self, topic: str, reason: str, payload: bytes) -> None:
        if self.set_aside is not None:
            self.set_aside.add(topic, self.sender_of(topic), reason, len(payload))
        else:
            log.warning("set aside a message on %s: %s", topic[:120], reason)

    # paho's loop_start() runs this in its thread; it is the one hook to keep that thread
    # alive (loop_stop() and disconnect() end it as before).
    def _thread_main(self) -> None:
        delay = self.restart_after
        while True:
            try:
                self.receiving = True
                self.loop_forever(retry_first_connection=True)
                self.receiving = False
                return
            except BaseException as exc:  # noqa: BLE001 - the thread must outlive it
                self.receiving = False
                self.crashes += 1
                if self._in_hand is not None:
                    self._poison.add(self._in_hand)
                    self._in_hand = None
                log.error("the MQTT receiving thread died (%s: %s); restarting in %.0f s",
                          type(exc).__name__, str(exc)[:200], delay)
            if self._stopping.wait(delay) or self._thread_terminate:
                return
            delay = min(delay * 2, 30.0)
            try:
                self.reconnect()  # a fresh connection: nothing half-read is left over
            except Exception as exc:  # noqa: BLE001 - loop_forever retries with back-off
                log.debug("reconnect after a restart: %s", exc)

    def stop(self) -> None:
        self._stopping.set()
        self.disconnect()
        self.loop_stop()


def make_client(config: BrokerConfig, client_id: str, *, clean: bool = True,
                restart_after: float = 1.0) -> Client:
    """A client that reconnects by itself (1-8 s back-off) once connect_async'ed."""
    client = Client(client_id, clean=clean, restart_after=restart_after)
    if config.username:
        client.username_pw_set(config.username, config.password)
    if config.ca_file is not None:
        client.tls_set(ca_certs=str(config.ca_file), tls_version=ssl.PROTOCOL_TLS_CLIENT)
    client.reconnect_delay_set(min_delay=1, max_delay=8)
    client.max_inflight_messages_set(20)
    return client


def lets_anyone_in(config: BrokerConfig, timeout: float = 5.0) -> bool | None:
    """Whether the broker takes a client without user name and password: True (open),
    False (refused), None (not reached)."""
    probe = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="",
                        protocol=paho.MQTTv311)
    if config.ca_file is not None:
        probe.tls_set(ca_certs=str(config.ca_file), tls_version=ssl.PROTOCOL_TLS_CLIENT)
    answer: list[bool] = []
    probe.on_connect = lambda _c, _u, _f, reason, _p: answer.append(not reason.is_failure)
    try:
        probe.connect(config.host, config.port, keepalive=10)
    except (OSError, ValueError):
        return None
    deadline = time.monotonic() + timeout
    try:
        while not answer and time.monotonic() < deadline:
            if probe.loop(timeout=0.2) != paho.MQTTErrorCode.MQTT_ERR_SUCCESS:
                break
    finally:
        probe.disconnect()
    return answer[0] if answer else None
