"""WebSocket push: /ws (public view) and /ws/seats/{position} (one seat's view).

Every message is a complete state; a client that connects with ``?flow=ack`` answers each with
``{"ack": 1}`` and so always gets the latest state, however slow it is (see the broadcaster).
A seat socket authenticates with ``?token=TOKEN`` or, preferred (it never reaches a log), with a
first message ``{"token": "TOKEN"}``; a wrong token closes the socket with code 4401, a first
message that is binary with 1003, one that is not such JSON with 1008. A token may also be
shown at the handshake as the subprotocol ``token.TOKEN`` (the pages do; the service answers
``mahjong-table``): such a socket is a token holder's, and ``[server] ws_reserved`` of the
``max_ws_clients`` places are kept for them; anonymous sockets are also limited per address
(controller.web.admission). Refused sockets close at the handshake (1013); a client whose
socket takes nothing for ``SEND_TIMEOUT`` seconds is dropped (broadcaster).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, WebSocket

from controller import jsonsafe
from controller.store.tokens import Tokens
from controller.web.admission import SUBPROTOCOL, Admission, offered_token
from controller.web.broadcaster import Broadcaster, Client

router = APIRouter()
AUTH_TIMEOUT = 10.0


@router.websocket("/ws")
async def public_ws(ws: WebSocket) -> None:
    tokens: Tokens = ws.app.state.tokens
    holder = tokens.is_admin(offered_token(ws.scope.get("subprotocols") or []))
    if not await _admit(ws, holder):
        return
    try:
        await _accept(ws)
        await _serve(ws, None)
    finally:
        _leave(ws, holder)


@router.websocket("/ws/seats/{position}")
async def seat_ws(ws: WebSocket, position: int) -> None:
    tokens: Tokens = ws.app.state.tokens
    shown = offered_token(ws.scope.get("subprotocols") or []) or ws.query_params.get("token")
    holder = position in (1, 2, 3, 4) and tokens.is_seat(position, shown)
    if not await _admit(ws, holder):
        return
    try:
        await _accept(ws)
        holder = await _seat(ws, position, shown, holder)
    finally:
        _leave(ws, holder)


async def _accept(ws: WebSocket) -> None:
    """Accept, answering the pages' subprotocol when they offered one."""
    offered = ws.scope.get("subprotocols") or []
    await ws.accept(subprotocol=SUBPROTOCOL if SUBPROTOCOL in offered else None)


async def _seat(ws: WebSocket, position: int, token: str | None, holder: bool) -> bool:
    """Serve a seat socket once its token is right; whether it is a token holder's now."""
    tokens: Tokens = ws.app.state.tokens
    if position not in (1, 2, 3, 4):
        await ws.close(code=4404, reason="no such seat: use 1, 2, 3 or 4")
        return holder
    if not token:
        token, code, why = await _first_message_token(ws)
        if code is not None:
            with contextlib.suppress(Exception):
                await ws.close(code=code, reason=why)
            return holder
    if not tokens.is_seat(position, token):
        await ws.close(code=4401, reason=f"this needs the token of seat {position}")
        return holder
    if not holder:  # shown in the first message: a token holder's socket from now on
        _admission(ws).promote(_address(ws))
    await _serve(ws, position)
    return True


def _admission(ws: WebSocket) -> Admission:
    broadcaster: Broadcaster = ws.app.state.broadcaster
    return broadcaster.admission


def _address(ws: WebSocket) -> str:
    return ws.client.host if ws.client is not None else "?"


async def _admit(ws: WebSocket, holder: bool) -> bool:
    """Room for one more socket (controller.web.admission)? Else refused at the handshake
    (HTTP 403) before anything is read: past the process's file-descriptor limit the table
    itself would stop answering, and the players' places are kept for them."""
    why = _admission(ws).admit(_address(ws), holder)
    if why is not None:
        await ws.close(code=1013, reason=why)
        return False
    return True


def _leave(ws: WebSocket, holder: bool) -> None:
    _admission(ws).leave(_address(ws), holder)


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
