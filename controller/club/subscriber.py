"""The club service's MQTT side: everything the tables publish is checked (schema, the table's
signature, order) before it reaches the club's store; a gap in a table's facts (or a status
ahead of what the club holds) asks the table to send again from the club's last position. The
club publishes the roster and the round timer, signed with its own key.

What fails a check is logged with its topic and sender, acknowledged and set aside (counted
and shown in ``/api/health``); nothing of it is stored. The sender of a message is the table
its topic names: the broker's access rules let only that table's user write there."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from controller.club import schema, topics
from controller.club.keyring import Keyring
from controller.club.mqtt import BrokerConfig, SetAside, make_client
from controller.club.store import ClubStore

log = logging.getLogger("controller.club.subscriber")
RESEND_EVERY = 2.0  # seconds between two requests to one table
LEAVES = {"status": "status", "online": "online", "facts": "fact"}


class ClubSubscriber:
    def __init__(self, store: ClubStore, broker: BrokerConfig,
                 on_change: Callable[[], None] | None = None, client_id: str = "club", *,
                 keyring: Keyring | None, restart_after: float = 1.0) -> None:
        self.store = store
        self.broker = broker
        self.keyring = keyring  # None only in the benchmark's unsigned baseline
        self.on_change = on_change or (lambda: None)
        self.connected = False
        self.disconnects = 0  # times the broker dropped the club (or someone took its id)
        self.received = 0
        self.set_aside = SetAside("the club")
        self._asked: dict[str, float] = {}
        self._status_at: dict[str, float] = {}
        self._client = make_client(broker, client_id, clean=False, restart_after=restart_after)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.handle = self._on_message
        self._client.set_aside = self.set_aside
        self._client.sender_of = lambda topic: (topics.parse_table_topic(topic) or ("?",))[0]

    @property
    def receiving(self) -> bool:
        """Whether the receiving thread runs (false while it is down, before a restart)."""
        return bool(self._client.receiving)

    @property
    def restarts(self) -> int:
        return int(self._client.crashes)

    def start(self) -> None:
        self._client.connect_async(self.broker.host, self.broker.port, keepalive=10)
        self._client.loop_start()

    def stop(self) -> None:
        self._client.stop()

    def publish(self, topic: str, message: dict[str, Any], retain: bool = True) -> None:
        """Publish from the club (the roster, the round, a resend request), signed."""
        message = {**message, "issued": time.time()}
        if self.keyring is not None:
            message = self.keyring.signer.sign(topic, message)
        self._client.publish(topic, topics.encode(message), qos=1, retain=retain)

    def _on_connect(self, client: Any, _ud: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if reason.is_failure:
            log.warning("the broker refused the club service: %s", reason)
            return
        self.connected = True
        client.subscribe(topics.TABLES, qos=1)
        log.info("club service connected to %s:%s", self.broker.host, self.broker.port)

    def _on_disconnect(self, *_args: Any) -> None:
        if self.connected:
            self.disconnects += 1
        self.connected = False

    def _on_message(self, topic: str, payload: bytes, _retained: bool) -> None:
        self.received += 1
        parsed = topics.parse_table_topic(topic)
        sender = parsed[0] if parsed else "?"
        try:
            if parsed is None:
                raise schema.BadMessage("not a table's topic")
            table, leaf = parsed
            if leaf == "resend":
                return  # the club's own request to the table
            if leaf not in LEAVES:
                raise schema.BadMessage(f"no such topic as {leaf!r}")
            if not payload:
                return  # a retained message cleared
            body = self._checked(table, topic, LEAVES[leaf], payload)
            self._take(table, leaf, body)
        except schema.BadMessage as exc:
            self.set_aside.add(topic, sender, str(exc), len(payload))
        except Exception:  # one message must not stop the club; it is set aside
            log.exception("could not keep a message on %s", topic[:120])
            self.set_aside.add(topic, sender, "the club failed on it (see the log)",
                               len(payload))

    def _checked(self, table: str, topic: str, what: str, payload: bytes) -> dict[str, Any]:
        """The message, if it meets the schema, names its topic's table and is signed with
        that table's key; else BadMessage."""
        body = schema.check(what, schema.parse(payload))
        if body["table"] != table:
            raise schema.BadMessage(f"says table {body['table']!r} on {table}'s topic")
        if self.keyring is not None:
            verifier = self.keyring.verifier(table)
            if verifier is None:
                raise schema.BadMessage(f"{table} is not enrolled at this club "
                                        "(mahjong-table club enrol-table NAME)")
            if not verifier.verify(topic, body):
                raise schema.BadMessage(f"not signed with {table}'s key")
        return {k: v for k, v in body.items() if k != "sig"}

    def _take(self, table: str, leaf: str, body: dict[str, Any]) -> None:
        if leaf == "status":
            if body["at"] < self._status_at.get(table, 0.0):
                raise schema.BadMessage("older than the status the club holds")
            self._status_at[table] = body["at"]
            self.store.set_status(table, body)
            if body["last_pos"] > self.store.last_pos(table):
                self._ask(table)
        elif leaf == "online":
            self.store.set_online(table, body["online"])
        else:
            outcome = self.store.apply_fact(table, body)
            if outcome == "gap":
                self._ask(table)
            elif outcome == "conflict":
                raise schema.BadMessage(f"position {body['pos']} holds another fact of "
                                        f"{table} at the club")
        self.on_change()

    def _ask(self, table: str) -> None:
        now = time.monotonic()
        if now - self._asked.get(table, 0.0) < RESEND_EVERY:
            return
        self._asked[table] = now
        self.publish(topics.table_topic(table, "resend"),
                     {"table": table, "after": self.store.last_pos(table)}, retain=False)
