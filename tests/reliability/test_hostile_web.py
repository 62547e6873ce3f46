"""Hostile requests (issue 11): the token is checked before a body is read, bodies are capped,
types are strict, a refused request changes nothing, undo never crosses the session's start,
the seat socket closes bad first messages with a code, WebSocket clients are capped, and no
page can be framed."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from controller.app import build
from controller.cli import main
from controller.config import Config, ServerConfig, SessionConfig
from controller.loop import LOG_FILE
from controller.web.guard import MAX_BODY, Guard
from tests.web.support import Table, in_play

# --- the guard, at the ASGI level: what it reads of a refused request -------------------------


class FakeTokens:
    def is_admin(self, token: str | None) -> bool:
        return token == "ADMIN"

    def is_seat(self, position: int, token: str | None) -> bool:
        return token == f"SEAT{position}"


class FakeApp:
    """Only what the guard looks up on scope["app"]: state.tokens."""

    class state:  # noqa: N801 - the attribute path Starlette gives
        tokens = FakeTokens()


def run_guard(path: str, headers: dict[str, str], chunks: list[bytes]) -> tuple[int, int, bool]:
    """(status, body messages the client was asked for, whether the app was called)."""
    asked = 0
    called = False
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal asked
        asked += 1
        i = asked - 1
        if i < len(chunks):
            return {"type": "http.request", "body": chunks[i], "more_body": i < len(chunks) - 1}
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def app(scope: Any, rcv: Any, snd: Any) -> None:
        nonlocal called
        called = True
        while (await rcv()).get("more_body"):
            pass
        await snd({"type": "http.response.start", "status": 200, "headers": []})
        await snd({"type": "http.response.body", "body": b"{}"})

    scope = {"type": "http", "method": "POST", "path": path, "app": FakeApp(),
             "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()]}
    asyncio.run(Guard(app)(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    names = {name for name, _ in start["headers"]}
    assert b"x-frame-options" in names and b"content-security-policy" in names
    return start["status"], asked, called


def test_no_token_is_refused_before_a_byte_of_the_body_is_read() -> None:
    huge = 30 * 1024 * 1024
    status, asked, called = run_guard("/api/admin/undo", {"content-length": str(huge)},
                                      [b"[" * 65536] * 4)
    assert (status, asked, called) == (401, 0, False)
    status, asked, called = run_guard("/api/seats/2/declare", {"authorization": "Bearer SEAT1"},
                                      [b"{}"])
    assert (status, asked, called) == (401, 0, False)


def test_a_large_body_is_refused_413_and_never_reaches_the_app() -> None:
    admin = {"authorization": "Bearer ADMIN"}
    status, asked, called = run_guard("/api/admin/undo",
                                      {**admin, "content-length": str(MAX_BODY + 1)}, [b"x"])
    assert (status, asked, called) == (413, 0, False)
    chunk = b" " * 1024  # chunked, no length: read only until the cap is passed
    status, asked, called = run_guard("/api/admin/undo", admin, [chunk] * 1000)
    assert status == 413 and not called and asked == MAX_BODY // len(chunk) + 1
    status, asked, called = run_guard("/api/admin/undo", admin, [b'{"count": 1}'])
    assert status == 200 and called


# --- the real service behind the real app --------------------------------------------------


def test_strict_types_are_422_and_change_nothing(table: Table) -> None:
    table.play_until(in_play)
    seq = table.loop.seq
    bodies = ['{"count": NaN}', '{"count": true}', '{"count": "1"}', '{"count": 1.5}',
              '{"count": Infinity}', '{"count": [1]}']
    for body in bodies:
        r = table.client.post("/api/admin/undo", content=body,
                              headers={**table.admin(), "content-type": "application/json"})
        assert r.status_code == 422, (body, r.status_code, r.text)
    r = table.client.post("/api/seats/1/declare", json={"call": 1}, headers=table.seat(1))
    assert r.status_code == 422
    assert table.loop.seq == seq


def test_a_lone_surrogate_is_422_and_halts_nothing(table: Table) -> None:
    table.play_until(in_play)
    body = '{"zone": "discard", "tile": "\\ud800", "as": "1b"}'
    r = table.client.post("/api/admin/reassign", content=body,
                          headers={**table.admin(), "content-type": "application/json"})
    assert r.status_code == 422
    health = table.client.get("/api/health").json()
    assert health["ok"] and health["accepting_moves"] and not health["halted"]
    # and the store would not halt on one either: stored escaped, refused by the game
    applied = table.submit({"correct": {"reassign": {"zone": "discard", "tile": "\ud800",
                                                      "as": "1b"}}}, "test")
    assert not applied.accepted and not table.loop.halted


def test_a_refused_new_session_changes_nothing(table: Table) -> None:
    table.play_until(in_play)
    before = (table.loop.session_id, table.loop.seq, table.loop.session_active)
    r = table.client.post("/api/admin/session", headers=table.admin(),
                          json={"ruleset": "hua-bao", "options": {"limit": "oops"}})
    assert r.status_code == 409 and "limit" in r.json()["detail"]
    assert (table.loop.session_id, table.loop.seq, table.loop.session_active) == before
    assert table.step() is not None  # the game goes on


def test_undo_never_takes_back_the_session_start_and_the_log_replays(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    for count in (2, 1):
        r = table.client.post("/api/admin/undo", headers=table.admin(), json={"count": count})
        assert r.status_code == 409, r.text
        assert "start of the session" in r.json()["detail"]
    assert table.loop.state.ruleset_name == "hua-bao"  # the session stands
    table.step()
    table.step()
    r = table.client.post("/api/admin/undo", headers=table.admin(), json={"count": 3})
    assert r.status_code == 409
    r = table.client.post("/api/admin/undo", headers=table.admin(), json={"count": 1})
    assert r.status_code == 200
    capsys.readouterr()
    code = main(["replay", "--db", str(table.loop.data_dir / LOG_FILE)])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert json.loads(out.out)["state"]["live_wall"] is not None


@pytest.mark.parametrize("first", [b"\x00binary", "[" * 1000 + "]" * 1000, "nonsense", "[1]",
                                   '{"token": 5}'])
def test_a_bad_first_message_on_the_seat_socket_closes_with_a_code(
        table: Table, first: bytes | str) -> None:
    with table.client.websocket_connect("/ws/seats/1") as ws:
        if isinstance(first, bytes):
            ws.send_bytes(first)
        else:
            ws.send_text(first)
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_text()
    assert info.value.code == (1003 if isinstance(first, bytes) else 1008)


def test_a_lone_surrogate_token_is_a_wrong_token(table: Table) -> None:
    with table.client.websocket_connect("/ws/seats/1") as ws:
        ws.send_text('{"token": "\\ud800"}')
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_text()
    assert info.value.code == 4401


def test_websocket_clients_are_capped(tmp_path: Any) -> None:
    config = Config(session=SessionConfig(), server=ServerConfig(max_ws_clients=3,
                                                                      ws_reserved=0))
    app = build(config, tmp_path).app
    with TestClient(app) as client:
        opened = [client.websocket_connect("/ws").__enter__() for _ in range(3)]
        for ws in opened:
            assert ws.receive_json()["type"] == "table"
        with pytest.raises(WebSocketDisconnect) as info:
            client.websocket_connect("/ws").__enter__()
        assert info.value.code == 1013
        assert client.get("/api/table").status_code == 200  # the table answers throughout
        opened.pop().__exit__(None, None, None)
        again = _connect_when_room(client)
        assert again.receive_json()["type"] == "table"
        push = client.get("/api/health").json()["push"]
        assert push["refused"] >= 1 and push["sockets"] == 3
        for ws in [*opened, again]:
            ws.__exit__(None, None, None)


def _connect_when_room(client: TestClient) -> Any:
    import time

    for _ in range(100):  # the server notices the close a moment later
        try:
            return client.websocket_connect("/ws").__enter__()
        except WebSocketDisconnect:
            time.sleep(0.02)
    raise AssertionError("no room after a client left")


@pytest.mark.parametrize("path", ["/", "/operator", "/seat/1", "/api/table", "/api/health"])
def test_no_page_can_be_framed(table: Table, path: str) -> None:
    r = table.client.get(path)
    assert r.status_code == 200
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-frame-options"] == "DENY"




def test_a_client_that_never_reads_is_dropped_and_the_table_answers(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket whose client never reads fills up; its sends wait ``SEND_TIMEOUT`` (10 s in
    service, 1 s here) and then it is dropped, while other clients and the table go on."""
    import base64
    import os
    import socket
    import time
    from urllib.parse import urlsplit

    import httpx

    from controller.config import SimulationConfig
    from controller.web import broadcaster
    from tests.web.support import served

    monkeypatch.setattr(broadcaster, "SEND_TIMEOUT", 1.0)
    system = build(Config(simulation=SimulationConfig(pace=0.0, seed=5)), tmp_path,
                   table="simulation")
    system.game_thread = True
    with served(system.app) as base:
        stuck = socket.socket()
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)  # and it never reads
        stuck.connect(("127.0.0.1", urlsplit(base).port or 0))
        key = base64.b64encode(os.urandom(16)).decode()
        stuck.sendall((f"GET /ws HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\n"
                       f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                       "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        assert stuck.recv(12) == b"HTTP/1.1 101"
        dropped = 0
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            health = httpx.get(f"{base}/api/health", timeout=5).json()  # answers throughout
            dropped = health["push"]["slow_dropped"]
            if dropped:
                break
            time.sleep(0.2)
        assert dropped == 1 and health["push"]["clients"] == 0
        assert httpx.get(f"{base}/api/table", timeout=5).status_code == 200
        stuck.close()
