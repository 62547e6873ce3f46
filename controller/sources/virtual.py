"""The virtual table as the loop's event source: simulated players on the hardware path.

The director decides the next table event from the controller's state; the world puts the tagged
tile on a virtual antenna; the virtual boards report it over a pseudo-terminal; the real serial
back-end, the presence tracker and the engine register it. Like a person watching the table, the
director makes its next move only when the controller has registered its last one, so the same
seed gives the same game whatever the line noise and unplugs.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from controller.players.director import Director
from controller.sources.agree import agreed
from controller.sources.base import Event, EventSource, LoopPort, Rhythm, next_game
from controller.sources.table import (
    Followed,
    QueueReader,
    bridge_events,
    follow_corrections,
    follow_hand,
    game_zones,
    hand_is_over,
)
from controller.sources.world import OFF_TABLE, SimWorld, TileBox
from controller.table.presence import PresenceTracker
from firmware_bridge.readers import LatestScans, asyncio_sink
from firmware_bridge.sim import SimBackend, default_layout
from firmware_bridge.sim_process import BoardsProcess

log = logging.getLogger("controller.sim")
#: Seconds the controller may trail the boards (its newest scan taken, a turn of its loop) and
#: still be keeping up rather than behind (wait_registered).
BEHIND_S = 0.5


@dataclass
class SimOptions:
    """How the virtual table plays: speed, faults, and how many hands."""

    seed: int = 1
    hands: int | None = None  # None: play on and on
    pace: float = 0.0  # extra seconds between table events (0: as fast as registered)
    hand_pause: float = 0.0  # seconds to leave a finished hand on the table
    noise: float = 0.0  # bit-error rate on every serial line
    unplug_every: float | None = None  # seconds between unplugging a random board
    unplug_for: float = 0.3  # seconds a board stays unplugged
    scan_ms: float = 2.0
    snapshot_ms: float = 50.0
    absent_after: float = 0.15
    register_timeout: float = 20.0  # a move not registered by then is reported, not retried
    misread: tuple[str, str] | None = None  # a fault: (face, read as) for one tile's tag
    #: seconds the players wait for a misread to be corrected before they stop (``simulate``
    #: has no operator); None: they wait for the operator for ever (``serve``)
    agree_timeout: float | None = None
    #: the virtual boards in a process of their own (firmware_bridge.sim_process), as real
    #: boards are devices of their own: their scanning takes no time from the controller
    boards_apart: bool = False


@dataclass
class SimRun:
    """What a run of the virtual table has done, for the `simulate` summary and health."""

    done: asyncio.Event = field(default_factory=asyncio.Event)
    link: dict[str, int] = field(default_factory=dict)
    unplugs: int = 0
    stalls: int = 0
    error: str | None = None
    finishing: bool = False  # the players are done; no more cables are pulled
    #: what a player would tell the operator while the table shows a tile that is not what
    #: lies there (a misread): {"seat", "zone", "tile" (as read), "is"}; None when all agree
    complaint: dict[str, Any] | None = None
    waited: int = 0  # times the players looked at the table and waited (a misread showing)
    #: set by whoever runs the table (a test's operator): the players keep their hands off it
    #: from their next look until it is cleared; ``holding`` says they are waiting and their
    #: last act is registered (nothing in flight)
    held: bool = False
    holding: bool = False


def virtual_table_source(options: SimOptions, run: SimRun | None = None) -> EventSource:
    """An EventSource for :class:`controller.loop.GameLoop` (see module docstring)."""
    run = run or SimRun()

    async def source(loop: LoopPort) -> AsyncIterator[tuple[Event, str]]:
        await _session_started(loop)
        loop.mark_players_simulated("the virtual table's simulated players")
        # every session's set (136 tiles are a part of it), with the fault asked for
        box = TileBox(bonus_tiles=True, misread=options.misread)
        # the centre board carries the riichi dora pad too (TABLE.md), idle in other games
        if options.boards_apart:
            backend = SimBackend(table=BoardsProcess(
                scan_ms=options.scan_ms, snapshot_ms=options.snapshot_ms, seed=options.seed,
                dora=1))
        else:
            backend = SimBackend(scan_ms=options.scan_ms, snapshot_ms=options.snapshot_ms,
                                 seed=options.seed, boards=default_layout(dora=1))
        world = SimWorld(backend.table, box)
        def new_tracker() -> PresenceTracker:
            return PresenceTracker(backend.table.labels(), box.registry,
                                   absent_after=options.absent_after,
                                   move_window=max(1.0, 4 * options.absent_after),
                                   silent_after=max(3.0, options.unplug_for * 4),
                                   confirm_reads=1)  # the virtual boards confirm (protocol.md)

        sensing = Sensing(new_tracker(), new_tracker)
        restored = _restore(loop, world, sensing.tracker)
        if options.noise:
            backend.table.set_faults(bit_error_rate=options.noise)
        inbox: asyncio.Queue[Any] = LatestScans()  # bounded: the newest set per channel
        backend.read_on(asyncio.get_running_loop())  # the ports read where the scans are used
        backend.start(asyncio_sink(asyncio.get_running_loop(), inbox))
        count = EventCounter()
        tasks = [asyncio.create_task(_drive(loop, world, sensing, inbox, count, options,
                                            run, restored), name="sim-director")]
        if options.unplug_every:
            tasks.append(asyncio.create_task(_unplugger(backend, options, run)))
        try:
            async for event, name in _events(inbox, sensing, loop, count):
                yield event, name
                run.link = _link_stats(backend)
        finally:
            for task in tasks:
                task.cancel()
            run.link = _link_stats(backend)
            backend.stop()

    return source


@dataclass
class Sensing:
    """The presence tracker in use; replaced (muted meanwhile) when a new session sweeps the
    table, so that the old session's tiles leaving make no events in the new one."""

    tracker: PresenceTracker
    make: Callable[[], PresenceTracker]
    muted: bool = False
    #: the session the tracker's tiles belong to (None: not known yet); once the loop has
    #: begun another, what the tracker still reports is the old table's, not a move of the new
    session: Any = None

    def quiet(self, loop: LoopPort) -> bool:
        return self.muted or (self.session is not None and loop.session_id != self.session)


async def _sweep(world: SimWorld, sensing: Sensing) -> None:
    """Everything off the table; the new session's tracker starts once every reader has
    reported its antennas empty (not after a fixed pause: on a loaded host the boards' scans
    of the old table came later than one, and the new tracker took them for a deal)."""
    sensing.muted = True
    world.reset()
    swept_at = time.monotonic()  # the boards' scans are stamped on this clock
    while not sensing.tracker.cleared_since(swept_at):
        await asyncio.sleep(0.01)
    sensing.tracker = sensing.make()
    sensing.muted = False


@dataclass
class EventCounter:
    """Events handed to the loop (``emitted``) and those it has finished with (``applied``)."""

    emitted: int = 0
    applied: int = 0


async def _events(inbox: asyncio.Queue[Any], sensing: Sensing, loop: LoopPort,
                  count: EventCounter) -> AsyncIterator[tuple[Event, str]]:
    """Bridge scans and the players' declarations, in one order, to the loop."""
    last_tick = time.monotonic()
    reader = QueueReader(inbox)
    seen = Followed()
    while True:
        item = await reader.get(0.02)
        if not sensing.muted:  # an operator's undo or correction: what it means for tiles
            follow_corrections(loop, sensing.tracker, seen)
        batch = [(e, "table") for e in follow_hand(loop, sensing.tracker)]
        batch += _batch(item, sensing, loop)
        if time.monotonic() - last_tick >= 0.02:
            last_tick = time.monotonic()
            batch += [(e, "table") for e in sensing.tracker.tick(last_tick)]
        for event, name in batch:
            # Looked at before each event, not once per batch: a new session may have begun
            # while the one before was recorded (its table is, or is to be, swept: nothing
            # the old tracker saw is a move of the new game).
            if name == "table" and sensing.quiet(loop):
                continue
            count.emitted += 1
            yield event, name
            count.applied += 1
            for cleared in follow_hand(loop, sensing.tracker):
                if sensing.quiet(loop):
                    break
                count.emitted += 1
                yield cleared, "table"
                count.applied += 1


def _batch(item: Any, sensing: Sensing, loop: LoopPort) -> list[tuple[Event, str]]:
    """A scan, a board's health or button (None: nothing came), or a player's declaration."""
    if isinstance(item, tuple):  # a player's declaration (event, source)
        return [item]
    return [(e, "table") for e in bridge_events(item, sensing.tracker, loop)]


async def _drive(loop: LoopPort, world: SimWorld, sensing: Sensing,
                 inbox: asyncio.Queue[Any], count: EventCounter, options: SimOptions, run: SimRun,
                 restored: dict[str, str]) -> None:
    """The director's loop: act, then wait until the controller has registered the act."""
    expected = {uid: _norm(zone) for uid, zone in restored.items()}
    sweeping = False  # clearing the table: sweep it all, then wait once
    director, session = None, None
    rhythm = Rhythm()  # the players' pace is counted from each act, not from its registration
    rested: tuple[Any, int] | None = None  # the session and hand whose result was looked at
    try:
        while True:
            if not sweeping or run.held:
                await wait_registered(inbox, sensing, count, expected, options, run)
            if (over := _result_shown(loop, options)) is not None and over != rested:
                rested = over  # the result shows (the act that ended the hand is registered)
                await asyncio.sleep(options.hand_pause)  # held or not: the players look first
                continue
            if run.held:
                sweeping = False
                await _hold(run)
                continue
            if not loop.session_active:  # stopped by the operator: wait for a new one
                await asyncio.sleep(0.1)
                continue
            if director is None or session != loop.session_id:
                if director is not None:  # a new session: the old tiles come off the table
                    await _sweep(world, sensing)
                    expected.clear()
                director, session = _new_director(loop, options), loop.session_id
                sensing.session = session
            if not sweeping:  # a misread shows: the players wait for the operator
                await agreed(loop, world, run, options.agree_timeout)
                if loop.session_id != session or not loop.session_active:
                    continue  # a new session came meanwhile: its sweep first, not a move
            event = director.next_action(loop.state)
            if event is None and await next_game(loop, options.hands):
                continue
            if event is None:
                run.finishing = True
                if options.unplug_every:  # let a pulled cable be plugged back in first
                    await asyncio.sleep(options.unplug_for + 0.5)
                run.done.set()
                return
            if "session" in event:
                continue
            sweeping = False
            rhythm.act()
            if "move" in event:
                move = event["move"]
                if move["from"] in OFF_TABLE and move["to"] in OFF_TABLE:
                    continue  # river -> wall: no reader sees it, the game needs no move
                expected[world.perform(move)] = _norm(move["to"])
                sweeping = move["to"] == "wall" and director.pending()
                if sweeping:
                    continue
            else:
                await inbox.put((event, f"seat:{event['declare']['seat']}"))
                await _until(lambda: inbox.empty() and count.applied == count.emitted)
            await _pause(loop, options, rhythm)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # the demo must say why it stopped, not die silently
        # The message may name a concealed tile: only the kind goes to the log and the pages.
        log.error("the virtual table stopped (%s); restart the service", type(exc).__name__)
        log.debug("the virtual table stopped", exc_info=True)
        loop.report_health("virtual-table", {
            "ok": False, "state": "down",
            "message": f"the simulated players stopped ({type(exc).__name__}): "
                       "restart the service"})
        run.error = f"{type(exc).__name__}: {exc}"
        run.done.set()


def _new_director(loop: LoopPort, options: SimOptions) -> Director:
    """Players for the loop's current session, its rule set and options."""
    session = loop.public_view().get("session") or {}
    return Director(session.get("ruleset") or "hua-bao", dict(session.get("options") or {}),
                    hands=options.hands or 1_000_000, seed=options.seed)


async def wait_registered(inbox: asyncio.Queue[Any], sensing: Sensing, count: EventCounter,
                          expected: dict[str, str], options: SimOptions, run: SimRun) -> None:
    """Wait until every tile the world moved is where the tracker (and so the game) has it.

    Gives up after ``register_timeout`` seconds in which the controller had nothing left to do:
    while events wait to be stored, the event loop itself was held up (a slow disk under
    ``synchronous=FULL``) or scans wait in the inbox that are older than those the tracker has
    taken, the controller is behind, not stuck, and going on would only make the virtual world
    and the game disagree. Boards that keep reporting put a fresh scan in the inbox all the
    time: a controller that takes them as they come is keeping up (it once waited for ever so).
    """
    step = 0.005
    idle_since = last = time.monotonic()
    while True:
        positions = sensing.tracker.positions()
        for uid in [u for u, zone in expected.items() if _norm(positions.get(u)) == zone]:
            del expected[uid]
        if not expected and count.applied == count.emitted:
            return
        now = time.monotonic()
        read = sensing.tracker.latest  # the newest scan taken (the boards' clock is this one)
        lagging = inbox.qsize() and (read is None or now - read > BEHIND_S)
        if lagging or count.applied != count.emitted or now - last > BEHIND_S:
            idle_since = now  # behind (work queued, or this loop was held up), not stuck
        last = now
        if now - idle_since > options.register_timeout:
            run.stalls += 1
            log.warning("the controller has not registered %s after %.0f s idle; going on (%s)",
                        sorted(expected.items()), options.register_timeout,
                        " | ".join(sensing.tracker.describe(u, now) for u in sorted(expected)))
            expected.clear()
            return
        await asyncio.sleep(step)


async def _until(condition: Callable[[], bool]) -> None:
    while not condition():
        await asyncio.sleep(0.002)


async def _pause(loop: LoopPort, options: SimOptions, rhythm: Rhythm) -> None:
    """The players' pace after an act (the rest after a hand is ``_result_shown``'s: an act
    that ends a hand is not registered yet here, so its result does not show)."""
    hand = loop.public_view().get("hand") or {}
    if options.pace:  # the deal is quick at a real table too
        await rhythm.pause(options.pace * (0.2 if hand.get("phase") == "deal" else 1.0))


def _result_shown(loop: LoopPort, options: SimOptions) -> tuple[Any, int] | None:
    """(session, hand number) while a finished hand's result shows and the players rest
    ``hand_pause`` seconds to look at it; None otherwise."""
    hand = loop.state.hand
    if not options.hand_pause or hand is None or hand.phase != "over":
        return None
    return loop.session_id, hand.number


async def _hold(run: SimRun) -> None:
    """Hands off the table while ``run.held`` (the last act registered already)."""
    run.holding = True
    while run.held:
        await asyncio.sleep(0.02)
    run.holding = False


async def _unplugger(backend: Any, options: SimOptions, run: SimRun) -> None:
    """Pull a random board's cable every ``unplug_every`` seconds and plug it back."""
    rng = random.Random(f"unplug/{options.seed}")
    boards = sorted(backend.table.boards)
    assert options.unplug_every
    while not run.finishing:
        await asyncio.sleep(options.unplug_every)
        if run.finishing:
            return
        board = rng.choice(boards)
        backend.table.unplug(board)
        run.unplugs += 1
        await asyncio.sleep(options.unplug_for)
        backend.table.replug(board)


async def _session_started(loop: LoopPort) -> None:
    while not loop.session_active:
        await asyncio.sleep(0.05)


def _restore(loop: LoopPort, world: SimWorld, tracker: PresenceTracker) -> dict[str, str]:
    """After a restart: lay the tiles where the replayed game has them, and tell the tracker.

    Returns UID -> zone of what was laid out: the players wait until the tracker has read all
    of it (using up every adoption) before they sweep or deal.
    """
    zones = game_zones(loop)  # a finished hand lies out until the players clear it
    if not zones:
        return {}
    for tile in zones.pop("river", []):
        world.perform({"tile": tile, "from": "wall", "to": "river"})
    world.lay_out(zones)
    if hand_is_over(loop):  # before adopting: it drops what the tracker adopted
        tracker.set_hand_over(True)
    tracker.adopt(zones)
    return world.on_table()


def _norm(zone: str | None) -> str:
    return "off" if zone is None or zone in OFF_TABLE else zone


def _link_stats(backend: Any) -> dict[str, int]:
    stats = backend.stats()
    return {k: int(stats.get(k, 0)) for k in ("frames", "bad_frames", "resyncs", "reconnects")}
