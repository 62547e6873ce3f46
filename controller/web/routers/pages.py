"""The dashboard pages: the table (/), a seat's phone page (/seat/N) and the operator page."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

STATIC = Path(__file__).resolve().parent.parent / "static"
router = APIRouter(include_in_schema=False)
NO_CACHE = {"Cache-Control": "no-cache"}


@router.get("/")
def table_page() -> FileResponse:
    return FileResponse(STATIC / "index.html", headers=NO_CACHE)


@router.get("/seat/{position}")
def seat_page(position: int) -> FileResponse:
    return FileResponse(STATIC / "seat.html", headers=NO_CACHE)


@router.get("/operator")
def operator_page() -> FileResponse:
    return FileResponse(STATIC / "operator.html", headers=NO_CACHE)
