"""Dependencies shared by the routers: the game loop, the tokens and the tile registry, and the
admin and seat token checks."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Path, Request, status

from controller.loop import GameLoop
from controller.store.tokens import Tokens
from controller.table import RegistryFile
from controller.web.broadcaster import Broadcaster

POSITION = Path(ge=1, le=4, description="seat position 1-4 (counter-clockwise; 1 is east at first)")


def get_loop(request: Request) -> GameLoop:
    loop: GameLoop = request.app.state.loop
    return loop


def get_tokens(request: Request) -> Tokens:
    tokens: Tokens = request.app.state.tokens
    return tokens


def get_registry(request: Request) -> RegistryFile:
    registry: RegistryFile = request.app.state.registry
    return registry


def get_broadcaster(request: Request) -> Broadcaster:
    broadcaster: Broadcaster = request.app.state.broadcaster
    return broadcaster


def bearer_token(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, if any."""
    # no mutate: Starlette's headers ignore case, so "AUTHORIZATION" is the same header
    header = request.headers.get("authorization")  # pragma: no mutate
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def _unauthorized(what: str) -> HTTPException:
    return HTTPException(
        status.HTTP_401_UNAUTHORIZED,
        detail=f"{what}: send 'Authorization: Bearer TOKEN' (see `mahjong-table tokens`)",
        # the name's case changes nothing (RFC 9110 5.1; Starlette sends it in lower case)
        headers={"WWW-Authenticate":  # pragma: no mutate
                 "Bearer"},
    )


def require_admin(
    tokens: Annotated[Tokens, Depends(get_tokens)],
    token: Annotated[str | None, Depends(bearer_token)],
) -> None:
    if not tokens.is_admin(token):
        raise _unauthorized("this needs the admin token")


def require_seat(
    position: Annotated[int, POSITION],
    tokens: Annotated[Tokens, Depends(get_tokens)],
    token: Annotated[str | None, Depends(bearer_token)],
) -> int:
    if not tokens.is_seat(position, token):
        raise _unauthorized(f"this needs the token of seat {position}")
    return position


LoopDep = Annotated[GameLoop, Depends(get_loop)]
TokensDep = Annotated[Tokens, Depends(get_tokens)]
RegistryDep = Annotated[RegistryFile, Depends(get_registry)]
BroadcasterDep = Annotated[Broadcaster, Depends(get_broadcaster)]
AdminDep = Depends(require_admin)
SeatDep = Annotated[int, Depends(require_seat)]
