"""paho's client as the table's publisher uses it, stood in for: each call recorded (with
paho's own defaults, QoS 0, not retained, no payload, keepalive 60, for what a call leaves
out), each publish answered as a broker would: acknowledged, not acknowledged, or the link gone
(tests/club/test_publisher_link.py, test_publisher_data.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.club.mqtt import BrokerConfig


@dataclass
class Sent:
    topic: str
    message: dict[str, Any]
    qos: int
    retain: bool


class FakeInfo:
    """paho's MQTTMessageInfo: ``outcome`` "ok" (acknowledged), "unacked" (not acknowledged in
    the time waited) or "gone" (no connection: paho raises); each timeout waited with goes
    into ``waits``."""

    def __init__(self, outcome: str, waits: list[float | None]) -> None:
        self.outcome = outcome
        self.waits = waits

    def wait_for_publish(self, timeout: float | None = None) -> None:
        self.waits.append(timeout)
        if self.outcome == "gone":  # paho: a message it could not send (no connection)
            raise RuntimeError("The client is not currently connected.")

    def is_published(self) -> bool:
        return self.outcome == "ok"


class FakeClient:
    """The client ``make_client`` returns. A fact's answer (a publish on a ``facts`` topic) is
    the next of ``outcomes`` ("ok" when none is left); every other publish is acknowledged."""

    def __init__(self, config: BrokerConfig | None = None, client_id: str | None = None,
                 restart_after: float = 1.0) -> None:
        self.config, self.client_id, self.restart_after = config, client_id, restart_after
        self.calls: list[tuple[Any, ...]] = []
        self.outcomes: list[str] = []
        self.waits: list[float | None] = []
        self.receiving, self.crashes = True, 0
        self.set_aside: Any = None
        self.sender_of: Callable[[str], str] | None = None
        self.handle: Any = None
        self.on_connect: Any = None
        self.on_disconnect: Any = None
        self.on_connect_fail: Any = None

    def will_set(self, topic: str, payload: bytes | None = None, qos: int = 0,
                 retain: bool = False) -> None:
        self.calls.append(("will_set", topic, payload, qos, retain))

    def connect_async(self, host: str, port: int = 1883, keepalive: int = 60) -> None:
        self.calls.append(("connect_async", host, port, keepalive))

    def loop_start(self) -> None:
        self.calls.append(("loop_start",))

    def publish(self, topic: str, payload: bytes | None = None, qos: int = 0,
                retain: bool = False) -> FakeInfo:
        self.calls.append(("publish", topic, payload, qos, retain))
        fact = topic.endswith("/facts")
        return FakeInfo(self.outcomes.pop(0) if fact and self.outcomes else "ok", self.waits)

    def subscribe(self, topics: list[tuple[str, int]]) -> None:
        self.calls.append(("subscribe", topics))

    def stop(self) -> None:
        self.calls.append(("stop",))

    @property
    def sent(self) -> list[Sent]:
        """Each message published, parsed."""
        return [Sent(c[1], json.loads(c[2]), c[3], c[4]) for c in self.calls
                if c[0] == "publish"]
