"""The table's publisher (``serve --club-broker HOST:PORT --table-id NAME``).

It reads the table's own event log (never the live game), folds each session into facts
(``controller.sessions``) and publishes them with QoS 1, one at a time: a fact's position is
saved (written, synced, renamed) only once the broker has acknowledged it, so a broker that is
down, or a table killed and restarted, loses nothing; what may be sent twice the club keeps once.
Every fact names the position of the one before it (``prev``); a club that sees a gap asks for
the facts after its last position again (``resend``). The retained status says the same from
the newest session; the broker's last will says the table went offline.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

from controller.club import topics
from controller.club.mqtt import BrokerConfig, make_client
from controller.sessions import Fact, SessionFold
from controller.store import EventLog, StoreError

log = logging.getLogger("controller.club.publisher")
STATE_FILE = "club-published.json"
SESSION_END_SLOT = topics.SLOTS - 1


class ClubPublisher:
    """Follows the event log in a thread of its own and publishes what it finds."""

    def __init__(self, data_dir: Path, table: str, broker: BrokerConfig, *,
                 log_file: str = "events.sqlite", poll: float = 0.25) -> None:
        self.table = topics.check_table_id(table)
        self.db_path = Path(data_dir) / log_file
        self.state_path = Path(data_dir) / STATE_FILE
        self.broker = broker
        self.poll = poll
        self.round: dict[str, Any] | None = None  # the club's tournament round, if any
        self.roster: list[str] = []
        self.connected = False
        self.published = self._load_position()
        self._folds: dict[int, SessionFold] = {}
        self._ended: set[int] = set()
        self._pending: list[tuple[int, Fact]] = []
        self._rewind: int | None = None
        self._status_key: Any = None
        self._status_at = 0.0
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._client: Any = None

    # --- lifetime -----------------------------------------------------------------------------

    def start(self) -> None:
        client = make_client(self.broker, f"table-{self.table}")
        client.will_set(topics.table_topic(self.table, "online"),
                        topics.encode({"table": self.table, "online": False}), qos=1, retain=True)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.connect_async(self.broker.host, self.broker.port, keepalive=10)
        client.loop_start()
        self._client = client
        self._thread = threading.Thread(target=self._run, name="club-publisher", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._client is not None:
            if self.connected:
                info = self._client.publish(
                    topics.table_topic(self.table, "online"),
                    topics.encode({"table": self.table, "online": False}), qos=1, retain=True)
                info.wait_for_publish(timeout=2)
            self._client.disconnect()
            self._client.loop_stop()

    def wake(self) -> None:
        """Something was appended: look at the log now rather than at the next poll."""
        self._wake.set()

    # --- MQTT callbacks (paho's thread) -------------------------------------------------------

    def _on_connect(self, client: Any, _ud: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if reason.is_failure:
            log.warning("the club broker refused the table: %s", reason)
            return
        self.connected = True
        client.publish(topics.table_topic(self.table, "online"),
                       topics.encode({"table": self.table, "online": True}), qos=1, retain=True)
        client.subscribe([(topics.table_topic(self.table, "resend"), 1), (topics.ROUND, 1),
                          (topics.ROSTER, 1)])
        self._status_key = None  # publish the status again
        log.info("connected to the club broker %s:%s", self.broker.host, self.broker.port)
        self._wake.set()

    def _on_disconnect(self, *_args: Any) -> None:
        if self.connected and not self._stop.is_set():
            log.warning("lost the club broker; the backlog goes out when it is back")
        self.connected = False

    def _on_message(self, _client: Any, _ud: Any, msg: Any) -> None:
        body = topics.decode(msg.payload)
        if msg.topic == topics.ROUND:
            self.round = body if body and body.get("round") else None
        elif msg.topic == topics.ROSTER:
            names = (body or {}).get("players")
            self.roster = [str(n) for n in names][:500] if isinstance(names, list) else []
        elif body is not None and isinstance(body.get("after"), int):
            self._rewind = max(0, int(body["after"]))
            self._wake.set()

    # --- the loop -----------------------------------------------------------------------------

    def _run(self) -> None:
        store: EventLog | None = None
        while not self._stop.is_set():
            self._wake.wait(self.poll)
            self._wake.clear()
            try:
                if store is None:
                    store = self._open()
                if store is not None:
                    self._step(store)
            except StoreError as exc:
                log.warning("cannot read the event log for the club: %s", exc)
                if store is not None:
                    store.close()
                store = None
                time.sleep(1.0)
            except Exception:  # the publisher must never take the table down
                log.exception("club publisher error; retrying")
                time.sleep(1.0)
        if store is not None:
            store.close()

    def _open(self) -> EventLog | None:
        if not self.db_path.exists():
            return None
        return EventLog.open(self.db_path, readonly=True)

    def _step(self, store: EventLog) -> None:
        rewind, self._rewind = self._rewind, None
        if rewind is not None and rewind < self.published:
            log.info("the club asks again for what follows position %d", rewind)
            self._folds.clear()
            self._ended.clear()
            self._pending.clear()
            self.published = rewind
        self._read(store)
        if not self.connected:
            return
        while self._pending and not self._stop.is_set():
            pos, fact = self._pending[0]
            if not self._send(pos, fact):
                return
            self._pending.pop(0)
        self._send_status()

    def _read(self, store: EventLog) -> None:
        """Fold what is new in the log into pending facts past the published position."""
        for info in store.sessions():
            if info.id in self._ended:
                continue
            fold = self._folds.get(info.id)
            if fold is None:
                fold = self._folds[info.id] = SessionFold(info.id, info.ruleset, info.started)
            for record in store.records(info.id, after=fold.seq):
                self._queue(fold.feed(record.seq, record.event, record.at))
            if info.ended_at is not None:
                end = fold.end_fact(info.ended_at)
                self._queue([end], slot=SESSION_END_SLOT)
                self._ended.add(info.id)
        # only the newest session's fold is needed for the status; ended ones are done
        for sid in [s for s in self._folds if s in self._ended and s != max(self._folds)]:
            del self._folds[sid]

    def _queue(self, facts: list[Fact], slot: int | None = None) -> None:
        for i, fact in enumerate(facts[: topics.SLOTS - 1]):
            pos = fact.seq * topics.SLOTS + (slot if slot is not None else i)
            if pos > self.published:
                self._pending.append((pos, fact))

    def _send(self, pos: int, fact: Fact) -> bool:
        message = {**fact.body, "table": self.table, "session": fact.session, "kind": fact.kind,
                   "pos": pos, "prev": self.published}
        info = self._client.publish(topics.table_topic(self.table, "facts"),
                                    topics.encode(message), qos=1)
        try:
            info.wait_for_publish(timeout=5.0)
        except (RuntimeError, ValueError):
            return False
        if not info.is_published():
            return False
        self.published = pos
        self._save_position()
        return True

    def _send_status(self) -> None:
        status = self.status()
        key = json.dumps(status, sort_keys=True)
        now = time.monotonic()
        if key == self._status_key and now - self._status_at < 30:
            return
        status["at"] = time.time()
        self._client.publish(topics.table_topic(self.table, "status"), topics.encode(status),
                             qos=1, retain=True)
        self._status_key, self._status_at = key, now

    def status(self) -> dict[str, Any]:
        """The retained status: from the newest session's fold (public facts only)."""
        base: dict[str, Any] = {"table": self.table, "online": True, "last_pos": self.published}
        if not self._folds:
            return {**base, "session": None}
        sid = max(self._folds)
        fold = self._folds[sid]
        from controller import game

        view = game.public_view(fold.state)
        hand = view.get("hand") or {}
        turn = hand.get("turn")
        seats = hand.get("seats") or {}
        names = view.get("names") or {}
        summary = fold.summary()
        return {**base, "session": sid, "ruleset": fold.ruleset, "active": sid not in self._ended,
                "hand": hand.get("number"), "phase": hand.get("phase"),
                "wall": hand.get("live_wall"), "turn": turn,
                "turn_wind": (seats.get(str(turn)) or {}).get("wind") if turn else None,
                "dealer": hand.get("dealer"), "prevailing_wind": hand.get("prevailing_wind"),
                "names": names, "totals": summary["totals"], "final": summary["final"],
                "hands": summary["hands"]}

    # --- the durable position -----------------------------------------------------------------

    def _load_position(self) -> int:
        try:
            data = json.loads(self.state_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return 0
        if not isinstance(data, dict) or data.get("table") != self.table:
            return 0  # another table id: publish everything under the new name
        pos = data.get("published")
        return pos if isinstance(pos, int) and pos >= 0 else 0

    def _save_position(self) -> None:
        tmp = self.state_path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({"table": self.table, "published": self.published}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.state_path)
