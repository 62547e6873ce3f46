"""The table's retained status over a real Mosquitto (docs/club.md "Retained status"): every
field the club's card reads, checked against the game's own public view of the same log (the
engine replays it), never against the publisher's numbers; and the privacy rule that the board
carries open tiles and a count of the rack, never a concealed tile."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller import game
from controller.club import schema, topics
from controller.club.mqtt import BrokerConfig, make_client
from tests.club.broker import Mosquitto, enrolled_broker, table_publisher, until
from tests.club.table_log import write_log
from tests.game.randomgame import random_session

WATCH = {"watch": "watch-secret"}
URL = "http://t1.local:8000/"


class Watcher:
    """A club-side reader of one table's status and facts (the broker's ``watch`` user)."""

    def __init__(self, port: int) -> None:
        self.status: list[dict[str, Any]] = []
        self.facts: list[dict[str, Any]] = []
        self.online: list[dict[str, Any]] = []
        self.client = make_client(BrokerConfig("127.0.0.1", port, "watch", "watch-secret"),
                                  "watch")
        self.client.handle = self._take
        self.client.on_connect = lambda c, *_: c.subscribe(
            [(topics.table_topic("t1", leaf), 1) for leaf in ("status", "facts", "online")])
        self.client.connect_async("127.0.0.1", port)
        self.client.loop_start()

    def _take(self, topic: str, payload: bytes, _retained: bool) -> None:
        message = schema.parse(payload)
        leaf = topic.rsplit("/", 1)[1]
        {"status": self.status, "facts": self.facts, "online": self.online}[leaf].append(message)

    def stop(self) -> None:
        self.client.stop()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    yield from enrolled_broker(tmp_path, WATCH)


def _mid_hand(seed: int) -> list[dict[str, Any]]:
    """A hua-bao session cut in its second hand at the latest point where a hand is in play,
    a seat holds an exposed set and the discard lies on the pad, with names for three seats
    and a deduction (so ``final`` differs from ``totals``) given after the first hand."""
    events = random_session(seed=seed, hands=2)
    start, rest = events[:1], events[1:]
    names = [{"player": {"seat": p, "name": n}} for p, n in ((1, "Ann"), (2, "Bo"), (4, "Di"))]
    first_end = next(i for i in range(1, len(rest) + 1)
                     if game.replay(start + rest[:i])[0].hands)
    deduction = [{"penalty": {"kind": "deduction", "seat": 3, "amount": 7}}]
    events = start + names + rest[:first_end] + deduction + rest[first_end:]
    for cut in range(len(events), 0, -1):
        hand = game.public_view(game.replay(events[:cut])[0]).get("hand") or {}
        seats = (hand.get("seats") or {}).values()
        if (hand.get("phase") == "play" and hand.get("discard")
                and any(s.get("melds") for s in seats)):
            return events[:cut]
    raise AssertionError(f"seed {seed}: no such moment in its second hand")


def _expected(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The status docs/club.md lists, from the game's public view of the same events."""
    view = game.public_view(game.replay(events)[0])
    hand = view["hand"]
    seats = hand["seats"]
    totals = {p: int(v) for p, v in view["totals"].items()}
    final = {p: totals[p] - int((view.get("deductions") or {}).get(p, 0)) for p in totals}
    board = {p: {"river": list(s["river"]),
                 "melds": [list(m["tiles"]) for m in s["melds"]],
                 "concealed": [i for i, m in enumerate(s["melds"]) if m["concealed"]],
                 "forming": list(s.get("forming") or []),
                 "bonus": list(s.get("bonus") or []),
                 "concealed_count": int(s["concealed_count"])}
             for p, s in seats.items()}
    return {"table": "t1", "online": True, "session": 1, "ruleset": "hua-bao", "active": True,
            "hand": hand["number"], "phase": "play", "wall": hand["live_wall"],
            "turn": hand["turn"], "turn_wind": seats[str(hand["turn"])]["wind"],
            "dealer": hand["dealer"], "prevailing_wind": hand["prevailing_wind"],
            "names": view["names"], "totals": totals, "final": final,
            "hands": len(view["hands"]), "board": board, "discard": hand["discard"], "url": URL}


def test_the_status_is_the_tables_public_state_field_by_field(
        tmp_path: Path, broker: Mosquitto) -> None:
    events = _mid_hand(seed=5)
    write_log(tmp_path / "t1", [events])
    expected = _expected(events)
    assert expected["final"]["3"] == expected["totals"]["3"] - 7
    assert any(b["melds"] for b in expected["board"].values())
    watcher = Watcher(broker.port)
    publisher = table_publisher(tmp_path / "t1", tmp_path / "t1.json", broker, poll=0.05)
    publisher.board_url = URL
    before = time.time()
    publisher.start()
    try:
        until(lambda: watcher.facts and watcher.status
              and watcher.status[-1]["last_pos"] == max(f["pos"] for f in watcher.facts),
              60, "the status after the last fact")
        status = dict(watcher.status[-1])
        until(lambda: watcher.online, 60, "the table's online message")
        online = dict(watcher.online[-1])
    finally:
        publisher.stop()
        watcher.stop()
    # online while connected, offline once stopped: both signed and retained, so a club that
    # subscribes afterwards holds the table's last status and that it is offline
    assert isinstance(online.pop("sig"), str) and before <= online.pop("at") <= time.time()
    assert online == {"table": "t1", "online": True}
    late = Watcher(broker.port)
    try:
        until(lambda: late.online and late.status, 60, "the retained status and online")
    finally:
        late.stop()
    offline = dict(late.online[-1])
    assert isinstance(offline.pop("sig"), str) and before <= offline.pop("at") <= time.time()
    assert offline == {"table": "t1", "online": False}
    assert late.status[-1]["last_pos"] == watcher.status[-1]["last_pos"]
    assert before <= status.pop("at") <= time.time()
    assert status.pop("last_pos") == max(f["pos"] for f in watcher.facts)
    assert isinstance(status.pop("sig"), str)  # signed (tests/club/test_signing.py checks it)
    assert status == expected
    # privacy: a seat's concealed tiles appear nowhere in the status, only their count
    state = game.replay(events)[0]
    assert state.hand is not None
    for seat in state.hand.seats:
        shown = expected["board"][str(seat.position)]
        assert shown["concealed_count"] == len(seat.rack) > 0
        assert "rack" not in shown and "hand" not in shown
