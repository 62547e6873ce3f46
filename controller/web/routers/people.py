"""Who plays where (a seat joins by name; the operator assigns or swaps), the operator's
penalties, the roster to pick names from, and the table's past sessions with their export."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field

from controller.fields import NOT_BOOL, PersonName
from controller.reports import export_csv
from controller.sessions.catalog import (
    Catalog,
    SessionNotFound,
    export_jsonl,
    safe_sessions,
)
from controller.web import club_link
from controller.web.deps import AdminDep, LoopDep, SeatDep
from controller.web.errors import EventRefused
from controller.web.models import EventResult

router = APIRouter(tags=["players and sessions"])
Seat = Annotated[int, Field(ge=1, le=4), NOT_BOOL]
Amount = Annotated[int, Field(ge=1, le=1_000_000), NOT_BOOL]
HandNumber = Annotated[int, Field(ge=1, le=10_000), NOT_BOOL]
REFUSED: dict[int | str, dict[str, Any]] = {
    400: {"description": "the request body is not JSON"},
    401: {"description": "missing or wrong token (the seat's, or the admin token)"},
    409: {"description": "refused: the rule it breaks (a name already seated, ...)"},
    503: {"description": "not recording: the event log cannot be written"}}


class NameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: PersonName


class SeatNameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: Seat
    name: PersonName | None = None


class HolderIn(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    seat: Seat
    name: PersonName | None = None
    from_: HandNumber = Field(alias="from")
    to: HandNumber | None = None


class SwapIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    a: Seat
    b: Seat


class PenaltyIn(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    kind: Literal["transfer", "false_mahjong", "deduction", "chombo"]
    seat: Seat | None = None
    from_: Seat | None = Field(default=None, alias="from")
    to: Seat | None = None
    amount: Amount | None = None
    reason: str | None = Field(default=None, max_length=200)


async def _submit(loop: LoopDep, event: dict[str, Any], source: str) -> Any:
    applied = await loop.submit(event, source)
    if not applied.accepted:
        raise EventRefused(applied)
    return applied


@router.post("/api/seats/{position}/player", response_model=EventResult, responses=REFUSED)
async def join(position: SeatDep, body: NameIn, loop: LoopDep) -> Any:
    """"Who is playing here?": the seat's player gives a name (from the roster or new)."""
    return await _submit(loop, {"player": {"seat": position, "name": body.name}},
                         f"seat:{position}")


@router.post("/api/admin/players", response_model=EventResult, dependencies=[AdminDep],
             responses=REFUSED)
async def assign(body: SeatNameIn, loop: LoopDep) -> Any:
    """The operator seats a player by name (null frees the seat)."""
    return await _submit(loop, {"player": {"seat": body.seat, "name": body.name}}, "admin")


@router.post("/api/admin/players/swap", response_model=EventResult, dependencies=[AdminDep],
             responses=REFUSED)
async def swap(body: SwapIn, loop: LoopDep) -> Any:
    """Two seats' players change places (three name events in the log)."""
    if body.a == body.b:
        raise HTTPException(409, detail="a swap needs two different seats")
    names = loop.public_view().get("names") or {}
    first, second = names.get(str(body.a)), names.get(str(body.b))
    await _submit(loop, {"player": {"seat": body.a, "name": None}}, "admin")
    await _submit(loop, {"player": {"seat": body.b, "name": first}}, "admin")
    return await _submit(loop, {"player": {"seat": body.a, "name": second}}, "admin")


@router.post("/api/admin/holder", response_model=EventResult, dependencies=[AdminDep],
             responses=REFUSED)
async def holder(body: HolderIn, loop: LoopDep) -> Any:
    """Who held a seat from which hand (a correction in the log): the finished hands from
    ``from`` (to ``to``, or while the seat's record names the same holder) become ``name``'s
    (null: nobody named), hands just before it recorded as theirs go back to the seat's
    holder before them; every page follows (docs/club.md, "Names and places")."""
    event = {"seat": body.seat, "name": body.name, "from": body.from_}
    if body.to is not None:
        event["to"] = body.to
    return await _submit(loop, {"correct": {"holder": event}}, "admin")


@router.post("/api/admin/penalty", response_model=EventResult, dependencies=[AdminDep],
             responses=REFUSED)
async def penalty(body: PenaltyIn, loop: LoopDep) -> Any:
    """A penalty: a transfer from one seat to another, the false-Mahjong penalty (the declarer
    pays each other player; the rule set's amount or ``amount``), a deduction, or riichi's
    chombo (``seat``: the hand under way or just ended is void and replayed, 20 off the
    seat's result; RULES.md 11)."""
    event = {k: v for k, v in (("kind", body.kind), ("seat", body.seat), ("from", body.from_),
                               ("to", body.to), ("amount", body.amount),
                               ("reason", body.reason)) if v is not None}
    return await _submit(loop, {"penalty": event}, "admin")


@router.delete("/api/admin/penalty/{number}", response_model=EventResult,
               dependencies=[AdminDep], responses=REFUSED)
async def cancel_penalty(number: int, loop: LoopDep) -> Any:
    """Take back penalty ``number`` (1 is the session's first)."""
    return await _submit(loop, {"penalty": {"cancel": number}}, "admin")


@router.get("/api/roster")
def roster(loop: LoopDep) -> dict[str, Any]:
    """Names to pick from: the club's roster (over the broker) and the configured seats."""
    link = club_link.of(loop)
    names = list(link.roster if link is not None else [])
    for seat in loop.config.table.seats.values():
        if seat.name and seat.name not in names:
            names.append(seat.name)
    return {"players": names}


def _catalog(request: Request, loop: LoopDep) -> Catalog:
    catalog: Catalog | None = getattr(request.app.state, "catalog", None)
    if catalog is None:
        catalog = request.app.state.catalog = Catalog(loop.data_dir / "events.sqlite")
    return catalog


@router.get("/api/sessions")
def sessions(request: Request, loop: LoopDep) -> dict[str, Any]:
    """Every session at this table, newest first: date, rule set, players, hands, totals."""
    return {"sessions": safe_sessions(_catalog(request, loop))}


@router.get("/api/sessions/{session_id}", responses={404: {"description": "no such session"}})
def session(session_id: int, request: Request, loop: LoopDep) -> dict[str, Any]:
    """One session's finished hands with explained scores and who paid whom."""
    try:
        return _catalog(request, loop).session(session_id)
    except SessionNotFound as exc:
        raise HTTPException(404, detail=str(exc)) from None


@router.get("/api/sessions/{session_id}/export", response_class=PlainTextResponse,
            responses={404: {"description": "no such session"},
                       200: {"content": {"text/csv": {}, "application/x-ndjson": {}}}})
def export(session_id: int, request: Request, loop: LoopDep,
           format: Literal["jsonl", "csv"] = Query(default="csv")) -> PlainTextResponse:
    """The session's finished hands as CSV or JSON lines (a download)."""
    detail = session(session_id, request, loop)
    text = export_csv(detail) if format == "csv" else export_jsonl(detail)
    media = "text/csv" if format == "csv" else "application/x-ndjson"
    name = f"session-{session_id}.{format}"
    return PlainTextResponse(text, media_type=media,
                             headers={"Content-Disposition": f'attachment; filename="{name}"'})
