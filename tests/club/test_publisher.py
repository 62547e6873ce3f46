"""The table's publisher and the club's subscriber over a real Mosquitto locked with the
configuration the club writes (enrol-table): a stored log goes out once, a restarted publisher
sends nothing twice, a club that lost its database gets everything again, the round timer
reaches the table, and a wrong password is refused."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller import game
from controller.club import schema, topics
from controller.club.keyring import Keyring
from controller.club.mqtt import BrokerConfig
from controller.club.publisher import ClubPublisher
from controller.club.store import ClubStore
from controller.club.subscriber import ClubSubscriber
from controller.store import EventLog
from tests.club.broker import Mosquitto, club_login, enrolled_broker, table_publisher, until
from tests.club.table_log import write_log
from tests.game.randomgame import random_session

WATCH = {"watch": "watch-secret"}


def _write_log(data_dir: Path) -> list[dict[str, Any]]:
    """Two sessions: the first (2 hands, names, two penalties, one taken back) ended."""
    first = random_session(seed=3, hands=2)
    names = [{"player": {"seat": p, "name": n}} for p, n in ((1, "Ann"), (2, "Bo"), (3, "Cai"))]
    penalties = [{"penalty": {"kind": "transfer", "from": 2, "to": 1, "amount": 20}},
                 {"penalty": {"kind": "deduction", "seat": 3, "amount": 5}},
                 {"penalty": {"cancel": 1}}]
    sessions = [first[:1] + names + first[1:] + penalties, random_session(seed=8, hands=1)]
    write_log(data_dir, sessions, ended=1)
    return [game.public_view(game.replay(s)[0])["hands"] for s in sessions]


class Spy:
    def __init__(self, port: int) -> None:
        from controller.club.mqtt import make_client

        self.facts: list[dict[str, Any]] = []
        self.client = make_client(BrokerConfig("127.0.0.1", port, "watch", "watch-secret"), "spy")
        self.client.handle = lambda _t, payload, _r: self.facts.append(schema.parse(payload))
        self.client.on_connect = lambda c, *_: c.subscribe(topics.table_topic("+", "facts"), 1)
        self.client.connect_async("127.0.0.1", port)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.stop()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    """The locked broker the club writes, with table t1 enrolled (t1.json)."""
    yield from enrolled_broker(tmp_path, WATCH)


def test_a_log_goes_out_once_and_a_club_that_lost_it_gets_it_again(
        tmp_path: Path, broker: Mosquitto, caplog: pytest.LogCaptureFixture) -> None:
    credentials = tmp_path / "t1.json"
    expected = _write_log(tmp_path / "t1")
    club_broker = club_login(broker)
    keyring = Keyring(tmp_path / "club")
    spy = Spy(broker.port)
    store = ClubStore(tmp_path / "club.sqlite")
    club = ClubSubscriber(store, club_broker, client_id="club-a", keyring=keyring)
    club.start()
    publisher = table_publisher(tmp_path / "t1", credentials, broker, poll=0.05)
    publisher.start()
    try:
        until(lambda: len(store.hands("t1")) == 3 and store.last_pos("t1") == publisher.published)
        held = {(h["session"], h["number"]): h for h in store.hands("t1")}
        for session, hands in enumerate(expected, start=1):
            for hand in hands:
                mine = held[(session, hand["number"])]
                assert mine["net"] == hand["net"] and mine["winds"] == hand["winds"]
                assert mine["names"] == hand["names"]
        assert held[(1, 1)]["names"] == {"1": "Ann", "2": "Bo", "3": "Cai", "4": None}
        penalties = store.penalties()
        assert [(p["kind"], p["index"]) for p in penalties] == [("deduction", 2)]
        ended = [s for s in store.sessions() if s["ended"]]
        assert [s["session"] for s in ended] == [1]
        assert ended[0]["summary"]["deductions"]["3"] == 5
        until(lambda: len(spy.facts) >= 1)
        sent = len(spy.facts)
        # the round timer reaches the table
        club.publish(topics.ROUND, {"round": 2, "started": 10.0, "ends_at": 99.0,
                                    "seating": {"t1": ["Ann", "Bo", "Cai", "Dee"]}})
        until(lambda: (publisher.round or {}).get("round") == 2)
    finally:
        publisher.stop()
        club.stop()
    # a restarted publisher remembers what the broker acknowledged: nothing goes out twice
    again = table_publisher(tmp_path / "t1", credentials, broker, poll=0.05)
    assert again.published == publisher.published
    again.start()
    try:
        until(lambda: again.connected)
        # one new fact: once it is out, anything sent twice would have gone before it
        with EventLog.open(tmp_path / "t1" / "events.sqlite") as log:
            penalty = {"penalty": {"kind": "deduction", "seat": 1, "amount": 5}}
            log.append(log.session().id, penalty, True, None, None, "test", 2000.0)
        until(lambda: len(spy.facts) > sent)
        assert [f["kind"] for f in spy.facts[sent:]] == ["penalty"]
        # a club service whose database was lost asks, and gets every fact again
        fresh = ClubStore(tmp_path / "fresh.sqlite")
        other = ClubSubscriber(fresh, club_broker, client_id="club-b", keyring=keyring)
        other.start()
        until(lambda: len(fresh.hands("t1")) == 3 and fresh.last_pos("t1") == again.published)
        assert {(h["session"], h["number"]): h["net"] for h in fresh.hands("t1")} == {
            k: h["net"] for k, h in held.items()}
        other.stop()
    finally:
        again.stop()
        spy.stop()
    # a wrong password is refused: the table never counts as connected
    wrong = ClubPublisher(tmp_path / "t1", "t1",
                          BrokerConfig("127.0.0.1", broker.port, "t1", "nope"), poll=0.05,
                          signer=again.signer, club=None)
    with caplog.at_level(logging.WARNING, "controller.club.publisher"):
        wrong.start()
        try:  # the broker has answered (refused) before the table is found not connected
            until(lambda: "refused the table" in caplog.text)
            assert not wrong.connected
        finally:
            wrong.stop()
