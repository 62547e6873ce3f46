"""The FastAPI app factory: ``create_app(service)`` wires the routers, the error handler, the
broadcaster and the static dashboard; the lifespan starts and stops the service.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from controller.service import TableService
from controller.web import errors
from controller.web.broadcaster import Broadcaster
from controller.web.routers import (
    admin,
    corrections,
    hands,
    health,
    pages,
    seats,
    table,
    tiles,
    tileset,
    ws,
)
from controller.web.routers.pages import STATIC


def create_app(service: TableService) -> FastAPI:
    """The web app around a (not yet started) service; the lifespan starts it."""
    broadcaster = Broadcaster(service)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        broadcaster.attach()
        try:
            yield
        finally:
            broadcaster.detach()
            await service.stop()

    app = FastAPI(
        title="Mahjong Table Controller",
        summary="Live table, hand history, seat views and operator actions.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.broadcaster = broadcaster
    errors.install(app)
    for module in (health, table, hands, seats, admin, tiles, tileset, corrections, ws, pages):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
