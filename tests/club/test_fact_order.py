"""A property of the club's intake (the subscriber's handler, its schema and signature checks
and the store; no broker): whatever the broker delivers, in any order, duplicated, with forged
or altered facts in between, once the table has sent again what the club asks for, the club
holds exactly the table's own facts: the same hands with the same nets, nothing forged."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.club import topics
from controller.club.keyring import Keyring
from controller.club.mqtt import BrokerConfig
from controller.club.signing import Signer
from controller.club.store import ClubStore
from controller.club.subscriber import ClubSubscriber
from controller.sessions import SessionFold
from tests.game.randomgame import random_session
from tests.reliability.support import free_port

FACTS = topics.table_topic("green", "facts")
OTHER = Signer.generate()


def _genuine() -> list[dict[str, Any]]:
    """A table's facts as its publisher numbers them (pos, prev), unsigned."""
    game = random_session(seed=5, hands=3)
    names = [{"player": {"seat": s, "name": n}} for s, n in ((1, "Ann"), (3, "Cai"))]
    penalties = [{"penalty": {"kind": "transfer", "from": 2, "to": 1, "amount": 20}},
                 {"penalty": {"kind": "deduction", "seat": 3, "amount": 5}},
                 {"penalty": {"cancel": 1}}]
    events = game[:1] + names + game[1:] + penalties
    fold = SessionFold(1, "hua-bao", 1.0)
    out: list[dict[str, Any]] = []
    for seq, event in enumerate(events, start=1):
        for i, fact in enumerate(fold.feed(seq, event, 1.0)):
            pos = seq * topics.SLOTS + i
            out.append({**fact.body, "table": "green", "session": 1, "kind": fact.kind,
                        "pos": pos, "prev": out[-1]["pos"] if out else 0})
    return out


GENUINE = _genuine()
HANDS = {f["number"]: f["net"] for f in GENUINE if f["kind"] == "hand"}
PENALTIES = [("deduction", 2)]  # the transfer was taken back


def _forgery(fact: dict[str, Any], how: int) -> tuple[dict[str, Any], Signer | None]:
    """An altered copy of a genuine fact and who signs it (None: unsigned)."""
    variants: list[tuple[dict[str, Any], Signer | None]] = [
        ({**fact, "pos": 10**12}, None),
        ({**fact, "net": {"1": 300000, "2": 0, "3": 0, "4": -300000}}, None),
        ({"table": "green", "session": 1, "kind": "hand_undone", "pos": fact["pos"] + 1,
          "prev": fact["prev"], "number": 1}, OTHER),
        ({**fact, "prev": max(0, fact["prev"] - 8)}, OTHER),
    ]
    return variants[how % len(variants)]


deliveries = st.lists(st.tuples(st.integers(0, len(GENUINE) - 1), st.integers(-1, 3)),
                      max_size=60)


@given(deliveries)
@settings(max_examples=40, deadline=None)
def test_the_club_ends_with_exactly_the_tables_facts(schedule: list[tuple[int, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        keyring = Keyring(Path(tmp))
        signer, _ = keyring.enrol("green")
        store = ClubStore(Path(tmp) / "club.sqlite")
        club = ClubSubscriber(store, BrokerConfig("127.0.0.1", free_port()), keyring=keyring)
        deliver = club._client.handle  # what paho's thread calls for each message

        def send(fact: dict[str, Any], by: Signer | None) -> None:
            deliver(FACTS, topics.encode(by.sign(FACTS, fact) if by else fact), False)

        for index, how in schedule:
            if how < 0:
                send(GENUINE[index], signer)
            else:
                send(*_forgery(GENUINE[index], how))
        # the table answers the club's resend: everything after the club's last position
        while store.last_pos("green") < GENUINE[-1]["pos"]:
            last = store.last_pos("green")
            for fact in [f for f in GENUINE if f["pos"] > last]:
                send({**fact, "prev": last}, signer)
                last = fact["pos"]
        assert {h["number"]: h["net"] for h in store.hands("green")} == HANDS
        assert store.last_pos("green") == GENUINE[-1]["pos"]
        assert [(p["kind"], p["index"]) for p in store.penalties()] == PENALTIES
        assert all(h["names"]["1"] == "Ann" for h in store.hands())
        assert "300000" not in json.dumps(store.hands())
        store.close()
