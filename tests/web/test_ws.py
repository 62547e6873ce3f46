"""WebSocket push: the public and seat sockets, their authentication, the newest-state slot,
the acknowledgement window and the watchdog for sockets that take nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from controller.web import broadcaster
from controller.web.broadcaster import WINDOW, Client
from tests.web.support import Table, in_play


async def _settle(turns: int = 50) -> None:
    """Give the event loop ``turns`` turns, no clock: every task that what the test did woke
    runs as far as it can (the fakes here wait on events only), however busy the host is.
    A sleep of some milliseconds instead could end first on a loaded machine."""
    for _ in range(turns):
        await asyncio.sleep(0)


def test_public_socket_sends_the_state_then_every_change(table: Table) -> None:
    with table.client.websocket_connect("/ws") as ws:
        first = ws.receive_json()
        assert first["type"] == "table" and first["table"]["seq"] == table.loop.seq
        table.step()
        second = ws.receive_json()
        assert second["table"]["seq"] == table.loop.seq > first["table"]["seq"]
        assert isinstance(second["server_time"], float)


def test_seat_socket_with_the_token_as_first_message(table: Table) -> None:
    table.play_until(in_play)
    with table.client.websocket_connect("/ws/seats/2") as ws:
        ws.send_json({"token": table.tokens.seats[2]})
        msg = ws.receive_json()
        assert msg["type"] == "seat" and msg["seat"]["position"] == 2
        assert sorted(msg["seat"]["hand"]) == sorted(table.loop.seat_view(2)["hand"])
        table.step()
        assert ws.receive_json()["seat"]["table"]["seq"] == table.loop.seq


def test_seat_socket_with_the_token_as_query_parameter(table: Table) -> None:
    with table.client.websocket_connect(f"/ws/seats/4?token={table.tokens.seats[4]}") as ws:
        assert ws.receive_json()["seat"]["position"] == 4


@pytest.mark.parametrize("token", ["", "wrong", "seat1", "admin"])
def test_seat_socket_refuses_other_tokens(table: Table, token: str) -> None:
    sent = {"seat1": table.tokens.seats[1], "admin": table.tokens.admin}.get(token, token)
    with table.client.websocket_connect("/ws/seats/3") as ws:
        ws.send_json({"token": sent})
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
    assert info.value.code == 4401


def test_unknown_seat_socket_is_closed(table: Table) -> None:
    with table.client.websocket_connect("/ws/seats/7") as ws:
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
    assert info.value.code == 4404


def test_an_acknowledging_client_gets_the_newest_state_after_falling_behind(
    table: Table,
) -> None:
    table.play_until(in_play)
    with table.client.websocket_connect("/ws?flow=ack") as ws:
        first = ws.receive_json()["table"]["seq"]
        for _ in range(12):  # the client reads nothing and acknowledges nothing meanwhile
            table.step()
        second = ws.receive_json()["table"]["seq"]  # sent before the window closed
        assert first < second < table.loop.seq
        ws.send_json({"ack": 1})
        ws.send_json({"ack": 1})
        newest = ws.receive_json()["table"]["seq"]
        assert newest == table.loop.seq  # the states in between were dropped, not queued
    stats = table.client.get("/api/health").json()["push"]
    assert stats["dropped"] >= 9 and stats["high_water"] <= stats["bound"]


def test_slow_client_keeps_only_the_latest_state() -> None:
    client = Client(None, None)  # type: ignore[arg-type]
    for i in range(100):
        client.offer(str(i))
    assert client.take() == "99" and client.take() is None
    assert client.dropped == 99 and client.high_water == 1


@given(st.lists(st.one_of(st.just("take"), st.just("ack"), st.integers(0, 10**6)),
                max_size=200))
def test_the_next_state_sent_is_always_the_newest_and_the_window_holds(
    actions: list[object],
) -> None:
    """Whatever the order of changes, sends and acknowledgements: what goes out next is the
    newest state not yet sent, at most ``WINDOW`` go out unacknowledged, none is counted
    twice (sent + dropped + waiting = offered)."""
    client = Client(None, None, acking=True)  # type: ignore[arg-type]
    newest: str | None = None
    offered = 0
    for action in actions:
        if action == "take":
            shut = client.sent - client.acked >= WINDOW
            message = client.take()
            if shut:
                assert message is None
            else:
                assert message == newest
                if message is not None:
                    client.mark_sent()  # as send_forever does after each send
                newest = None
        elif action == "ack":
            client.ack()
        else:
            newest = str(action)
            offered += 1
            client.offer(newest)
        assert client.pending == newest
        assert client.sent - client.acked <= WINDOW
        assert client.sent + client.dropped + (client.pending is not None) == offered


class Gate:
    """The socket's end as starlette gives it, whose sends may have to wait (its buffers full)
    until ``open``; it counts sends in flight at once."""

    def __init__(self, blocked: bool = False) -> None:
        self.got: list[str] = []
        self.flying = 0
        self.most_flying = 0
        self.cancelled = 0
        self.free = asyncio.Event()
        if not blocked:
            self.free.set()

    async def send_text(self, text: str) -> None:
        self.flying += 1
        self.most_flying = max(self.most_flying, self.flying)
        try:
            await self.free.wait()
            self.got.append(text)
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        finally:
            self.flying -= 1


async def test_the_watchdog_drops_a_client_whose_send_never_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A socket that takes nothing: its send waits for ever; after ``SEND_TIMEOUT`` the
    watchdog cancels that client's sender (and only that one's)."""
    monkeypatch.setattr(broadcaster, "SEND_TIMEOUT", 0.2)
    stuck, fine = Client(Gate(blocked=True), None), Client(Gate(), None)  # type: ignore[arg-type]
    tasks = {c: asyncio.create_task(c.send_forever()) for c in (stuck, fine)}
    for c, task in tasks.items():
        c.sender = task
    watchdog = asyncio.create_task(broadcaster.watch(lambda: list(tasks)))
    try:
        for i in range(5):
            stuck.offer(str(i))
            fine.offer(str(i))
            await asyncio.sleep(0.1)
        # waited for (a busy host may run the watchdog late), with a deadline only to give up
        for _ in range(3000):
            if stuck.timed_out and tasks[stuck].cancelled():
                break
            await asyncio.sleep(0.01)
        assert stuck.timed_out and tasks[stuck].cancelled()
        # the watchdog has looked at both clients by now (it dropped the stuck one)
        assert not fine.timed_out and not tasks[fine].done()
        assert fine.ws.got == ["0", "1", "2", "3", "4"]  # type: ignore[attr-defined]
    finally:
        for task in (*tasks.values(), watchdog):
            task.cancel()


async def test_each_change_starts_its_sends_with_the_next_client(tmp_path: Any) -> None:
    """No screen is always served last: the fan-out's first client moves round by one."""
    from controller.app import build
    from controller.config import Config
    from controller.loop import Change

    order: list[str] = []

    class Socket:
        def __init__(self, name: str) -> None:
            self.name = name

        async def send_text(self, text: str) -> None:
            order.append(self.name)

    push = broadcaster.Broadcaster(build(Config(), tmp_path).loop)
    senders = [push.start(push.add(Socket(n), None)) for n in "abc"]  # type: ignore[arg-type]
    await _settle()  # the first state, as each connected
    rounds = []
    for seq in range(1, 7):
        order.clear()
        push.on_change(Change(seq, None))
        await _settle()
        rounds.append("".join(order))
    for task in senders:
        task.cancel()
    assert sorted(rounds[0]) == ["a", "b", "c"] and len(set(rounds)) == 3
    assert [r[0] for r in rounds[:3]] != [rounds[0][0]] * 3
    assert all(rounds[i][1:] + rounds[i][0] == rounds[i + 1] for i in range(5))


async def _table_push(tmp_path: Any, sockets: list[Any]) -> tuple[Any, list[Any]]:
    from controller.app import build
    from controller.config import Config

    push = broadcaster.Broadcaster(build(Config(), tmp_path).loop)
    clients = [push.add(s, None) for s in sockets]
    senders = [push.start(c) for c in clients]
    await _settle()  # the first state, as each connected
    return push, senders


async def test_a_change_goes_out_in_the_fan_out_itself(tmp_path: Any) -> None:
    """Sockets that take the bytes: every client has the new state when the fan-out returns,
    and no sender task has been woken for it."""
    from controller.loop import Change

    sockets = [Gate() for _ in range(5)]
    push, senders = await _table_push(tmp_path, sockets)
    try:
        assert all(len(s.got) == 1 for s in sockets)
        push.on_change(Change(1, None))  # on the web's loop: the fan-out runs here and now
        assert all(len(s.got) == 2 for s in sockets)
        assert all(c.sent == 2 and c.pending is None for c in push.clients)
        assert not any(c._ready.is_set() for c in push.clients)  # no task woken
    finally:
        for task in senders:
            task.cancel()


async def test_a_send_that_must_wait_is_finished_by_the_sender_task(tmp_path: Any) -> None:
    """A socket that takes nothing for a while: the send begun in the fan-out is finished by
    the client's sender task, never two at a time, and the newest state goes next."""
    from controller.loop import Change

    slow, fine = Gate(), Gate()
    push, senders = await _table_push(tmp_path, [slow, fine])
    try:
        slow.free.clear()
        for seq in range(1, 5):  # four changes while the slow socket holds the first
            push.on_change(Change(seq, None))
            await _settle()
        assert len(fine.got) == 5 and len(slow.got) == 1 and slow.flying == 1
        slow.free.set()
        await _settle()
        assert slow.got[1:] == [fine.got[1], fine.got[4]]  # the held one, then the newest
        assert slow.most_flying == 1 and fine.most_flying == 1
        client = next(c for c in push.clients if c.ws is slow)
        assert client.sending_since is None and client.dropped == 2
    finally:
        for task in senders:
            task.cancel()


async def test_a_send_failing_in_the_fan_out_ends_that_client_only(tmp_path: Any) -> None:
    """The connection is gone when the fan-out sends: that client's sender task ends with the
    error (so its socket is closed and it is removed), the others go on."""
    from controller.loop import Change

    class Gone(Gate):
        async def send_text(self, text: str) -> None:
            if self.got:
                raise RuntimeError("the connection is closed")
            await super().send_text(text)

    gone, fine = Gone(), Gate()
    push, senders = await _table_push(tmp_path, [gone, fine])
    try:
        push.on_change(Change(1, None))
        await _settle()
        failed = senders[0]
        assert failed.done() and isinstance(failed.exception(), RuntimeError)
        assert not senders[1].done() and len(fine.got) == 2
    finally:
        for task in senders:
            task.cancel()


async def test_the_watchdog_drops_a_send_begun_in_the_fan_out(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A send begun in the fan-out that never ends is timed like any other: the watchdog
    cancels it, and the send itself is cancelled (not left waiting for ever)."""
    from controller.loop import Change

    monkeypatch.setattr(broadcaster, "SEND_TIMEOUT", 0.2)
    stuck = Gate()
    push, senders = await _table_push(tmp_path, [stuck])
    watchdog = asyncio.create_task(broadcaster.watch(lambda: list(push.clients)))
    try:
        stuck.free.clear()
        push.on_change(Change(1, None))
        client = next(iter(push.clients))
        for _ in range(3000):  # until the watchdog has acted (at most 30 s: a busy host)
            if client.timed_out and senders[0].done():
                break
            await asyncio.sleep(0.01)
        assert client.timed_out and senders[0].cancelled()
        assert stuck.cancelled == 1 and stuck.flying == 0
    finally:
        for task in (*senders, watchdog):
            task.cancel()


async def test_a_cancel_reaches_a_send_handed_over_from_the_fan_out(tmp_path: Any) -> None:
    """The client goes (its sender task is cancelled) just as the socket takes the bytes, before
    the task has run again: the send handed over from the fan-out is cancelled with the task,
    not finished as if nothing had happened."""
    from controller.loop import Change

    socket = Gate()
    push, senders = await _table_push(tmp_path, [socket])
    socket.free.clear()
    push.on_change(Change(1, None))  # the send begins here and waits for the socket
    await _settle()  # the sender task has taken it over
    socket.free.set()  # the socket takes it ...
    senders[0].cancel()  # ... and the client is dropped before the task runs again
    await _settle()
    assert senders[0].cancelled()
    assert socket.cancelled == 1 and len(socket.got) == 1  # only the first state went out


@given(st.lists(st.sampled_from(["change", "block", "free", "ack", "turn"]), max_size=60))
def test_sends_never_overlap_and_the_newest_state_arrives(
    tmp_path_factory: pytest.TempPathFactory, actions: list[str],
) -> None:
    """Whatever the order of changes, sockets stalling and freeing, acknowledgements and turns
    of the loop: a client never has two sends at once, gets states in order, at most
    ``WINDOW`` unacknowledged, and, once its socket takes bytes and it acknowledges, the
    newest state."""
    from controller.loop import Change

    async def play() -> None:
        socket = Gate()
        push, senders = await _table_push(tmp_path_factory.mktemp("push"), [socket])
        client = next(iter(push.clients))
        client.acking = True
        last_change = 0.0  # the service's clock just before the last change
        try:
            for action in actions:
                if action == "change":
                    last_change = push.loop.clock()
                    push.on_change(Change(1, None))
                elif action == "block":
                    socket.free.clear()
                elif action == "free":
                    socket.free.set()
                elif action == "ack":
                    client.ack()
                else:
                    await asyncio.sleep(0)
                assert socket.most_flying <= 1
                assert client.sent - client.acked <= WINDOW
            socket.free.set()
            for _ in range(WINDOW + 2):  # the page acknowledges whatever it has had
                await _settle()
                while client.acked < client.sent:
                    client.ack()
            await _settle()
            built = [json.loads(m)["server_time"] for m in socket.got]
            assert built == sorted(built) and len(set(built)) == len(built)
            assert built[-1] >= last_change and client.pending is None
        finally:
            for task in senders:
                task.cancel()

    asyncio.run(play())
