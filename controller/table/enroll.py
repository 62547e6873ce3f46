"""Enrollment: tag a set tile by tile on the discard pad, in set order, resumable at any point.

Fed with any iterable of scans (Contract 5's ``ChannelScan`` or anything shaped like it), so
tests script the pad and the command line plugs in a reader back-end or standard input.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from controller.table.presence import ScanLike
from controller.table.registry import REGISTRY_FILE, RegistryError, TileRegistry, normalize_uid
from controller.tiles import Tile, glyph, tile_set

StepKind = Literal["enrolled", "duplicate", "ghost", "crowded", "refused"]


@dataclass(frozen=True)
class Step:
    """What one scan did: a tile enrolled, or a read refused and why."""

    kind: StepKind
    message: str
    uid: str | None = None
    tile: Tile | None = None


@dataclass(frozen=True)
class EnrollmentProgress:
    """How far the set is tagged; what the terminal and the dashboard show."""

    enrolled: int
    total: int
    next_tile: Tile | None
    message: str = ""

    @classmethod
    def of(cls, registry: TileRegistry, message: str = "",
           bonus_tiles: bool | None = None) -> EnrollmentProgress:
        """How far ``registry`` is tagged, counted on the rule set's tile set: 136 tiles
        without bonus tiles (riichi), 144 with them (``bonus_tiles``; default: the registry's
        own set). A 144-tile registry is complete for a 136-tile game once its 136 are."""
        bonus = registry.bonus_tiles if bonus_tiles is None else bonus_tiles
        if bonus == registry.bonus_tiles:
            return cls(len(registry), registry.set_size, registry.next_tile(), message)
        kinds = tile_set(bonus)
        enrolled = sum(min(registry.count(t), kinds.count(t)) for t in set(kinds))
        seen: Counter[Tile] = Counter()
        missing = None
        for tile in kinds:
            seen[tile] += 1
            if seen[tile] > registry.count(tile):
                missing = tile
                break
        return cls(enrolled, len(kinds), missing, message)

    @property
    def done(self) -> bool:
        return self.next_tile is None

    @property
    def next_glyph(self) -> str:
        return glyph(self.next_tile) if self.next_tile else ""

    def bar(self, width: int = 20) -> str:
        """``"37/144 [#####...............]"``."""
        filled = width * self.enrolled // self.total if self.total else width
        return f"{self.enrolled}/{self.total} [{'#' * filled}{'.' * (width - filled)}]"

    def to_json(self) -> dict[str, Any]:
        return {"enrolled": self.enrolled, "total": self.total, "next_tile": self.next_tile,
                "next_glyph": self.next_glyph, "done": self.done, "bar": self.bar(),
                "message": self.message}


class Enrollment:
    """Watches the pad channels: a tile held there for ``confirm_reads`` scans is registered
    as the next tile of the set. Each UID on the pad is handled once until it leaves."""

    def __init__(self, registry: TileRegistry, pad_channels: Collection[str],
                 confirm_reads: int = 2, clock: Callable[[], float] = time.time) -> None:
        if not pad_channels:
            raise ValueError("enrollment needs the discard pad's channel, e.g. 'centre/0'")
        self.registry = registry
        self.pad_channels = frozenset(pad_channels)
        self.confirm_reads = max(1, confirm_reads)
        self.clock = clock  # wall time for the registry's enrolled_at (scan times may be
        # a reader's monotonic clock)
        self._handled: set[str] = set()
        self._candidate: str | None = None
        self._reads = 0
        self._crowd: frozenset[str] = frozenset()
        self.last_message = ""

    @property
    def progress(self) -> EnrollmentProgress:
        return EnrollmentProgress.of(self.registry, self.last_message)

    def offer(self, scan: ScanLike) -> list[Step]:
        """Take one scan; return what it did (nothing for other channels or a steady pad)."""
        if scan.channel not in self.pad_channels:
            return []
        steps: list[Step] = []
        if self._candidate is not None and self._candidate not in scan.uids:
            steps.append(Step("ghost", f"ignored a passing read of {self._candidate} (a "
                                       "neighbouring antenna?): hold the tile on the pad",
                              self._candidate))
            self._candidate, self._reads = None, 0
        self._handled &= scan.uids
        fresh = scan.uids - self._handled
        for raw in sorted(fresh):
            try:
                normalize_uid(raw)
            except RegistryError as exc:
                steps.append(Step("ghost", f"ignored: {exc}", raw))
                self._handled.add(raw)
        fresh -= self._handled
        if len(fresh) > 1:
            if fresh != self._crowd:
                steps.append(Step("crowded", f"{len(fresh)} tags on the pad: leave only the "
                                             f"{self.registry.next_tile()} there"))
            self._crowd = frozenset(fresh)
        elif fresh:
            steps.extend(self._one(next(iter(fresh))))
        if steps:
            self.last_message = steps[-1].message
        return steps

    def _one(self, raw: str) -> list[Step]:
        uid = normalize_uid(raw)
        if uid in self.registry:
            self._handled.add(raw)
            return [Step("duplicate", f"UID {uid} is already enrolled as {self.registry[uid]}: "
                                      f"take it off and place a {self.registry.next_tile()}",
                         uid, self.registry[uid])]
        tile = self.registry.next_tile()
        if tile is None:
            self._handled.add(raw)
            return [Step("refused", f"the set is complete: {uid} was not enrolled", uid)]
        if raw != self._candidate:
            self._candidate, self._reads = raw, 0
        self._reads += 1
        if self._reads < self.confirm_reads:
            return []
        self._candidate, self._reads = None, 0
        self._handled.add(raw)
        try:
            self.registry.add(uid, tile, self.clock())
        except RegistryError as exc:
            return [Step("refused", str(exc), uid, tile)]
        return [Step("enrolled", f"{tile} {glyph(tile)} enrolled as {uid}", uid, tile)]

    def run(self, scans: Iterable[ScanLike],
            on_step: Callable[[Step], None] | None = None) -> EnrollmentProgress:
        """Feed scans until the set is complete or the scans end; return the progress."""
        if self.progress.done:
            return self.progress
        for scan in scans:
            for step in self.offer(scan):
                if on_step is not None:
                    on_step(step)
            if self.progress.done:
                break
        return self.progress


def progress(data_dir: str | Path, bonus_tiles: bool | None = None) -> dict[str, Any]:
    """Enrollment progress from the registry file, for the dashboard (``/api/admin/enrollment``),
    counted on the rule set's tile set (``bonus_tiles``: 144 with them, 136 without; None: the
    registry's own, 144 without a registry)."""
    if not (Path(data_dir) / REGISTRY_FILE).exists():
        size = 136 if bonus_tiles is False else 144
        return EnrollmentProgress.of(TileRegistry(size)).to_json()
    return EnrollmentProgress.of(TileRegistry.open(data_dir), bonus_tiles=bonus_tiles).to_json()


@dataclass(frozen=True)
class RegistryFile:
    """The tile registry of a data directory, read afresh at each use (``enroll`` may add
    tiles from another terminal while the service runs)."""

    data_dir: Path

    def open(self) -> TileRegistry:
        return TileRegistry.open(self.data_dir)

    def progress(self, bonus_tiles: bool | None = None) -> dict[str, Any]:
        return progress(self.data_dir, bonus_tiles)
