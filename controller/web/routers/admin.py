"""Operator actions under /api/admin (admin token): sessions, corrections, readers, enrollment,
and the seat links with their QR codes.
"""

from __future__ import annotations

import io
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from controller.store.tokens import Tokens
from controller.web import links, views
from controller.web.deps import POSITION, AdminDep, LoopDep, RegistryDep, TokensDep
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


async def _correct(loop: LoopDep, correction: dict[str, Any]) -> Any:
    loop.check_human("a correction")
    applied = await loop.submit({"correct": correction}, "admin")
    if not applied.accepted:
        raise EventRefused(applied)
    return views.told(applied)  # words that name no concealed tile, whatever the racks hold


@router.post("/session", response_model=PublicView)
async def start_session(body: SessionIn, loop: LoopDep) -> Any:
    """Start a new session with a rule set and options (ends the running one first); refused
    options (409) change nothing: the running session goes on."""
    from controller.loop import ServiceError, ServiceHalted
    from controller.scoring import ScoringError, get_ruleset

    if loop.halted:
        raise ServiceHalted(loop.halted)
    try:
        get_ruleset(body.ruleset, body.options)
    except ScoringError as exc:
        raise ServiceError(f"cannot start a session: {exc}") from None
    await loop.start_session(body.ruleset, body.options)  # ends the running one in one step
    return views.public_view(loop)


@router.delete("/session", response_model=PublicView)
async def stop_session(loop: LoopDep) -> Any:
    """Stop the running session; its log stays, the table stops taking moves."""
    await loop.stop_session()
    return views.public_view(loop)


@router.post("/undo", response_model=EventResult)
async def undo(body: UndoIn, loop: LoopDep) -> Any:
    """Take back the last ``count`` accepted events."""
    return await _correct(loop, {"undo": body.count})


@router.post("/reassign", response_model=EventResult)
async def reassign(body: ReassignIn, loop: LoopDep) -> Any:
    """A misread tile: the tile read as ``tile`` in ``zone`` is really ``as``."""
    return await _correct(loop, {"reassign": {"zone": body.zone, "tile": body.tile,
                                                 "as": body.as_}})


@router.post("/end-hand", response_model=EventResult)
async def end_hand(body: EndHandIn, loop: LoopDep) -> Any:
    """End the hand in play as a washout."""
    return await _correct(loop, {"end_hand": body.result})


@router.get("/readers")
def readers(loop: LoopDep) -> dict[str, Any]:
    """Reader health as the event sources report it, by channel or source name."""
    return {"backend": loop.config.readers.backend, "readers": loop.status().readers}


@router.get("/enrollment")
def enrollment(loop: LoopDep, registry: RegistryDep) -> dict[str, Any]:
    """Tile registration progress: how many tiles have a UID in the registry (thin)."""
    note = None
    if loop.status().players_simulated:  # say why the count does not matter while they play
        note = ("the virtual table brings its own tagged set; this registry is for the "
                "physical table")
    try:
        # counted on the running session's tile set (riichi: 136, no flowers or seasons)
        ruleset = loop.state.ruleset
        bonus = bool(ruleset.bonus_tiles) if ruleset is not None else None
        return {"available": True, **registry.progress(bonus), "note": note}
    except Exception as exc:  # a damaged registry is shown, not raised
        return {"available": False, "message": f"cannot read the tile registry: {exc}",
                "note": note}


@router.get("/seats/{position}/link")
def seat_link(request: Request, loop: LoopDep, tokens: TokensDep,
              position: int = POSITION) -> dict[str, Any]:
    """The seat page's address with its token, for the player's phone; ``reachable`` is false
    when only this computer can open it (``hint`` says what to change)."""
    link = _seat_link(request, loop, tokens, position)
    return {"url": link.url, "reachable": link.reachable, "hint": link.hint}


@router.get("/seats/{position}/qr.svg", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}})
def seat_qr(request: Request, loop: LoopDep, tokens: TokensDep,
            position: int = POSITION) -> Response:
    """The seat link as a QR code (SVG), for the operator page."""
    import segno

    buf = io.BytesIO()
    segno.make(_seat_link(request, loop, tokens, position).url, error="m").save(
        buf, kind="svg", scale=4, border=2, dark="#1b1b1b", light="#ffffff", xmldecl=False,
        svgns=True, nl=False, omitsize=True,
    )
    return Response(buf.getvalue(), media_type="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


@router.post("/resume", response_model=Message)
def resume(loop: LoopDep) -> Message:
    """After fixing the data directory: try recording again (the next event tells)."""
    loop.resume_recording()
    return Message(detail="recording resumed; if the log still cannot be written it stops again")


def _seat_link(request: Request, loop: LoopDep, tokens: Tokens, position: int) -> links.SeatLink:
    server = loop.config.server
    base = links.base_url(str(request.base_url), server.host, server.port, server.public_url)
    return links.seat_link(base, position, tokens.seats[position], server.host)
