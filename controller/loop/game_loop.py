"""The game loop: one asyncio task owns the game. Event sources post into a queue; the loop
applies each event with the pure engine, writes it to the store, tells the screens, commits
(synced), then tells the rest and answers the source.

Others read :meth:`GameLoop.status` (a frozen :class:`LoopStatus`) and call methods
(``resume_recording``, ``report_health``, ``mark_players_simulated``); nothing writes the
loop's attributes. The composition root (:mod:`controller.app`) builds and wires it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller import game
from controller.config import Config, default_config
from controller.game.history import HandHistory
from controller.loop.pump import pump, run_timers
from controller.loop.results import (
    Applied,
    Change,
    HandInPlay,
    LoopStatus,
    NoSession,
    ServiceError,
    ServiceHalted,
    SessionChanged,
    kind_of,
    violation_of,
)
from controller.sources.base import EventSource
from controller.store import EventLog, StoreError
from controller.store.files import private_dir

log = logging.getLogger("controller.service")

#: Called on the loop after every change; must not block.
Listener = Callable[["Change"], None]

LOG_FILE = "events.sqlite"


@dataclass
class _Job:
    kind: str  # "event" | "start" | "stop"
    payload: dict[str, Any]
    source: str
    future: asyncio.Future[Any] | None
    #: the session running when the event was posted: it is applied to that session only
    session: Any = None


class GameLoop:
    """Owns the game state, the event log and the event sources."""

    def __init__(
        self,
        config: Config | None = None,
        data_dir: Path | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.config = config or default_config()
        self.data_dir = Path(data_dir or self.config.data.dir)
        self.clock = clock
        self._state: game.GameState = game.new_game()
        self._history = HandHistory()
        self._halted: str | None = None
        self._session_id: Any = None
        self._session_active = False
        self._seq = 0
        self._health: dict[str, dict[str, Any]] = {}
        self._told: dict[str, str | None] = {}  # the state last logged of each not well
        # Set by the virtual table: its simulated players play every seat (the operator page
        # says that its tile registry does not matter then).
        self._players_simulated: str | None = None
        self.started_at = clock()
        self._store: EventLog | None = None
        self._queue: asyncio.Queue[_Job] = asyncio.Queue(maxsize=1000)
        self._sources: list[tuple[str, EventSource]] = []
        self._tasks: list[asyncio.Task[Any]] = []
        self._listeners: list[Listener] = []
        self._screens: list[Listener] = []  # told before the record is synced (subscribe)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._view_cache: tuple[int, dict[str, Any]] | None = None

    # --- what others read -------------------------------------------------------------------

    @property
    def state(self) -> game.GameState:
        return self._state

    @property
    def session_active(self) -> bool:
        return self._session_active

    @property
    def session_id(self) -> Any:
        return self._session_id

    @property
    def seq(self) -> int:
        return self._seq

    @property
    def halted(self) -> str | None:
        return self._halted

    def status(self) -> LoopStatus:
        return LoopStatus(
            halted=self._halted, session_active=self._session_active,
            session_id=self._session_id, seq=self._seq, queue_depth=self._queue.qsize(),
            started_at=self.started_at, players_simulated=self._players_simulated,
            readers={k: dict(v) for k, v in self._health.items()})

    def hands(self) -> list[dict[str, Any]]:
        """Every finished hand of the session with its details (``HandHistory.hands``)."""
        return self._history.hands(self.public_view())

    def hand(self, number: int) -> dict[str, Any] | None:
        return self._history.hand(self.public_view(), number)

    def hand_facts(self, number: Any) -> dict[str, Any]:
        """How a finished hand was won (win_source, discarder), where known."""
        return self._history.facts(number)

    # --- what others tell it ---------------------------------------------------------------

    def report_health(self, name: str, health: dict[str, Any]) -> None:
        """A reader, board or source says how it is (shown on the operator page). The
        service's log gets a line when one goes wrong (a board down) and when it is well again;
        not a board's resync, which a noisy line asks for often and its snapshot answers."""
        self._health[name] = dict(health)
        ok, state, told = health.get("ok", True), health.get("state"), self._told.get(name)
        if state == "resync" or (ok and told is None) or (not ok and state == told):
            return
        self._told[name] = None if ok else state
        (log.info if ok else log.warning)("%s: %s (%s)", name, state or "ok",
                                          health.get("message") or "no detail")

    def mark_players_simulated(self, who: str) -> None:
        """Simulated players play every seat (they take seat calls and corrections as people
        do; the operator page says the tile registry does not matter then)."""
        self._players_simulated = who

    def resume_recording(self) -> None:
        """After the data directory was fixed: try recording again (the next event tells)."""
        self._halted = None

    # --- wiring ---------------------------------------------------------------------------

    def add_source(self, name: str, source: EventSource) -> None:
        """Plug in an event source (simulation, virtual table, hardware); call before start()."""
        self._sources.append((name, source))

    def source_names(self) -> list[str]:
        """The event sources plugged in, in order."""
        return [name for name, _ in self._sources]

    def subscribe(self, listener: Listener, *, screen: bool = False) -> Callable[[], None]:
        """Call ``listener`` on every change; returns the unsubscribe function.

        A listener is told once the change's record is durable (the table's buzzer, the club's
        publisher). A ``screen`` (the web's push) is told as soon as the change is applied,
        while its record is being synced: the screens draw a move as the disk takes it. If the
        record then fails, the change is taken back, recording halts and every listener is told
        (``Change(seq, None)``). A screen is called on the game's thread between the write and
        the commit: it must only hand the change over (to the web's own loop)."""
        listeners = self._screens if screen else self._listeners
        listeners.append(listener)
        return lambda: listeners.remove(listener)

    async def start(self) -> None:
        """Open the store, replay the log (restart = replay), start the loop."""
        self._loop = asyncio.get_running_loop()
        private_dir(self.data_dir)
        try:
            self._store = EventLog.open(self.data_dir / LOG_FILE)
        except StoreError as exc:  # serve the dashboard anyway, showing why nothing is recorded
            self._halted = f"the event log cannot be opened: {exc}"
            log.error("STOPPED accepting moves: %s", self.halted)
            self._show_recorded()
        else:
            try:
                self._resume_session()
            except StoreError as exc:  # a damaged row (serve checks first): shown, not raised
                self._halted = f"the event log cannot be read: {exc}"
                log.error("STOPPED accepting moves: %s", self.halted)
            if not self.session_active and not self.halted and self.config.session.autostart:
                self._start_session(
                    self.config.session.ruleset, dict(self.config.session.options)
                )
        self._tasks.append(asyncio.create_task(self._run(), name="game-loop"))
        self._tasks.append(asyncio.create_task(run_timers(self), name="timers"))
        for name, source in self._sources:
            self._tasks.append(asyncio.create_task(pump(self, name, source), name=name))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            try:
                await task
            except (asyncio.CancelledError, Exception):  # noqa: PERF203 - shutting down
                pass
        self._tasks.clear()
        if self._store is not None:
            self._store.close()
            self._store = None

    # --- posting events -------------------------------------------------------------------

    def check_human(self, what: str) -> None:
        """A seat call or a correction (``what``) from a page: a halted service says first that
        it records nothing (503). The virtual table's simulated players take corrections as
        people do (they put tiles back), so nothing else refuses it here."""
        if self.halted:
            raise ServiceHalted(self.halted)

    async def submit(self, event: dict[str, Any], source: str) -> Applied:
        """Queue one event and wait until it has been recorded and applied."""
        result: Applied = await self._enqueue("event", event, source)
        return result

    async def start_session(self, ruleset: str, options: dict[str, Any]) -> None:
        """A new session; a running one is ended first, in the same turn of the loop (two
        requests at once end one session each and leave the newer open, never two)."""
        await self._enqueue("start", {"ruleset": ruleset, "options": options}, "admin")

    async def stop_session(self, *, between_hands: bool = False) -> None:
        """End the session. ``between_hands``: only if no hand is being dealt or played when
        the loop comes to it (else ``HandInPlay``), decided in the loop itself so that no
        event slips in between a look at the table and the stop."""
        await self._enqueue("stop", {"between_hands": between_hands}, "admin")

    def post_threadsafe(self, event: dict[str, Any], source: str) -> None:
        """For reader threads: post an event without waiting (results go to the log)."""
        if self._loop is None:
            raise ServiceError("the service is not running")
        job = _Job("event", event, source, None, self._session_id)
        self._loop.call_soon_threadsafe(self._queue.put_nowait, job)

    async def _enqueue(self, kind: str, payload: dict[str, Any], source: str) -> Any:
        own = self._loop
        if own is not None and own is not asyncio.get_running_loop():
            # from the web's event loop: the game runs on its own (controller.web.gamethread)
            there = asyncio.run_coroutine_threadsafe(self._enqueue(kind, payload, source), own)
            return await asyncio.wrap_future(there)
        if self.halted and kind == "event":
            raise ServiceHalted(self.halted)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put(_Job(kind, payload, source, future, self._session_id))
        return await future

    # --- the loop ---------------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            job = await self._queue.get()
            try:
                result = self._handle(job)
            except ServiceError as exc:
                if job.future is not None and not job.future.done():
                    job.future.set_exception(exc)
                continue
            except Exception as exc:  # a bug must not kill the loop that owns the game
                log.exception("internal error handling a %s from %s", job.kind, job.source)
                if job.future is not None and not job.future.done():
                    job.future.set_exception(ServiceError(f"internal error: {type(exc).__name__}"))
                continue
            if job.future is not None and not job.future.done():
                job.future.set_result(result)

    def _handle(self, job: _Job) -> Any:
        if job.kind == "start":
            return self._start_session(job.payload["ruleset"], job.payload["options"])
        if job.kind == "stop":
            return self._stop_session(between_hands=bool(job.payload.get("between_hands")))
        if job.session != self._session_id:  # a new session's start was queued ahead of it
            raise SessionChanged(
                f"session {self._session_id} began before this {kind_of(job.payload)} from "
                f"{job.source} was recorded: it was not recorded; look at the table again")
        return self._apply(job.payload, job.source)

    def _apply(self, event: dict[str, Any], source: str) -> Applied:
        if self.halted:
            raise ServiceHalted(self.halted)
        if not self.session_active:
            raise NoSession("no session is running: start one on the operator page")
        at = self.clock()
        outcome = game.apply(self.state, event, at)
        violation = violation_of(outcome)
        seq = self._record(lambda store: store.write(
            self.session_id, event, outcome.accepted, violation.get("rule") if violation else None,
            violation.get("message") if violation else None, source, at))
        before = self._state, self._seq
        try:
            self._state, self._seq = outcome.state, seq
            applied = Applied(outcome.accepted, seq, violation, list(outcome.announcements))
            change = Change(seq, applied)
            self._show(change)
        except BaseException:  # nothing may leave the write open (the log takes no other)
            self._state, self._seq = before
            if self._store is not None:
                self._store.rollback()
            raise
        self._record(lambda store: store.commit(), undo=before)
        if violation is not None:
            log.info("refused %s from %s: %s", kind_of(event), source, violation.get("rule"))
        self._tell(change, self._listeners)
        return applied

    def _show(self, change: Change) -> None:
        """The history, then the screens: they draw the change while its record is synced."""
        try:  # first: a finished hand's facts come from it (an undone state is forgotten at
            self._history.observe(self.public_view())  # the next view)
        except Exception:  # the history is an explanation; the game and its log are intact
            log.exception("could not update the hand history")
        self._tell(change, self._screens)

    def _record(self, step: Callable[[EventLog], int | None],
                undo: tuple[game.GameState, int] | None = None) -> int:
        """A write or a commit of the log; any failure halts recording (and says why). ``undo``:
        the state and seq to go back to (a move not in the log is not in the game either)."""
        if self._store is None:
            raise ServiceHalted(self.halted or "the event log is not open")
        try:
            return int(step(self._store) or 0)
        except Exception as exc:  # any store failure: stop rather than play on unrecorded
            if undo is not None:
                self._state, self._seq = undo
            self._halted = _halt_reason(exc, self.data_dir)
            log.error("STOPPED accepting moves: %s", self.halted)
            self._tell(Change(self.seq, None))
            raise ServiceHalted(self.halted) from None

    def _tell(self, change: Change, listeners: list[Listener] | None = None) -> None:
        """Tell listeners (by default: all, screens first) of a change. The public view made
        for the history stays cached for them (one view per change, not one per thread)."""
        for listener in list(self._screens + self._listeners if listeners is None
                             else listeners):
            try:
                listener(change)
            except Exception:
                log.exception("a listener failed")

    # --- sessions -----------------------------------------------------------------------------

    def _start_session(self, ruleset: str, options: dict[str, Any]) -> None:
        if self.halted or self._store is None:
            raise ServiceHalted(self.halted or "the event log is not open")
        t = self.config.timers
        table = {"timers": t.enabled, "claim_seconds": t.claim_seconds,
                 "turn_seconds": t.turn_seconds, "first_turn_seconds": t.first_turn_seconds}
        event = {"session": {"ruleset": ruleset, "options": options, "table": table}}
        probe = game.apply(game.new_game(), event, self.clock())
        if not probe.accepted:
            v = violation_of(probe) or {}
            raise ServiceError(f"cannot start a session: {v.get('message') or v.get('rule')}")
        if self.session_active:
            self._stop_session()
        try:
            self._session_id = self._store.start_session(ruleset, options, self.clock())
        except Exception as exc:
            raise ServiceError(f"the event log cannot start a session: {exc}") from None
        self._state = game.new_game()
        self._history = HandHistory()
        self._session_active = True
        self._apply(event, "admin")
        log.info("session %s started: %s", self.session_id, ruleset)

    def _stop_session(self, *, between_hands: bool = False) -> None:
        if not self.session_active or self._store is None:
            raise NoSession("no session is running")
        hand = self.state.hand
        if between_hands and hand is not None and hand.phase in ("deal", "play"):
            raise HandInPlay(f"hand {hand.number} is in play: the session ends after it")
        try:
            self._store.end_session(self.session_id, self.clock())
        except StoreError as exc:
            raise ServiceError(f"the event log cannot end the session: {exc}") from None
        self._session_active = False
        self._view_cache = None  # the view says whether a session is active; seq stays
        log.info("session %s stopped", self.session_id)
        self._tell(Change(self.seq, None))

    def _show_recorded(self) -> None:
        """A log that cannot be written (a read-only disk) may still be read: show the game it
        recorded, halted, rather than an empty table."""
        try:
            self._store = EventLog.open(self.data_dir / LOG_FILE, readonly=True)
        except StoreError:
            return  # damaged or absent: nothing to show
        try:
            self._resume_session()
        except StoreError:
            pass  # damaged beyond its first pages: nothing more to show than why it halted
        finally:
            self._store.close()
            self._store = None

    def _resume_session(self) -> None:
        """Replay the newest unfinished session from the log, if there is one."""
        assert self._store is not None
        latest = self._store.latest_session()
        if latest is None or latest.ended_at is not None:
            return
        self._session_id = latest.id
        state = game.new_game()
        history = HandHistory()
        seq = 0
        for record in self._store.records(latest.id):
            state = game.apply(state, record.event, record.at).state
            history.observe(game.public_view(state, record.at))
            seq = int(record.seq)
        self._state, self._history, self._seq = state, history, seq
        self._session_active = True
        log.info("session %s resumed from the log (up to seq %d)", latest.id, seq)

    # --- views --------------------------------------------------------------------------------

    def public_view(self) -> dict[str, Any]:
        """The engine's public view (cached per change), with the service's seq and session
        flag; ``controller.web.views`` adds names and status for the pages."""
        cached, seq = self._view_cache, self.seq  # read once: the game's thread may replace it
        if cached is not None and cached[0] == seq:
            return cached[1]
        view = dict(game.public_view(self.state, self.clock()))
        view["session"] = {**(view.get("session") or {}), "active": self.session_active}
        view["seq"] = seq
        self._view_cache = (seq, view)
        return view

    def seat_view(self, position: int) -> dict[str, Any]:
        return dict(game.seat_view(self.state, position))

    def stopped_tasks(self) -> list[str]:
        """Names of the loop's tasks (the loop, the timers, each source) that have ended."""
        return [task.get_name() for task in self._tasks if task.done()]

    @property
    def queue_depth(self) -> int:
        return self._queue.qsize()


def _halt_reason(exc: Exception, data_dir: Path) -> str:
    """Why recording stopped, naming the true cause: the disk, or (any other exception) a fault
    that no free space mends."""
    if isinstance(exc, StoreError):
        return (f"the event log cannot be written ({exc}); no moves are accepted until the data "
                f"directory {data_dir} is writable and has space, then restart the service")
    return (f"an event could not be recorded ({type(exc).__name__}: {str(exc)[:200]}): not a "
            "disk fault; no moves are accepted until the service is restarted; please report "
            "it with the log")
