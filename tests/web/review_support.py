"""Stored sessions for the review tests (issue 25) and the reference they are checked against.

``record`` plays a whole session with the players (the Director) and an operator and seats
who make mistakes: declarations the game refuses, moves out of turn, undos. Every event goes
into a real SQLite event log as the game loop writes it (the session line first, then each
event with its verdict). ``Reference`` replays that log from the file on its own, event by
event, and keeps what lay where at each stored ``seq``, read from the game's state fields
(racks, rivers, meld strips, the pad), never from its views: what the review's frames are held to.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.game import GameState, apply, new_game
from controller.players.director import Director
from controller.store import EventLog

Event = dict[str, Any]
TABLE_LOG = ("move", "declare", "correct", "player", "penalty")


def _mistake(rng: random.Random, state: GameState) -> Event | None:
    """Something a careless table does: a call the game refuses, a draw out of turn, an undo."""
    hand = state.hand
    if hand is None or hand.phase != "play":
        return None
    seat = rng.choice([p for p in (1, 2, 3, 4) if p != hand.turn])
    return rng.choice([
        {"declare": {"seat": seat, "call": "mahjong"}},
        {"declare": {"seat": seat, "call": "claim"}},
        {"move": {"tile": "5b", "from": "wall", "to": f"rack:{seat}"}},
        {"correct": {"undo": rng.choice((1, 2))}},
    ])


def record(data_dir: Path, ruleset: str = "hua-bao", hands: int = 2, seed: int = 3,
           every: int = 37, names: tuple[str, ...] = ("Ann Lee", "Bo Chen")) -> int:
    """Play and store one session in ``data_dir/events.sqlite``; returns its id. A mistake
    comes about every ``every`` events; the first seats get ``names``."""
    data_dir.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    director = Director(ruleset, {}, hands, seed, careful=False)
    state = new_game()
    session = {"session": {"ruleset": ruleset, "options": {}}}
    with EventLog.open(data_dir / "events.sqlite") as log:
        sid = log.start_session(ruleset, {}, 1000.0)
        # The real file and schema; only not synced to the disk after every event (a test's
        # log need not survive a power cut: syncing was 90 % of this helper's time)
        log._conn.execute("PRAGMA synchronous = OFF")

        def store(event: Event) -> None:
            nonlocal state
            out = apply(state, event)
            state = out.state
            rule = out.violation.rule if out.violation is not None else None
            log.append(sid, event, out.accepted, rule, None, "test", 1000.0 + state.seq)

        store(session)
        for seat, name in enumerate(names, start=1):
            store({"player": {"seat": seat, "name": name}})
        for count in range(20_000):
            event = director.next_action(state)
            if event is None:
                break
            if "session" in event:
                continue
            store(event)
            if count % every == every - 1:
                mistake = _mistake(rng, state)
                if mistake is not None:
                    store(mistake)
    return sid


@dataclass
class Moment:
    """The table after one stored event, from the game's state fields."""

    seq: int
    event: Event
    accepted: bool
    state: GameState

    def racks(self) -> dict[int, Counter[str]]:
        hand = self.state.hand
        return {} if hand is None else {s.position: Counter(s.rack) for s in hand.seats}

    def open_at(self) -> dict[str, Counter[str]]:
        """Per seat ("1".."4") the tiles lying open at it (river, meld strip, bonus tiles,
        the discard on its strip), and under "pad" the discards on the pad."""
        hand = self.state.hand
        out: dict[str, Counter[str]] = {"pad": Counter()}
        if hand is None:
            return out
        for seat in hand.seats:
            tiles = [*seat.river, *seat.forming, *seat.bonus,
                     *[t for meld in seat.melds for t in meld.tiles]]
            if hand.claim is not None and hand.claim.seat == seat.position:
                tiles.append(hand.claim.tile)
            out[str(seat.position)] = Counter(tiles)
        if hand.discard is not None:
            out["pad"][hand.discard[0]] += 1
        out["pad"].update(t for t, _ in hand.pad_dead)
        if hand.rh is not None:
            out["pad"].update(hand.rh.dora)  # riichi's indicator pad, face up
        return out


class Reference:
    """The stored session replayed from the file, one Moment per stored table-log event."""

    def __init__(self, db: Path, session_id: int) -> None:
        self.moments: dict[int, Moment] = {}
        self.order: list[int] = []
        with EventLog.open(db, readonly=True) as log:
            info = next(s for s in log.sessions() if s.id == session_id)
            self.ended = info.ended_at is not None
            state = apply(new_game(), {"session": {"ruleset": info.ruleset,
                                                   "options": info.options}}).state
            for rec in log.records(session_id):
                if next(iter(rec.event)) not in TABLE_LOG:
                    continue
                out = apply(state, rec.event)
                state = out.state
                self.moments[rec.seq] = Moment(rec.seq, rec.event, out.accepted, state)
                self.order.append(rec.seq)
        self.final = state

    def kinds(self) -> Counter[str]:
        """What the session holds: claims, kongs, refused events, corrections."""
        seen: Counter[str] = Counter()
        for m in self.moments.values():
            kind = next(iter(m.event))
            seen["refused"] += not m.accepted
            seen["correction"] += kind == "correct" and m.accepted
            move = m.event.get("move") or {}
            seen["claim"] += move.get("from") == "discard" and str(move.get("to")).startswith(
                "melds")
            hand = m.state.hand
            seen["kong"] += hand is not None and any(
                len(meld.tiles) == 4 for s in hand.seats for meld in s.melds)
        return seen
