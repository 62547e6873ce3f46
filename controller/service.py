"""The composition root: one asyncio loop owns the game. Event sources post into a queue; the
loop applies each event with the pure engine, appends it to the store, then updates and tells.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller import game
from controller.config import Config, default_config
from controller.store import EventLog, StoreError
from controller.web.history import HandHistory
from controller.web.tokens import Tokens, load_or_create_tokens

log = logging.getLogger("controller.service")

#: An event source: given the service, yields (event dict, source name) pairs.
#: An async generator may receive each event's Applied result (``applied = yield event, name``).
EventSource = Callable[["TableService"], AsyncIterator[tuple[dict[str, Any], str]]]
#: Called on the loop after every change; must not block.
Listener = Callable[["Change"], None]

LOG_FILE = "events.sqlite"


class ServiceError(Exception):
    """A request the service cannot carry out now; the message says why and what to do."""


class ServiceHalted(ServiceError):
    """The store could not record an event: no more moves until the cause is fixed."""


class NoSession(ServiceError):
    """No session is running."""


@dataclass(frozen=True)
class Applied:
    """What became of one posted event."""

    accepted: bool
    seq: int | None
    violation: dict[str, Any] | None
    announcements: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Change:
    """A state change the broadcaster pushes; ``applied`` is None for session changes."""

    seq: int
    applied: Applied | None


@dataclass
class _Job:
    kind: str  # "event" | "start" | "stop"
    payload: dict[str, Any]
    source: str
    future: asyncio.Future[Any] | None


class TableService:
    """Owns the game state, the event log, the tokens and the event sources."""

    def __init__(
        self,
        config: Config | None = None,
        data_dir: Path | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.config = config or default_config()
        self.data_dir = Path(data_dir or self.config.data.dir)
        self.clock = clock
        self.state: Any = game.new_game()
        self.history = HandHistory()
        self.tokens: Tokens | None = None
        self.halted: str | None = None
        self.session_id: Any = None
        self.session_active = False
        self.seq = 0
        self.reader_health: dict[str, dict[str, Any]] = {}
        # Set by the virtual table: its simulated players own every seat, and the virtual
        # tiles cannot be put back by hand, so seat calls and corrections are refused.
        self.players_simulated: str | None = None
        self.started_at = clock()
        self._store: EventLog | None = None
        self._queue: asyncio.Queue[_Job] = asyncio.Queue(maxsize=1000)
        self._sources: list[tuple[str, EventSource]] = []
        self._tasks: list[asyncio.Task[Any]] = []
        self._listeners: list[Listener] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._view_cache: tuple[int, dict[str, Any]] | None = None

    # --- wiring ---------------------------------------------------------------------------

    def add_source(self, name: str, source: EventSource) -> None:
        """Plug in an event source (simulation, virtual table, hardware); call before start()."""
        self._sources.append((name, source))

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    async def start(self) -> None:
        """Open the store, make tokens, replay the log (restart = replay), start the loop."""
        self._loop = asyncio.get_running_loop()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.tokens = load_or_create_tokens(self.data_dir)
        try:
            self._store = EventLog.open(self.data_dir / LOG_FILE)
        except StoreError as exc:  # serve the dashboard anyway, showing why nothing is recorded
            self.halted = f"the event log cannot be opened: {exc}"
            log.error("STOPPED accepting moves: %s", self.halted)
            self._show_recorded()
        else:
            self._resume_session()
            if not self.session_active and self.config.session.autostart:
                self._start_session(
                    self.config.session.ruleset, dict(self.config.session.options)
                )
        self._tasks.append(asyncio.create_task(self._run(), name="game-loop"))
        self._tasks.append(asyncio.create_task(self._timers(), name="timers"))
        for name, source in self._sources:
            self._tasks.append(asyncio.create_task(self._pump(name, source), name=name))

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
        """Refuse ``what`` (a seat call, a correction) while simulated players own the table;
        a halted service says first that it records nothing (503)."""
        if self.halted:
            raise ServiceHalted(self.halted)
        if self.players_simulated:
            raise ServiceError(
                f"{what} is not taken here: {self.players_simulated} play every seat and their "
                "tiles cannot be put back by hand; run `mahjong-table serve` at a real table, "
                "or `serve --simulate --in-process` to try corrections on a simulated game")

    async def submit(self, event: dict[str, Any], source: str) -> Applied:
        """Queue one event and wait until it has been recorded and applied."""
        result: Applied = await self._enqueue("event", event, source)
        return result

    async def start_session(self, ruleset: str, options: dict[str, Any]) -> None:
        await self._enqueue("start", {"ruleset": ruleset, "options": options}, "admin")

    async def stop_session(self) -> None:
        await self._enqueue("stop", {}, "admin")

    def post_threadsafe(self, event: dict[str, Any], source: str) -> None:
        """For reader threads: post an event without waiting (results go to the log)."""
        if self._loop is None:
            raise ServiceError("the service is not running")
        job = _Job("event", event, source, None)
        self._loop.call_soon_threadsafe(self._queue.put_nowait, job)

    async def _enqueue(self, kind: str, payload: dict[str, Any], source: str) -> Any:
        if self.halted and kind == "event":
            raise ServiceHalted(self.halted)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put(_Job(kind, payload, source, future))
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
            return self._stop_session()
        return self._apply(job.payload, job.source)

    def _apply(self, event: dict[str, Any], source: str) -> Applied:
        if self.halted:
            raise ServiceHalted(self.halted)
        if not self.session_active:
            raise NoSession("no session is running: start one on the operator page")
        at = self.clock()
        outcome = game.apply(self.state, event, at)
        violation = _violation(outcome)
        seq = self._append(event, outcome.accepted, violation, source, at)
        self.state = outcome.state
        self.seq = seq
        self._view_cache = None
        try:
            self.history.observe(self.public_view())
        except Exception:  # the history is an explanation; the game and its log are intact
            log.exception("could not update the hand history")
        if violation is not None:
            log.info("refused %s from %s: %s", _kind(event), source, violation.get("rule"))
        applied = Applied(outcome.accepted, seq, violation, list(outcome.announcements))
        self._tell(Change(seq, applied))
        return applied

    def _append(
        self, event: dict[str, Any], accepted: bool, violation: dict[str, Any] | None,
        source: str, at: float,
    ) -> int:
        if self._store is None:
            raise ServiceHalted(self.halted or "the event log is not open")
        rule = violation.get("rule") if violation else None
        message = violation.get("message") if violation else None
        try:
            return int(self._store.append(
                self.session_id, event, accepted, rule, message, source, at
            ))
        except Exception as exc:  # any store failure: stop rather than play on unrecorded
            self.halted = (
                f"the event log cannot be written ({type(exc).__name__}: {exc}); no moves are "
                f"accepted until the data directory {self.data_dir} is writable and has space, "
                "then restart the service"
            )
            log.error("STOPPED accepting moves: %s", self.halted)
            self._tell(Change(self.seq, None))
            raise ServiceHalted(self.halted) from None

    def _tell(self, change: Change) -> None:
        self._view_cache = None
        for listener in list(self._listeners):
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
            v = _violation(probe) or {}
            raise ServiceError(f"cannot start a session: {v.get('message') or v.get('rule')}")
        try:
            self.session_id = self._store.start_session(ruleset, options, self.clock())
        except Exception as exc:
            raise ServiceError(f"the event log cannot start a session: {exc}") from None
        self.state = game.new_game()
        self.history = HandHistory()
        self.session_active = True
        self._apply(event, "admin")
        log.info("session %s started: %s", self.session_id, ruleset)

    def _stop_session(self) -> None:
        if not self.session_active or self._store is None:
            raise NoSession("no session is running")
        try:
            self._store.end_session(self.session_id, self.clock())
        except StoreError as exc:
            raise ServiceError(f"the event log cannot end the session: {exc}") from None
        self.session_active = False
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
        finally:
            self._store.close()
            self._store = None

    def _resume_session(self) -> None:
        """Replay the newest unfinished session from the log, if there is one."""
        assert self._store is not None
        latest = self._store.latest_session()
        if latest is None or latest.ended_at is not None:
            return
        self.session_id = latest.id
        state = game.new_game()
        history = HandHistory()
        seq = 0
        for record in self._store.records(latest.id):
            state = game.apply(state, record.event, record.at).state
            history.observe(game.public_view(state, record.at))
            seq = int(record.seq)
        self.state, self.history, self.seq = state, history, seq
        self.session_active = True
        log.info("session %s resumed from the log (up to seq %d)", latest.id, seq)

    # --- sources and timers -------------------------------------------------------------------

    async def _pump(self, name: str, source: EventSource) -> None:
        """Feed a source's events to the loop; each result is sent back into the generator
        (``applied = yield event, name``), so a source may react to a refusal."""
        agen: Any = source(self)
        applied: Applied | None = None
        try:
            while True:
                try:
                    if hasattr(agen, "asend"):
                        event, source_name = await agen.asend(applied)
                    else:  # a plain async iterator
                        event, source_name = await agen.__anext__()
                except StopAsyncIteration:
                    return
                try:
                    applied = await self.submit(event, source_name)
                except ServiceError as exc:
                    applied = None
                    log.warning("source %s: %s", name, exc)
                    await asyncio.sleep(1.0)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("event source %s failed and stopped", name)
            self.reader_health[name] = {"ok": False, "message": "source stopped after an error"}
        finally:
            if hasattr(agen, "aclose"):
                await agen.aclose()

    async def _timers(self) -> None:
        """Overruns of the call timers become timer events (the session's table options say
        whether timers run; the engine reports each deadline once)."""
        while True:
            await asyncio.sleep(0.25)
            if not self.session_active or self.halted:
                continue
            for event in game.due_timer_events(self.state, self.clock()):
                try:
                    await self.submit(event, "timer")
                except ServiceError:
                    break

    # --- views --------------------------------------------------------------------------------

    def public_view(self) -> dict[str, Any]:
        """The engine's public view (cached per change), with the service's seq and session
        flag; ``controller.web.views`` adds names and status for the pages."""
        if self._view_cache is None or self._view_cache[0] != self.seq:
            view = dict(game.public_view(self.state, self.clock()))
            view["session"] = {**(view.get("session") or {}), "active": self.session_active}
            view["seq"] = self.seq
            self._view_cache = (self.seq, view)
        return self._view_cache[1]

    def seat_view(self, position: int) -> dict[str, Any]:
        return dict(game.seat_view(self.state, position))

    @property
    def queue_depth(self) -> int:
        return self._queue.qsize()


def _violation(outcome: Any) -> dict[str, Any] | None:
    v = getattr(outcome, "violation", None)
    if v is None:
        return None
    if isinstance(v, dict):
        return v
    return {"rule": getattr(v, "rule", None), "seat": getattr(v, "seat", None),
            "message": getattr(v, "message", None)}


def _kind(event: dict[str, Any]) -> str:
    return next(iter(event), "?")


def simulation_source(pace: float, seed: int, hands: int | None = None) -> EventSource:
    """The in-process simulation: the Director plays all four seats against the engine, one
    table event every ``pace`` seconds (a longer pause after each hand, to show the result).
    A new session (admin) gets a new Director with that session's rule set."""

    async def source(service: TableService) -> AsyncGenerator[tuple[dict[str, Any], str], Any]:
        from controller.players.director import Director

        director: Director | None = None
        session_of: Any = None
        refused = 0
        service.reader_health["simulation"] = {
            "ok": True, "message": f"in-process simulation, one event every {pace:g} s"}
        while True:
            if not service.session_active or service.halted:
                await asyncio.sleep(0.2)
                continue
            if director is None or session_of != service.session_id or refused > 20:
                refused = 0
                session = service.public_view().get("session") or {}
                director = Director(session.get("ruleset") or "hua-bao", session.get("options"),
                                    hands=hands or 1_000_000, seed=seed)
                session_of = service.session_id
            event = director.next_action(service.state)
            if event is None:  # the director's session is over
                await asyncio.sleep(1.0)
                continue
            if "session" in event:  # the service has already started the session
                continue
            before = (service.public_view().get("hand") or {}).get("phase")
            applied = yield event, "simulation"
            if applied is not None and not applied.accepted:
                # Out of step with the table (an operator's undo, say): slow down, then start
                # a fresh Director that reads the table as it is now.
                refused += 1
                await asyncio.sleep(max(pace, 0.5))
                continue
            refused = 0
            after = (service.public_view().get("hand") or {}).get("phase")
            await asyncio.sleep(pace * 8 if after == "over" and before != "over" else pace)

    return source
