"""The club service's MQTT side: everything the tables publish goes into the club's store;
a gap in a table's facts (or a status ahead of what the club holds) asks the table to send
again from the club's last position. The club publishes the roster and the round timer."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from controller.club import topics
from controller.club.mqtt import BrokerConfig, make_client
from controller.club.store import ClubStore

log = logging.getLogger("controller.club.subscriber")
RESEND_EVERY = 2.0  # seconds between two requests to one table


class ClubSubscriber:
    def __init__(self, store: ClubStore, broker: BrokerConfig,
                 on_change: Callable[[], None] | None = None, client_id: str = "club") -> None:
        self.store = store
        self.broker = broker
        self.on_change = on_change or (lambda: None)
        self.connected = False
        self.received = 0
        self._asked: dict[str, float] = {}
        self._client = make_client(broker, client_id, clean=False)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message

    def start(self) -> None:
        self._client.connect_async(self.broker.host, self.broker.port, keepalive=10)
        self._client.loop_start()

    def stop(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def publish(self, topic: str, message: dict[str, Any] | None, retain: bool = True) -> None:
        """Publish (retained) from the club: the roster, the round; None clears it."""
        payload = b"" if message is None else topics.encode(message)
        self._client.publish(topic, payload, qos=1, retain=retain)

    def _on_connect(self, client: Any, _ud: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if reason.is_failure:
            log.warning("the broker refused the club service: %s", reason)
            return
        self.connected = True
        client.subscribe(topics.TABLES, qos=1)
        log.info("club service connected to %s:%s", self.broker.host, self.broker.port)

    def _on_disconnect(self, *_args: Any) -> None:
        self.connected = False

    def _on_message(self, _client: Any, _ud: Any, msg: Any) -> None:
        parsed = topics.parse_table_topic(msg.topic)
        body = topics.decode(msg.payload) if msg.payload else None
        if parsed is None or body is None:
            return
        table, leaf = parsed
        self.received += 1
        try:
            self._take(table, leaf, body)
        except Exception:  # one bad message must not stop the club
            log.exception("could not keep a message from table %s", table)

    def _take(self, table: str, leaf: str, body: dict[str, Any]) -> None:
        if leaf == "status":
            self.store.set_status(table, body)
            last = body.get("last_pos")
            if isinstance(last, int) and last > self.store.last_pos(table):
                self._ask(table)
        elif leaf == "online":
            self.store.set_online(table, bool(body.get("online")))
        elif leaf == "facts":
            if self.store.apply_fact(table, body) == "gap":
                self._ask(table)
        else:
            return
        self.on_change()

    def _ask(self, table: str) -> None:
        now = time.monotonic()
        if now - self._asked.get(table, 0.0) < RESEND_EVERY:
            return
        self._asked[table] = now
        after = self.store.last_pos(table)
        self._client.publish(topics.table_topic(table, "resend"), topics.encode({"after": after}),
                             qos=1)
