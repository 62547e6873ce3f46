"""club-wire's functions at the edges its mutation runs found untested (issue 29, eighth and
twelfth sessions; docs/testing.md): the broker password read from a file's first line, a
tournament whose tables do not fit its players refused with the count it needs, the round
keeper's every decision, a table card and the club's health field by field, the broker's files
as docs/club.md describes them (the password hash checked against ``mosquitto_passwd``)."""

from __future__ import annotations

import base64
import json
import logging
import os
import pwd
import re
import shutil
import stat
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from controller.club import brokerconf, mqtt, topics
from controller.club.keyring import Credentials, Keyring
from controller.club.mqtt import BrokerConfig, SetAside, read_password
from controller.club.rounds import RoundKeeper
from controller.club.service import ClubService, load_or_create_token
from controller.club.signing import Signer
from controller.club.store import ClubStore
from controller.club.subscriber import ClubSubscriber
from controller.club.tournament import TournamentError
from tests.club.broker import enrol
from tests.club.fake_time import FakeTime
from tests.club.one_hand import one_hand_session
from tests.reliability.support import free_port


def test_the_password_is_the_files_first_line_stripped(tmp_path: Path) -> None:
    path = tmp_path / "password"
    path.write_text("  s\u00e9cret word \nthe second line\n", encoding="utf-8")
    assert read_password(path) == "s\u00e9cret word"
    assert read_password(None) is None


@pytest.mark.parametrize("content", [None, ""])
def test_a_missing_or_empty_password_file_is_one_clear_error(tmp_path: Path,
                                                             content: str | None) -> None:
    path = tmp_path / "password"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    said = re.escape(f"cannot read the broker password from {path}: ")
    with pytest.raises(ValueError, match=said):
        read_password(path)


def test_a_tournament_names_as_many_tables_as_its_players_need(tmp_path: Path) -> None:
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))
    players = [f"P{i}" for i in range(8)]
    with pytest.raises(TournamentError) as e:
        service.new_tournament(players, 2, 30, ["t1"])
    assert str(e.value) == "8 players need 2 tables; 1 were named"
    assert service.tournament() is None
    made = service.new_tournament(players, 2, 30, ["t1", "t2"])
    assert made["tables"] == ["t1", "t2"] and len(made["plan"]) == 2
    service.store.close()


def test_rounds_start_one_after_the_other_each_with_its_own_seating(tmp_path: Path) -> None:
    """docs/club.md: rounds are started in turn, each seated by its row of the plan, none past
    the tournament's number; a refusal names the next round (or that there is no tournament)."""
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))
    with pytest.raises(TournamentError, match="^no tournament: create one first$"):
        service.start_round(1, now=100.0)
    players = [f"P{i}" for i in range(8)]
    plan = service.new_tournament(players, 2, 30, ["t1", "t2"])["plan"]
    with pytest.raises(TournamentError, match="^the next round is 1$"):
        service.start_round(2, now=100.0)
    for number in (1, 2):
        rnd = service.start_round(number, now=100.0 * number)
        assert (rnd["round"], rnd["started"], rnd["ends_at"]) == (
            number, 100.0 * number, 100.0 * number + 30 * 60)
        assert rnd["seating"] == dict(zip(["t1", "t2"], plan[number - 1], strict=True))
    with pytest.raises(TournamentError, match="^the next round is 3$"):
        service.start_round(3, now=400.0)
    assert [r["round"] for r in service.store.get("tournament")["rounds_played"]] == [1, 2]
    service.store.close()


def test_a_season_is_the_calendar_year_in_local_time(tmp_path: Path) -> None:
    """docs/club.md: a season is a calendar year; a session counts in the season it started in,
    from New Year's midnight (local time) up to the next one, not including it."""
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))
    new_year = time.mktime((2026, 1, 1, 0, 0, 0, 0, 0, -1))
    next_year = time.mktime((2027, 1, 1, 0, 0, 0, 0, 0, -1))
    starts = {"at-new-year": new_year, "just-before": new_year - 1,
              "last-second": next_year - 1, "next-year": next_year}
    for table, started in starts.items():
        one_hand_session(service.store, table, started)
    league = service.standings(2026)["league"]
    assert service.standings(2026)["season"] == 2026
    assert sorted(s["table"] for s in league["sessions"]) == ["at-new-year", "last-second"]
    assert {r["name"].split("-")[0] for r in league["standings"]} == {"at", "last"}
    service.store.close()


# --- the round keeper's decisions, each in full (docs/club.md "The table acts on it") -------

SEATS = {"green": ["Ann", "Bo", "Cy", "Di"]}


def test_no_round_or_a_round_without_a_number_is_nothing_to_do() -> None:
    """``mahjong/club/round`` with ``round`` null means no round (docs/club.md); a round whose
    number is not a whole number is not one either: the table waits, whatever its state."""
    keeper = RoundKeeper(lambda: 1000.0)
    view: dict[str, Any] = {"hands": [], "hand": None, "names": {}}
    for rnd in (None, {}, {"round": None, "seating": SEATS}, {"round": "2", "seating": SEATS},
                {"round": 1.0, "ends_at": 2000.0, "seating": SEATS}):
        for active in (False, True):
            assert keeper.step(rnd, "green", view, active=active) == ("wait", None), rnd


def test_a_round_starts_a_session_only_before_its_end() -> None:
    """At a round's start the table starts a session if none is running; a round whose end
    has come starts none (docs/club.md): ``ends_at`` itself is the end."""
    view: dict[str, Any] = {"hands": [], "hand": None, "names": {}}
    for now, want in ((1999.0, ("start", None)), (2000.0, ("wait", None)),
                      (2001.0, ("wait", None))):
        keeper = RoundKeeper(lambda now=now: now)
        rnd = {"round": 1, "ends_at": 2000.0, "seating": SEATS}
        assert keeper.step(rnd, "green", view, active=False) == want, now


def test_seating_a_round_clears_the_names_it_does_not_give_first() -> None:
    """The round seats its four players by name, in the plan's order; a name left at a seat
    from before is cleared first (a ``player`` event with ``name`` null, seats in order), so
    only the round's players hold seats; a seat the plan leaves empty gets no name."""
    keeper = RoundKeeper(lambda: 100.0)
    rnd = {"round": 1, "ends_at": 200.0, "seating": {"green": ["Ann", "", "Cy", "Di"]}}
    view = {"hands": [], "hand": None,
            "names": {"1": "Old Ann", "2": "Old Bo", "4": "Old Di", "3": ""}}
    assert keeper.step(rnd, "green", view, active=True, session=7) == ("seat", [
        {"player": {"seat": 1, "name": None}}, {"player": {"seat": 2, "name": None}},
        {"player": {"seat": 4, "name": None}},
        {"player": {"seat": 1, "name": "Ann"}}, {"player": {"seat": 3, "name": "Cy"}},
        {"player": {"seat": 4, "name": "Di"}}])
    assert keeper.step(rnd, "green", view, active=True, session=7) == ("wait", None)
    # the first four of a longer row only, and a table the round does not seat gets nothing
    keeper = RoundKeeper(lambda: 100.0)
    rnd = {"round": 1, "ends_at": 200.0, "seating": {"green": ["A", "B", "C", "D", "E"]}}
    action, events = keeper.step(rnd, "green", {"names": {}}, active=True, session=1)
    assert action == "seat" and [e["player"]["name"] for e in events] == ["A", "B", "C", "D"]
    assert RoundKeeper(lambda: 100.0).step(rnd, "blue", {"names": {}}, active=True,
                                           session=1) == ("wait", None)


@pytest.mark.parametrize("phase", ["deal", "play"])
def test_at_time_up_a_hand_being_dealt_or_played_is_played_out(phase: str) -> None:
    """docs/club.md "Time-up": the hand in play at time-up (being dealt or played) is played
    out, then the session ends, once; after that the round is over for the table."""
    clock = [100.0]
    keeper = RoundKeeper(lambda: clock[0])
    rnd = {"round": 3, "ends_at": 150.0, "seating": SEATS}
    keeper.step(rnd, "green", {"names": {}}, active=True, session=1)  # seated
    clock[0] = 150.0
    playing = {"hands": [{}], "hand": {"phase": phase}, "names": {}}
    assert keeper.step(rnd, "green", playing, active=True, session=1) == ("wait", None)
    assert keeper.step(rnd, "green", playing, active=True, session=1) == ("wait", None)
    done = {"hands": [{}, {}], "hand": {"phase": "over"}, "names": {}}
    assert keeper.step(rnd, "green", done, active=True, session=1) == (
        "stop", {"between_hands": False})
    assert keeper.ended == {3}
    for active in (True, False):
        assert keeper.step(rnd, "green", done, active=active, session=1) == ("wait", None)


# --- the club's answers, field by field (docs/club.md "JSON") --------------------------------

def test_a_table_card_carries_the_tables_status_and_the_sessions_numbers(
        tmp_path: Path) -> None:
    """``GET /api/club/tables``: each card's ``players`` (who sits where now), ``totals`` by
    name, ``totals_by_position``, ``places``, ``finished``, and the table's own status as it
    published it (session, rule set, hand, phase, wall, turn and its wind and holder, hands,
    time, dealer, prevailing wind, board, discard, its address). amber's session 1 is over:
    nets -48, +96, -24, -24 (``one_hand_session``); blue has published a status and nothing else."""
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))
    one_hand_session(service.store, "amber", 1_000.0)
    names = {str(s): f"amber-{s}" for s in range(1, 5)}
    status = {"table": "amber", "online": True, "session": 1, "ruleset": "hua-bao",
              "hand": 2, "phase": "play", "wall": 61, "turn": 3, "turn_wind": "west",
              "hands": 1, "at": 1_234.5, "dealer": 2, "prevailing_wind": "east",
              "board": {"1": 3, "2": 13}, "discard": "5c", "url": "http://amber:8000/",
              "names": names}
    service.store.set_status("amber", status)
    service.store.set_status("blue", {"session": None})
    cards = {c["table"]: json.loads(json.dumps(c)) for c in service.tables()}
    amber = cards["amber"]
    assert amber["places"] and all(p["holders"] for p in amber["places"])
    assert {p["seat"]: p["score"] for p in amber.pop("places")} == {
        "1": -48, "2": 96, "3": -24, "4": -24}
    assert amber == {
        "table": "amber", "online": True, "players": names,
        "totals": {"amber-1": -48, "amber-2": 96, "amber-3": -24, "amber-4": -24},
        "totals_by_position": {"1": -48, "2": 96, "3": -24, "4": -24}, "finished": True,
        "session": 1, "ruleset": "hua-bao", "hand": 2, "phase": "play", "wall": 61,
        "turn": 3, "turn_wind": "west", "turn_name": "amber-3", "hands": 1, "at": 1_234.5,
        "dealer": 2, "prevailing_wind": "east", "board": {"1": 3, "2": 13}, "discard": "5c",
        "url": "http://amber:8000/"}
    blue = cards["blue"]
    assert (blue["finished"], blue["session"], blue["turn"], blue["turn_name"]) == (
        False, None, None, None)
    assert blue["totals_by_position"] == {"1": 0, "2": 0, "3": 0, "4": 0}
    service.store.close()


def test_the_clubs_health_counts_from_zero(tmp_path: Path) -> None:
    """The club's ``/api/health`` before its receiving thread runs: not ok, not receiving, no
    restarts, not connected, nothing received or set aside, the store at version 0
    (docs/club.md "The receiving threads"); every field named as the docs name it."""
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))
    assert service.health() == {
        "ok": False, "receiving": False, "restarts": 0, "broker_connected": False,
        "broker_disconnects": 0, "messages": 0, "set_aside": 0, "last_set_aside": [],
        "version": 0}
    service.store.set_status("amber", {"session": None})
    assert service.health()["version"] == 1
    service.store.close()


# --- the broker's files (docs/club.md "Running the broker") ----------------------------------

def test_a_password_hash_is_the_one_mosquitto_passwd_writes(tmp_path: Path) -> None:
    """Mosquitto's own tool is the reference: for the salt it chose, our ``$7$`` entry
    (PBKDF2-SHA512, 101 iterations) must be the very line it wrote."""
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        pytest.skip("mosquitto_passwd is not installed (Debian's mosquitto package)")
    for password in ("s3cret", "a longer pass phrase with spaces", "\u00e9t\u00e9"):
        passwd = tmp_path / "passwd"
        passwd.unlink(missing_ok=True)
        subprocess.run([tool, "-c", "-b", str(passwd), "green", password], check=True,
                       capture_output=True)
        user, _, theirs = passwd.read_text(encoding="utf-8").strip().partition(":")
        assert user == "green" and theirs.startswith("$7$101$")
        salt = base64.b64decode(theirs.split("$")[3])
        assert brokerconf.hash_password(password, salt) == theirs


def test_the_written_broker_configuration_is_the_locked_one(tmp_path: Path) -> None:
    """``mosquitto.conf`` as docs/club.md describes it: the listener on the port (and host)
    asked for, no anonymous clients, the password file and access rules in DIR/broker, the
    client id bound to the user name, the 512 KiB message limit plus its header (525,312),
    persistence in DIR/broker, your own additions in conf.d; the passwd file holds the club's
    user (mode 0600), and the access rules are those the docs list."""
    conf = brokerconf.write_config(tmp_path / "club", 1884, "127.0.0.1")
    where = (tmp_path / "club" / "broker").resolve()
    assert conf == where / "mosquitto.conf"
    directives = [line for line in conf.read_text(encoding="utf-8").splitlines()
                  if line and not line.startswith("#")]
    assert directives == [
        "per_listener_settings false", "listener 1884 127.0.0.1", "allow_anonymous false",
        f"password_file {where / 'passwd'}", f"acl_file {where / 'acl'}",
        "use_username_as_clientid true", "max_packet_size 525312",
        f"user {pwd.getpwuid(os.getuid()).pw_name}", "persistence true",
        f"persistence_location {where}", f"include_dir {where / 'conf.d'}"]
    assert (where / "conf.d").is_dir()
    assert [line.split(":")[0] for line in
            (where / "passwd").read_text(encoding="utf-8").splitlines()] == ["club"]
    assert stat.S_IMODE((where / "passwd").stat().st_mode) == 0o600
    assert stat.S_IMODE((where / "acl").stat().st_mode) == 0o600
    rules = [line for line in (where / "acl").read_text(encoding="utf-8").splitlines()
             if line and not line.startswith("#")]
    assert rules == [
        "user club", "topic readwrite mahjong/#",
        "pattern write mahjong/tables/%u/status", "pattern write mahjong/tables/%u/online",
        "pattern write mahjong/tables/%u/facts", "pattern read mahjong/tables/%u/resend",
        "pattern read mahjong/club/round", "pattern read mahjong/club/roster"]
    # the default listener: every address, port 1883
    conf = brokerconf.write_config(tmp_path / "other", )
    assert "listener 1883" in conf.read_text(encoding="utf-8").splitlines()


def test_the_clubs_password_is_made_once_and_enrolments_keep_each_users_entry(
        tmp_path: Path) -> None:
    """The club's broker password is made on first use and then read back (one line, 0600);
    writing the configuration again (every enrolment does) keeps the club's entry; a table's
    password set twice keeps one entry, the newest, with the users in order."""
    first = brokerconf.club_password(tmp_path)
    path = tmp_path.resolve() / "broker" / "club-password"
    assert len(first) >= 32 and first == brokerconf.club_password(tmp_path)
    assert path.read_text(encoding="utf-8") == first + "\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    brokerconf.write_config(tmp_path)
    passwd = tmp_path.resolve() / "broker" / "passwd"
    club_entry = passwd.read_text(encoding="utf-8")
    brokerconf.write_config(tmp_path)
    assert passwd.read_text(encoding="utf-8") == club_entry
    brokerconf.set_password(tmp_path, "green", "one")
    brokerconf.set_password(tmp_path, "blue", "two")
    brokerconf.set_password(tmp_path, "green", "three")
    entries = [line.partition(":") for line in passwd.read_text(encoding="utf-8").splitlines()]
    assert [user for user, _, _ in entries] == ["blue", "club", "green"]
    hashed = {user: h for user, _, h in entries}
    salt = base64.b64decode(hashed["green"].split("$")[3])
    assert hashed["green"] == brokerconf.hash_password("three", salt)
    assert hashed["club"] == club_entry.strip().partition(":")[2]


# --- a message set aside: counted, the last 20 kept, one log line a topic each 10 s ----------

def test_set_aside_messages_are_counted_kept_and_logged_at_most_every_ten_seconds(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """docs/club.md: what is set aside is counted, the last 20 shown in ``/api/health``
    (topic cut to 120 characters, sender, reason, bytes, time), and logged at most once a topic
    every 10 s, the next line saying how many were not logged since."""
    clock = FakeTime(5.0)
    monkeypatch.setattr(mqtt, "time", clock)
    caplog.set_level(logging.WARNING, logger="controller.club.mqtt")
    aside = SetAside("the club")
    facts = "mahjong/tables/t1/facts"

    def lines() -> list[str]:
        return [r.getMessage() for r in caplog.records if r.name == "controller.club.mqtt"]

    aside.add(facts, "t1", "bad signature", 300)
    assert (aside.count, list(aside.last)) == (1, [
        {"topic": facts, "sender": "t1", "reason": "bad signature", "bytes": 300, "at": 5.0}])
    assert lines() == ["the club set aside a message on mahjong/tables/t1/facts (sender: t1; "
                       "300 bytes): bad signature"]
    clock.now = 9.0
    aside.add(facts, "t1", "out of order", 10)
    aside.add(facts, "t1", "out of order", 11)
    aside.add("mahjong/tables/t2/status", "t2", "too old", 12)  # another topic: said at once
    assert aside.count == 4 and len(lines()) == 2
    assert lines()[1] == ("the club set aside a message on mahjong/tables/t2/status (sender: "
                          "t2; 12 bytes): too old")
    clock.now = 15.0  # 10 s after the topic's last line
    aside.add(facts, "t1", "gap", 13)
    assert lines()[2] == ("the club set aside a message on mahjong/tables/t1/facts (sender: "
                          "t1; 13 bytes): gap (2 more since the last line)")
    clock.now = 24.9
    aside.add(facts, "t1", "gap", 14)
    assert len(lines()) == 3
    clock.now = 25.0
    aside.add(facts, "t1", "gap", 15)
    assert lines()[3].endswith("15 bytes): gap (1 more since the last line)")
    clock.now = 40.0
    aside.add(facts, "t1", "gap", 16)
    assert lines()[4].endswith("16 bytes): gap")
    long = "mahjong/tables/" + "x" * 200
    aside.add(long, "?", "bad topic", 17)
    assert aside.last[-1]["topic"] == long[:120] and len(long[:120]) == 120
    assert lines()[5] == f"the club set aside a message on {long[:120]} (sender: ?; 17 bytes): " \
                         "bad topic"
    for i in range(30):
        aside.add(facts, "t1", f"number {i}", i)
    assert aside.count == 39 and len(aside.last) == 20
    assert [x["reason"] for x in aside.last] == [f"number {i}" for i in range(10, 30)]


# --- what the club does with each message it receives (docs/club.md "Signed messages") -----

def test_the_club_sets_aside_each_bad_message_with_its_reason_and_keeps_the_good_ones(
        tmp_path: Path) -> None:
    """The club's receiving side, message by message, without a broker (the receiving thread
    hands each message to the same method): a message on no table's topic, on an unknown
    leaf, naming another table, from a table not enrolled, not signed with the table's key, an
    older status, and a fact whose position holds another: each set aside with its sender and
    the reason the docs give; the club's own resend request and a cleared retained message
    ignored; a good status and fact kept."""
    enrol(tmp_path / "club", "t1", tmp_path / "t1.json")
    signer = Credentials.load(tmp_path / "t1.json").signer
    store = ClubStore(tmp_path / "club.sqlite")
    changes: list[int] = []
    club = ClubSubscriber(store, BrokerConfig("127.0.0.1", free_port()),
                          on_change=lambda: changes.append(store.version),
                          keyring=Keyring(tmp_path / "club"))

    def send(topic: str, message: dict[str, Any], sign: Signer | None = signer) -> None:
        body = sign.sign(topic, message) if sign is not None else message
        club._on_message(topic, topics.encode(body), False)

    status_topic = topics.table_topic("t1", "status")
    facts_topic = topics.table_topic("t1", "facts")
    status = {"table": "t1", "online": True, "last_pos": 0, "session": None, "at": 100.0}
    send(status_topic, status)
    assert store.tables()[0]["status"] == status and changes == [1]
    club._on_message("mahjong/elsewhere", b"{}", False)
    club._on_message(topics.table_topic("t1", "resend"), b"{}", False)
    club._on_message(topics.table_topic("t1", "bogus"), b"{}", False)
    club._on_message(status_topic, b"", False)  # a retained status cleared
    send(status_topic, {**status, "table": "t2"})
    send(topics.table_topic("t9", "status"), {**status, "table": "t9"})
    send(status_topic, {**status, "at": 101.0}, sign=Signer.generate())
    send(status_topic, {**status, "at": 99.0})
    fact = {"table": "t1", "kind": "session_start", "session": 1, "pos": 8, "prev": 0,
            "ruleset": "hua-bao", "started": 1000.0}
    send(facts_topic, fact)
    send(facts_topic, {**fact, "ruleset": "dmjl"})
    assert club.received == 11
    assert [(x["topic"], x["sender"], x["reason"]) for x in club.set_aside.last] == [
        ("mahjong/elsewhere", "?", "not a table's topic"),
        (topics.table_topic("t1", "bogus"), "t1", "no such topic as 'bogus'"),
        (status_topic, "t1", "says table 't2' on t1's topic"),
        (topics.table_topic("t9", "status"), "t9",
         "t9 is not enrolled at this club (mahjong-table club enrol-table NAME)"),
        (status_topic, "t1", "not signed with t1's key"),
        (status_topic, "t1", "older than the status the club holds"),
        (facts_topic, "t1", "position 8 holds another fact of t1 at the club")]
    assert club.set_aside.count == 7
    assert store.tables()[0]["status"] == status  # the first, untouched by what was set aside
    assert store.last_pos("t1") == 8 and [s["session"] for s in store.sessions()] == [1]
    assert len(changes) == 2
    store.close()


def test_the_admin_token_is_made_once_private_and_a_damaged_file_is_refused(
        tmp_path: Path) -> None:
    """docs/club.md: the admin token is made on first start in ``DIR/club-token.json``, mode
    0600, and kept; a damaged file is refused with what to do (not silently replaced: the
    organiser's links would stop working without a word). 0600 whatever the umask: made under
    a permissive one (022; the CLI's ``enrol`` leaves 077 set for the rest of a test process)."""
    old = os.umask(0o022)
    try:
        token = load_or_create_token(tmp_path)
    finally:
        os.umask(old)
    path = tmp_path / "club-token.json"
    assert len(token) == 32  # 24 random bytes, base64url
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text(encoding="utf-8")) == {"admin": token}
    assert load_or_create_token(tmp_path) == token
    for damaged in ('{"admin": 5}', '["admin"]', '{"other": "x"}'):
        path.write_text(damaged, encoding="utf-8")
        with pytest.raises(ValueError) as e:
            load_or_create_token(tmp_path)
        assert str(e.value) == f"{path} is damaged: delete it to make a new admin token"


def test_time_up_between_hands_ends_the_session_once() -> None:
    """Time-up with no hand in play: the session ends at once, and only once; the keeper then
    waits, whether or not the stop has gone through yet (docs/club.md "Time-up")."""
    clock = [100.0]
    keeper = RoundKeeper(lambda: clock[0])
    rnd = {"round": 4, "ends_at": 150.0, "seating": SEATS}
    keeper.step(rnd, "green", {"names": {}}, active=True, session=1)
    clock[0] = 150.0
    between = {"hands": [{}], "hand": {"phase": "over"}, "names": {}}
    assert keeper.step(rnd, "green", between, active=True, session=1) == (
        "stop", {"between_hands": True})
    for active in (True, False):
        assert keeper.step(rnd, "green", between, active=active, session=1) == ("wait", None)
