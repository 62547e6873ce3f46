"""The physical table as an event source: reader back-end -> presence tracker -> events.

The composition root (``controller.app``) makes the tracker and the back-end factory; the async
generator of :func:`table_source` runs on the game loop, reader threads only post scans.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from controller.game import lying, table_zones
from controller.sources.base import EventSource, LoopPort
from controller.table.presence import PresenceTracker
from firmware_bridge.readers import LatestScans, asyncio_sink
from firmware_bridge.types import BoardHealth, ButtonPress, ChannelScan

log = logging.getLogger("controller.table")

SOURCE = "table"
#: Seat buttons (firmware_bridge ButtonPress.button) -> the declaration they make.
BUTTON_CALLS = {"call": "claim", "ready": "ready", "mahjong": "mahjong"}
Event = dict[str, Any]
#: Zones no reader sees (controller.game.zones.OFF_TABLE).
OFF_TABLE = ("wall", "river")


def table_source(
    open_backend: Callable[[], Any], tracker: PresenceTracker, tick_every: float = 0.1,
    clock: Callable[[], float] = time.monotonic,
) -> EventSource:
    """An EventSource: scans from the back-end through ``tracker``; moves, anomalies and
    button declarations go to the loop. ``clock`` must be the back-end's scan clock."""

    async def source(loop: LoopPort) -> AsyncIterator[tuple[Event, str]]:
        queue = LatestScans()  # bounded: the newest set per channel
        tracker.set_hand_over(hand_is_over(loop))  # first: it drops earlier adoptions
        tracker.adopt(game_zones(loop))  # a restarted loop: the tiles are already out
        backend = open_backend()
        backend.read_on(asyncio.get_running_loop())  # the ports read where the scans are used
        backend.start(asyncio_sink(asyncio.get_running_loop(), queue))
        set_turn = getattr(backend, "set_turn", None)
        flag = getattr(backend, "flag_violation", None)
        unsubscribe = loop.subscribe(_buzzer(flag)) if flag is not None else None
        last_tick = clock()
        reader = QueueReader(queue)
        seen = Followed()
        try:
            while True:
                item = await reader.get(tick_every)
                follow_corrections(loop, tracker, seen)  # an operator's undo, a misread
                events = follow_hand(loop, tracker) + bridge_events(item, tracker, loop)
                if clock() - last_tick >= tick_every:
                    last_tick = clock()
                    # a channel whose scan waits in the queue has spoken: not silent
                    events += tracker.tick(last_tick, waiting=queue.waiting())
                for event in events:
                    yield event, SOURCE
                    for cleared in follow_hand(loop, tracker):
                        yield cleared, SOURCE
                    if set_turn is not None:  # the seat LEDs show whose turn it is
                        set_turn((loop.public_view().get("hand") or {}).get("turn"))
        finally:
            if unsubscribe is not None:
                unsubscribe()
            backend.stop()

    return source


def _buzzer(flag: Callable[[], None]) -> Callable[[Any], None]:
    """A loop listener that sounds the table's buzzer for every violation, from any source
    (a move, a button, the dashboard): the table hears it the moment it happens."""

    def listener(change: Any) -> None:
        applied = getattr(change, "applied", None)
        if applied is not None and applied.violation is not None:
            flag()

    return listener


class QueueReader:
    """Takes from an asyncio queue with a timeout, never losing an item.

    ``asyncio.wait_for(queue.get(), t)`` can drop an item that arrives just as the timeout
    fires (CPython before 3.12: its inner task has taken the item when the timeout discards
    the result). Here the wait is the queue's own ``get`` under ``asyncio.timeout``: a get
    cancelled by the timeout has not taken its item (``Queue.get`` takes it only once it runs
    again), so the item stays for the next call. No task per wait, either: the item reaches the
    reader in the loop's next turn after it is put.
    """

    def __init__(self, queue: asyncio.Queue[Any], run: int = 32) -> None:
        self.queue = queue
        self.run = run  # items taken in a row without a turn for the loop's other tasks
        self._taken = 0

    async def get(self, timeout: float) -> Any | None:
        """The next item, or None when none came within ``timeout`` seconds.

        Items already waiting are taken at once, up to ``run`` in a row, then the loop's other
        tasks get a turn: a burst (five boards' snapshots at once, a hundred scans) costs no
        turn of the event loop per scan, and a scan that comes after the burst waits only for
        the burst's own work (benchmarks/bench_fullpath.py)."""
        queue = self.queue
        if not queue.empty():  # already there: no wait
            if self._taken < self.run:
                self._taken += 1
                return queue.get_nowait()
            await asyncio.sleep(0)  # the others' turn, once every ``run`` items
            if not queue.empty():
                self._taken = 1
                return queue.get_nowait()
        self._taken = 0
        try:
            async with asyncio.timeout(timeout):
                return await queue.get()
        except TimeoutError:
            return None


def bridge_events(item: Any, tracker: PresenceTracker, loop: LoopPort) -> list[Event]:
    """One thing from the bridge: a scan, a board's health, a seat button."""
    if isinstance(item, ChannelScan):
        return tracker.scan(item)
    if isinstance(item, BoardHealth):
        if item.state == "resync":  # its channels' scans wait for its snapshot: not silent
            tracker.resyncing(item.board, item.t)
        loop.report_health(item.board, {"ok": item.state == "up", "state": item.state,
                                           "message": item.detail})
        return []
    if isinstance(item, ButtonPress) and item.button in BUTTON_CALLS:
        return [{"declare": {"seat": item.seat, "call": BUTTON_CALLS[item.button]}}]
    return []


@dataclass
class Followed:
    """What :func:`follow_corrections` has told a tracker already."""

    seq: int = -1
    corrections: int = 0


def follow_corrections(loop: LoopPort, tracker: PresenceTracker, seen: Followed) -> None:
    """Tell the tracker what the game's corrections mean for the tiles (cheap when nothing
    changed): which tiles lying out of place are to go back to the wall (an undone draw), and,
    after an operator's correction, a misread tile's code (its tag is read as the corrected
    tile from now on; enroll it again)."""
    state = loop.state
    if state.seq == seen.seq:
        return
    seen.seq = state.seq
    tracker.expect_to_wall((put, tile) for tile, put, home in state.misplaced
                           if home in OFF_TABLE and put.startswith(("rack:", "melds:")))
    if state.corrections == seen.corrections:
        return
    seen.corrections = state.corrections
    read = tracker.zone_tiles()
    for zone, counts in lying(state).items():
        if zone in OFF_TABLE:
            continue
        here = Counter(read.get(zone, []))
        only_read, only_game = here - counts, counts - here
        if sum(only_read.values()) == 1 and sum(only_game.values()) == 1:
            (old,), (new,) = only_read, only_game
            if tracker.relabel(zone, old, new):  # no tile codes in the log: they may be concealed
                log.warning("a misread tile in %s was corrected: its tag is read as the "
                            "corrected tile from now on; enroll it again", zone)


def follow_hand(loop: LoopPort, tracker: PresenceTracker) -> list[Event]:
    """Tell the tracker whether a hand is over (tiles then leave for the wall, not missing)."""
    over = hand_is_over(loop)
    return tracker.set_hand_over(over) if over != tracker.hand_over else []


def hand_is_over(loop: LoopPort) -> bool:
    """No hand in play: none started yet, or the last one is over (its tiles may lie out)."""
    hand = loop.public_view().get("hand") or {}
    return hand.get("phase") in (None, "over")


def game_zones(loop: LoopPort) -> dict[str, list[str]]:
    """Zone -> tile codes where the loop's game has them (a finished hand included)."""
    return table_zones(loop.state)
