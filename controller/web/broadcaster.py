"""WebSocket push: every change becomes one message per audience (public, or one seat), queued
per client in a bounded queue; a slow client loses stale states, never grows memory.

Flow control: a client that connects with ``?flow=ack`` and answers each message with
``{"ack": 1}`` has at most ``WINDOW`` messages unacknowledged; the rest wait in its queue, where
newer states replace older ones. So a slow phone gets the latest state next, not a backlog
buffered in the network stack. Other clients are sent whatever their connection accepts.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from fastapi import WebSocket

from controller.loop import Change, GameLoop
from controller.web import views
from controller.web.models import SeatView

log = logging.getLogger("controller.web.broadcaster")

#: Messages a client may have waiting; each is a full state, so dropping old ones is safe.
QUEUE_BOUND = 4
#: Messages an acknowledging client may have in flight.
WINDOW = 2
#: Seconds a send may wait for the client's socket to take it; a client that does not read is
#: then dropped (its buffers full), instead of holding a socket and memory for ever.
SEND_TIMEOUT = 10.0


class Client:
    """One connected WebSocket: its audience (None = public, else a seat) and its queue."""

    def __init__(self, ws: WebSocket, seat: int | None, bound: int = QUEUE_BOUND,
                 acking: bool = False) -> None:
        self.ws = ws
        self.seat = seat
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=bound)
        self.dropped = 0
        self.high_water = 0
        self.sent = 0
        self.acked = 0
        self.acking = acking
        self._window = asyncio.Event()
        self._window.set()

    def offer(self, message: str) -> None:
        """Queue a message; when full, drop the oldest (it is superseded by this one)."""
        while self.queue.full():
            self.queue.get_nowait()
            self.dropped += 1
        self.queue.put_nowait(message)
        self.high_water = max(self.high_water, self.queue.qsize())

    def ack(self) -> None:
        """The client has handled one more message: the window may open again."""
        self.acked = min(self.acked + 1, self.sent)
        if self.sent - self.acked < WINDOW:
            self._window.set()

    async def send_forever(self) -> None:
        while True:
            await self._window.wait()
            message = await self.queue.get()
            while not self.queue.empty():  # only the newest full state is worth sending
                message = self.queue.get_nowait()
                self.dropped += 1
            async with asyncio.timeout(SEND_TIMEOUT):  # else dropped (no task per send,
                await self.ws.send_text(message)   # as wait_for made: 50 clients, 50 tasks)
            self.sent += 1
            if self.acking and self.sent - self.acked >= WINDOW:
                self._window.clear()


def seat_message(loop: GameLoop, position: int) -> str:
    view = SeatView.model_validate(views.seat_view(loop, position)).model_dump(mode="json")
    return json.dumps({"type": "seat", "server_time": loop.clock(), "seat": view})


class Broadcaster:
    """Fans each loop change out to the connected clients."""

    def __init__(self, loop: GameLoop, bound: int = QUEUE_BOUND) -> None:
        self.loop = loop
        self.public = views.PublicCache(loop)
        self.bound = bound
        self.clients: set[Client] = set()
        self.dropped_total = 0
        self.high_water = 0
        self.sockets = 0  # WebSocket connections open (seat sockets while authenticating too)
        self.refused = 0  # refused at the handshake: max_ws_clients reached
        self.slow_dropped = 0  # dropped: their sockets took nothing for SEND_TIMEOUT
        self._unsubscribe: Callable[[], None] | None = None
        self._web: asyncio.AbstractEventLoop | None = None

    def attach(self) -> None:
        """Called on the web's event loop: change notices from the game's thread come here."""
        self._web = asyncio.get_running_loop()
        self._unsubscribe = self.loop.subscribe(self.on_change)

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def add(self, ws: WebSocket, seat: int | None, acking: bool = False) -> Client:
        client = Client(ws, seat, self.bound, acking)
        self.clients.add(client)
        client.offer(self._message_for(seat, {}))
        return client

    def remove(self, client: Client) -> None:
        self.clients.discard(client)
        self.dropped_total += client.dropped
        self.high_water = max(self.high_water, client.high_water)

    def on_change(self, change: Change) -> None:
        web = self._web
        if web is not None and not web.is_closed():
            try:
                on_web = asyncio.get_running_loop() is web
            except RuntimeError:
                on_web = False
            if not on_web:  # from the game's thread: fan out on the web's loop
                web.call_soon_threadsafe(self._fan_out, change)
                return
        self._fan_out(change)

    def _fan_out(self, change: Change) -> None:
        cache: dict[int | None, str] = {}
        for client in list(self.clients):
            try:
                client.offer(self._message_for(client.seat, cache))
            except Exception:  # one bad view must not stop the others' updates
                log.exception("could not build the update for a client")

    def _message_for(self, seat: int | None, cache: dict[int | None, str]) -> str:
        if seat not in cache:
            cache[seat] = (
                self.public.message() if seat is None else seat_message(self.loop, seat)
            )
        return cache[seat]

    def stats(self) -> dict[str, Any]:
        live = list(self.clients)
        return {
            "clients": len(live),
            "bound": self.bound,
            "high_water": max([self.high_water] + [c.high_water for c in live]),
            "dropped": self.dropped_total + sum(c.dropped for c in live),
            "sockets": self.sockets,
            "refused": self.refused,
            "slow_dropped": self.slow_dropped,
        }
