"""The club's wire contracts one by one, without a broker (written from the mutation run of
issue 29, docs/testing.md): topic names and the broker address (controller/club/topics.py's
table), the signed bytes (signing.py's docstring: the domain, the topic, a newline and the
canonical JSON without ``sig``) checked against RFC 8032's first Ed25519 test vector, the
keyring's files and refusals (docs/club.md "enrol-table"), and what a table takes from the
club (inbox.py's docstring: signed by the club, never older, a resend for this table only, at
most once a second)."""

from __future__ import annotations

import base64
import json
import stat
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from controller.club import inbox as inbox_module
from controller.club import schema, topics
from controller.club.inbox import Inbox
from controller.club.keyring import Credentials, Keyring, KeysError, write_private
from controller.club.mqtt import SetAside
from controller.club.signing import Signer, Verifier, canonical
from tests.club.fake_time import FakeTime

# RFC 8032 section 7.1, TEST 1: the secret key and the public key it makes
RFC_SECRET = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
RFC_PUBLIC = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
FACTS = "mahjong/tables/green/facts"


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


# --- topics -----------------------------------------------------------------------------------

def test_topic_names_are_the_documented_ones() -> None:
    assert topics.table_topic("green", "facts") == FACTS
    assert (topics.ROUND, topics.ROSTER, topics.TABLES) == (
        "mahjong/club/round", "mahjong/club/roster", "mahjong/tables/+/#")
    assert topics.parse_table_topic("mahjong/tables/green-2_b/status") == ("green-2_b", "status")
    for other in ("mahjong/tables/green", "mahjong/tables/green/facts/x",
                  "mahjang/tables/green/facts", "mahjong/table/green/facts",
                  "mahjong/club/green/facts", "mahjong/tables/gr.en/facts",
                  "mahjong/tables//facts", "mahjong/tables/" + "t" * 33 + "/facts"):
        assert topics.parse_table_topic(other) is None, other
    assert topics.parse_table_topic("mahjong/tables/" + "t" * 32 + "/facts") == ("t" * 32,
                                                                                 "facts")


def test_a_table_id_is_1_to_32_letters_digits_dash_or_underscore() -> None:
    for good in ("a", "Z9", "t" * 32, "green_2-b"):
        assert topics.check_table_id(good) == good
    for bad in ("", "t" * 33, "green/2", "green 2", "gr\u00e9en", "+", "#"):
        with pytest.raises(ValueError, match="a table id is 1-32 letters"):
            topics.check_table_id(bad)


def test_the_broker_is_host_and_port_1883_by_default() -> None:
    assert topics.parse_broker("localhost") == ("localhost", 1883)
    assert topics.parse_broker("hall.local:1884") == ("hall.local", 1884)
    assert topics.parse_broker("[::1]:8883") == ("::1", 8883)
    assert topics.parse_broker("h:1") == ("h", 1)
    assert topics.parse_broker("h:65535") == ("h", 65535)
    for bad in (":1883", "h:", "h:0", "h:65536", "h:x", "h:-1"):
        with pytest.raises(ValueError, match=r"the broker is HOST:PORT \(say, localhost:1883\)"):
            topics.parse_broker(bad)


def test_a_message_is_compact_utf8_json() -> None:
    assert topics.encode({"name": "B\u00f6", "n": [1, 2]}) == \
        '{"name":"B\u00f6","n":[1,2]}'.encode()


# --- signing ----------------------------------------------------------------------------------

def test_the_signed_bytes_are_domain_topic_newline_and_canonical_json() -> None:
    message = {"b": 1, "a": "\u00e9", "c": [1.5, None], "sig": "left out"}
    assert canonical(FACTS, message) == (
        b"mahjong-club/1 mahjong/tables/green/facts\n"
        + '{"a":"\u00e9","b":1,"c":[1.5,null]}'.encode())
    with pytest.raises(ValueError):  # no NaN on the wire: it has no JSON spelling
        canonical(FACTS, {"x": float("nan")})


def test_keys_and_signatures_agree_with_rfc_8032() -> None:
    signer = Signer.from_text(_b64(RFC_SECRET))
    assert signer.public_text() == _b64(RFC_PUBLIC)
    assert signer.private_text() == _b64(RFC_SECRET)
    message = {"kind": "hand", "pos": 16, "prev": 8}
    # the signature made by the reference library over the documented bytes
    sig = Ed25519PrivateKey.from_private_bytes(RFC_SECRET).sign(canonical(FACTS, message))
    verifier = Verifier.from_text(_b64(RFC_PUBLIC))
    assert verifier.verify(FACTS, {**message, "sig": _b64(sig)})
    assert signer.sign(FACTS, message) == {**message, "sig": _b64(sig)}  # Ed25519: one answer
    assert not verifier.verify(FACTS, {**message, "sig": _b64(sig[:-1] + b"\0")})
    assert not verifier.verify(FACTS, message)  # no signature at all
    assert not verifier.verify(FACTS, {**message, "sig": 5})


def test_a_key_or_signature_of_the_wrong_form_is_named() -> None:
    with pytest.raises(ValueError, match="^the private key is 31 bytes, not 32$"):
        Signer.from_text(_b64(RFC_SECRET[:31]))
    with pytest.raises(ValueError, match="^the private key is not base64$"):
        Signer.from_text("not base64!")
    with pytest.raises(ValueError, match="^the public key is not base64$"):
        Verifier.from_text("\u00e9" * 44)
    with pytest.raises(ValueError, match="^the public key is 33 bytes, not 32$"):
        Verifier.from_text(_b64(RFC_PUBLIC + b"\0"))
    verifier = Verifier.from_text(_b64(RFC_PUBLIC))
    for sig in ("x" * 88, _b64(b"\0" * 63), _b64(b"\0" * 65), "\u00e9" * 88):
        assert not verifier.verify(FACTS, {"sig": sig})


# --- the keyring ------------------------------------------------------------------------------

def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_clubs_keys_are_made_once_and_only_the_owner_reads_them(tmp_path: Path) -> None:
    first = Keyring(tmp_path / "club")
    path = tmp_path / "club" / "club-keys.json"
    assert _mode(path) == 0o600
    assert json.loads(path.read_text())["tables"] == {}
    assert Keyring(tmp_path / "club").signer.public_text() == first.signer.public_text()
    write_private(tmp_path / "creds.json", "secret\n")
    assert _mode(tmp_path / "creds.json") == 0o600
    assert (tmp_path / "creds.json").read_text() == "secret\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club", "creds.json"]  # no .tmp


def test_enrolling_issues_a_key_and_password_and_refuses_the_clubs_name(tmp_path: Path) -> None:
    ring = Keyring(tmp_path)
    signer, password = ring.enrol("blue")
    ring.enrol("amber")
    assert ring.tables() == ["amber", "blue"]
    assert len(password) == 32  # 24 random bytes, URL-safe base64
    assert ring.verifier("blue").verify(  # type: ignore[union-attr]
        FACTS, signer.sign(FACTS, {"a": 1}))
    assert ring.verifier("nobody") is None
    stored = json.loads((tmp_path / "club-keys.json").read_text())
    assert stored["tables"]["blue"] == {"public": signer.public_text()}  # no private key kept
    with pytest.raises(KeysError, match="already enrolled: --replace"):
        ring.enrol("blue")
    for name in ("club", "CLUB", "Club"):
        with pytest.raises(KeysError, match="the club service's own broker user"):
            ring.enrol(name)
    with pytest.raises(ValueError, match="a table id"):
        ring.enrol("blue/2")
    assert ring.tables() == ["amber", "blue"]


def test_damaged_keys_say_what_to_do(tmp_path: Path) -> None:
    for text in ("{damaged", '{"club_key": "AAAA", "tables": {}}', '{"tables": {}}',
                 json.dumps({"club_key": _b64(RFC_SECRET), "tables": {"t": {}}}),
                 json.dumps({"club_key": _b64(RFC_SECRET), "tables": []})):
        (tmp_path / "club-keys.json").write_text(text)
        with pytest.raises(KeysError, match="cannot be read .*: restore it from a backup, or "
                                            "delete it and enrol every table again"):
            Keyring(tmp_path)


def test_a_tables_credentials_read_back_as_written(tmp_path: Path) -> None:
    club, table = Signer.generate(), Signer.generate()
    path = tmp_path / "green.json"
    path.write_text(Credentials.text("green", "pw", table, club.public_text()))
    assert json.loads(path.read_text()) == {
        "table": "green", "broker_user": "green", "broker_password": "pw",
        "key": table.private_text(), "club_key": club.public_text()}
    creds = Credentials.load(path)
    assert (creds.table, creds.broker_user, creds.broker_password) == ("green", "green", "pw")
    assert creds.signer.public_text() == table.public_text()
    assert creds.club.verify(topics.ROUND, club.sign(topics.ROUND, {"a": 1}))
    for text in (None, "[]", '{"table": "green"}',
                 Credentials.text("gr/een", "pw", table, club.public_text())):
        if text is not None:
            path.write_text(text)
        else:
            path.unlink()
        with pytest.raises(KeysError, match=r"cannot read the club credentials .* the club "
                                            r"makes them with `mahjong-table club enrol-table"):
            Credentials.load(path)


# --- what a table takes from the club ---------------------------------------------------------

CLUB = Signer.from_text(_b64(RFC_SECRET))
RESEND = topics.table_topic("green", "resend")


def _take(inbox: Inbox, topic: str, body: dict[str, Any], published: int = 0,
          signer: Signer = CLUB) -> tuple[bool, list[int]]:
    rewound: list[int] = []
    payload = topics.encode(signer.sign(topic, body))
    return inbox.take(topic, payload, published, rewound.append), rewound


def _reason(inbox: Inbox) -> str:
    return str(inbox.set_aside.last[-1]["reason"])


def test_a_table_takes_the_round_and_roster_signed_by_the_club_only() -> None:
    inbox = Inbox("green", Verifier.from_text(_b64(RFC_PUBLIC)), SetAside("test"),
                  issued={"roster": 50.0})
    assert _take(inbox, topics.ROSTER, {"players": ["Ann"], "issued": 40.0}) == (False, [])
    assert _reason(inbox) == "older than the roster the table holds"
    assert _take(inbox, topics.ROSTER, {"players": ["Ann", "Bo"], "issued": 50.0})[0]
    assert inbox.roster == ["Ann", "Bo"] and inbox.issued == {"roster": 50.0}
    assert not _take(inbox, topics.ROSTER, {"players": [], "issued": 60.0},
                     signer=Signer.generate())[0]
    assert _reason(inbox) == "not signed by the club" and inbox.roster == ["Ann", "Bo"]
    assert _take(inbox, topics.ROUND, {"round": 1, "started": 1.0, "ends_at": 2.0,
                                       "issued": 10.0})[0]
    assert inbox.round is not None and inbox.round["round"] == 1
    assert _take(inbox, topics.ROUND, {"round": None, "issued": 11.0})[0]  # a new tournament
    assert inbox.round is None and inbox.issued == {"roster": 50.0, "round": 11.0}
    assert not inbox.take(topics.table_topic("green", "facts"), b"{}", 0, print)
    assert _reason(inbox) == "not a topic the table reads"
    assert not inbox.take(topics.ROUND, b"", 0, print)
    assert _reason(inbox) == "empty (a retained message cleared by someone)"
    assert not _take(inbox, topics.ROUND, {"round": "x", "issued": 12.0})[0]
    assert _reason(inbox).startswith("round:")
    assert inbox.set_aside.count == 5 and inbox.set_aside.last[-3]["bytes"] == 2
    assert inbox.set_aside.last[-1]["sender"] == "whoever wrote the club's topic"


def test_without_the_clubs_key_a_table_takes_unsigned_messages() -> None:
    inbox = Inbox("green", None, SetAside("test"))
    assert inbox.take(topics.ROSTER, topics.encode({"players": ["Ann"], "issued": 1.0}), 0,
                      print)
    assert inbox.roster == ["Ann"]


def test_a_resend_asks_for_what_was_published_at_most_once_a_second(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeTime(1000.0)
    monkeypatch.setattr(inbox_module, "time", clock)
    inbox = Inbox("green", Verifier.from_text(_b64(RFC_PUBLIC)), SetAside("test"))
    assert _take(inbox, RESEND, {"table": "green", "after": 80, "issued": 1.0}, 80) == (
        False, [])
    assert _reason(inbox) == "asks after 80; the table published up to 80"
    assert _take(inbox, RESEND, {"table": "blue", "after": 0, "issued": 1.0}, 80)[0] is False
    assert _reason(inbox) == "a resend for blue, not this table"
    assert _take(inbox, RESEND, {"table": "green", "after": 79, "issued": 1.0}, 80) == (
        True, [79])
    clock.now += 0.999
    assert _take(inbox, RESEND, {"table": "green", "after": 0, "issued": 1.0}, 80) == (
        False, [])
    assert _reason(inbox) == "a second resend within a second"
    clock.now += 0.001  # a second after the one honoured
    assert _take(inbox, RESEND, {"table": "green", "after": 0, "issued": 1.0}, 80) == (
        True, [0])


# --- the schema's own words -------------------------------------------------------------------

def test_the_schema_says_why_in_one_line() -> None:
    with pytest.raises(schema.BadMessage, match="^a JSON list, not an object$"):
        schema.parse(b"[1]")
    with pytest.raises(schema.BadMessage, match="^not JSON: "):
        schema.parse(b"\xff{}")
    with pytest.raises(schema.BadMessage, match="^not JSON: "):
        schema.parse(b"{")
    with pytest.raises(schema.BadMessage, match="^players.0: "):
        schema.check("roster", {"players": [5], "issued": 1.0})
    with pytest.raises(schema.BadMessage, match="^issued: "):
        schema.check("roster", {"players": []})
    with pytest.raises(schema.BadMessage, match="^prev 8 is not before pos 8$"):
        schema.check("fact", {"table": "t", "session": 1, "kind": "hand_undone", "pos": 8,
                              "prev": 8, "number": 1})
    assert schema.check("fact", {"table": "t", "session": 1, "kind": "hand_undone", "pos": 8,
                                 "prev": 7, "number": 1})["prev"] == 7


@pytest.mark.parametrize(("round_", "ok"), [
    ({"round": 1, "started": 5.0, "ends_at": 5.0}, True),  # ends as it starts: allowed
    ({"round": 1, "started": 5, "ends_at": 9}, True),  # whole seconds are a time too
    ({"round": 1, "started": 5.0, "ends_at": 4.0}, False),
    ({"round": 1, "started": 5.0}, False), ({"round": 1, "ends_at": 5.0}, False),
    ({"round": None}, True), ({"round": None, "started": 9.0, "ends_at": 1.0}, True),
])
def test_a_round_needs_a_start_and_an_end_not_before_it(round_: dict[str, Any],
                                                         ok: bool) -> None:
    message = {**round_, "issued": 1.0}
    if ok:
        assert schema.check("round", message) == message
    else:
        with pytest.raises(schema.BadMessage):
            schema.check("round", message)


def test_nesting_is_counted_from_the_message_itself() -> None:
    """MAX_DEPTH 6: the message is level 1, so five containers inside it are allowed."""
    schema.depth_ok({"a": [[[[{"b": 1}]]]]})  # no BadMessage
    with pytest.raises(schema.BadMessage, match="^nested deeper than 6$"):
        schema.depth_ok({"a": [[[[{"b": []}]]]]})
    with pytest.raises(schema.BadMessage):
        schema.depth_ok([[[[[[[]]]]]]])
    schema.depth_ok([[[[[[]]]]]])


def test_base64_with_anything_but_its_alphabet_is_refused() -> None:
    good = Signer.from_text(_b64(RFC_SECRET)).sign(FACTS, {"a": 1})["sig"]
    verifier = Verifier.from_text(_b64(RFC_PUBLIC))
    assert verifier.verify(FACTS, {"a": 1, "sig": good})
    for junk in ("!", "\n", " "):
        assert not verifier.verify(FACTS, {"a": 1, "sig": good[:10] + junk + good[10:]})
        with pytest.raises(ValueError, match="^the private key is not base64$"):
            Signer.from_text(_b64(RFC_SECRET)[:8] + junk + _b64(RFC_SECRET)[8:])


def test_a_broker_host_keeps_its_own_letters() -> None:
    assert topics.parse_broker("hallX:1883") == ("hallX", 1883)
    assert topics.parse_broker("X[::1]X:1") == ("X[::1]X", 1)


def test_a_payload_of_exactly_the_limit_is_read_and_a_long_reason_is_cut_at_80() -> None:
    exact = b'{"a":"' + b"x" * (schema.MAX_BYTES - 8) + b'"}'
    assert len(exact) == schema.MAX_BYTES and schema.parse(exact)["a"][:1] == "x"
    with pytest.raises(schema.BadMessage) as got:
        schema.parse(b"{" + b" " * 100_000 + b"x")
    assert str(got.value).startswith("not JSON: Expecting property name")
    assert len(str(got.value)) == len("not JSON: ") + 80
    with pytest.raises(schema.BadMessage, match="^nested deeper than 6$"):
        schema.depth_ok({"deep": [[[[[[]]]]]], "flat": 1})  # a scalar looked at first


def test_a_message_that_is_wrong_as_a_whole_is_named_so() -> None:
    with pytest.raises(schema.BadMessage, match="^the message: "):
        schema.check("fact", {"table": "t"})  # no kind: no fact to check it as
    with pytest.raises(schema.BadMessage,
                       match="^a round needs started and an ends_at not before it$"):
        schema.check("round", {"round": 1, "started": 5.0, "ends_at": 4.0, "issued": 1.0})


def test_a_new_inbox_holds_nothing_and_takes_the_first_round_whatever_its_time() -> None:
    inbox = Inbox("green", None, SetAside("test"))
    assert inbox.round is None and inbox.roster == [] and inbox.issued == {}
    assert inbox.take(topics.ROUND, topics.encode({"round": 1, "started": 0.0, "ends_at": 0.5,
                                                   "issued": 0.5}), 0, print)
    assert inbox.round is not None and inbox.issued == {"round": 0.5}


def test_a_keys_file_damaged_while_the_club_runs_is_said_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    ring = Keyring(tmp_path / "data" / "club")  # its folders made as needed
    signer, _ = ring.enrol("green")
    (tmp_path / "data" / "club" / "club-keys.json").write_text("{damaged")
    with caplog.at_level("WARNING", logger="controller.club.keyring"):
        for _ in range(3):
            assert ring.verifier("green").verify(  # type: ignore[union-attr]
                FACTS, signer.sign(FACTS, {"a": 1}))
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and said[0].startswith(str(tmp_path / "data" / "club" /
                                                     "club-keys.json") + " cannot be read")
    with pytest.raises(KeysError, match="^'club' is the club service's own broker user: "
                                        "choose another name for the table$"):
        ring.enrol("club")


def test_the_refusals_name_what_to_do(tmp_path: Path) -> None:
    ring = Keyring(tmp_path)
    ring.enrol("green")
    with pytest.raises(KeysError, match=r"^the table green is already enrolled: --replace issues "
                                        r"it a new key and password \(the old ones stop "
                                        r"working\)$"):
        ring.enrol("green")
    (tmp_path / "x.json").write_text("[]")
    with pytest.raises(KeysError, match=r"makes them with `mahjong-table club enrol-table NAME "
                                        r"-o FILE`$"):
        Credentials.load(tmp_path / "x.json")
