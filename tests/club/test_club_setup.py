"""What the club writes and serves once it is set up, checked against docs/club.md "Setting up
the club" (issue 29, thirteenth session: club-wire's survivors in app.py, brokerconf.py and
rounds.py): the club's broker password and the whole of ``mosquitto.conf``, the pages' static
files, languages and API title, the live socket's rhythm, and the table's round keeper as an
event source (its looks, a halt, a new session, a stop refused while a hand is dealt, its log
lines). Expected values come from that section, never from the code under test."""

from __future__ import annotations

import asyncio
import logging
import os
import pwd
import re
import stat
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.club import app as club_app
from controller.club import brokerconf
from controller.club import rounds as club_rounds
from controller.club.app import create_club_app
from controller.club.mqtt import BrokerConfig
from controller.club.rounds import round_source
from controller.club.service import ClubService
from controller.loop.results import HandInPlay, ServiceError
from tests.reliability.support import free_port
from tests.waiting import until_async

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "controller" / "club" / "static"
DEADLINE = 20.0  # seconds a test waits for a condition before it gives up (never a decision)


def _section() -> str:
    text = (ROOT / "docs" / "club.md").read_text(encoding="utf-8")
    start = text.index("### Setting up the club\n")
    end = text.index("\n## ", start)
    return text[start:end]


# --- the broker's files ------------------------------------------------------------------------

def test_the_clubs_broker_password_is_24_random_bytes_in_base64url(tmp_path: Path) -> None:
    """"24 random bytes written as 32 characters of base64url ... and a newline" (4 characters
    for every 3 bytes: 24 bytes are 32 characters, no padding); each club its own."""
    first = brokerconf.club_password(tmp_path / "one")
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", first), first
    path = (tmp_path / "one").resolve() / "broker" / "club-password"
    assert path.read_text(encoding="utf-8") == first + "\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert brokerconf.club_password(tmp_path / "one") == first
    assert brokerconf.club_password(tmp_path / "two") != first


def _documented_conf(where: Path, listener: str) -> list[str]:
    block = _section().split("  ```\n")[1]
    lines = [line.removeprefix("  ") for line in block.splitlines()]
    name = pwd.getpwuid(os.getuid()).pw_name
    return [line.replace("listener PORT HOST", listener).replace("DIR/broker", str(where))
            .replace("user NAME", f"user {name}") for line in lines]


@pytest.mark.parametrize(("port", "host", "listener"), [
    (1884, "127.0.0.1", "listener 1884 127.0.0.1"), (None, None, "listener 1883")])
def test_the_written_mosquitto_conf_is_the_documented_file_comments_and_all(
        tmp_path: Path, port: int | None, host: str | None, listener: str) -> None:
    """The whole file, its comments included (the operator reads them), line for line as
    docs/club.md shows it; port 1883 on every address unless asked otherwise."""
    conf = (brokerconf.write_config(tmp_path / "club") if port is None
            else brokerconf.write_config(tmp_path / "club", port, host))
    where = (tmp_path / "club" / "broker").resolve()
    assert conf.read_text(encoding="utf-8").splitlines() == _documented_conf(where, listener)
    assert conf.read_text(encoding="utf-8").endswith("conf.d\n")


# --- the club's pages and API ------------------------------------------------------------------

@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[TestClient, ClubService]]:
    # no broker listens there: the club serves what it holds and keeps trying to connect
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))
    with TestClient(create_club_app(service)) as client:
        yield client, service


def test_every_file_a_page_loads_from_static_is_served(
        club: tuple[TestClient, ClubService]) -> None:
    """Each ``/static/...`` address the club's pages name is served: the club's own script and
    style are the files in controller/club/static, the table's two are theirs."""
    client, _ = club
    table_static = ROOT / "controller" / "web" / "static"
    named = set()
    for page in STATIC.glob("*.html"):
        named |= set(re.findall(r'"/static/([\w.-]+)"', page.read_text(encoding="utf-8")))
    assert named == {"club.css", "club.js", "i18n.js", "tiles.js"}
    for name in sorted(named):
        own = STATIC / name if (STATIC / name).exists() else table_static / name
        r = client.get(f"/static/{name}")
        assert (r.status_code, r.content) == (200, own.read_bytes()), name
    assert client.get("/static/no-such-file.js").status_code == 404


def test_the_pages_follow_the_browsers_language(club: tuple[TestClient, ClubService]) -> None:
    """docs/i18n.md: "The club's pages have no config: the browser's language, or their
    switch" (``de-AT`` reads German; a language the table does not have reads English)."""
    client, _ = club
    for accept, language in (("de-AT,de;q=0.9", "de"), ("ja", "ja"), ("fi", "en"), (None, "en")):
        headers = {"Accept-Language": accept} if accept else {}
        body = client.get("/api/i18n", headers=headers).json()
        assert (body["language"], body["default"]) == (language, None), accept
        assert [entry["code"] for entry in body["languages"]] == [
            "en", "de", "sv", "zh-Hans", "ja"]


def test_the_api_is_described_under_the_clubs_name(club: tuple[TestClient, ClubService]) -> None:
    client, _ = club
    assert client.get("/openapi.json").json()["info"]["title"] == "Mahjong club"
    assert "<title>Mahjong club - Swagger UI</title>" in client.get("/docs").text


# --- the live socket's rhythm ----------------------------------------------------------------

class _Clockwork:
    """Stands in for the ``asyncio`` the code under test names: records the timeouts of its
    waits and the lengths of its sleeps, and runs them at ``scale`` (None: a wait's timeout
    never comes, so only what it waits on ends it); sleeps take no time."""

    def __init__(self, scale: float | None) -> None:
        self.scale = scale
        self.waits: list[tuple[Any, Any]] = []
        self.sleeps: list[float] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def wait(self, fs: Any, *, timeout: float | None = None,
                   return_when: str = asyncio.ALL_COMPLETED) -> Any:
        self.waits.append((timeout, return_when))
        real = None if timeout is None or self.scale is None else timeout * self.scale
        return await asyncio.wait(fs, timeout=real, return_when=return_when)

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        await asyncio.sleep(0)


class _Page:
    """A page's socket as Starlette's WebSocket behaves for the push: what the page sends
    arrives through ``incoming``; a receive after the page went away is a RuntimeError."""

    def __init__(self, club: Any) -> None:
        self.app = SimpleNamespace(state=SimpleNamespace(club=club))
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: list[Any] = []
        self.gone = False

    async def accept(self) -> None:
        pass

    async def receive(self) -> dict[str, Any]:
        if self.gone:
            raise RuntimeError('Cannot call "receive" once a disconnect message has been '
                               "received.")
        message = await self.incoming.get()
        self.gone = message["type"] == "websocket.disconnect"
        return message

    async def send_json(self, data: Any) -> None:
        self.sent.append(data)


def _push_endpoint() -> Callable[[Any], Awaitable[None]]:
    app = create_club_app(SimpleNamespace())  # type: ignore[arg-type]
    (route,) = [r for r in app.routes if getattr(r, "path", None) == "/ws/club"]
    endpoint: Callable[[Any], Awaitable[None]] = route.endpoint  # type: ignore[attr-defined]
    return endpoint


def _live_club() -> Any:
    store = SimpleNamespace(version=0)
    return SimpleNamespace(store=store, changed=asyncio.Event(),
                           tables=lambda: [{"table": "green", "seen": store.version}])


def test_a_signalled_change_reaches_the_page_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The push waits for a change or the page, whichever comes first: here its 10-second look
    never comes, so the change itself must wake it. The page's ping does not end the push;
    the page going away does."""
    clock = _Clockwork(scale=None)
    monkeypatch.setattr(club_app, "asyncio", clock)

    async def scenario() -> None:
        club = _live_club()
        page = _Page(club)
        push = asyncio.ensure_future(_push_endpoint()(page))
        await until_async(lambda: page.sent == [{"version": 0, "tables": [
            {"table": "green", "seen": 0}]}], DEADLINE, "the first message")
        club.store.version = 1
        club.changed.set()
        await until_async(lambda: len(page.sent) == 2, DEADLINE, "the change pushed")
        assert page.sent[1] == {"version": 1, "tables": [{"table": "green", "seen": 1}]}
        page.incoming.put_nowait({"type": "websocket.receive", "text": "ping"})
        club.store.version = 2
        club.changed.set()
        await until_async(lambda: len(page.sent) == 3, DEADLINE, "the change after a ping pushed")
        page.incoming.put_nowait({"type": "websocket.disconnect", "code": 1001})
        await asyncio.wait_for(push, DEADLINE)

    asyncio.run(scenario())


def test_the_push_looks_every_ten_seconds_and_sends_at_most_ten_times_a_second(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/club.md: at most ten times a second (0.1 s between looks), and a look at the store
    every 10 s when no change was signalled: a change nobody signalled is found by that look
    (the 10 s run as 10 ms here)."""
    clock = _Clockwork(scale=0.001)
    monkeypatch.setattr(club_app, "asyncio", clock)

    async def scenario() -> None:
        club = _live_club()
        page = _Page(club)
        push = asyncio.ensure_future(_push_endpoint()(page))
        await until_async(lambda: len(page.sent) == 1, DEADLINE, "the first message")
        club.store.version = 1  # not signalled
        await until_async(lambda: len(page.sent) == 2, DEADLINE, "the unsignalled change found")
        assert page.sent[1]["version"] == 1
        page.incoming.put_nowait({"type": "websocket.disconnect", "code": 1001})
        await asyncio.wait_for(push, DEADLINE)

    asyncio.run(scenario())
    assert clock.waits and set(clock.waits) == {(10, asyncio.FIRST_COMPLETED)}
    assert clock.sleeps and set(clock.sleeps) == {0.1}


# --- the table's round keeper as an event source -------------------------------------------

SEATING = {"green": ["Ann", "Bo", "Cai", "Dee"]}
SEATED = [({"player": {"seat": p, "name": n}}, "club") for p, n in
          enumerate(SEATING["green"], start=1)]


class _Table:
    """The game loop as the round keeper sees it (controller/sources/base.py ``LoopPort``, and
    the loop's ``stop_session``); ``refuse`` holds the answers its next calls raise."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.halted: str | None = None
        self.session_active = False
        self.session_id: int | None = None
        self.view: dict[str, Any] = {"hands": [], "hand": None, "names": {}}
        self.config = SimpleNamespace(session=SimpleNamespace(ruleset="hua-bao",
                                                              options={"hands": 4}))
        self.calls: list[tuple[Any, ...]] = []
        self.refuse: list[Exception] = []

    def clock(self) -> float:
        return self.now

    def public_view(self) -> dict[str, Any]:
        return self.view

    async def start_session(self, ruleset: str, options: dict[str, Any]) -> None:
        self.calls.append(("start", ruleset, options))
        if self.refuse:
            raise self.refuse.pop(0)
        self.session_active = True
        self.session_id = (self.session_id or 0) + 1

    async def stop_session(self, *, between_hands: bool = False) -> None:
        self.calls.append(("stop", between_hands))
        if self.refuse:
            raise self.refuse.pop(0)
        self.session_active = False


class _Looks:
    """Stands in for the ``asyncio`` of controller/club/rounds.py: each sleep between two looks
    is recorded and lasts until the test gives the keeper its next look."""

    def __init__(self) -> None:
        self.slept: list[float] = []
        self.turns: asyncio.Queue[None] = asyncio.Queue()

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        await self.turns.get()


def _keep_rounds(monkeypatch: pytest.MonkeyPatch, table: _Table, club: Any,
                 scenario: Callable[[Callable[[], Awaitable[None]], list[Any]],
                                    Awaitable[None]],
                 **every: float) -> _Looks:
    """Run ``scenario(look, yielded)`` beside the round source for ``table``: ``look()`` gives
    the keeper one look and returns once it has done all it does for it (it sleeps again)."""
    looks = _Looks()
    monkeypatch.setattr(club_rounds, "asyncio", looks)

    async def main() -> None:
        yielded: list[Any] = []
        source = round_source(club, **every)(table)

        async def consume() -> None:
            async for item in source:
                yielded.append(item)

        task = asyncio.ensure_future(consume())

        async def look() -> None:
            before = len(looks.slept)
            looks.turns.put_nowait(None)
            await until_async(lambda: len(looks.slept) > before, DEADLINE, "the keeper's next look")

        await until_async(lambda: looks.slept, DEADLINE, "the keeper's first sleep")
        try:
            await scenario(look, yielded)
        finally:
            task.cancel()

    asyncio.run(main())
    return looks


def _round(ends_at: float = 2000.0) -> dict[str, Any]:
    return {"round": 1, "started": 900.0, "ends_at": ends_at, "seating": SEATING}


def test_the_keeper_looks_every_0_2_s_and_does_nothing_while_the_table_is_halted(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """docs/club.md: a look every 0.2 s; halted, the table does nothing for the round, and once
    it resumes it starts the round's session and seats the round's players."""
    caplog.set_level(logging.INFO, logger="controller.club.rounds")
    table = _Table()
    table.halted = "the event log cannot be written"
    club = SimpleNamespace(table="green", round=_round())

    async def scenario(look: Callable[[], Awaitable[None]], yielded: list[Any]) -> None:
        for _ in range(3):
            await look()
        assert (table.calls, yielded) == ([], [])
        table.halted = None
        await look()
        assert table.calls == [("start", "hua-bao", {"hands": 4})]
        await look()
        assert yielded == SEATED

    looks = _keep_rounds(monkeypatch, table, club, scenario)
    assert set(looks.slept) == {0.2}
    assert _said(caplog) == [(logging.INFO, "round 1: a new session")]


def test_a_session_the_operator_starts_during_the_round_is_seated_too(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = _Table()
    table.session_active, table.session_id = True, 7
    club = SimpleNamespace(table="green", round=_round())

    async def scenario(look: Callable[[], Awaitable[None]], yielded: list[Any]) -> None:
        await look()
        assert yielded == SEATED
        await look()
        assert yielded == SEATED  # seated once in that session
        table.session_id = 8  # the operator started another session
        await look()
        assert yielded == SEATED + SEATED

    _keep_rounds(monkeypatch, table, club, scenario)


def test_a_stop_refused_for_a_hand_just_dealt_waits_for_that_hand(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Time-up between hands: the table asks to end the session between hands; the loop
    refuses (a hand was dealt first, HandInPlay), so that hand is played out and then the
    session ends, with the log line docs/club.md gives."""
    caplog.set_level(logging.INFO, logger="controller.club.rounds")
    table = _Table()
    table.session_active, table.session_id = True, 3
    club = SimpleNamespace(table="green", round=_round(ends_at=1500.0))

    async def scenario(look: Callable[[], Awaitable[None]], yielded: list[Any]) -> None:
        await look()
        assert yielded == SEATED
        table.now = 1500.0
        table.view = {"hands": [{}], "hand": {"phase": "over"}, "names": {}}
        table.refuse = [HandInPlay("a hand is being dealt")]
        await look()
        assert table.calls == [("stop", True)]
        table.view = {"hands": [{}], "hand": {"phase": "play"}, "names": {}}
        await look()
        await look()
        assert table.calls == [("stop", True)]  # the hand in play is played out
        table.view = {"hands": [{}, {}], "hand": {"phase": "over"}, "names": {}}
        await look()
        assert table.calls == [("stop", True), ("stop", False)]
        await look()
        assert table.calls == [("stop", True), ("stop", False)] and not table.session_active

    _keep_rounds(monkeypatch, table, club, scenario)
    assert _said(caplog) == [
        (logging.INFO, "round 1: time is up and the hand is over: session ended")]


def test_the_keepers_trouble_is_logged_as_documented_and_a_start_is_tried_again(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """docs/club.md's table: ``round keeper: WHY`` at WARNING, WHY the loop's answer; a start
    is tried again at the next look, an end is not."""
    caplog.set_level(logging.INFO, logger="controller.club.rounds")
    table = _Table()
    table.refuse = [ServiceError("the service is not running")]
    club = SimpleNamespace(table="green", round=_round(ends_at=1500.0))

    async def scenario(look: Callable[[], Awaitable[None]], yielded: list[Any]) -> None:
        await look()
        await look()
        assert table.calls == [("start", "hua-bao", {"hands": 4})] * 2 and table.session_active
        await look()
        assert yielded == SEATED
        table.now = 1500.0
        table.refuse = [ServiceError("no session running")]
        await look()
        await look()
        assert table.calls[2:] == [("stop", True)]

    _keep_rounds(monkeypatch, table, club, scenario)
    documented = _log_table()
    said = _said(caplog)
    assert said == [(logging.WARNING, "round keeper: the service is not running"),
                    (logging.INFO, "round 1: a new session"),
                    (logging.WARNING, "round keeper: no session running")]
    for level, message in said:
        assert any(level == lv and re.fullmatch(pattern, message)
                   for lv, pattern in documented), message


def _said(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records
            if r.name == "controller.club.rounds"]


def _log_table() -> list[tuple[int, str]]:
    """The rows of docs/club.md's log table as (level, a pattern of the whole message)."""
    rows = []
    for line in _section().splitlines():
        found = re.match(r"\| `([^`]+)` \| (INFO|WARNING) \|", line)
        if found:
            words = re.escape(found.group(1))
            words = re.sub(r"\bN\b", r"\\d+", words).replace("WHY", ".+")
            rows.append((getattr(logging, found.group(2)), words))
    assert len(rows) == 3
    return rows
