"""Operator actions under /api/admin (admin token): sessions, corrections, readers, enrollment,
and the seat links with their QR codes.
"""

from __future__ import annotations

import io
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from controller.table.enroll import progress
from controller.web import links, views
from controller.web.deps import POSITION, AdminDep, ServiceDep
from controller.web.errors import EventRefused
from controller.web.models import (
    EndHandIn,
    EventResult,
    Message,
    PublicView,
    ReassignIn,
    SessionIn,
    UndoIn,
)

router = APIRouter(prefix="/api/admin", tags=["admin"], dependencies=[AdminDep],
                   responses={400: {"description": "the request body is not JSON"},
                              401: {"description": "missing or wrong admin token"},
                              409: {"description": "refused by the game, or no session"},
                              503: {"description": "not recording: the event log cannot be "
                                                   "written (see /api/health)"}})


async def _correct(service: ServiceDep, correction: dict[str, Any]) -> Any:
    service.check_human("a correction")
    applied = await service.submit({"correct": correction}, "admin")
    if not applied.accepted:
        raise EventRefused(applied)
    return applied


@router.post("/session", response_model=PublicView)
async def start_session(body: SessionIn, service: ServiceDep) -> Any:
    """Start a new session with a rule set and options (ends the running one first)."""
    if service.session_active:
        await service.stop_session()
    await service.start_session(body.ruleset, body.options)
    return views.public_view(service)


@router.delete("/session", response_model=PublicView)
async def stop_session(service: ServiceDep) -> Any:
    """Stop the running session; its log stays, the table stops taking moves."""
    await service.stop_session()
    return views.public_view(service)


@router.post("/undo", response_model=EventResult)
async def undo(body: UndoIn, service: ServiceDep) -> Any:
    """Take back the last ``count`` accepted events."""
    return await _correct(service, {"undo": body.count})


@router.post("/reassign", response_model=EventResult)
async def reassign(body: ReassignIn, service: ServiceDep) -> Any:
    """A misread tile: the tile read as ``tile`` in ``zone`` is really ``as``."""
    return await _correct(service, {"reassign": {"zone": body.zone, "tile": body.tile,
                                                 "as": body.as_}})


@router.post("/end-hand", response_model=EventResult)
async def end_hand(body: EndHandIn, service: ServiceDep) -> Any:
    """End the hand in play as a washout."""
    return await _correct(service, {"end_hand": body.result})


@router.get("/readers")
def readers(service: ServiceDep) -> dict[str, Any]:
    """Reader health as the event sources report it, by channel or source name."""
    return {"backend": service.config.readers.backend, "readers": service.reader_health}


@router.get("/enrollment")
def enrollment(service: ServiceDep) -> dict[str, Any]:
    """Tile registration progress: how many tiles have a UID in the registry (thin)."""
    note = None
    if service.players_simulated:  # say why the count does not matter while they play
        note = ("the virtual table brings its own tagged set; this registry is for the "
                "physical table")
    try:
        return {"available": True, **progress(service.data_dir), "note": note}
    except Exception as exc:  # a damaged registry is shown, not raised
        return {"available": False, "message": f"cannot read the tile registry: {exc}",
                "note": note}


@router.get("/seats/{position}/link")
def seat_link(request: Request, service: ServiceDep, position: int = POSITION) -> dict[str, Any]:
    """The seat page's address with its token, for the player's phone; ``reachable`` is false
    when only this computer can open it (``hint`` says what to change)."""
    link = _seat_link(request, service, position)
    return {"url": link.url, "reachable": link.reachable, "hint": link.hint}


@router.get("/seats/{position}/qr.svg", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}})
def seat_qr(request: Request, service: ServiceDep, position: int = POSITION) -> Response:
    """The seat link as a QR code (SVG), for the operator page."""
    import segno

    buf = io.BytesIO()
    segno.make(_seat_link(request, service, position).url, error="m").save(
        buf, kind="svg", scale=4, border=2, dark="#1b1b1b", light="#ffffff", xmldecl=False,
        svgns=True, nl=False, omitsize=True,
    )
    return Response(buf.getvalue(), media_type="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


@router.post("/resume", response_model=Message)
def resume(service: ServiceDep) -> Message:
    """After fixing the data directory: try recording again (the next event tells)."""
    service.halted = None
    return Message(detail="recording resumed; if the log still cannot be written it stops again")


def _seat_link(request: Request, service: ServiceDep, position: int) -> links.SeatLink:
    assert service.tokens is not None
    server = service.config.server
    base = links.base_url(str(request.base_url), server.host, server.port, server.public_url)
    return links.seat_link(base, position, service.tokens.seats[position], server.host)
