"""QueueReader: the table source's wait for the next scan or press never loses or reorders one,
takes what is already there without waiting, and never keeps the event loop to itself."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.sources.table import QueueReader


async def test_items_already_there_come_at_once_in_order() -> None:
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in range(5):
        queue.put_nowait(i)
    reader = QueueReader(queue)
    got = [await reader.get(10.0) for _ in range(5)]
    assert got == [0, 1, 2, 3, 4]
    assert await reader.get(0.01) is None


async def test_an_item_that_comes_after_a_timeout_is_not_lost() -> None:
    queue: asyncio.Queue[str] = asyncio.Queue()
    reader = QueueReader(queue)
    assert await reader.get(0.01) is None  # a get is now pending
    queue.put_nowait("press")
    queue.put_nowait("scan")
    assert await reader.get(1.0) == "press"
    assert await reader.get(1.0) == "scan"


async def test_a_reader_draining_a_full_queue_lets_other_tasks_run() -> None:
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in range(200):
        queue.put_nowait(i)
    reader = QueueReader(queue)
    ticks: list[int] = []

    async def other() -> None:
        for _ in range(50):
            ticks.append(queue.qsize())
            await asyncio.sleep(0)

    task = asyncio.create_task(other())
    for _ in range(200):
        assert await reader.get(1.0) is not None
    await task
    assert len(ticks) == 50
    assert ticks[1] > 0, "the other task only ran once the reader had emptied the queue"


async def test_a_burst_is_taken_in_runs_without_a_loop_turn_per_item() -> None:
    """A burst (five boards' snapshots at once) costs no turn of the event loop per item: the
    other tasks run once every ``run`` items, not after each."""
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in range(100):
        queue.put_nowait(i)
    reader = QueueReader(queue, run=10)
    turns: list[int] = []  # how many items the reader had taken at each of the other's turns
    taken = 0

    async def other() -> None:
        while queue.qsize():
            turns.append(taken)
            await asyncio.sleep(0)

    task = asyncio.create_task(other())
    await asyncio.sleep(0)  # the other task's first turn
    for _ in range(100):
        assert await reader.get(1.0) == taken
        taken += 1
    await task
    # a turn for the others every ten items: never after a single one, never starved
    steps = [b - a for a, b in zip(turns, turns[1:], strict=False)]
    assert steps and all(step == 10 for step in steps), turns


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 3)), max_size=30))
def test_every_item_comes_once_in_order_whatever_the_timing(plan: list[tuple[bool, int]]) -> None:
    """Items put at random moments (between gets, during a pending get, after timeouts)."""

    async def run() -> tuple[list[int], list[int]]:
        queue: asyncio.Queue[int] = asyncio.Queue()
        reader = QueueReader(queue)
        put: list[int] = []
        got: list[int] = []

        def enter(item: int) -> None:
            put.append(item)
            queue.put_nowait(item)

        for n, (put_now, waits) in enumerate(plan):
            if put_now:
                enter(n)
            else:
                asyncio.get_running_loop().call_later(0.001 * waits, enter, n)
            item = await reader.get(0.001 * (waits % 2))
            if item is not None:
                got.append(item)
        while len(got) < len(plan):
            item = await reader.get(0.5)
            assert item is not None, f"lost: got {got} of {len(plan)}"
            got.append(item)
        return put, got

    put, got = asyncio.run(run())
    assert got == put
    assert sorted(got) == list(range(len(plan)))


async def test_an_item_put_as_the_timeout_fires_is_not_lost() -> None:
    """The put and the timeout in the same turn of the loop, in either order: the item comes
    now or with the next get, once."""
    loop = asyncio.get_running_loop()
    for delta in (-0.0005, 0.0, 0.0005):
        queue: asyncio.Queue[str] = asyncio.Queue()
        reader = QueueReader(queue)
        loop.call_later(0.01 + delta, queue.put_nowait, "press")
        first = await reader.get(0.01)
        rest = [] if first is None else [first]
        while (item := await reader.get(0.05)) is not None:
            rest.append(item)
        assert rest == ["press"], (delta, first, rest)
