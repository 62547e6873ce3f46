"""The table's publisher (``serve --club-broker HOST:PORT --table-id NAME``).

It reads the table's own event log (never the live game), folds each session into facts
(``controller.sessions``) and publishes them with QoS 1, one at a time: a fact's position is
saved (written, synced, renamed) only once the broker has acknowledged it, so a broker that is
down, or a table killed and restarted, loses nothing; what may be sent twice the club keeps once.
Every fact names the position of the one before it (``prev``); a club that sees a gap asks for
the facts after its last position again (``resend``). The retained status says the same from
the newest session; the broker's last will says the table went offline. Every message is
signed with the table's key (``controller.club.signing``); what the club sends is checked
(``controller.club.inbox``). A broker that lets anyone in is refused unless ``insecure``.
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
from controller.club.inbox import SENDER, Inbox
from controller.club.mqtt import BrokerConfig, SetAside, lets_anyone_in, make_client
from controller.club.signing import Signer, Verifier
from controller.sessions import Fact, SessionFold
from controller.store import EventLog, StoreError

log = logging.getLogger("controller.club.publisher")
STATE_FILE = "club-published.json"
SESSION_END_SLOT = topics.SLOTS - 1


class ClubPublisher:
    """Follows the event log in a thread of its own and publishes what it finds."""

    def __init__(self, data_dir: Path, table: str, broker: BrokerConfig, *,
                 signer: Signer | None, club: Verifier | None, insecure: bool = False,
                 log_file: str = "events.sqlite", poll: float = 0.25,
                 restart_after: float = 1.0) -> None:
        self.table = topics.check_table_id(table)
        self.db_path = Path(data_dir) / log_file
        self.state_path = Path(data_dir) / STATE_FILE
        self.broker = broker
        self.poll = poll
        self.signer = signer  # None only in the benchmark's unsigned baseline
        self.insecure = insecure
        self.restart_after = restart_after  # the receiving thread's first restart delay
        self.refused: str | None = None  # why the table does not connect, if it does not
        self.connected = False
        self._said: set[str] = set()  # log lines said once ("connecting", "not yet")
        self.set_aside = SetAside("the table")
        self.published, issued = self._load_position()
        self.inbox = Inbox(self.table, club, self.set_aside, issued)
        self._folds: dict[int, SessionFold] = {}
        self._ended: set[int] = set()
        self._pending: list[tuple[int, Fact]] = []
        self._rewind: int | None = None
        self._status_key: Any = None
        self._status_at = 0.0
        self._stop = threading.Event()
        self._saving = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._client: Any = None
        self.board_url: str | None = None  # the table's board, for the club's card

    # --- lifetime -----------------------------------------------------------------------------

    @property
    def round(self) -> dict[str, Any] | None:
        """The club's tournament round, if any (checked and signed by the club)."""
        return self.inbox.round

    @property
    def roster(self) -> list[str]:
        return self.inbox.roster

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="club-publisher", daemon=True)
        self._thread.start()

    def _connect(self) -> bool:
        """Connect unless the broker lets anyone in (then say so and try again later)."""
        self._once("connecting", logging.INFO, "connecting to the club broker %s:%s as table "
                   "%s", self.broker.host, self.broker.port, self.table)
        if not self.insecure:
            open_ = lets_anyone_in(self.broker)
            if open_ is None:  # not reached yet: the table is fine, it tries again
                self._not_yet()
                return False
            if open_:
                self.refused = ("the club broker lets anyone in without a password: anyone "
                                "could write the club's results; lock it (docs/club.md) or "
                                "start the table with --insecure-broker")
                log.error("%s", self.refused)
                return False
        self.refused = None
        client = make_client(self.broker, f"table-{self.table}",
                             restart_after=self.restart_after)
        client.set_aside, client.sender_of = self.set_aside, lambda _topic: SENDER
        online = topics.table_topic(self.table, "online")
        client.will_set(online, self._signed(online, {"table": self.table, "online": False,
                                                      "at": time.time()}), qos=1, retain=True)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_connect_fail = lambda *_: self._not_yet()
        client.handle = self._on_message
        client.connect_async(self.broker.host, self.broker.port, keepalive=10)
        client.loop_start()
        self._client = client
        return True

    def health(self) -> dict[str, Any]:
        """The club link for the table's /api/health: ``ok`` false while the receiving thread
        is down or the broker was refused."""
        receiving = self._client is not None and self._client.receiving
        return {"ok": self.refused is None and (self._client is None or receiving),
                "connected": self.connected, "receiving": receiving, "refused": self.refused,
                "published": self.published, "set_aside": self.set_aside.count,
                "restarts": self._client.crashes if self._client is not None else 0}

    def _signed(self, topic: str, message: dict[str, Any]) -> bytes:
        if self.signer is not None:
            message = self.signer.sign(topic, message)
        return topics.encode(message)

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._client is not None:
            if self.connected:
                online = topics.table_topic(self.table, "online")
                info = self._client.publish(online, self._signed(online, {
                    "table": self.table, "online": False, "at": time.time()}), qos=1, retain=True)
                info.wait_for_publish(timeout=2)
            self._client.stop()

    def wake(self) -> None:
        """Something was appended: look at the log now rather than at the next poll."""
        self._wake.set()

    # --- MQTT callbacks (paho's thread) -------------------------------------------------------

    def _on_connect(self, client: Any, _ud: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if reason.is_failure:
            log.warning("the club broker refused the table: %s", reason)
            return
        self.connected = True
        self._said.add("connected")
        online = topics.table_topic(self.table, "online")
        client.publish(online, self._signed(online, {"table": self.table, "online": True,
                                                     "at": time.time()}), qos=1, retain=True)
        client.subscribe([(topics.table_topic(self.table, "resend"), 1), (topics.ROUND, 1),
                          (topics.ROSTER, 1)])
        self._status_key = None  # publish the status again
        log.info("connected to the club broker %s:%s", self.broker.host, self.broker.port)
        self._wake.set()

    def _on_disconnect(self, *_args: Any) -> None:
        """Say "lost" only when a connection existed (not after a refused or failed attempt)."""
        if self.connected and not self._stop.is_set():
            log.warning("lost the club broker %s:%s; the table plays on and the backlog goes "
                        "out when it is back", self.broker.host, self.broker.port)
        self.connected = False

    def _not_yet(self) -> None:
        if "connected" not in self._said:
            self._once("not yet", logging.WARNING, "the club broker %s:%s does not answer yet; "
                       "the table plays on and tries again every few seconds",
                       self.broker.host, self.broker.port)

    def _once(self, what: str, level: int, text: str, *args: Any) -> None:
        if what not in self._said:
            self._said.add(what)
            log.log(level, text, *args)

    def _on_message(self, topic: str, payload: bytes, _retained: bool) -> None:
        try:
            if self.inbox.take(topic, payload, self.published, self._ask_rewind):
                self._save_position()  # the newest round and roster taken are remembered
        except Exception:  # nothing the club sends may stop the table's link
            log.exception("club message on %s", topic[:120])

    def _ask_rewind(self, after: int) -> None:
        self._rewind = after
        self._wake.set()

    # --- the loop -----------------------------------------------------------------------------

    def _run(self) -> None:
        store: EventLog | None = None
        while not self._stop.is_set():
            self._wake.wait(self.poll)
            self._wake.clear()
            if self._client is None and not self._connect():
                self._stop.wait(5.0)
                continue
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
        topic = topics.table_topic(self.table, "facts")
        info = self._client.publish(topic, self._signed(topic, message), qos=1)
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
        topic = topics.table_topic(self.table, "status")
        self._client.publish(topic, self._signed(topic, status), qos=1, retain=True)
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
                "hands": summary["hands"], "board": board_of(hand),
                "discard": hand.get("discard"),
                **({"url": self.board_url} if self.board_url else {})}

    # --- the durable position -----------------------------------------------------------------

    def _load_position(self) -> tuple[int, dict[str, float]]:
        """The position published and the club's newest round and roster taken."""
        try:
            data = json.loads(self.state_path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            return 0, {}
        if not isinstance(data, dict) or data.get("table") != self.table:
            return 0, {}  # another table id: publish everything under the new name
        pos = data.get("published")
        issued = data.get("issued")
        issued = {k: float(v) for k, v in issued.items() if k in ("round", "roster")
                  and isinstance(v, int | float)} if isinstance(issued, dict) else {}
        return (pos if isinstance(pos, int) and pos >= 0 else 0), issued

    def _save_position(self) -> None:
        with self._saving:  # the publisher's thread and the MQTT thread both save
            self._write_position()

    def _write_position(self) -> None:
        tmp = self.state_path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({"table": self.table, "published": self.published,
                       "issued": self.inbox.issued}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.state_path)


def board_of(hand: dict[str, Any]) -> dict[str, Any]:
    """What lies open at each seat, from the public view: the discards (river), the sets on
    the meld strip (``concealed``: the indexes of the declared concealed kongs), the tiles
    forming a set there, the bonus tiles laid out, and how many tiles the rack holds (a
    count, never a tile). Flat: the club's messages nest at most six deep."""
    seats = hand.get("seats") or {}
    return {p: {"river": list(s.get("river") or []),
                "melds": [list(m["tiles"]) for m in s.get("melds") or []],
                "concealed": [i for i, m in enumerate(s.get("melds") or []) if m["concealed"]],
                "forming": list(s.get("forming") or []),
                "bonus": list(s.get("bonus") or []),
                "concealed_count": int(s.get("concealed_count") or 0)}
            for p, s in seats.items()}
