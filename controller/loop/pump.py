"""The loop's helpers that run as tasks: a source's pump (events in, results back) and the
call timers (overruns become timer events)."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from controller import game
from controller.loop.results import Applied, ServiceError, ServiceHalted, SessionChanged
from controller.sources.base import EventSource

if TYPE_CHECKING:
    from controller.loop.game_loop import GameLoop

log = logging.getLogger("controller.service")


async def pump(loop: GameLoop, name: str, source: EventSource) -> None:
    """Feed a source's events to the loop; each result is sent back into the generator
    (``applied = yield event, name``), so a source may react to a refusal."""
    agen: Any = source(loop)
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
            applied = await _submit(loop, name, event, source_name)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("event source %s failed and stopped", name)
        loop.report_health(name, {"ok": False, "message": "source stopped after an error"})
    finally:
        if hasattr(agen, "aclose"):
            await agen.aclose()

async def _submit(loop: GameLoop, name: str, event: dict[str, Any],
                  source_name: str) -> Applied | None:
    """A source's event; while recording is halted it waits and is tried again once recording
    resumes (it was never recorded: dropping it would leave the table a move ahead of the game
    for good, issue 11)."""
    while True:
        try:
            return await loop.submit(event, source_name)
        except ServiceHalted as exc:
            log.warning("source %s waits: %s", name, exc)
            while loop.halted:
                await asyncio.sleep(0.5)
        except SessionChanged as exc:  # made for the session before: the source looks again
            log.info("source %s: %s", name, exc)
            return None
        except ServiceError as exc:
            log.warning("source %s: %s", name, exc)
            await asyncio.sleep(1.0)
            return None


async def run_timers(loop: GameLoop) -> None:
    """Overruns of the call timers become timer events (the session's table options say
    whether timers run; the engine reports each deadline once)."""
    while True:
        await asyncio.sleep(0.25)
        if not loop.session_active or loop.halted:
            continue
        for event in game.due_timer_events(loop.state, loop.clock()):
            try:
                await loop.submit(event, "timer")
            except ServiceError:
                break
