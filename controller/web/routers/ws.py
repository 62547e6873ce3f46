"""WebSocket push: /ws (public view) and /ws/seats/{position} (one seat's view).

Every message is a complete state; a client that connects with ``?flow=ack`` answers each with
``{"ack": 1}`` and so always gets the latest state, however slow it is (see the broadcaster).
A seat socket authenticates with ``?token=TOKEN`` or, preferred (it never reaches a log), with a
first message ``{"token": "TOKEN"}``; a wrong token closes the socket with code 4401, a first
message that is binary with 1003, one that is not such JSON with 1008. Sockets beyond
``[server] max_ws_clients`` are refused at the handshake; a client whose socket takes nothing
for ``SEND_TIMEOUT`` seconds is dropped (broadcaster).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, WebSocket

from controller import jsonsafe
from controller.store.tokens import Tokens
from controller.web.broadcaster import Broadcaster, Client

router = APIRouter()
AUTH_TIMEOUT = 10.0


@router.websocket("/ws")
async def public_ws(ws: WebSocket) -> None:
    if not await _admit(ws):
        return
    try:
        await ws.accept()
        await _serve(ws, None)
    finally:
        _leave(ws)


@router.websocket("/ws/seats/{position}")
async def seat_ws(ws: WebSocket, position: int) -> None:
    if not await _admit(ws):
        return
    try:
        await ws.accept()
        await _seat(ws, position)
    finally:
        _leave(ws)


async def _seat(ws: WebSocket, position: int) -> None:
    tokens: Tokens = ws.app.state.tokens
    if position not in (1, 2, 3, 4):
        await ws.close(code=4404, reason="no such seat: use 1, 2, 3 or 4")
        return
    token = ws.query_params.get("token")
    if not token:
        token, code, why = await _first_message_token(ws)
        if code is not None:
            with contextlib.suppress(Exception):
                await ws.close(code=code, reason=why)
            return
    if not tokens.is_seat(position, token):
        await ws.close(code=4401, reason=f"this needs the token of seat {position}")
        return
    await _serve(ws, position)


async def _admit(ws: WebSocket) -> bool:
    """Room for one more socket under ``[server] max_ws_clients``? Else refused (HTTP 403 at
    the handshake) before anything is read: past the process's file-descriptor limit the
    table itself would stop answering."""
    broadcaster: Broadcaster = ws.app.state.broadcaster
    limit = ws.app.state.loop.config.server.max_ws_clients
    if broadcaster.sockets >= limit:
        broadcaster.refused += 1
        await ws.close(code=1013, reason=f"too many clients ({limit}): try again later")
        return False
    broadcaster.sockets += 1
    return True


def _leave(ws: WebSocket) -> None:
    broadcaster: Broadcaster = ws.app.state.broadcaster
    broadcaster.sockets -= 1


async def _first_message_token(ws: WebSocket) -> tuple[str | None, int | None, str]:
    """(token, close code, reason): the token of a first message ``{"token": "..."}``, or the
    close code for a message that is not one (1003 binary, 1008 anything else)."""
    try:
        message = await asyncio.wait_for(ws.receive(), AUTH_TIMEOUT)
    except TimeoutError:
        return None, 1008, "no token: send {\"token\": \"...\"} first"
    if message["type"] == "websocket.disconnect":
        return None, 1000, "gone"
    text = message.get("text")
    if text is None:
        return None, 1003, "send the token as a JSON text message"
    try:
        first: Any = jsonsafe.loads(text)
    except ValueError:
        first = None
    token = first.get("token") if isinstance(first, dict) else 0
    if token is not None and not isinstance(token, str):
        return None, 1008, "the first message must be {\"token\": \"...\"}"
    return token, None, ""  # None (no token in it): refused as a wrong token, 4401


async def _serve(ws: WebSocket, seat: int | None) -> None:
    broadcaster: Broadcaster = ws.app.state.broadcaster
    client = broadcaster.add(ws, seat, acking=ws.query_params.get("flow") == "ack")
    sender = broadcaster.start(client)
    receiver = asyncio.create_task(_drain(ws, client))
    try:
        await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
        if client.timed_out:
            broadcaster.slow_dropped += 1  # its socket took nothing for SEND_TIMEOUT
    finally:
        broadcaster.remove(client)
        for task in (sender, receiver):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await ws.close()


async def _drain(ws: WebSocket, client: Client) -> None:
    """Read the client's acknowledgements (anything else is ignored); notice a close at once."""
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text and '"ack"' in text:
            client.ack()
