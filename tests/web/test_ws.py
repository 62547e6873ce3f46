"""WebSocket push: the public and seat sockets, their authentication, the newest-state slot,
the acknowledgement window and the watchdog for sockets that take nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from controller.web import broadcaster
from controller.web.broadcaster import WINDOW, Client
from tests.web.support import Table, in_play


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


async def test_the_watchdog_drops_a_client_whose_send_never_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A socket that takes nothing: its send waits for ever; after ``SEND_TIMEOUT`` the
    watchdog cancels that client's sender (and only that one's)."""
    monkeypatch.setattr(broadcaster, "SEND_TIMEOUT", 0.2)

    class Socket:  # the socket's end as starlette gives it: a send that may never finish
        def __init__(self, takes: bool) -> None:
            self.takes = takes
            self.got: list[str] = []

        async def send_text(self, text: str) -> None:
            if not self.takes:
                await asyncio.Event().wait()
            self.got.append(text)

    stuck, fine = Client(Socket(False), None), Client(Socket(True), None)  # type: ignore[arg-type]
    tasks = {c: asyncio.create_task(c.send_forever()) for c in (stuck, fine)}
    for c, task in tasks.items():
        c.sender = task
    watchdog = asyncio.create_task(broadcaster.watch(lambda: list(tasks)))
    try:
        for i in range(5):
            stuck.offer(str(i))
            fine.offer(str(i))
            await asyncio.sleep(0.1)
        assert stuck.timed_out and tasks[stuck].cancelled()
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
    await asyncio.sleep(0.01)  # the first state, as each connected
    rounds = []
    for seq in range(1, 7):
        order.clear()
        push.on_change(Change(seq, None))
        await asyncio.sleep(0.01)
        rounds.append("".join(order))
    for task in senders:
        task.cancel()
    assert sorted(rounds[0]) == ["a", "b", "c"] and len(set(rounds)) == 3
    assert [r[0] for r in rounds[:3]] != [rounds[0][0]] * 3
    assert all(rounds[i][1:] + rounds[i][0] == rounds[i + 1] for i in range(5))
