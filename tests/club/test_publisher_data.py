"""The table's publisher, its data (issue 29, club-wire's survivors): the saved position file,
the event log read once and in order, the facts' positions, the status and how often it goes
out, the board the club's card shows. docs/club.md "What the table keeps" states what is
checked here. No broker: paho's client is replaced by one that records what is published
(with paho's own defaults, QoS 0 and not retained, for what a call leaves out) and answers as a
broker would (acknowledged, not acknowledged, or the link gone); the event log is a real one.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from controller.club import publisher as publisher_module
from controller.club import topics
from controller.club.mqtt import BrokerConfig
from controller.club.publisher import ClubPublisher, board_of
from controller.club.signing import Signer, Verifier
from controller.sessions import Fact, SessionFold
from controller.store import EventLog, StoreError
from tests.club.fake_paho import FakeClient
from tests.club.fake_time import FakeTime
from tests.club.table_log import write_log
from tests.game.randomgame import random_session

CLUB = Signer.generate()
FACTS = topics.table_topic("t1", "facts")
STATUS = topics.table_topic("t1", "status")


def _facts(client: FakeClient) -> list[dict[str, Any]]:
    return [s.message for s in client.sent if s.topic == FACTS]


def _statuses(client: FakeClient) -> list[dict[str, Any]]:
    return [s.message for s in client.sent if s.topic == STATUS]


def _publisher(data_dir: Path, client: FakeClient | None = None) -> ClubPublisher:
    """Table t1's publisher (unsigned, holding the club's key); with ``client``: connected."""
    data_dir.mkdir(parents=True, exist_ok=True)
    publisher = ClubPublisher(data_dir, "t1", BrokerConfig("127.0.0.1", 1), signer=None,
                              club=Verifier.from_text(CLUB.public_text()))
    if client is not None:
        publisher._client, publisher.connected = client, True
    return publisher


def _append(path: Path, events: list[dict[str, Any]]) -> None:
    with EventLog.open(path) as log:
        sid = log.sessions()[-1].id
        for event in events:
            log.append(sid, event, True, None, None, "test", 1100.0)


def _expected_facts(path: Path) -> list[tuple[int, int, str]]:
    """(pos, session, kind) of every fact, by docs/club.md's rule: pos = seq x 8 + the fact's
    index among its event's facts; a session's end at its last seq x 8 + 7. The facts
    themselves from the session fold (controller.sessions), fed every record once."""
    out = []
    with EventLog.open(path, readonly=True) as store:
        for info in store.sessions():
            fold = SessionFold(info.id, info.ruleset, info.started)
            last = 0
            for record in store.records(info.id):
                last = record.seq
                out += [(record.seq * 8 + i, info.id, fact.kind) for i, fact in
                        enumerate(fold.feed(record.seq, record.event, record.at))]
            if info.ended_at is not None:
                out.append((last * 8 + 7, info.id, "session_end"))
    return out


def _sent_facts(client: FakeClient) -> list[tuple[int, int, str]]:
    return [(m["pos"], m["session"], m["kind"]) for m in _facts(client)]


def _chained(client: FakeClient, after: int = 0) -> bool:
    """Each fact names the one sent before it (the first: ``after``)."""
    facts = _facts(client)
    return [m["prev"] for m in facts] == [after] + [m["pos"] for m in facts[:-1]]


# --- the event log read once, in order ----------------------------------------------------------


def test_a_backlog_gathered_offline_goes_out_once_in_order_and_what_follows_too(
        tmp_path: Path) -> None:
    """Two sessions, the first ended: the publisher looks at the log three times while the
    broker is away, then once connected: every fact goes out exactly once, in the order of
    its position, each naming the one before (the first names 0: nothing published yet).
    Then the running session grows: only the new facts follow."""
    sessions = [random_session(seed=3, hands=1), random_session(seed=8, hands=1)]
    cut = len(sessions[1]) // 2
    path = write_log(tmp_path, [sessions[0], sessions[1][:cut]], ended=1)
    client = FakeClient()
    publisher = _publisher(tmp_path)
    store = publisher._open()
    assert store is not None
    try:
        for _ in range(3):
            publisher._step(store)
        assert client.sent == [] and publisher.published == 0
        publisher._client, publisher.connected = client, True
        publisher._step(store)
        expected = _expected_facts(path)
        assert {s for _, s, _ in expected} == {1, 2} and expected == sorted(expected)
        assert ("session_end" in [k for _, s, k in expected if s == 1]
                and "session_end" not in [k for _, s, k in expected if s == 2])
        assert _sent_facts(client) == expected and _chained(client)
        assert publisher.published == expected[-1][0]
        _append(path, sessions[1][cut:])
        publisher._step(store)
    finally:
        store.close()
    grown = _expected_facts(path)
    assert len(grown) > len(expected)
    assert _sent_facts(client) == grown and _chained(client)
    status = _statuses(client)[-1]
    assert (status["session"], status["active"], status["last_pos"]) == (2, True, grown[-1][0])


def test_an_old_log_with_two_sessions_left_open_goes_out_once(tmp_path: Path) -> None:
    """A log from before issue 22's fix may hold two sessions never ended: the older one's
    facts, like the newer one's, go out once however often the log was looked at offline."""
    path = write_log(tmp_path, [random_session(seed=3, hands=1), random_session(seed=8, hands=1)])
    with sqlite3.connect(path) as db:  # as issue 22's two requests at once left it
        db.execute("UPDATE sessions SET ended = NULL")
    db.close()
    publisher = _publisher(tmp_path)
    store = publisher._open()
    assert store is not None and [s.ended_at for s in store.sessions()] == [None, None]
    client = FakeClient()
    try:
        for _ in range(3):
            publisher._step(store)
        publisher._client, publisher.connected = client, True
        publisher._step(store)
    finally:
        store.close()
    expected = _expected_facts(path)
    assert {s for _, s, _ in expected} == {1, 2}
    assert _sent_facts(client) == expected and _chained(client)


def test_the_status_of_an_ended_session_says_so(tmp_path: Path) -> None:
    """The newest session ended: the status still shows it (its totals stay on the club's
    card), ``active`` false, and no ``url`` while the table has no board address."""
    events = random_session(seed=3, hands=1)
    write_log(tmp_path, [events], ended=1)
    client = FakeClient()
    publisher = _publisher(tmp_path, client)
    store = publisher._open()
    assert store is not None
    try:
        publisher._step(store)
        publisher._step(store)
    finally:
        store.close()
    status = _statuses(client)[-1]
    assert (status["session"], status["active"], status["hands"]) == (1, False, 1)
    assert "url" not in status
    assert [m["kind"] for m in _facts(client)].count("session_end") == 1


def test_the_status_before_any_session_names_none(tmp_path: Path) -> None:
    """docs/club.md: the status names its session; a table with no log yet says null."""
    publisher = _publisher(tmp_path)
    assert publisher.status() == {"table": "t1", "online": True, "last_pos": 0,
                                  "session": None}


def test_the_log_is_read_through_a_read_only_connection(tmp_path: Path) -> None:
    """docs/club.md: the publisher reads the table's log with a read-only connection."""
    write_log(tmp_path, [[{"session": {"ruleset": "hua-bao", "options": {}}}]])
    store = _publisher(tmp_path)._open()
    assert store is not None
    try:
        with pytest.raises(StoreError):
            store.start_session("hua-bao", {}, 2000.0)
    finally:
        store.close()
    with EventLog.open(tmp_path / "events.sqlite", readonly=True) as log:
        assert len(log.sessions()) == 1


def test_one_events_facts_take_indexes_0_to_6(tmp_path: Path) -> None:
    """pos = seq x 8 + index; index 7 is the session end's. Facts of one event past the
    seventh would take the session end's position or the next event's: they are not queued."""
    publisher = _publisher(tmp_path)
    facts = [Fact(1, 3, "penalty_undone", {"index": i}) for i in range(1, 10)]
    publisher._queue(facts)
    publisher._queue([Fact(1, 3, "session_end", {})], slot=7)
    assert [pos for pos, _ in publisher._pending] == [24, 25, 26, 27, 28, 29, 30, 31]


# --- a fact not acknowledged --------------------------------------------------------------------


def test_a_fact_goes_out_again_until_the_broker_acknowledges_it(tmp_path: Path) -> None:
    """docs/club.md: QoS 1, one fact at a time, its position saved only once the broker has
    acknowledged it. Not sent (no connection), then no acknowledgement within the 5 s
    the table waits: the same fact (same pos, same prev) goes out again at the next look, and
    nothing after it goes out before it."""
    events = random_session(seed=3, hands=1)[:20]
    names = [{"player": {"seat": p, "name": n}} for p, n in ((1, "Ann"), (2, "Bo"))]
    write_log(tmp_path, [events[:1] + names + events[1:]])
    client = FakeClient()
    client.outcomes = ["gone", "unacked"]
    publisher = _publisher(tmp_path, client)
    state = tmp_path / "club-published.json"
    store = publisher._open()
    assert store is not None
    try:
        publisher._step(store)
        assert len(_facts(client)) == 1 and publisher.published == 0 and not state.exists()
        publisher._step(store)
        assert len(_facts(client)) == 2 and publisher.published == 0 and not state.exists()
        publisher._step(store)
    finally:
        store.close()
    facts = _facts(client)
    first = facts[0]
    assert facts[1] == first == facts[2] and first["prev"] == 0
    expected = _expected_facts(tmp_path / "events.sqlite")
    assert len(expected) > 1 and _sent_facts(client)[2:] == expected
    assert [m["prev"] for m in facts[2:]] == [0] + [m["pos"] for m in facts[2:-1]]
    assert publisher.published == facts[-1]["pos"]
    assert json.loads(state.read_text(encoding="utf-8")) == {
        "table": "t1", "published": facts[-1]["pos"], "issued": {}}
    assert {(s.qos, s.retain) for s in client.sent if s.topic == FACTS} == {(1, False)}
    assert set(client.waits) == {5.0}


# --- the status and its rate --------------------------------------------------------------------


def test_the_status_goes_out_when_it_changes_and_every_30_s_when_it_does_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/club.md: the retained status (QoS 1) goes out when it changes and is repeated at
    least every 30 s: by the clock of the test, at 1000 s (the first), not again at 1000 or
    1010 (unchanged), at 1010 after one more tile moved, not at 1039, again at 1040."""
    events = random_session(seed=5, hands=1)
    path = write_log(tmp_path, [events[:60]])
    clock = FakeTime(1000.0)
    monkeypatch.setattr(publisher_module, "time", clock)
    client = FakeClient()
    publisher = _publisher(tmp_path, client)
    store = publisher._open()
    assert store is not None
    said: list[float] = []

    def look(at: float) -> None:
        clock.now = at
        publisher._step(store)
        said.extend(m["at"] for m in _statuses(client)[len(said):])

    try:
        look(1000.0)
        assert said == [1000.0]
        look(1000.0)
        look(1010.0)
        assert said == [1000.0]
        _append(path, events[60:61])
        look(1010.0)
        assert said == [1000.0, 1010.0]
        look(1039.0)
        assert said == [1000.0, 1010.0]
        look(1040.0)
        assert said == [1000.0, 1010.0, 1040.0]
    finally:
        store.close()
    first, moved, again = ({k: v for k, v in m.items() if k != "at"} for m in _statuses(client))
    assert first != moved == again and first["board"] != moved["board"]
    assert {(s.qos, s.retain) for s in client.sent if s.topic == STATUS} == {(1, True)}


# --- the saved position and the club's round across restarts ------------------------------------


@pytest.mark.parametrize(("saved", "published", "issued"), [
    (None, 0, {}),  # no file: everything from the start
    ("{not json", 0, {}),
    ("[16]", 0, {}),
    ('{"table": "t2", "published": 800, "issued": {"round": 5.0}}', 0, {}),  # another name
    ('{"table": "t1", "published": 16, "issued": {"round": 500, "roster": 600.5, "x": 7}}',
     16, {"round": 500.0, "roster": 600.5}),
    ('{"table": "t1", "published": 16, "issued": {"round": "soon"}}', 16, {}),
    ('{"table": "t1", "published": 16, "issued": "soon"}', 16, {}),
    ('{"table": "t1", "published": -8}', 0, {}),
    ('{"table": "t1", "published": "16"}', 0, {}),
    ('{"table": "t1", "published": 0}', 0, {}),
])
def test_the_saved_position_is_taken_only_when_it_is_this_tables_and_well_formed(
        tmp_path: Path, saved: str | None, published: int, issued: dict[str, float]) -> None:
    """docs/club.md "What the table keeps": ``club-published.json`` holds the table's name,
    the position published and the ``issued`` time of the newest round and roster taken;
    a file of another name, or not of that form, counts for nothing (or for the part that is
    not), and the table publishes from there."""
    if saved is not None:
        tmp_path.mkdir(parents=True, exist_ok=True)
        (tmp_path / "club-published.json").write_text(saved, encoding="utf-8")
    publisher = _publisher(tmp_path)
    assert publisher.health()["published"] == published
    assert publisher.inbox.issued == issued


def _round(number: int, issued: float, signer: Signer = CLUB) -> bytes:
    body = {"round": number, "started": 1.0, "ends_at": 2.0, "issued": issued}
    return topics.encode(signer.sign(topics.ROUND, body))


def test_a_restarted_table_refuses_a_round_older_than_the_one_it_took(tmp_path: Path) -> None:
    """docs/club.md: a round older (``issued``) than the one the table holds is refused, and
    the table remembers the newest across restarts; only what the club signed is taken;
    every refusal is counted in the table's health."""
    first = _publisher(tmp_path)
    first._on_message(topics.ROUND, _round(1, 500.0), False)
    assert first.round is not None and first.round["round"] == 1
    saved = json.loads((tmp_path / "club-published.json").read_text(encoding="utf-8"))
    assert saved == {"table": "t1", "published": 0, "issued": {"round": 500.0}}
    again = _publisher(tmp_path)
    again._on_message(topics.ROUND, _round(2, 400.0), False)
    assert again.round is None and again.health()["set_aside"] == 1
    assert again.set_aside.last[-1]["reason"] == "older than the round the table holds"
    again._on_message(topics.ROUND, _round(3, 700.0, Signer.generate()), False)
    assert again.round is None and again.health()["set_aside"] == 2
    assert again.set_aside.last[-1]["reason"] == "not signed by the club"
    again._on_message(topics.ROUND, _round(4, 600.0), False)
    assert again.round is not None and again.round["round"] == 4


def test_a_message_set_aside_is_logged_as_the_tables(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """docs/club.md "What the table keeps", its log line: who set the message aside (the
    table), the topic, the sender, the size and the reason."""
    publisher = _publisher(tmp_path)
    with caplog.at_level(logging.WARNING, logger="controller.club"):
        publisher._on_message(topics.ROUND, b"", False)
    assert [(r.name, r.levelno, r.getMessage()) for r in caplog.records] == [
        ("controller.club.mqtt", logging.WARNING,
         "the table set aside a message on mahjong/club/round (sender: whoever wrote the "
         "club's topic; 0 bytes): empty (a retained message cleared by someone)")]
    assert publisher.health()["set_aside"] == 1


# --- a publisher as it starts ------------------------------------------------------------------


def test_a_new_publisher_is_healthy_unconnected_and_stops_unstarted(tmp_path: Path) -> None:
    """Before its first connection: /api/health's club link ok, not connected, nothing
    refused or published; its defaults as docs/club.md states them (the log looked at every
    0.25 s, the receiving thread restarted after 1 s); stopped before it started, it stops."""
    publisher = _publisher(tmp_path)
    assert publisher.health() == {"ok": True, "connected": False, "receiving": False,
                                  "refused": None, "published": 0, "set_aside": 0,
                                  "restarts": 0}
    assert (publisher.poll, publisher.restart_after) == (0.25, 1.0)
    publisher.stop()
    assert publisher.health()["ok"] is True
    assert not (tmp_path / "club-published.json").exists()


# --- the board ---------------------------------------------------------------------------------


def test_the_board_is_each_seats_open_tiles_and_a_count_of_its_rack() -> None:
    """docs/club.md: each seat's river, melds (``concealed``: the indexes of its declared
    concealed kongs), the tiles forming a set, the bonus tiles and how many tiles its rack
    holds; a seat whose view leaves a list out shows it empty."""
    hand = {"seats": {
        "1": {"position": 1, "wind": "east", "river": ["1d", "9c"], "forming": ["5b", "5b"],
              "melds": [{"tiles": ["5b", "5b", "5b"], "concealed": False},
                        {"tiles": ["gd", "gd", "gd", "gd"], "concealed": True}],
              "bonus": ["2f", "3s"], "concealed_count": 0, "rack_count": 9},
        "2": {"position": 2, "wind": "south", "concealed_count": 13},
    }}
    assert board_of(hand) == {
        "1": {"river": ["1d", "9c"], "melds": [["5b", "5b", "5b"], ["gd", "gd", "gd", "gd"]],
              "concealed": [1], "forming": ["5b", "5b"], "bonus": ["2f", "3s"],
              "concealed_count": 0},
        "2": {"river": [], "melds": [], "concealed": [], "forming": [], "bonus": [],
              "concealed_count": 13},
    }
    assert board_of({}) == {}
