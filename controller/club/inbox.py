"""What a table takes from the club over the broker: the round, the roster and the requests to
send again. Each is checked against its schema and the club's signature before anything acts
on it; a round or roster older (by the club's ``issued`` time) than the one held is refused,
so an old message played back cannot bring back an ended round or an old roster. A resend
request names the table, asks for nothing past what the table published, and is honoured at
most once a second."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from controller.club import schema, topics
from controller.club.mqtt import SetAside
from controller.club.signing import Verifier

RESEND_GAP = 1.0  # seconds between two resends honoured
#: MQTT 3.1.1 names no sender; the access rules let only the club write these topics.
SENDER = "whoever wrote the club's topic"


class Inbox:
    def __init__(self, table: str, club: Verifier | None, set_aside: SetAside,
                 issued: dict[str, float] | None = None) -> None:
        self.table = table
        self.club = club
        self.set_aside = set_aside
        self.round: dict[str, Any] | None = None
        self.roster: list[str] = []
        self.issued: dict[str, float] = dict(issued or {})  # newest round/roster taken
        self._resent_at = -1e9

    def take(self, topic: str, payload: bytes, published: int,
             rewind: Callable[[int], None]) -> bool:
        """Act on one message; False when it was set aside (the reason logged)."""
        try:
            self._take(topic, payload, published, rewind)
        except schema.BadMessage as exc:
            self.set_aside.add(topic, SENDER, str(exc), len(payload))
            return False
        return True

    def _take(self, topic: str, payload: bytes, published: int,
              rewind: Callable[[int], None]) -> None:
        what = {topics.ROUND: "round", topics.ROSTER: "roster",
                topics.table_topic(self.table, "resend"): "resend"}.get(topic)
        if what is None:
            raise schema.BadMessage("not a topic the table reads")
        if not payload:
            raise schema.BadMessage("empty (a retained message cleared by someone)")
        body = schema.check(what, schema.parse(payload))
        if self.club is not None and not self.club.verify(topic, body):
            raise schema.BadMessage("not signed by the club")
        if what == "resend":
            self._resend(body, published, rewind)
            return
        if body["issued"] < self.issued.get(what, 0.0):
            raise schema.BadMessage(f"older than the {what} the table holds")
        self.issued[what] = body["issued"]
        if what == "round":
            self.round = body if body.get("round") else None
        else:
            self.roster = list(body["players"])

    def _resend(self, body: dict[str, Any], published: int,
                rewind: Callable[[int], None]) -> None:
        if body["table"] != self.table:
            raise schema.BadMessage(f"a resend for {body['table']}, not this table")
        if body["after"] >= published:
            raise schema.BadMessage(f"asks after {body['after']}; the table published up to "
                                    f"{published}")
        now = time.monotonic()
        if now - self._resent_at < RESEND_GAP:
            raise schema.BadMessage("a second resend within a second")
        self._resent_at = now
        rewind(body["after"])
