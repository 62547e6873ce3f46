"""WebSocket push: /ws (public view) and /ws/seats/{position} (one seat's view).

Every message is a complete state; a client that connects with ``?flow=ack`` answers each with
``{"ack": 1}`` and so always gets the latest state, however slow it is (see the broadcaster).
A seat socket authenticates with ``?token=TOKEN`` or, preferred (it never reaches a log), with a
first message ``{"token": "TOKEN"}``; a wrong token closes the socket with code 4401.
"""

from __future__ import annotations

import asyncio
import contextlib
import json

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from controller.store.tokens import Tokens
from controller.web.broadcaster import Broadcaster, Client

router = APIRouter()
AUTH_TIMEOUT = 10.0


@router.websocket("/ws")
async def public_ws(ws: WebSocket) -> None:
    await ws.accept()
    await _serve(ws, None)


@router.websocket("/ws/seats/{position}")
async def seat_ws(ws: WebSocket, position: int) -> None:
    await ws.accept()
    tokens: Tokens = ws.app.state.tokens
    if position not in (1, 2, 3, 4):
        await ws.close(code=4404, reason="no such seat: use 1, 2, 3 or 4")
        return
    token = ws.query_params.get("token")
    if not token:
        token = await _first_message_token(ws)
    if not tokens.is_seat(position, token):
        await ws.close(code=4401, reason=f"this needs the token of seat {position}")
        return
    await _serve(ws, position)


async def _first_message_token(ws: WebSocket) -> str | None:
    try:
        text = await asyncio.wait_for(ws.receive_text(), AUTH_TIMEOUT)
        token = json.loads(text).get("token")
    except (TimeoutError, ValueError, AttributeError, WebSocketDisconnect):
        return None
    return token if isinstance(token, str) else None


async def _serve(ws: WebSocket, seat: int | None) -> None:
    broadcaster: Broadcaster = ws.app.state.broadcaster
    client = broadcaster.add(ws, seat, acking=ws.query_params.get("flow") == "ack")
    sender = asyncio.create_task(client.send_forever())
    receiver = asyncio.create_task(_drain(ws, client))
    try:
        await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
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
