"""Dependencies shared by the routers: the service, and the admin and seat token checks."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Path, Request, status

from controller.service import TableService
from controller.web.broadcaster import Broadcaster

POSITION = Path(ge=1, le=4, description="seat position 1-4 (counter-clockwise; 1 is east at first)")


def get_service(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


def get_broadcaster(request: Request) -> Broadcaster:
    broadcaster: Broadcaster = request.app.state.broadcaster
    return broadcaster


def bearer_token(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, if any."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def _unauthorized(what: str) -> HTTPException:
    return HTTPException(
        status.HTTP_401_UNAUTHORIZED,
        detail=f"{what}: send 'Authorization: Bearer TOKEN' (see `mahjong-table tokens`)",
        headers={"WWW-Authenticate": "Bearer"},
    )


def require_admin(
    service: Annotated[TableService, Depends(get_service)],
    token: Annotated[str | None, Depends(bearer_token)],
) -> None:
    if service.tokens is None or not service.tokens.is_admin(token):
        raise _unauthorized("this needs the admin token")


def require_seat(
    position: Annotated[int, POSITION],
    service: Annotated[TableService, Depends(get_service)],
    token: Annotated[str | None, Depends(bearer_token)],
) -> int:
    if service.tokens is None or not service.tokens.is_seat(position, token):
        raise _unauthorized(f"this needs the token of seat {position}")
    return position


ServiceDep = Annotated[TableService, Depends(get_service)]
BroadcasterDep = Annotated[Broadcaster, Depends(get_broadcaster)]
AdminDep = Depends(require_admin)
SeatDep = Annotated[int, Depends(require_seat)]
