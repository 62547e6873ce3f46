"""A pure ASGI middleware in front of every HTTP request: the token first, then a capped body.

- ``/api/admin/...`` needs the admin token and ``/api/seats/N...`` seat N's token before a byte
  of the body is read: a request without it is answered 401 at once, its body never read.
- A body is at most ``max_body`` bytes (a few KB: every request the API takes is small): a
  larger ``Content-Length`` is answered 413 without reading; a chunked body is read only up to
  the cap. Only then does the app see the request (the body replayed from memory), so FastAPI
  never parses more than ``max_body`` bytes.
- Every answer carries ``Content-Security-Policy: frame-ancestors 'none'`` and
  ``X-Frame-Options: DENY``: no page of the table can be framed by another site.

The routers' own token checks (deps.py) stay: this is the outer wall, they are the inner one.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 8 * 1024
SECURITY_HEADERS = [
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
]


class Guard:
    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = _with_security_headers(send)
        refusal = _token_refusal(scope)
        if refusal is not None:
            await _answer(send, 401, refusal, [(b"www-authenticate", b"Bearer")])
            return
        if _length_over(scope, self.max_body):
            await _answer(send, 413, self._too_large())
            return
        body = await _read_capped(receive, self.max_body)
        if body is None:
            await _answer(send, 413, self._too_large())
            return
        await self.app(scope, _replay(body, receive), send)

    def _too_large(self) -> str:
        return (f"the request body is larger than {self.max_body} bytes: every request this "
                "API takes is smaller; check what is being sent")


def _with_security_headers(send: Send) -> Send:
    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            present = {name.lower() for name, _ in message.get("headers", [])}
            extra = [(k, v) for k, v in SECURITY_HEADERS if k not in present]
            message["headers"] = list(message.get("headers", [])) + extra
        await send(message)

    return wrapped


def _token_refusal(scope: Scope) -> str | None:
    """Why the request's token is not the one its path needs, or None."""
    parts = scope["path"].split("/")
    if parts[1:3] == ["api", "admin"]:
        need, position = "the admin token", None
    elif parts[1:3] == ["api", "seats"] and len(parts) > 3 and parts[3] in ("1", "2", "3", "4"):
        need, position = f"the token of seat {parts[3]}", int(parts[3])
    else:
        return None
    tokens = getattr(getattr(scope.get("app"), "state", None), "tokens", None)
    token = _bearer(scope)
    if tokens is not None and token is not None:
        if position is None and tokens.is_admin(token):
            return None
        if position is not None and tokens.is_seat(position, token):
            return None
    return f"this needs {need}: send 'Authorization: Bearer TOKEN' (see `mahjong-table tokens`)"


def _bearer(scope: Scope) -> str | None:
    """The token of the ``Authorization: Bearer TOKEN`` header, if any (RFC 6750 2.1: the scheme
    in any case, then one or more spaces). The header is read as bytes; a token that is no UTF-8
    is decoded with stand-ins, so it matches no token and is refused like any wrong one. The
    ASGI HTTP scope always carries ``headers`` (Starlette reads ``scope["headers"]`` too)."""
    for name, value in scope["headers"]:
        if name == b"authorization":
            scheme, _, token = value.partition(b" ")
            if scheme.lower() == b"bearer" and token.strip():
                return token.strip().decode(errors="replace")
            return None
    return None


def _length_over(scope: Scope, cap: int) -> bool:
    """Whether the request's Content-Length says more than ``cap`` bytes, or is no plain
    number of at most 18 digits (a sign, letters, a unicode digit; 19 digits or more, even
    zeros in front, are refused as too long: no request this API takes needs them, and ``int``
    is never handed a number without bound)."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            digits = value.strip()
            return not (digits.isdigit() and len(digits) < 19) or int(digits) > cap
    return False


async def _read_capped(receive: Receive, cap: int) -> list[Message] | None:
    """The request's body messages, or None once they pass ``cap`` bytes (not read further)."""
    messages: list[Message] = []
    size = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages  # a disconnect: the app sees it
        size += len(message.get("body", b""))
        if size > cap:
            return None
        if not message.get("more_body"):  # ASGI: absent is False
            return messages


def _replay(messages: list[Message], receive: Receive) -> Receive:
    pending = list(messages)

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()  # after the body: a disconnect, when the client goes

    return replayed


async def _answer(send: Send, status: int, detail: str,
                  headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})
