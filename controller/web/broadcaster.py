"""WebSocket push: every change becomes one message per audience (public, or one seat); each
client keeps only the newest state waiting to be sent, so a slow client loses stale states and
never grows memory.

Flow control: a client that connects with ``?flow=ack`` and answers each message with
``{"ack": 1}`` has at most ``WINDOW`` messages unacknowledged; meanwhile newer states replace
the one waiting. So a slow phone gets the latest state next, not a backlog buffered in the
network stack. Other clients are sent whatever their connection accepts.

A send is the per-client cost of every change (50 screens: 50 sends), so it is kept lean: one
slot and one event per client, no queue, and no timer per send; a watchdog (``watch``) drops
a client whose send has waited ``SEND_TIMEOUT`` (benchmarks/bench_fullpath.py, docs/service.md).

The fan-out sends to every client whose socket is free there and then, one after another in
the same turn of the web's loop (``Client.send_now``), through the same ``WebSocket.send_text``
as the client's sender task: a socket that takes the bytes (the usual case) finishes the send at
once, with no task woken per client and no acknowledgement read between two clients' sends. A
send that has to wait (the socket's buffers are full, uvicorn pauses writing) is handed over,
where it stopped, to the client's sender task, which finishes it and is the only sender until
it has; so a client never has two sends at a time.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Generator
from typing import Any

from fastapi import WebSocket

from controller.loop import Change, GameLoop
from controller.web import views
from controller.web.admission import Admission
from controller.web.models import SeatView

log = logging.getLogger("controller.web.broadcaster")

#: States a client may have waiting: one, the newest (each is a full state).
BOUND = 1
#: Messages an acknowledging client may have in flight.
WINDOW = 2
#: Seconds a send may wait for the client's socket to take it; a client that does not read is
#: then dropped (its buffers full), instead of holding a socket and memory for ever.
SEND_TIMEOUT = 10.0


class Client:
    """One connected WebSocket: its audience (None = public, else a seat) and the newest state
    not yet sent to it."""

    def __init__(self, ws: WebSocket, seat: int | None, acking: bool = False) -> None:
        self.ws = ws
        self.seat = seat
        self.pending: str | None = None
        self.dropped = 0
        self.high_water = 0
        self.sent = 0
        self.acked = 0
        self.acking = acking
        self.sending_since: float | None = None  # monotonic time the current send began
        self.sender: asyncio.Task[None] | None = None  # send_forever, once started
        self.timed_out = False
        self._open = True  # the window: may another message go out now?
        self._ready = asyncio.Event()  # a state waits and the window is open (or see below)
        # A send begun by ``send_now`` that must wait for the socket: the sender task finishes
        # it. Or the error a send begun there raised: the sender task raises it (the client ends).
        self._resume: tuple[Coroutine[Any, Any, None], Any] | None = None
        self._failed: Exception | None = None

    def offer(self, message: str, wake: bool = True) -> None:
        """Make ``message`` the state to send next; one still waiting is superseded (dropped).
        ``wake=False``: the caller sends it itself next (``send_now``), so the sender task is
        not woken for it."""
        if self.pending is not None:
            self.dropped += 1
        self.pending = message
        self.high_water = max(self.high_water, 1)
        if wake and self._open:
            self._ready.set()

    def ack(self) -> None:
        """The client has handled one more message: the window may open again."""
        self.acked = min(self.acked + 1, self.sent)
        if self.sent - self.acked < WINDOW:
            self._open = True
            if self.pending is not None:
                self._ready.set()

    def take(self) -> str | None:
        """The state to send now (None: nothing waits, or the window is shut)."""
        if not self._open:
            return None
        message, self.pending = self.pending, None
        return message

    def send_now(self) -> None:
        """Send the waiting state in the caller's turn: a socket that takes it at once ends the
        send here; one that must wait leaves the rest of the send to the sender task
        (``send_forever``), as does an error (the sender task raises it). Nothing is sent here
        while a send is in flight (its end sends the newest state: ``mark_sent``) or the window
        is shut (an acknowledgement opens it: ``ack``)."""
        if self.sending_since is not None or self._resume is not None or self._failed is not None:
            return
        if self.sender is None or self.sender.done():  # no task to finish a send that waits
            return
        message = self.take()
        if message is None:
            return
        self.sending_since = time.monotonic()
        send = self.ws.send_text(message)
        try:
            step = send.send(None)
        except StopIteration:  # the socket took it
            self.mark_sent()
            return
        except Exception as exc:  # the connection is gone: the sender task ends the client
            self._failed = exc
        else:
            self._resume = (send, step)
        self._ready.set()

    async def send_forever(self) -> None:
        ready = self._ready
        try:
            while True:
                await ready.wait()
                ready.clear()
                if self._failed is not None:
                    raise self._failed
                if self._resume is not None:  # a send begun by send_now, waiting for the socket
                    sending: Awaitable[None] = _Resumed(*self._resume)
                else:
                    message = self.take()
                    if message is None:
                        continue
                    self.sending_since = time.monotonic()
                    sending = self.ws.send_text(message)
                await sending
                self._resume = None
                self.mark_sent()
        finally:
            if self._resume is not None:  # cancelled (dropped, or gone) with a send half done
                self._resume[0].close()
                self._resume = None

    def mark_sent(self) -> None:
        """One message has gone out (no send is in flight now): the window may shut; a newer
        state goes next."""
        self.sending_since = None
        self.sent += 1
        if self.acking and self.sent - self.acked >= WINDOW:
            self._open = False
        elif self.pending is not None:  # a newer state came while this one went out
            self._ready.set()

    def stalled(self, now: float) -> bool:
        """Has the current send waited ``SEND_TIMEOUT`` (the socket takes nothing)?"""
        return self.sending_since is not None and now - self.sending_since >= SEND_TIMEOUT


class _Resumed:
    """Awaiting this drives on a coroutine that was started by hand (``send_now``) and stopped
    at ``step`` (the future it waits for), in the awaiting task, as if the task had awaited it
    from the start: what the task is sent or thrown goes on to the coroutine."""

    def __init__(self, coroutine: Coroutine[Any, Any, None], step: Any) -> None:
        self.coroutine = coroutine
        self.step = step

    def __await__(self) -> Generator[Any, Any, None]:
        coroutine, step = self.coroutine, self.step
        while True:
            try:
                value = yield step
            except GeneratorExit:
                coroutine.close()
                raise
            except BaseException as exc:  # a cancellation too: the coroutine sees it
                try:
                    step = coroutine.throw(exc)
                except StopIteration:
                    return
            else:
                try:
                    step = coroutine.send(value)
                except StopIteration:
                    return


async def watch(clients: Callable[[], list[Client]]) -> None:
    """Drop (cancel the sender of) every client whose send has waited ``SEND_TIMEOUT``."""
    while True:
        await asyncio.sleep(min(1.0, SEND_TIMEOUT / 4))
        now = time.monotonic()
        for client in clients():
            sender = client.sender
            if sender is not None and client.stalled(now) and not sender.done():
                client.timed_out = True
                sender.cancel()


def seat_message(loop: GameLoop, position: int) -> str:
    view = SeatView.model_validate(views.seat_view(loop, position)).model_dump(mode="json")
    return json.dumps({"type": "seat", "server_time": loop.clock(), "seat": view})


class Broadcaster:
    """Fans each loop change out to the connected clients."""

    def __init__(self, loop: GameLoop) -> None:
        self.loop = loop
        self.public = views.PublicCache(loop)
        self.clients: dict[Client, None] = {}  # in the order they came
        self._turn = 0  # where the next fan-out starts: no screen is always the last served
        self._watchdog: asyncio.Task[None] | None = None
        self.dropped_total = 0
        self.high_water = 0
        server = loop.config.server
        #: WebSocket connections open and refused at the handshake (controller.web.admission)
        self.admission = Admission(server.max_ws_clients, min(server.ws_reserved,
                                                              server.max_ws_clients),
                                   server.ws_per_address)
        self.slow_dropped = 0  # dropped: their sockets took nothing for SEND_TIMEOUT
        self._unsubscribe: Callable[[], None] | None = None
        self._web: asyncio.AbstractEventLoop | None = None

    def attach(self) -> None:
        """Called on the web's event loop: change notices from the game's thread come here."""
        self._web = asyncio.get_running_loop()
        self._unsubscribe = self.loop.subscribe(self.on_change, screen=True)
        self._watchdog = asyncio.create_task(watch(lambda: list(self.clients)))

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None

    def add(self, ws: WebSocket, seat: int | None, acking: bool = False) -> Client:
        client = Client(ws, seat, acking)
        self.clients[client] = None
        client.offer(self._message_for(seat, {}))
        return client

    def start(self, client: Client) -> asyncio.Task[None]:
        """The client's sender task, watched by the watchdog (``SEND_TIMEOUT``)."""
        sender = client.sender = asyncio.create_task(client.send_forever())
        return sender

    def remove(self, client: Client) -> None:
        self.clients.pop(client, None)
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
        live = list(self.clients)
        if live:  # the sends go out in this order, each client's turn comes round
            self._turn = (self._turn + 1) % len(live)
            live = live[self._turn:] + live[:self._turn]
        for client in live:
            try:
                client.offer(self._message_for(client.seat, cache), wake=False)
            except Exception:  # one bad view must not stop the others' updates
                log.exception("could not build the update for a client")
                continue
            client.send_now()

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
            "bound": BOUND,
            "high_water": max([self.high_water] + [c.high_water for c in live]),
            "dropped": self.dropped_total + sum(c.dropped for c in live),
            "sockets": self.admission.sockets,
            "refused": self.admission.refused,
            "token_holders": self.admission.holders,
            "slow_dropped": self.slow_dropped,
        }
