"""The virtual table's physical world: which tagged tile lies on which antenna.

The director speaks tile codes ("move 5b from rack:2 to discard"); a physical table moves one
particular tagged tile. ``TileBox`` gives every tile of the set a made-up NTAG-style UID (and so
a registry), ``SimWorld`` picks the physical tile a move concerns and puts it on a free antenna
of the target zone of a :class:`firmware_bridge.sim.VirtualTable`. Nothing here talks to the
game: the readers, the presence tracker and the engine have to notice the move by themselves.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from controller.tiles import Tile, tile_set

#: Where a tile is when no reader sees it.
OFF_TABLE = ("wall", "river")


class TableLike(Protocol):
    """What the world needs of a virtual table (firmware_bridge.sim.VirtualTable)."""

    def place(self, uid: str, channel: str) -> None: ...
    def remove(self, uid: str) -> None: ...
    def labels(self) -> dict[str, str]: ...


class WorldError(RuntimeError):
    """The director asked for a physical move that cannot be made."""


class TileBox:
    """A tagged set: each tile has its own UID (7 bytes, first byte 0x04 as on NTAG213)."""

    def __init__(self, bonus_tiles: bool, seed: int = 0,
                 misread: tuple[Tile, Tile] | None = None) -> None:
        rng = random.Random(f"tile-box-{seed}")
        self.uids: dict[Tile, list[str]] = {}  # by the tiles' faces
        self.registry: dict[str, Tile] = {}  # by what their tags were enrolled as
        for tile in tile_set(bonus_tiles):
            uid = "04:" + ":".join(f"{rng.randrange(256):02X}" for _ in range(6))
            while uid in self.registry:  # astronomically rare; keep UIDs unique anyway
                uid = "04:" + ":".join(f"{rng.randrange(256):02X}" for _ in range(6))
            self.uids.setdefault(tile, []).append(uid)
            self.registry[uid] = tile
        if misread is not None:  # a fault to correct: one tile's tag enrolled as another tile
            face, read_as = misread
            self.registry[self.uids[face][0]] = read_as
        self.face = {uid: tile for tile, uids in self.uids.items() for uid in uids}


class SimWorld:
    """The physical truth of the virtual table: tile UIDs on antennas, moved on request."""

    def __init__(self, table: TableLike, box: TileBox) -> None:
        self.table = table
        self.box = box
        self.zone_channels: dict[str, list[str]] = {}
        for channel, zone in sorted(table.labels().items(), key=_channel_order):
            self.zone_channels.setdefault(zone, []).append(channel)
        self.where: dict[str, str] = {uid: "wall" for uid in box.registry}
        self._load: dict[str, int] = {}  # channel -> tags on it
        self._channel_of: dict[str, str] = {}  # uid -> the antenna it lies on

    def perform(self, move: Mapping[str, Any]) -> str:
        """Carry out a ``move`` event physically; returns the UID of the tile that moved."""
        tile, source, target = move["tile"], move["from"], move["to"]
        uid = self._pick(tile, source)
        self._take(uid)
        if target in OFF_TABLE or target not in self.zone_channels:
            self.where[uid] = target if target in OFF_TABLE else "river"
            return uid
        channel = min(self.zone_channels[target], key=lambda c: self._load.get(c, 0))
        self.table.place(uid, channel)
        self._load[channel] = self._load.get(channel, 0) + 1
        self.where[uid] = target
        self._channel_of[uid] = channel
        return uid

    def lay_out(self, zones: Mapping[str, Sequence[Tile]]) -> None:
        """Put tiles where a (replayed) game has them, e.g. after a restart of the service."""
        for zone, tiles in sorted(zones.items()):
            for tile in tiles:
                self.perform({"tile": tile, "from": "wall", "to": zone})

    def faces(self) -> dict[str, Counter[Tile]]:
        """Zone -> the tiles lying there by their faces (what the players see), on the table."""
        zones: dict[str, Counter[Tile]] = {}
        for uid, zone in self.on_table().items():
            zones.setdefault(zone, Counter())[self.box.face[uid]] += 1
        return zones

    def on_table(self) -> dict[str, str]:
        """UID -> zone for every tile a reader can see."""
        return {u: z for u, z in self.where.items() if z not in OFF_TABLE}

    def reset(self) -> None:
        """Everything back to the wall (a new hand), including the river pile."""
        for uid in list(self.on_table()):
            self._take(uid)
        self.where = dict.fromkeys(self.where, "wall")

    # ------------------------------------------------------------------ internals
    def _pick(self, tile: Tile, source: str) -> str:
        """The physical copy of ``tile`` that lies in ``source`` (off the table: wall copies
        before river ones; nobody reads either)."""
        wanted: Iterable[str] = OFF_TABLE if source in OFF_TABLE else (source,)
        for zone in wanted:
            for uid in self.box.uids.get(tile, ()):
                if self.where[uid] == zone:
                    return uid
        raise WorldError(f"no {tile} in {source} on the virtual table")

    def _take(self, uid: str) -> None:
        channel = self._channel_of.pop(uid, None)
        if channel is not None:
            self.table.remove(uid)
            self._load[channel] -= 1


def _channel_order(item: tuple[str, str]) -> tuple[str, int]:
    board, _, n = item[0].rpartition("/")
    return board, int(n) if n.isdigit() else 0
