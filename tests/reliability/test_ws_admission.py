"""Anonymous sockets do not lock the players out (issue 22).

495 anonymous `/ws` sockets filled the cap of 500 and a seat's phone with a valid token got
403. Real sockets from several loopback addresses (127.0.0.2-5) against the service on
uvicorn: the anonymous ones take at most the cap less the reserved places and at most
``ws_per_address`` each; a seat (token at the handshake, or `?token=`) and the operator (admin
token at the handshake) still get in; a wrong token takes no reserved place."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from controller.app import build
from controller.config import Config, ServerConfig, SessionConfig
from tests.web.support import served

LIMIT, RESERVED, PER_ADDRESS = 12, 4, 3
ADDRESSES = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"]


def open_ws(base: str, path: str, source: str = "127.0.0.1",
            subprotocols: list[str] | None = None) -> ClientConnection:
    """A WebSocket from ``source`` (a loopback address of its own); raises InvalidStatus when
    the service refuses the handshake."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=30,
                                    source_address=(source, 0))
    try:
        return connect(f"ws://{host}:{port}{path}", sock=sock, open_timeout=30,
                       subprotocols=subprotocols, compression=None,  # type: ignore[arg-type]
                       proxy=None)
    except BaseException:
        sock.close()
        raise


def first_message(ws: ClientConnection) -> dict[str, Any]:
    import json

    data: dict[str, Any] = json.loads(ws.recv(timeout=30))
    return data


@contextmanager
def service(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    config = Config(session=SessionConfig(), server=ServerConfig(
        max_ws_clients=LIMIT, ws_reserved=RESERVED, ws_per_address=PER_ADDRESS))
    system = build(config, tmp_path / "data")
    with served(system.app) as base:
        yield base, system


def test_token_holders_get_in_when_anonymous_sockets_crowd(tmp_path: Path) -> None:
    with service(tmp_path) as (base, system):
        tokens = system.tokens
        anonymous: list[ClientConnection] = []
        refused = 0
        for address in ADDRESSES:
            for _ in range(PER_ADDRESS + 1):  # one more than an address may hold
                try:
                    anonymous.append(open_ws(base, "/ws", address))
                except InvalidStatus:
                    refused += 1
        try:
            assert len(anonymous) == LIMIT - RESERVED, len(anonymous)
            assert refused == len(ADDRESSES) * (PER_ADDRESS + 1) - (LIMIT - RESERVED)
            for ws in anonymous:
                assert first_message(ws)["type"] == "table"
            with pytest.raises(InvalidStatus):  # the share is full for anyone anonymous
                open_ws(base, "/ws", "127.0.0.9")
            with pytest.raises(InvalidStatus):  # a wrong token takes no kept place
                open_ws(base, "/ws/seats/1", "127.0.0.9", ["mahjong-table", "token.wrong"])
            seat = open_ws(base, "/ws/seats/1", "127.0.0.9",
                           ["mahjong-table", f"token.{tokens.seats[1]}"])
            by_query = open_ws(base, f"/ws/seats/2?token={tokens.seats[2]}", "127.0.0.9")
            operator = open_ws(base, "/ws", "127.0.0.9",
                               ["mahjong-table", f"token.{tokens.admin}"])
            assert seat.subprotocol == "mahjong-table"
            assert first_message(seat)["type"] == "seat"
            assert first_message(by_query)["type"] == "seat"
            assert first_message(operator)["type"] == "table"
            push = httpx.get(f"{base}/api/health", timeout=30).json()["push"]
            assert push["token_holders"] == 3 and push["sockets"] == LIMIT - RESERVED + 3
            for ws in (seat, by_query, operator):
                ws.close()
        finally:
            for ws in anonymous:
                ws.close()


def test_one_address_holds_at_most_its_share(tmp_path: Path) -> None:
    with service(tmp_path) as (base, _):
        mine = [open_ws(base, "/ws", ADDRESSES[0]) for _ in range(PER_ADDRESS)]
        try:
            with pytest.raises(InvalidStatus):
                open_ws(base, "/ws", ADDRESSES[0])
            other = open_ws(base, "/ws", ADDRESSES[1])  # another address is let in
            assert first_message(other)["type"] == "table"
            other.close()
        finally:
            for ws in mine:
                ws.close()
