"""Signatures, the schema and the club's order of facts, without a broker: a signature holds for
exactly the message, topic and position it was made for; no input makes the schema raise
anything but BadMessage; the club's store tells a true duplicate from another fact claiming a
held position, and sets aside rows an older version stored that the schema refuses; a table
takes no round or roster older than the one it holds and no resend meant for another."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.club import schema, topics
from controller.club.inbox import Inbox
from controller.club.mqtt import SetAside
from controller.club.signing import Signer, Verifier
from controller.club.store import ClubStore

SIGNER = Signer.generate()
VERIFIER = Verifier.from_text(SIGNER.public_text())
FACTS = topics.table_topic("green", "facts")

scalars = st.none() | st.booleans() | st.integers(-2**60, 2**60) | st.text(max_size=20) \
    | st.floats(allow_nan=False, allow_infinity=False)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                           max_leaves=30)
messages = st.dictionaries(st.text(min_size=1, max_size=8), json_values, min_size=1, max_size=6)


def _hand(pos: int, prev: int, number: int = 1, net: int = 96) -> dict[str, Any]:
    return {"table": "green", "session": 1, "kind": "hand", "pos": pos, "prev": prev,
            "number": number, "dealer": 1, "prevailing_wind": "east", "result": "mahjong",
            "winner": 2, "win_source": "wall", "discarder": None,
            "scores": {"1": 0, "2": 24, "3": 0, "4": 0},
            "net": {"1": -32, "2": net, "3": -32, "4": -32},
            "winds": {"1": "east", "2": "south", "3": "west", "4": "north"},
            "names": {"1": "Ann", "2": "Bo", "3": None, "4": None}, "payments": [],
            "limit_hand": None}


@given(messages, st.data())
@settings(max_examples=200, deadline=None)
def test_a_signature_holds_for_that_message_topic_and_nothing_else(
        message: dict[str, Any], data: st.DataObject) -> None:
    signed = SIGNER.sign(FACTS, message)
    assert VERIFIER.verify(FACTS, signed)
    assert not VERIFIER.verify(topics.table_topic("blue", "facts"), signed)
    key = data.draw(st.sampled_from(sorted(message)))
    changed = data.draw(json_values.filter(lambda v: v != message[key]))
    assert not VERIFIER.verify(FACTS, {**signed, key: changed})
    assert not VERIFIER.verify(FACTS, {**signed, "extra": 1})
    other = Verifier.from_text(Signer.generate().public_text())
    assert not other.verify(FACTS, signed)


def test_a_facts_position_is_signed() -> None:
    signed = SIGNER.sign(FACTS, _hand(16, 8))
    assert VERIFIER.verify(FACTS, signed)
    for key, value in (("pos", 10**12), ("prev", 0), ("number", 2), ("sig", "x" * 88)):
        assert not VERIFIER.verify(FACTS, {**signed, key: value})


@given(json_values, st.sampled_from(["fact", "status", "online", "round", "roster", "resend"]))
@settings(max_examples=300, deadline=None)
def test_no_input_makes_the_schema_raise_anything_but_bad_message(value: Any, what: str) -> None:
    payload = json.dumps(value).encode()
    try:
        schema.check(what, schema.parse(payload))
    except schema.BadMessage as exc:
        assert "\n" not in str(exc) and str(exc)


@given(st.binary(max_size=300))
@settings(max_examples=200, deadline=None)
def test_any_bytes_are_parsed_or_refused(payload: bytes) -> None:
    try:
        assert isinstance(schema.parse(payload), dict)
    except schema.BadMessage:
        pass


@pytest.mark.parametrize("bad", [
    {"net": {"1": "lots", "2": 0, "3": 0, "4": 0}}, {"names": ["Mallory"]},
    {"number": True}, {"number": 1.0}, {"winner": 5}, {"names": {"1": "x" * 41}},
    {"pos": 8, "prev": 8}, {"extra": 1}, {"payments": [{"from": 1, "to": 2}]},
    {"scores": {"1": 10**10, "2": 0, "3": 0, "4": 0}}, {"table": "green/x"},
])
def test_the_schema_refuses_what_the_attacks_sent(bad: dict[str, Any]) -> None:
    with pytest.raises(schema.BadMessage):
        schema.check("fact", {**_hand(16, 8), **bad})


def test_the_seat_holder_facts_are_taken() -> None:
    """The other half of issue 21 adds ``game_over`` to a hand and a ``holders`` fact."""
    schema.check("fact", {**_hand(16, 8), "game_over": True})
    holders = {"table": "green", "session": 1, "kind": "holders", "pos": 24, "prev": 16,
               "hands": {"2": {"1": "Ann Lee", "2": None, "3": None, "4": None}},
               "penalties": {}}
    schema.check("fact", holders)
    for bad in ({"hands": {"0": {}}}, {"hands": {"2": ["Ann"]}}, {"extra": 1}):
        with pytest.raises(schema.BadMessage):
            schema.check("fact", {**holders, **bad})


def test_nesting_and_size_are_bounded() -> None:
    with pytest.raises(schema.BadMessage, match="nested deeper"):
        schema.parse(b'{"a":' + b"[" * 30000 + b"]" * 30000 + b"}")
    with pytest.raises(schema.BadMessage, match="nested deeper"):
        schema.parse(b'{"a":[[[[[[1]]]]]]}')
    with pytest.raises(schema.BadMessage, match="at most 524288"):
        schema.parse(b'{"a":"' + b"x" * 600_000 + b'"}')
    assert schema.parse(b'{"a":[[[[1]]]]}') == {"a": [[[[1]]]]}


def test_a_fact_at_a_held_position_is_a_duplicate_only_if_it_is_the_same(tmp_path: Path
                                                                          ) -> None:
    store = ClubStore(tmp_path / "club.sqlite")
    assert store.apply_fact("green", _hand(8, 0)) == "applied"
    assert store.apply_fact("green", _hand(8, 0)) == "duplicate"
    assert store.apply_fact("green", {**_hand(8, 0), "prev": 3}) == "duplicate"  # prev aside
    assert store.apply_fact("green", _hand(8, 0, net=300000)) == "conflict"
    assert store.apply_fact("green", _hand(24, 16, number=2)) == "gap"
    assert store.apply_fact("green", _hand(16, 8, number=2)) == "applied"
    assert [h["net"]["2"] for h in store.hands("green")] == [96, 96]
    assert store.last_pos("green") == 16


def test_rows_an_older_version_stored_are_set_aside_and_the_pages_answer(tmp_path: Path
                                                                         ) -> None:
    db = tmp_path / "club.sqlite"
    ClubStore(db).close()
    good = {k: v for k, v in _hand(8, 0).items() if k not in ("table", "prev")}
    with sqlite3.connect(db) as conn:
        for number, body in ((1, good), (2, {**good, "number": 2, "net": {"1": "lots"}}),
                             (3, {**good, "number": 3, "names": ["Mallory"]})):
            conn.execute("INSERT INTO hands VALUES ('green', 1, ?, ?, 1.0, ?)",
                         (number, number * 8, json.dumps(body)))
        conn.execute("INSERT INTO sessions VALUES ('green', 1, 'soon', 'hua-bao', NULL, NULL)")
        conn.execute("INSERT INTO penalties VALUES ('green', 1, 1, 16, ?)",
                     (json.dumps({"kind": "transfer", "hand": "x"}),))
    store = ClubStore(db)
    assert [h["number"] for h in store.hands()] == [1]
    assert store.sessions() == [] and store.penalties() == []
    with sqlite3.connect(db) as conn:
        kept = conn.execute("SELECT what FROM set_aside ORDER BY what").fetchall()
    assert kept == [("hands",), ("hands",), ("penalties",), ("sessions",)]


def _inbox() -> tuple[Inbox, list[int]]:
    return Inbox("green", VERIFIER, SetAside("test")), []


def test_a_table_takes_no_older_round_and_no_resend_meant_for_another() -> None:
    inbox, rewound = _inbox()
    new = SIGNER.sign(topics.ROUND, {"round": 2, "started": 10.0, "ends_at": 20.0,
                                     "seating": {}, "issued": 200.0})
    old = SIGNER.sign(topics.ROUND, {"round": 1, "started": 1.0, "ends_at": 2.0,
                                     "seating": {}, "issued": 100.0})
    assert inbox.take(topics.ROUND, topics.encode(new), 0, rewound.append)
    assert not inbox.take(topics.ROUND, topics.encode(old), 0, rewound.append)
    assert inbox.take(topics.ROUND, topics.encode(new), 0, rewound.append)  # retained again
    assert inbox.round is not None and inbox.round["round"] == 2
    assert not inbox.take(topics.ROUND, b"", 0, rewound.append)  # cleared by someone: kept
    assert inbox.round["round"] == 2
    resend = topics.table_topic("green", "resend")
    for body in ({"table": "blue", "after": 0}, {"table": "green", "after": 80}):
        message = SIGNER.sign(resend, {**body, "issued": 1.0})
        assert not inbox.take(resend, topics.encode(message), 80, rewound.append)
    ask = SIGNER.sign(resend, {"table": "green", "after": 8, "issued": 1.0})
    assert inbox.take(resend, topics.encode(ask), 80, rewound.append)
    assert not inbox.take(resend, topics.encode(ask), 80, rewound.append)  # within a second
    assert rewound == [8] and inbox.set_aside.count == 5


def test_the_club_knows_a_table_enrolled_or_given_a_new_key_while_it_runs(tmp_path: Path
                                                                          ) -> None:
    from controller.club.keyring import Keyring

    running = Keyring(tmp_path)
    assert running.verifier("green") is None
    first, _ = Keyring(tmp_path).enrol("green")  # as `club enrol-table` in another process
    message = first.sign(FACTS, _hand(8, 0))
    assert running.verifier("green").verify(FACTS, message)  # type: ignore[union-attr]
    second, _ = Keyring(tmp_path).enrol("green", replace=True)
    assert not running.verifier("green").verify(FACTS, message)  # type: ignore[union-attr]
    assert running.verifier("green").verify(  # type: ignore[union-attr]
        FACTS, second.sign(FACTS, _hand(8, 0)))
    (tmp_path / "club-keys.json").write_text("{damaged")
    assert running.verifier("green") is not None  # the keys read before are kept


def test_the_largest_fact_the_schema_allows_fits_the_size_limit() -> None:
    """No real fact can be refused for its size (the table would resend it for ever): the
    largest session end the schema takes, every text at its longest in 4-byte characters."""
    name, reason = "\U0001f004" * 40, "\U0001f004" * 200
    names = {p: name for p in "1234"}
    penalty = {"kind": "transfer", "hand": 1_000_000, "seat": 4, "amount": -10**9,
               "reason": reason, "names": names, "cancelled": False, "line": 1_000_000,
               "payments": [{"from": 1, "to": 2, "amount": -10**9}] * 12}
    by_seat = dict.fromkeys("1234", -10**9)
    fact = {"table": "t" * 32, "session": 2**31, "kind": "session_end", "pos": 2**53,
            "prev": 2**53 - 1, "ended": 1e11, "ruleset": "r" * 40, "hands": 1_000_000,
            "totals": by_seat, "deductions": by_seat, "final": by_seat, "names": names,
            "penalties": [penalty] * 200}
    holders = {"table": "t" * 32, "session": 2**31, "kind": "holders", "pos": 2**53,
               "prev": 2**53 - 1, "hands": {str(100_000 + n): names for n in range(500)},
               "penalties": {str(100_000 + n): names for n in range(200)}}
    for largest in (fact, holders):
        payload = topics.encode(SIGNER.sign(FACTS, schema.check("fact", largest)))
        assert len(payload) <= schema.MAX_BYTES
        assert schema.check("fact", schema.parse(payload))
