"""The test jig's figures (hardware_docs/commissioning.md, "The jig"): a reference tile moved
over every slot in turn while `mahjong-table readers --jig UID` listens.

From the scans alone: a slot is *visited* from the first of two scans in a row of its channel
that read the reference tile, to its last such read before another channel's visit begins
(the tile lifted and carried is no miss). Within the visit: ``reads`` = the channel's scans
that read the tile / all its scans; ``neighbour_reads`` = scans of any other channel that read
it. Pass (the issue's criteria): every visited slot 99.9 % reads or more and no neighbour read,
and every slot of the given channels visited.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from firmware_bridge.types import ChannelScan

MIN_READS = 0.999


@dataclass
class Visit:
    channel: str
    start: float
    end: float
    scans: int = 0
    reads: int = 0
    neighbour_reads: dict[str, int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"channel": self.channel, "seconds": round(self.end - self.start, 3),
                "scans": self.scans, "reads": self.reads,
                "reads_pct": round(100 * self.reads / self.scans, 2) if self.scans else 0.0,
                "neighbour_reads": dict(sorted((self.neighbour_reads or {}).items()))}


def visits(scans: Sequence[ChannelScan], uid: str) -> list[Visit]:
    """The slots the reference tile visited, in order, with their windows (no counts yet)."""
    out: list[Visit] = []
    last: dict[str, bool] = {}  # channel -> did its previous scan read the tile
    first_of_pair: dict[str, float] = {}
    for scan in scans:
        hit = uid in scan.uids
        if hit and last.get(scan.channel):
            if not out or out[-1].channel != scan.channel:
                out.append(Visit(scan.channel, first_of_pair[scan.channel], scan.t))
        if hit and out and out[-1].channel == scan.channel:
            out[-1].end = scan.t
        if hit and not last.get(scan.channel):
            first_of_pair[scan.channel] = scan.t
        last[scan.channel] = hit
    return out


def count(scans: Iterable[ChannelScan], uid: str, found: list[Visit]) -> list[Visit]:
    """Each visit's scans, reads and neighbour reads."""
    for visit in found:
        visit.neighbour_reads = {}
    for scan in scans:
        for visit in found:
            if not visit.start <= scan.t <= visit.end:
                continue
            if scan.channel == visit.channel:
                visit.scans += 1
                visit.reads += uid in scan.uids
            elif uid in scan.uids:
                n = visit.neighbour_reads or {}
                n[scan.channel] = n.get(scan.channel, 0) + 1
                visit.neighbour_reads = n
    return found


def jig_report(scans: Sequence[ChannelScan], uid: str, slots: Iterable[str]) -> dict[str, Any]:
    """The jig's figures per slot and whether the rack passes; ``problems`` one line each."""
    found = count(scans, uid, visits(scans, uid))
    problems = []
    for v in found:
        if v.scans and v.reads / v.scans < MIN_READS:
            problems.append(f"jig: {v.channel} read the reference tile in {v.reads} of "
                            f"{v.scans} scans (under 99.9 %): check its coil's tuning")
        for other, n in sorted((v.neighbour_reads or {}).items()):
            problems.append(f"jig: {other} read the reference tile {n} time(s) while it lay on "
                            f"{v.channel}: a neighbour read; check the field schedule and "
                            "the coil's distance")
    missing = sorted(set(slots) - {v.channel for v in found})
    if missing:
        problems.append(f"jig: never visited (two reads in a row): {', '.join(missing)}")
    return {"uid": uid, "slots": [v.to_json() for v in found], "not_visited": missing,
            "pass": not problems, "problems": problems}
