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

from controller.club import standings, topics, tournament
from controller.club.keyring import Keyring
from controller.club.mqtt import BrokerConfig
from controller.club.store import ClubStore
from controller.club.subscriber import ClubSubscriber

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

    def tables(self) -> list[dict[str, Any]]:
        out = []
        for row in self.store.tables():
            status = row["status"] or {}
            names = status.get("names") or {}
            totals = status.get("final") or status.get("totals") or {}
            table = row["table"]
            out.append({
                "table": table, "online": row["online"],
                "players": {p: standings.who(names, table, p) for p in standings.POSITIONS},
                "totals": {standings.who(names, table, p): int(totals.get(p, 0))
                           for p in standings.POSITIONS},
                "totals_by_position": {p: int(totals.get(p, 0)) for p in standings.POSITIONS},
                "session": status.get("session"), "ruleset": status.get("ruleset"),
                "hand": status.get("hand"), "phase": status.get("phase"),
                "wall": status.get("wall"), "turn": status.get("turn"),
                "turn_wind": status.get("turn_wind"),
                "turn_name": standings.who(names, table, status["turn"])
                if status.get("turn") else None,
                "hands": status.get("hands"), "at": status.get("at"),
            })
        return out

    def hands(self, table: str | None = None) -> list[dict[str, Any]]:
        out = []
        for hand in self.store.hands(table):
            out.append({**hand, "net_by_name": standings.net_by_name(hand)})
        return out

    def standings(self, season: int | None = None) -> dict[str, Any]:
        hands, penalties = self.store.hands(), self.store.penalties()
        sessions = self.store.sessions()
        year = season or time.localtime().tm_year
        since = time.mktime((year, 1, 1, 0, 0, 0, 0, 0, -1))
        until = time.mktime((year + 1, 1, 1, 0, 0, 0, 0, 0, -1))
        in_season = [s for s in sessions if since <= (s.get("started") or 0) < until]
        keys = {(s["table"], s["session"]) for s in in_season}
        league = standings.league([h for h in hands if (h["table"], h["session"]) in keys],
                                  [p for p in penalties if (p["table"], p["session"]) in keys],
                                  in_season)
        return {"season": year, "tonight": standings.tonight(hands, penalties),
                "league": league}

    def player(self, name: str) -> dict[str, Any]:
        return standings.player_page(name, self.store.hands(), self.store.penalties(),
                                     self.store.sessions())

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
        state = self.store.get("tournament")
        if not state:
            return None
        hands, penalties = self.store.hands(), self.store.penalties()
        rounds = []
        for rnd in state.get("rounds_played", []):
            seating = rnd["seating"]
            played = tournament.round_hands(hands, list(seating), rnd["started"],
                                            rnd["ends_at"])
            rounds.append({**rnd, "ranking": tournament.round_ranking(played, penalties,
                                                                      seating)})
        roster = {p["name"].casefold(): p for p in self.store.roster()}
        final = tournament.final_ranking([r["ranking"] for r in rounds], roster)
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
