"""The FastAPI app factory: ``create_app(loop, tokens, registry)`` wires the routers, the error
handler, the broadcaster and the static dashboard; the lifespan starts and stops the loop.
The composition root (``controller.app``) calls it; nothing here imports the root.
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from controller.i18n.router import i18n_router
from controller.loop import GameLoop
from controller.store.tokens import Tokens
from controller.table import RegistryFile
from controller.web import errors
from controller.web.broadcaster import Broadcaster
from controller.web.gamethread import GameThread
from controller.web.guard import Guard
from controller.web.routers import (
    admin,
    analysis,
    corrections,
    hands,
    health,
    pages,
    review,
    seats,
    table,
    tiles,
    tileset,
    ws,
)
from controller.web.routers.pages import STATIC
from controller.web.slowclients import HeaderDeadline, with_header_deadline

#: uvicorn's options for the service (``serve``; the benchmarks use the same): every message a
#: client sends is a few bytes; a client is pinged every 20 s; no per-message compression (the
#: states are 2-5 KB on a local network, and compressing each for every client separately was
#: 60 % of the web thread's time with 50 clients: benchmarks/bench_fullpath.py, docs/service.md);
#: the sans-I/O implementation, whose send is one write (what uvicorn >= 0.50 picks by itself;
#: named so an older uvicorn does not fall back to the legacy one, whose push's p50 was 0.2-0.3
#: ms more with 50 clients: docs/service.md).
#: ``http``: uvicorn's h11 protocol with a deadline on each request's headers (slowclients.py).
UVICORN_OPTIONS: dict[str, Any] = {
    "ws": "websockets-sansio", "ws_ping_interval": 20, "ws_max_size": 64 * 1024,
    "ws_per_message_deflate": False, "http": HeaderDeadline}


def uvicorn_options(header_seconds: float) -> dict[str, Any]:
    """UVICORN_OPTIONS with ``[server] header_seconds`` for the headers' deadline."""
    return {**UVICORN_OPTIONS, "http": with_header_deadline(header_seconds)}


def create_app(loop: GameLoop, tokens: Tokens, registry: RegistryFile, *,
               game_thread: bool = False) -> FastAPI:
    """The web app around a (not yet started) loop; the lifespan starts it. ``tokens`` guard
    the admin and seat routes; ``registry`` is the tile registry the tile routes edit."""
    broadcaster = Broadcaster(loop)
    game = GameThread(loop)  # the game never waits behind the web's requests

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # serve: the game on its own thread; in-process test clients keep one loop (a client
        # that runs each request on a fresh event loop, as schemathesis's does, hung on it)
        await (game.start() if game_thread else loop.start())
        broadcaster.attach()
        if game_thread:  # the service (`serve`), not the many short-lived apps of tests
            # What startup made (modules, routes, the replayed log) lives as long as the
            # service: kept out of the collector's full passes, which otherwise stopped every
            # thread for 15-20 ms now and then (benchmarks/bench_fullpath.py).
            gc.collect()
            gc.freeze()
        try:
            yield
        finally:
            broadcaster.detach()
            await (game.stop() if game_thread else loop.stop())

    app = FastAPI(
        title="Mahjong Table Controller",
        summary="Live table, hand history, seat views and operator actions.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.loop = loop
    app.state.tokens = tokens
    app.state.registry = registry
    app.state.broadcaster = broadcaster
    app.state.public = broadcaster.public
    errors.install(app)
    for module in (health, table, hands, seats, admin, tiles, tileset, corrections, ws, pages):
        app.include_router(module.router)
    app.include_router(analysis.router)  # a stored hand's discards, analysed (docs/analysis.md)
    app.include_router(review.router)  # the review of stored hands (issue 25)
    app.include_router(review.pages)
    app.include_router(i18n_router(lambda: loop.config.server.language))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(Guard)  # token first, capped bodies, anti-framing headers
    return app
