"""Connections that do not finish their request's headers in time are closed (issue 22).

uvicorn times out a keep-alive connection only between requests, after a response: 600
sockets trickling header bytes for 45 s were never closed, each holding a file descriptor. Here
the HTTP protocol (uvicorn's h11 one) starts a deadline when a connection opens and when the
first byte of a later request arrives; when it passes with the request's headers still
incomplete, the connection is answered 408 and closed. A WebSocket upgrade or a request whose
headers are in is never touched (a slow body is bounded by the 8 KB body cap, guard.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a client has for a request's headers (a phone on a weak network needs well under one).
HEADER_SECONDS = 10.0
_BODY = b"the request's headers came too slowly\n"
_TIMEOUT = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain\r\n"
            b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(_BODY), _BODY))


class HeaderDeadline(H11Protocol):
    """uvicorn's h11 protocol with a deadline on each request's headers."""

    header_seconds = HEADER_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._deadline is None and self._awaiting_headers():
            self._arm()  # the first byte of a later request on a kept-alive connection
        super().data_received(data)
        if not self._awaiting_headers():
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _awaiting_headers(self) -> bool:
        """No request of this cycle has its headers in yet."""
        return self.conn.their_state is h11.IDLE and (
            self.cycle is None or self.cycle.response_complete)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.header_seconds, self._late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or not self._awaiting_headers():
            return
        self.transport.write(_TIMEOUT)
        self.transport.close()


def with_header_deadline(seconds: float) -> type[HeaderDeadline]:
    """The protocol class with ``seconds`` for the headers (uvicorn's ``http=``)."""
    return type("HeaderDeadline", (HeaderDeadline,), {"header_seconds": float(seconds)})
