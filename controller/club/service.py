"""The club service: the store, the subscriber, the admin token and the tournament state."""

from __future__ import annotations

import asyncio
import hmac
import json
import os
import secrets
import time
from pathlib import Path
from typing import Any

from controller.club import profile, standings, topics, tournament
from controller.club.keyring import Keyring
from controller.club.mqtt import BrokerConfig
from controller.club.store import ClubStore
from controller.club.subscriber import ClubSubscriber
from controller.sessions.places import key

TOKEN_FILE = "club-token.json"
DB_FILE = "club.sqlite"


def load_or_create_token(data_dir: Path) -> str:
    path = data_dir / TOKEN_FILE
    if path.exists():
        raw = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(raw, dict) and isinstance(raw.get("admin"), str):
            return str(raw["admin"])
        raise ValueError(f"{path} is damaged: delete it to make a new admin token")
    token = secrets.token_urlsafe(24)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump({"admin": token}, f)
    return token


class ClubService:
    def __init__(self, data_dir: Path, broker: BrokerConfig, client_id: str = "club", *,
                 signed: bool = True, restart_after: float = 1.0) -> None:
        """``signed`` False (the benchmark's baseline only) takes unsigned messages."""
        self.data_dir = Path(data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.admin_token = load_or_create_token(self.data_dir)
        self.keyring = Keyring(self.data_dir) if signed else None
        self.store = ClubStore(self.data_dir / DB_FILE)
        self.changed = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.subscriber = ClubSubscriber(self.store, broker, self._on_change, client_id,
                                         keyring=self.keyring, restart_after=restart_after)
        self._by_table: dict[str, tuple[int, standings.Club]] = {}

    def health(self) -> dict[str, Any]:
        """``ok`` false while the receiving thread is down (it is restarted) or the store is
        closed; what was set aside, counted and the last few."""
        sub = self.subscriber
        return {"ok": sub.receiving and not self.store.closed,
                "receiving": sub.receiving, "restarts": sub.restarts,
                "broker_connected": sub.connected, "broker_disconnects": sub.disconnects,
                "messages": sub.received,
                "set_aside": sub.set_aside.count, "last_set_aside": list(sub.set_aside.last),
                "version": self.store.version}

    def is_admin(self, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(str(token).encode(),
                                                   self.admin_token.encode())

    async def start(self) -> None:
        if self.store.closed:  # started again after a stop (one app, several lifespans)
            self.store = ClubStore(self.data_dir / DB_FILE)
            self.subscriber.store = self.store
            self._by_table = {}
        self._loop = asyncio.get_running_loop()
        self.changed = asyncio.Event()
        self.subscriber.start()
        self._publish_roster()

    async def stop(self) -> None:
        self.subscriber.stop()
        self.store.close()

    def _on_change(self) -> None:  # the MQTT thread
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.changed.set)

    # --- views --------------------------------------------------------------------------------

    def _clubs(self, rows: list[dict[str, Any]] | None = None) -> dict[str, standings.Club]:
        """Each table's sessions with their places, rebuilt only for a table whose position
        moved on since (a fact arrived): a page push then costs look-ups, not a recount."""
        rows = self.store.tables() if rows is None else rows
        stale = [r for r in rows if (self._by_table.get(r["table"]) or (None,))[0]
                 != r["last_pos"]]
        if stale:
            penalties, sessions = self.store.penalties(), self.store.sessions()
            for row in stale:
                table = row["table"]
                self._by_table[table] = (row["last_pos"], standings.Club(
                    self.store.hands(table), [p for p in penalties if p["table"] == table],
                    [s for s in sessions if s["table"] == table]))
        return {r["table"]: self._by_table[r["table"]][1] for r in rows}

    def _club(self) -> standings.Club:
        return standings.Club.combine(list(self._clubs().values()))

    def tables(self) -> list[dict[str, Any]]:
        """Each table's card: who sits where now, the session's four places with each
        holder's part, and each person's score in the session (the same computation as
        tonight, the league and the player pages)."""
        rows = self.store.tables()
        clubs = self._clubs(rows)
        out = []
        for row in rows:
            status = row["status"] or {}
            table = row["table"]
            numbers = standings.card(clubs[table], table, status.get("session"),
                                     status.get("names") or {})
            seats = numbers["seats"]
            by_seat = {x["seat"]: x["score"] for x in numbers["places"]}
            out.append({
                "table": table, "online": row["online"],
                "players": {p: seats[p]["label"] for p in standings.POSITIONS},
                "totals": {seats[p]["label"]: seats[p]["score"] for p in standings.POSITIONS},
                "totals_by_position": by_seat, "places": numbers["places"],
                "finished": numbers["finished"],
                "session": status.get("session"), "ruleset": status.get("ruleset"),
                "hand": status.get("hand"), "phase": status.get("phase"),
                "wall": status.get("wall"), "turn": status.get("turn"),
                "turn_wind": status.get("turn_wind"),
                "turn_name": seats[str(status["turn"])]["label"]
                if str(status.get("turn")) in seats else None,
                "hands": status.get("hands"), "at": status.get("at"),
                "dealer": status.get("dealer"),
                "prevailing_wind": status.get("prevailing_wind"),
                "board": status.get("board"), "discard": status.get("discard"),
                "url": status.get("url"),
            })
        return out

    def hands(self, table: str | None = None) -> list[dict[str, Any]]:
        out = []
        for hand in self.store.hands(table):
            out.append({**hand, "net_by_name": standings.net_by_name(hand)})
        return out

    def standings(self, season: int | None = None, now: float | None = None
                  ) -> dict[str, Any]:
        club = self._club()
        year = season or time.localtime().tm_year
        since = time.mktime((year, 1, 1, 0, 0, 0, 0, 0, -1))
        until = time.mktime((year + 1, 1, 1, 0, 0, 0, 0, 0, -1))
        keys = {k for k in club.places if since <= (club.started(k) or 0) < until}
        return {"season": year, "tonight": club.tonight(standings.tonight_since(now)),
                "league": club.league(keys)}

    def player(self, name: str) -> dict[str, Any] | None:
        """A player's page (None: no such name at any table of the club); each hand won links
        to its review on its table (``review``) when the table published its address."""
        page = profile.player_page(self._club(), name)
        if page is not None:
            urls = {r["table"]: (r["status"] or {}).get("url") for r in self.store.tables()}
            for hand in page["hands_won"]:
                hand["review"] = profile.review_url(urls.get(hand["table"]), hand)
        return page

    # --- roster and tournament (admin) --------------------------------------------------------

    def _publish_roster(self) -> None:
        names = [p["name"] for p in self.store.roster()]
        self.subscriber.publish(topics.ROSTER, {"players": names})

    def add_player(self, name: str, ema: str, country: str) -> None:
        self.store.add_player(name, ema, country)
        self._publish_roster()

    def remove_player(self, name: str) -> bool:
        removed = self.store.remove_player(name)
        self._publish_roster()
        return removed

    def tournament(self) -> dict[str, Any] | None:
        """The plan, each round played with each table's places and the round's ranking, and
        the final ranking: by whoever held each seat, as the league counts (one computation)."""
        state = self.store.get("tournament")
        if not state:
            return None
        club = self._club()
        rounds = []
        for rnd in state.get("rounds_played", []):
            seating = rnd["seating"]
            played = tournament.round_hands(club.hands, list(seating), rnd["started"],
                                            rnd["ends_at"])
            tables = tournament.round_tables(played, club.penalties, seating,
                                             club.is_finished, club.ruleset)
            rounds.append({**rnd, "tables": tables,
                           "ranking": tournament.round_ranking(tables)})
        roster = {key(p["name"]): p for p in self.store.roster()}
        final = tournament.final_ranking([r["ranking"] for r in rounds],
                                         state.get("players", []), roster)
        return {**state, "rounds_played": rounds, "final": final}

    def new_tournament(self, players: list[str], rounds: int, minutes: float,
                       tables: list[str]) -> dict[str, Any]:
        plan = tournament.seating_plan(players, rounds)
        if len(tables) != len(players) // 4:
            raise tournament.TournamentError(
                f"{len(players)} players need {len(players) // 4} tables; "
                f"{len(tables)} were named")
        state = {"players": players, "rounds": rounds, "minutes": minutes, "tables": tables,
                 "plan": plan, "repeats": tournament.repeats(plan), "rounds_played": []}
        self.store.put("tournament", state)
        self.subscriber.publish(topics.ROUND, {"round": None})
        return state

    def start_round(self, number: int, now: float | None = None) -> dict[str, Any]:
        state = self.store.get("tournament")
        if not state:
            raise tournament.TournamentError("no tournament: create one first")
        played = state["rounds_played"]
        if number != len(played) + 1 or number > state["rounds"]:
            raise tournament.TournamentError(f"the next round is {len(played) + 1}")
        started = now or time.time()
        seating = dict(zip(state["tables"], state["plan"][number - 1], strict=True))
        rnd = {"round": number, "started": started,
               "ends_at": started + float(state["minutes"]) * 60, "seating": seating}
        played.append(rnd)
        self.store.put("tournament", state)
        self.subscriber.publish(topics.ROUND, rnd)
        return rnd
