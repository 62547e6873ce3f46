"""Access: every admin action is refused without the admin token (and with a seat token), every
seat view and declaration without that seat's token, and nothing refused changes the game;
tokens are compared in constant time; no token and no tile is written to the service's log."""

from __future__ import annotations

import ast
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from controller.app import System, build
from controller.config import Config, SessionConfig
from controller.store import tokens as tokens_module
from controller.tiles import ALL_CODES
from tests.reliability.support import REPO, Served

BODIES: dict[str, dict[str, Any]] = {
    "/api/admin/session": {"ruleset": "swedish", "options": {}},
    "/api/admin/undo": {"count": 1},
    "/api/admin/reassign": {"zone": "rack:1", "tile": "1b", "as": "2b"},
    "/api/admin/end-hand": {"result": "washout"},
    "/api/seats/{position}/declare": {"call": "ready"},
}


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[tuple[TestClient, System]]:
    system = build(Config(session=SessionConfig(ruleset="hua-bao")), tmp_path / "data")
    with TestClient(system.app) as client:
        yield client, system


def operations(client: TestClient, prefix: str) -> list[tuple[str, str]]:
    """(method, path) of every operation under ``prefix`` in the app's own OpenAPI schema."""
    paths: dict[str, dict[str, Any]] = client.get("/openapi.json").json()["paths"]
    return sorted((method.upper(), path) for path, item in paths.items()
                  if path.startswith(prefix) for method in item)


def call(client: TestClient, method: str, path: str, headers: dict[str, str],
         position: int = 1) -> int:
    body = BODIES.get(path)
    url = path.replace("{position}", str(position))
    return client.request(method, url, headers=headers, json=body).status_code


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_every_admin_action_is_refused_without_the_admin_token(
    app_client: tuple[TestClient, System]
) -> None:
    client, system = app_client
    service, tokens = system.loop, system.tokens
    admin, seats = tokens.admin, tokens.seats
    wrong = [{}, bearer(""), bearer(admin[:-1]), bearer(admin + "x"), bearer(admin.upper()),
             {"Authorization": f"Basic {admin}"}, {"Authorization": admin},
             *(bearer(t) for t in seats.values())]
    ops = operations(client, "/api/admin")
    assert len(ops) >= 10, ops
    seq, session = service.seq, service.session_id
    for method, path in ops:
        for headers in wrong:
            assert call(client, method, path, headers) == 401, (method, path, headers)
        # a token in the query string is not a credential either
        url = path.replace("{position}", "1") + f"?token={admin}"
        assert client.request(method, url, json=BODIES.get(path)).status_code == 401
    assert (service.seq, service.session_id, service.session_active) == (seq, session, True)
    assert call(client, "GET", "/api/admin/readers", bearer(admin)) == 200


def test_every_seat_view_is_refused_without_its_own_token(
    app_client: tuple[TestClient, System]
) -> None:
    client, system = app_client
    service, tokens = system.loop, system.tokens
    seats = tokens.seats
    ops = operations(client, "/api/seats")
    assert ("GET", "/api/seats/{position}") in ops and len(ops) >= 2
    seq = service.seq
    for method, path in ops:
        for position in (1, 2, 3, 4):
            others = [t for p, t in seats.items() if p != position]
            for headers in [{}, bearer(tokens.admin), *(bearer(t) for t in others),
                            bearer(seats[position][:-1])]:
                assert call(client, method, path, headers, position) == 401
    assert service.seq == seq
    assert call(client, "GET", "/api/seats/{position}", bearer(seats[2]), 2) == 200


def test_a_seat_socket_without_its_token_is_closed(
    app_client: tuple[TestClient, System]
) -> None:
    client, system = app_client
    tokens = system.tokens
    seats = tokens.seats
    for first in [{"token": seats[2]}, {"token": tokens.admin}, {"token": ""}, {}]:
        with client.websocket_connect("/ws/seats/1") as ws:
            ws.send_text(json.dumps(first))
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_text()
            assert closed.value.code == 4401
    with client.websocket_connect(f"/ws/seats/1?token={seats[3]}") as ws, \
            pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_text()
    assert closed.value.code == 4401
    with client.websocket_connect("/ws/seats/1") as ws:
        ws.send_text(json.dumps({"token": seats[1]}))
        assert json.loads(ws.receive_text())["type"] == "seat"


def _token_comparisons(tree: ast.AST) -> list[int]:
    """Lines that compare something named *token* with == or != (not in constant time)."""
    def named_token(node: ast.AST) -> bool:
        name = getattr(node, "id", None) or getattr(node, "attr", None) or ""
        return "token" in name.lower() or name in ("admin", "seats")

    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(isinstance(o, ast.Eq | ast.NotEq)
                                                 for o in node.ops):
            if any(named_token(n) for n in [node.left, *node.comparators]):
                lines.append(node.lineno)
    return lines


def test_tokens_are_compared_in_constant_time() -> None:
    source = Path(tokens_module.__file__).read_text(encoding="utf-8")
    same = next(n for n in ast.walk(ast.parse(source))
                if isinstance(n, ast.FunctionDef) and n.name == "_same")
    assert "hmac.compare_digest" in ast.unparse(same)
    for method in ("is_admin", "is_seat"):
        assert "_same(" in ast.unparse(next(
            n for n in ast.walk(ast.parse(source))
            if isinstance(n, ast.FunctionDef) and n.name == method))
    found = {str(p.relative_to(REPO)): _token_comparisons(ast.parse(p.read_text("utf-8")))
             for p in (REPO / "controller").rglob("*.py")}
    assert {p: lines for p, lines in found.items() if lines} == {}


TILE_WORD = re.compile(r"(?<![\w./:-])(" + "|".join(sorted(ALL_CODES, key=len)) + r")(?![\w/])")


def test_no_token_and_no_tile_in_the_service_log(tmp_path: Path) -> None:
    """A simulated session on the virtual table, with every kind of authenticated request
    (seat views, declarations, a seat socket with ?token=, the admin pages), at info level."""
    import websockets.sync.client as wsc

    served = Served(tmp_path / "data", tmp_path / "serve.log", "--simulate", "--pace", "0.01",
                    "--seed", "9", "--log-level", "info")
    try:
        served.wait_ready()
        tokens = served.tokens()
        admin, seats = tokens["admin"], tokens["seats"]
        until = time.monotonic() + 6.0
        while time.monotonic() < until:
            for p in "1234":
                served.get(f"/api/seats/{p}", headers=bearer(seats[p]))
                # A wrong token's declaration (a right one would change the simulated game)
                served.client.post(f"/api/seats/{p}/declare", json={"call": "claim"},
                                   headers=bearer(admin))
                served.client.get(f"/api/seats/{p}?token={seats[p]}")
            served.get("/api/admin/readers", headers=bearer(admin))
            served.get("/api/admin/seats/2/link", headers=bearer(admin))
            served.client.get(f"/api/admin/readers?token={admin}")
            with wsc.connect(f"ws://127.0.0.1:{served.port}/ws/seats/1?token={seats['1']}") as ws:
                ws.recv(timeout=30)
            time.sleep(0.2)
        assert served.get("/api/table")["seq"] > 20  # the game moved while we watched
    finally:
        served.kill()
    text = served.log()
    assert "GET /api/seats/1" in text  # the access log was captured
    for token in [admin, *seats.values()]:
        assert token not in text
    leaks = [line for line in text.splitlines() if TILE_WORD.search(line)]
    assert leaks == []
    assert "virtual table stopped" not in text
