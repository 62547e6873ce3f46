"""WebSocket push: the public and seat sockets, their authentication, and the bounded queue."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from controller.web.broadcaster import Client
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


def test_slow_client_keeps_only_the_latest_states() -> None:
    client = Client(None, None, bound=4)  # type: ignore[arg-type]
    for i in range(100):
        client.offer(str(i))
    kept = [client.queue.get_nowait() for _ in range(client.queue.qsize())]
    assert kept == ["96", "97", "98", "99"]
    assert client.dropped == 96 and client.high_water == 4


@given(st.lists(st.one_of(st.just("take"), st.integers(0, 10**6)), max_size=200),
       st.integers(1, 8))
def test_the_queue_never_exceeds_its_bound_and_ends_with_the_newest(
    actions: list[object], bound: int
) -> None:
    client = Client(None, None, bound=bound)  # type: ignore[arg-type]
    newest = None
    for action in actions:
        if action == "take":
            if not client.queue.empty():
                client.queue.get_nowait()
        else:
            newest = str(action)
            client.offer(newest)
            assert client.queue.qsize() <= bound
            assert list(client.queue._queue)[-1] == newest  # type: ignore[attr-defined]
    assert client.high_water <= bound
