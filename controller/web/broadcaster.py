"""WebSocket push: every change becomes one message per audience (public, or one seat), queued
per client in a bounded queue; a slow client loses stale states, never grows memory.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from fastapi import WebSocket

from controller.service import Change, TableService
from controller.web.models import PublicView, SeatView

log = logging.getLogger("controller.web.broadcaster")

#: Messages a client may have waiting; each is a full state, so dropping old ones is safe.
QUEUE_BOUND = 4


class Client:
    """One connected WebSocket: its audience (None = public, else a seat) and its queue."""

    def __init__(self, ws: WebSocket, seat: int | None, bound: int = QUEUE_BOUND) -> None:
        self.ws = ws
        self.seat = seat
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=bound)
        self.dropped = 0
        self.high_water = 0

    def offer(self, message: str) -> None:
        """Queue a message; when full, drop the oldest (it is superseded by this one)."""
        while self.queue.full():
            self.queue.get_nowait()
            self.dropped += 1
        self.queue.put_nowait(message)
        self.high_water = max(self.high_water, self.queue.qsize())

    async def send_forever(self) -> None:
        while True:
            message = await self.queue.get()
            await self.ws.send_text(message)


def public_message(service: TableService) -> str:
    """The public view, filtered through the Contract 4 model, as a ``table`` message."""
    view = PublicView.model_validate(service.public_view()).model_dump(mode="json")
    return json.dumps({"type": "table", "server_time": service.clock(), "table": view})


def seat_message(service: TableService, position: int) -> str:
    view = SeatView.model_validate(service.seat_view(position)).model_dump(mode="json")
    return json.dumps({"type": "seat", "server_time": service.clock(), "seat": view})


class Broadcaster:
    """Fans each service change out to the connected clients."""

    def __init__(self, service: TableService, bound: int = QUEUE_BOUND) -> None:
        self.service = service
        self.bound = bound
        self.clients: set[Client] = set()
        self.dropped_total = 0
        self.high_water = 0
        self._unsubscribe: Callable[[], None] | None = None

    def attach(self) -> None:
        self._unsubscribe = self.service.subscribe(self.on_change)

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def add(self, ws: WebSocket, seat: int | None) -> Client:
        client = Client(ws, seat, self.bound)
        self.clients.add(client)
        client.offer(self._message_for(seat, {}))
        return client

    def remove(self, client: Client) -> None:
        self.clients.discard(client)
        self.dropped_total += client.dropped
        self.high_water = max(self.high_water, client.high_water)

    def on_change(self, change: Change) -> None:
        cache: dict[int | None, str] = {}
        for client in list(self.clients):
            try:
                client.offer(self._message_for(client.seat, cache))
            except Exception:  # one bad view must not stop the others' updates
                log.exception("could not build the update for a client")

    def _message_for(self, seat: int | None, cache: dict[int | None, str]) -> str:
        if seat not in cache:
            cache[seat] = (
                public_message(self.service) if seat is None else seat_message(self.service, seat)
            )
        return cache[seat]

    def stats(self) -> dict[str, Any]:
        live = list(self.clients)
        return {
            "clients": len(live),
            "bound": self.bound,
            "high_water": max([self.high_water] + [c.high_water for c in live]),
            "dropped": self.dropped_total + sum(c.dropped for c in live),
        }
