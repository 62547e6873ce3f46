"""Each wall of the access control on its own (issue 29): the Guard middleware in front of an app
that lets everything through, and the routers' own token checks (deps.py) in the real app with
the Guard taken out. With both in place a hole in one is hidden by the other, so the full-app
tests (tests/reliability/test_access.py) cannot see it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, NamedTuple

import pytest
from fastapi.testclient import TestClient

from controller.app import System, build
from controller.config import Config, SessionConfig
from controller.store.tokens import Tokens
from controller.web.guard import MAX_BODY, Guard
from tests.reliability.test_access import bearer, operations

TOKENS = Tokens(admin="admin-token", seats={1: "seat-one", 2: "seat-two", 3: "seat-3", 4: "s4"})
ADMIN_PATHS = ["/api/admin/undo", "/api/admin/session", "/api/admin/", "/api/admin"]


class Inner:
    """An app that answers 200 to everything and remembers what reached it."""

    def __init__(self, headers: list[tuple[bytes, bytes]] | None = None, *,
                 no_headers: bool = False, read_on: bool = False) -> None:
        self.reached: list[tuple[str, bytes]] = []
        self.headers = headers or []
        self.no_headers = no_headers  # a start message without "headers" (ASGI allows it)
        self.read_on = read_on  # read once more after the body: the client's disconnect
        self.after: list[dict[str, Any]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        self.reached.append((scope["path"], body))
        if self.read_on:
            self.after.append(await receive())
        start: dict[str, Any] = {"type": "http.response.start", "status": 200}
        if not self.no_headers:
            start["headers"] = self.headers
        await send(start)
        await send({"type": "http.response.body", "body": b"reached"})


class Answer(NamedTuple):
    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes
    inner: Inner


def answer(path: str, token: str | None = None, body: bytes = b"", *,
           length: int | None = None, chunks: list[bytes] | None = None,
           authorization: bytes | None = None, inner: Inner | None = None,
           app: Any = None, raw_length: bytes | None = None) -> Answer:
    """One request through the Guard alone, and all of its answer."""
    inner = inner or Inner()
    headers = [] if token is None else [(b"authorization", f"Bearer {token}".encode())]
    if authorization is not None:
        headers = [(b"authorization", authorization)]
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    if raw_length is not None:
        headers.append((b"content-length", raw_length))
    if app is None:
        app = SimpleNamespace(state=SimpleNamespace(tokens=TOKENS))
    scope = {"type": "http", "path": path, "method": "POST", "headers": headers, "app": app}
    parts = chunks if chunks is not None else [body]
    messages = [{"type": "http.request", "body": c, "more_body": i < len(parts) - 1}
                for i, c in enumerate(parts)]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(Guard(inner)(scope, receive, send))
    start, *rest = sent
    assert start["type"] == "http.response.start"
    assert [m["type"] for m in rest] == ["http.response.body"]
    return Answer(start["status"], list(start["headers"]), rest[0]["body"], inner)


def ask(path: str, token: str | None = None, body: bytes = b"", *,
        length: int | None = None, chunks: list[bytes] | None = None) -> tuple[int, Inner]:
    """The status the Guard answers, and the inner app; every answer carries the
    anti-framing headers."""
    got = answer(path, token, body, length=length, chunks=chunks)
    names = [k for k, _ in got.headers]
    for name in (b"content-security-policy", b"x-frame-options", b"x-content-type-options"):
        assert names.count(name) == 1, (name, got.headers)
    return got.status, got.inner


def test_a_refusal_is_a_whole_json_answer() -> None:
    got = answer("/api/admin/undo", None)
    assert got.status == 401
    assert json.loads(got.body) == {"detail": "this needs the admin token: send 'Authorization: "
                                    "Bearer TOKEN' (see `mahjong-table tokens`)"}
    headers = dict(got.headers)
    assert headers[b"content-type"] == b"application/json"
    assert headers[b"content-length"] == str(len(got.body)).encode()
    assert headers[b"www-authenticate"] == b"Bearer"
    assert headers[b"x-frame-options"] == b"DENY"
    assert headers[b"content-security-policy"] == b"frame-ancestors 'none'"
    assert headers[b"x-content-type-options"] == b"nosniff"
    seat = answer("/api/seats/3/declare", "seat-one")
    assert json.loads(seat.body)["detail"].startswith("this needs the token of seat 3: ")
    big = answer("/api/admin/undo", "admin-token", length=MAX_BODY + 1)
    assert json.loads(big.body) == {"detail": f"the request body is larger than {MAX_BODY} "
                                    "bytes: every request this API takes is smaller; check "
                                    "what is being sent"}


def test_only_a_bearer_token_counts() -> None:
    for header in (b"Basic admin-token", b"admin-token", b"Bearer", b"Bearer ", b"Bearer   ",
                   b"Token admin-token"):
        got = answer("/api/admin/undo", authorization=header)
        assert (got.status, got.inner.reached) == (401, []), header
    for header in (b"Bearer admin-token", b"bearer admin-token", b"BEARER  admin-token "):
        assert answer("/api/admin/undo", authorization=header).status == 200, header


def test_the_apps_own_security_headers_are_kept_not_doubled() -> None:
    inner = Inner([(b"X-Frame-Options", b"SAMEORIGIN")])
    got = answer("/", inner=inner)
    names = [k.lower() for k, _ in got.headers]
    assert names.count(b"x-frame-options") == 1
    assert (b"X-Frame-Options", b"SAMEORIGIN") in got.headers
    assert names.count(b"content-security-policy") == 1


@pytest.mark.parametrize("path", ADMIN_PATHS)
def test_the_guard_alone_lets_only_the_admin_token_onto_admin_paths(path: str) -> None:
    for token in (None, "", "seat-one", "seat-two", "admin-toke", "admin-tokenx", "ADMIN-TOKEN"):
        status, inner = ask(path, token)
        assert (status, inner.reached) == (401, []), (path, token)
    status, inner = ask(path, "admin-token")
    assert status == 200 and [p for p, _ in inner.reached] == [path]


@pytest.mark.parametrize("position", [1, 2, 3, 4])
def test_the_guard_alone_lets_only_that_seats_token_onto_a_seat_path(position: int) -> None:
    path = f"/api/seats/{position}/declare"
    own = TOKENS.seats[position]
    others = [t for p, t in TOKENS.seats.items() if p != position]
    for token in (None, "", "admin-token", *others, own[:-1], own + "x"):
        status, inner = ask(path, token)
        assert (status, inner.reached) == (401, []), (path, token)
    status, inner = ask(path, own)
    assert status == 200 and inner.reached
    status, inner = ask(f"/api/seats/{position}", own)  # the seat's own view
    assert status == 200 and inner.reached


def test_the_guard_alone_leaves_public_paths_to_the_app() -> None:
    for path in ("/", "/api/table", "/api/seats", "/api/seats/5/declare", "/api/administer",
                 "/static/app.js"):
        status, inner = ask(path)
        assert status == 200 and inner.reached, path


def test_a_seat_view_itself_needs_the_seats_token() -> None:
    assert ask("/api/seats/3")[0] == 401
    assert ask("/api/seats/3", "seat-3")[0] == 200


def test_an_app_without_tokens_lets_nobody_onto_guarded_paths() -> None:
    for app in (None, SimpleNamespace(), SimpleNamespace(state=SimpleNamespace())):
        for token in (None, "admin-token"):
            got = answer("/api/admin/undo", token, app=app or SimpleNamespace(state=None))
            assert (got.status, got.inner.reached) == (401, []), (app, token)


def test_the_body_is_replayed_whole_then_the_disconnect() -> None:
    inner = Inner(read_on=True)
    got = answer("/api/admin/undo", "admin-token", chunks=[b"ab", b"cd"], inner=inner)
    assert got.status == 200 and inner.reached == [("/api/admin/undo", b"abcd")]
    assert inner.after == [{"type": "http.disconnect"}]
    # a start message without headers still gets the anti-framing ones
    bare = answer("/", inner=Inner(no_headers=True))
    assert dict(bare.headers)[b"x-frame-options"] == b"DENY"


def test_a_body_of_exactly_the_cap_is_taken_and_lengths_are_read_with_care() -> None:
    token = "admin-token"
    got = answer("/api/admin/undo", token, b"x" * MAX_BODY, length=MAX_BODY)
    assert got.status == 200 and got.inner.reached == [("/api/admin/undo", b"x" * MAX_BODY)]
    assert answer("/api/admin/undo", token, b"0123456789", length=10).status == 200
    for raw in (b"12abc", b"-1", b"1e9", b"9" * 40):
        got = answer("/api/admin/undo", token, raw_length=raw)
        assert (got.status, got.inner.reached) == (413, []), raw
    chunked = answer("/api/admin/undo", token, chunks=[b"y" * (MAX_BODY + 1)])
    assert chunked.status == 413 and json.loads(chunked.body)["detail"].startswith(
        f"the request body is larger than {MAX_BODY} bytes")


def test_a_length_is_a_plain_number_of_at_most_18_digits() -> None:
    """guard.py's rule: an ASCII digit string of at most 18 digits is read as the length (zeros
    in front too); 19 digits or more, or a digit that is no ASCII one (latin-1's superscript
    two), is refused as too large, never handed to ``int``."""
    token = "admin-token"
    padded = answer("/api/admin/undo", token, b"0123456789", raw_length=b"0" * 16 + b"10")
    assert padded.status == 200 and padded.inner.reached == [("/api/admin/undo", b"0123456789")]
    for raw in (b"0" * 17 + b"10", b"0" * 19, b"\xb2", b"1\xb9"):
        got = answer("/api/admin/undo", token, b"", raw_length=raw)
        assert (got.status, got.inner.reached) == (413, []), raw


def test_a_token_that_is_no_utf8_is_refused_like_any_wrong_one() -> None:
    for header in (b"Bearer admin-token\xff", b"Bearer \xe9admin-token", b"Bearer \xff"):
        got = answer("/api/admin/undo", authorization=header)
        assert (got.status, got.inner.reached) == (401, []), header


def test_the_guard_alone_caps_bodies_before_the_app_sees_them() -> None:
    token = "admin-token"
    status, inner = ask("/api/admin/undo", token, b"x" * MAX_BODY)
    assert status == 200 and inner.reached == [("/api/admin/undo", b"x" * MAX_BODY)]
    status, inner = ask("/api/admin/undo", token, length=MAX_BODY + 1)
    assert (status, inner.reached) == (413, [])
    status, inner = ask("/api/admin/undo", token, length=10**30)  # no overflow, no traceback
    assert (status, inner.reached) == (413, [])
    chunked = [b"y" * 1000] * (MAX_BODY // 1000 + 1)  # no Content-Length: counted as it comes
    status, inner = ask("/api/admin/undo", token, chunks=chunked)
    assert (status, inner.reached) == (413, [])
    # a refused token is answered before the length is even looked at
    assert ask("/api/admin/undo", None, length=MAX_BODY + 1)[0] == 401


# ---------------------------------------------------------------- the routes without the guard

@pytest.fixture
def unguarded(tmp_path: Path) -> Iterator[tuple[TestClient, System]]:
    """The real app with its routes and their token checks, and the Guard taken out."""
    system = build(Config(session=SessionConfig(ruleset="hua-bao")), tmp_path / "data")
    app = system.app
    assert any(m.cls is Guard for m in app.user_middleware)  # there, before it is taken out
    app.user_middleware = [m for m in app.user_middleware if m.cls is not Guard]
    app.middleware_stack = None
    with TestClient(app) as client:
        yield client, system


def test_the_routes_alone_refuse_admin_actions_without_the_admin_token(
    unguarded: tuple[TestClient, System]
) -> None:
    client, system = unguarded
    ops = operations(client, "/api/admin")
    assert len(ops) >= 10, ops
    seq = system.loop.seq
    wrong = [{}, bearer(""), bearer(system.tokens.admin + "x"),
             {"Authorization": f"Basic {system.tokens.admin}"},
             *(bearer(t) for t in system.tokens.seats.values())]
    for method, path in ops:
        for headers in wrong:
            r = client.request(method, path, headers=headers, json={})
            assert r.status_code == 401, (method, path, headers, r.text)
            assert r.json()["detail"].startswith("this needs the admin token")
            assert r.headers["www-authenticate"] == "Bearer"
    assert system.loop.seq == seq
    assert client.get("/api/admin/readers", headers=bearer(system.tokens.admin)).status_code \
        == 200
    # and the guard really is out: the same refusal comes from deps.py's words
    assert "Bearer" in client.get("/api/admin/readers").headers["www-authenticate"]


def test_the_routes_alone_take_the_bearer_scheme_in_any_case_after_one_or_more_spaces(
    unguarded: tuple[TestClient, System]
) -> None:
    """RFC 6750 2.1: ``credentials = "Bearer" 1*SP b64token``; RFC 7235 2.1: the scheme is
    case-insensitive. deps.py alone (no guard in front) takes each of these."""
    client, system = unguarded
    admin, seat = system.tokens.admin, system.tokens.seats[2]
    for scheme in ("Bearer ", "bearer ", "BEARER  ", "Bearer    "):
        r = client.get("/api/admin/readers", headers={"Authorization": scheme + admin})
        assert r.status_code == 200, (scheme, r.text)
        r = client.get("/api/seats/2", headers={"Authorization": scheme + seat})
        assert r.status_code == 200, (scheme, r.text)


def test_the_routes_alone_refuse_a_seat_path_without_that_seats_token(
    unguarded: tuple[TestClient, System]
) -> None:
    client, system = unguarded
    ops = operations(client, "/api/seats/{position}")
    assert ops, "no seat routes"
    seats = system.tokens.seats
    for method, path in ops:
        for position in (1, 2, 3, 4):
            url = path.replace("{position}", str(position))
            wrong = [{}, bearer(system.tokens.admin),
                     *(bearer(t) for p, t in seats.items() if p != position)]
            for headers in wrong:
                r = client.request(method, url, headers=headers, json={"call": "ready"})
                assert r.status_code == 401, (method, url, headers, r.text)
                assert r.json()["detail"] == f"this needs the token of seat {position}: " \
                    "send 'Authorization: Bearer TOKEN' (see `mahjong-table tokens`)"
    ok = client.get("/api/seats/2", headers=bearer(seats[2]))
    assert ok.status_code == 200
