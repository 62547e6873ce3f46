"""The club page and its JSON (public), roster and tournament admin (the club's admin token)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Query, Request, WebSocket
from fastapi.responses import FileResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.websockets import WebSocketDisconnect

from controller import tiles
from controller.club.service import ClubService
from controller.club.tournament import TournamentError, ema_csv
from controller.fields import NOT_BOOL, PersonName
from controller.i18n.router import i18n_router

STATIC = Path(__file__).parent / "static"
TABLE_STATIC = Path(__file__).parent.parent / "web" / "static"  # a file, not an import
Rounds = Annotated[int, Field(ge=1, le=20), NOT_BOOL]
Minutes = Annotated[float, Field(gt=0, le=600), NOT_BOOL]


class PlayerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: PersonName
    ema: str = Field(default="", max_length=20)
    country: str = Field(default="", max_length=40)


class TournamentIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: list[PersonName] = Field(min_length=4, max_length=400)
    rounds: Rounds
    minutes: Minutes
    tables: list[Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,32}$")]]


def _service(request: Request) -> ClubService:
    service: ClubService = request.app.state.club
    return service


Club = Annotated[ClubService, Depends(_service)]


def _admin(request: Request, club: Club) -> None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not club.is_admin(token.strip()):
        raise HTTPException(401, detail="this needs the club's admin token (shown by "
                            "`mahjong-table club` at start, kept in club-token.json)",
                            headers={"WWW-Authenticate": "Bearer"})


Admin = Depends(_admin)
ADMIN: dict[int | str, dict[str, Any]] = {
    400: {"description": "the request body is not JSON"},
    401: {"description": "missing or wrong club admin token"}}


def create_club_app(club: ClubService) -> FastAPI:
    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await club.start()
        try:
            yield
        finally:
            await club.stop()

    app = FastAPI(title="Mahjong club", lifespan=lifespan)
    app.state.club = club
    _pages(app)
    _api(app)
    _api_tournament(app)
    _admin_api(app)
    # The club's pages follow each browser (and its own switch); the catalogs are the table's.
    app.include_router(i18n_router(lambda: None))
    app.mount("/static", StaticFiles(directory=STATIC), name="club-static")
    return app


def _pages(app: FastAPI) -> None:
    @app.get("/", include_in_schema=False)
    def club_page() -> FileResponse:
        return FileResponse(STATIC / "club.html")

    @app.get("/player/{name}", include_in_schema=False)
    def player_page(name: str, club: Club) -> FileResponse:
        if club.player(name) is None:  # the page says so (static: the name is put in as text)
            return FileResponse(STATIC / "noplayer.html", status_code=404)
        return FileResponse(STATIC / "player.html")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.get("/static/tiles.js", include_in_schema=False)
    def tile_faces() -> FileResponse:
        """The table's own tile faces (one file for both services)."""
        return FileResponse(TABLE_STATIC / "tiles.js", media_type="text/javascript")

    @app.get("/api/tiles")
    def tile_set() -> dict[str, Any]:
        """The tile codes in order and their names (for the tile faces)."""
        return {"order": list(tiles.ALL_CODES),
                "names": {code: tiles.tile_name(code) for code in tiles.ALL_CODES},
                "groups": {}}

    @app.get("/static/i18n.js", include_in_schema=False)
    def i18n_script() -> FileResponse:
        """The pages' translation helpers (one file for both services)."""
        return FileResponse(TABLE_STATIC / "i18n.js", media_type="text/javascript")

    @app.get("/tournament", include_in_schema=False)
    def tournament_page() -> FileResponse:
        return FileResponse(STATIC / "tournament.html")


def _api(app: FastAPI) -> None:
    @app.get("/api/health")
    def health(club: Club) -> dict[str, Any]:
        """``ok``: the club's receiving thread runs (false while it is down, before its
        restart); whether it is connected to the broker; the messages set aside."""
        return club.health()

    @app.get("/api/club/tables")
    def tables(club: Club) -> list[dict[str, Any]]:
        """Every table: online, players, totals by name, hand, wall, whose turn."""
        return club.tables()

    @app.get("/api/club/hands")
    def hands(club: Club, table: str | None = Query(default=None, max_length=32)
              ) -> list[dict[str, Any]]:
        """Every finished hand the club holds (for one table with ?table=NAME)."""
        return club.hands(table)

    @app.get("/api/club/standings")
    def standings(club: Club, season: int | None = Query(default=None, ge=2000, le=2200)
                  ) -> dict[str, Any]:
        """Tonight's standings and the season's league table."""
        return club.standings(season)

    @app.get("/api/club/players/{name}", responses={404: {"description": "no such player"}})
    def player(club: Club, name: str) -> dict[str, Any]:
        """Sessions, statistics, balance after each hand, the hands won with their average
        and the best with its patterns."""
        page = club.player(name)
        if page is None:
            raise HTTPException(404, detail=f"no player called {' '.join(name.split())} has "
                                "played at this club")
        return page



def _api_tournament(app: FastAPI) -> None:
    @app.get("/api/club/roster")
    def roster(club: Club) -> dict[str, Any]:
        return {"players": [p["name"] for p in club.store.roster()]}

    @app.get("/api/club/tournament")
    def tournament(club: Club) -> dict[str, Any]:
        return {"tournament": club.tournament()}

    @app.get("/api/club/tournament/ranking.csv", response_class=PlainTextResponse,
             responses={404: {"description": "no tournament"},
                        200: {"content": {"text/csv": {}}}})
    def ranking_csv(club: Club, family: Literal["mcr", "riichi"] = Query(default="mcr")
                    ) -> PlainTextResponse:
        """The final ranking in the EMA's layout for a rule family: mcr ranks by table points,
        then score; riichi by score (docs/club.md)."""
        state = club.tournament()
        if state is None:
            raise HTTPException(404, detail="no tournament")
        return PlainTextResponse(ema_csv(state["final"], family), media_type="text/csv",
                                 headers={"Content-Disposition":
                                          f'attachment; filename="ranking-{family}.csv"'})

    @app.websocket("/ws/club")
    async def push(ws: WebSocket) -> None:
        """The tables as they change (at most ten times a second)."""
        await ws.accept()
        try:
            await _push_tables(ws, ws.app.state.club)
        except (WebSocketDisconnect, RuntimeError):
            return


async def _push_tables(ws: WebSocket, club: ClubService) -> None:
    """Send the tables whenever the store changes; return when the page goes away."""
    seen = -1
    receiver = asyncio.ensure_future(ws.receive())
    try:
        while True:
            if club.store.version != seen:
                seen = club.store.version
                await ws.send_json({"version": seen, "tables": club.tables()})
            club.changed.clear()
            waiter = asyncio.ensure_future(club.changed.wait())
            done, _ = await asyncio.wait({receiver, waiter}, timeout=10,
                                         return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            if receiver in done:
                if receiver.result().get("type") == "websocket.disconnect":
                    return
                receiver = asyncio.ensure_future(ws.receive())
            await asyncio.sleep(0.1)
    finally:
        receiver.cancel()


def _admin_api(app: FastAPI) -> None:
    @app.post("/api/club/roster", dependencies=[Admin], responses=ADMIN)
    def add_player(body: PlayerIn, club: Club) -> dict[str, Any]:
        club.add_player(" ".join(body.name.split()), body.ema, body.country)
        return {"players": club.store.roster()}

    @app.delete("/api/club/roster/{name}", dependencies=[Admin],
                responses={**ADMIN, 404: {"description": "not on the roster"}})
    def remove_player(name: str, club: Club) -> dict[str, Any]:
        if not club.remove_player(name):
            raise HTTPException(404, detail=f"{name} is not on the roster")
        return {"players": club.store.roster()}

    @app.get("/api/club/admin/roster", dependencies=[Admin], responses=ADMIN)
    def full_roster(club: Club) -> dict[str, Any]:
        return {"players": club.store.roster()}

    @app.post("/api/club/tournament", dependencies=[Admin],
              responses={**ADMIN, 409: {"description": "players or tables do not fit"}})
    def new_tournament(body: TournamentIn, club: Club) -> dict[str, Any]:
        try:
            return club.new_tournament(body.players, body.rounds, body.minutes, body.tables)
        except TournamentError as exc:
            raise HTTPException(409, detail=str(exc)) from None

    @app.post("/api/club/tournament/rounds/{number}", dependencies=[Admin],
              responses={**ADMIN, 409: {"description": "not the next round, or no tournament"}})
    def start_round(number: int, club: Club) -> dict[str, Any]:
        try:
            return club.start_round(number)
        except TournamentError as exc:
            raise HTTPException(409, detail=str(exc)) from None
