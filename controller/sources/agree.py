"""The virtual table's players and a misread tile: like people at a table, they go on only while
the controller shows the tiles that lie there.

A tag enrolled as the wrong tile (``SimOptions.misread``) makes the game hold a tile the player
does not: the players then wait, and the operator page says where (naming no tile: it may be
concealed) until the operator corrects it (Reassign) or takes the move back (Undo).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any, Protocol

from controller.game import lying
from controller.sources.base import LoopPort
from controller.sources.world import OFF_TABLE, SimWorld

HEALTH = "virtual-table"


class Complains(Protocol):
    """Where the players' complaint is kept (``SimRun``)."""

    complaint: dict[str, Any] | None
    waited: int  # times the players looked at the table and waited


class NobodyCorrects(Exception):
    """The players waited ``give_up`` seconds for a correction that nobody made."""


async def agreed(loop: LoopPort, world: SimWorld, run: Complains,
                 give_up: float | None = None) -> None:
    """Return once the controller shows the tiles that lie on the table (or the session
    changed); meanwhile the players wait and say so. ``give_up``: seconds after which, with
    nobody to correct the table (``simulate``: no operator), :class:`NobodyCorrects` is raised
    naming the zone (no tile: it may be concealed); None waits for the operator for ever."""
    session = loop.session_id
    since = time.monotonic()
    while (differs := misread(loop, world)) is not None and loop.session_active \
            and loop.session_id == session:
        if give_up is not None and time.monotonic() - since > give_up:
            raise NobodyCorrects(
                f"the game shows in {differs['zone']} what does not lie there, and nobody "
                f"corrected it in {give_up:.0f} s (see the log's last events); the players "
                "stopped")
        if run.complaint != differs:
            run.complaint = differs
            who = f"seat {differs['seat']}" if differs.get("seat") else "the table"
            loop.report_health(HEALTH, {
                "ok": False, "state": "waiting",
                "message": f"the players wait: {who} says a tile in {differs['zone']} is not "
                           f"the tile shown; {_how_to_fix(differs['zone'])}"})
        await asyncio.sleep(0.05)
        run.waited += 1
    if run.complaint is not None:
        run.complaint = None
        loop.report_health(HEALTH, {"ok": True, "state": "up",
                                    "message": "the simulated players play on"})


def misread(loop: LoopPort, world: SimWorld) -> dict[str, Any] | None:
    """The first zone where the controller's tiles differ from the faces lying there:
    {"seat", "zone"}, with "tile" (as read) and "is" (its face) when one tile is the
    difference."""
    shown = {z: c for z, c in lying(loop.state).items() if z not in OFF_TABLE and +c}
    there = world.faces()
    for zone in sorted(set(shown) | set(there)):
        read, face = shown.get(zone, Counter()), there.get(zone, Counter())
        if read == face:
            continue
        _, _, pos = zone.partition(":")
        complaint: dict[str, Any] = {"seat": int(pos) if pos else None, "zone": zone}
        if sum((read - face).values()) == 1 and sum((face - read).values()) == 1:
            complaint["tile"] = next(iter(read - face))
            complaint["is"] = next(iter(face - read))
        return complaint
    return None


def _how_to_fix(zone: str) -> str:
    """Who corrects it: a rack's tiles are its player's (the seat page); the rest the
    operator's (Reassign). Either may undo."""
    if zone.startswith("rack:"):
        return (f"seat {zone.split(':')[1]} corrects it on its seat page (tap the tile, choose "
                "what it is), or undo")
    return "correct it (Reassign) or undo"
