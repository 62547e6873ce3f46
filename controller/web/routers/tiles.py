"""Tile registration under /api/admin/tiles (admin token): the UID -> tile registry of the
data directory, one tile at a time (the guided walk is `mahjong-table enroll`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from controller.table import RegistryError
from controller.web.deps import AdminDep, LoopDep, RegistryDep

router = APIRouter(prefix="/api/admin/tiles", tags=["admin"], dependencies=[AdminDep],
                   responses={400: {"description": "the request body is not JSON"},
                              401: {"description": "missing or wrong admin token"},
                              409: {"description": "refused by the registry's rules"}})


class TileIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    uid: str = Field(max_length=40, description="the tag's UID, e.g. 04:A2:19:C1:5E:22:80")
    tile: str = Field(max_length=4, description="the tile code, e.g. 5b, ew, gd, 2s")


class TileOut(BaseModel):
    uid: str
    tile: str


class Registry(BaseModel):
    set_size: int
    count: int
    next_tile: str | None
    tiles: list[TileOut]


def _refused(exc: RegistryError) -> JSONResponse:
    return JSONResponse(status_code=409, content={"detail": str(exc)})


@router.get("", response_model=Registry)
def list_tiles(registry_file: RegistryDep) -> Any:
    """Every registered tag with its tile, and the next tile of the set still untagged."""
    try:
        registry = registry_file.open()
    except RegistryError as exc:
        return _refused(exc)
    tiles = [TileOut(uid=e.uid, tile=e.tile) for e in registry.entries()]
    return Registry(set_size=registry.set_size, count=len(tiles),
                    next_tile=registry.next_tile(), tiles=tiles)


@router.post("", response_model=TileOut, status_code=201)
def register_tile(body: TileIn, registry: RegistryDep, loop: LoopDep) -> Any:
    """Register one tag: a duplicate UID, an unknown code or a copy too many is refused (409).
    The running table reads the registry when the service starts: restart it afterwards."""
    try:
        entry = registry.open().add(body.uid, body.tile, loop.clock())
    except RegistryError as exc:
        return _refused(exc)
    return TileOut(uid=entry.uid, tile=entry.tile)


@router.delete("/{uid}", response_model=TileOut)
def forget_tile(uid: str, registry: RegistryDep) -> Any:
    """Forget a tag enrolled by mistake."""
    try:
        entry = registry.open().remove(uid)
    except RegistryError as exc:
        return _refused(exc)
    return TileOut(uid=entry.uid, tile=entry.tile)
