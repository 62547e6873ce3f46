"""The tile registry: which RFID UID is on which tile, kept in ``registry.sqlite`` in the data dir.

The rules hold for every way in (enrollment, import): a UID names one tile, a tile code must
exist, and no code is enrolled more often than the set holds it (4 each, bonus tiles once).
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from controller.tiles import Tile, TileError, check_tile, copies_allowed, is_bonus, tile_set

REGISTRY_FILE = "registry.sqlite"
SET_SIZES = (136, 144)
_UID_RE = re.compile(r"^[0-9A-F]{2}(?::[0-9A-F]{2}){3,9}$")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tiles (
    uid         TEXT PRIMARY KEY,
    tile        TEXT NOT NULL,
    enrolled_at REAL NOT NULL
);
"""


class RegistryError(ValueError):
    """A registration the rules refuse, or a registry file that cannot be used."""


@dataclass(frozen=True)
class Entry:
    """One tagged tile."""

    uid: str
    tile: Tile
    enrolled_at: float = 0.0


def normalize_uid(text: str) -> str:
    """``"04a219c1"`` or ``"04:a2:19:c1"`` -> ``"04:A2:19:C1"``; refuses what is not a tag UID."""
    compact = text.strip().replace(":", "").upper()
    uid = ":".join(compact[i : i + 2] for i in range(0, len(compact), 2))
    if not _UID_RE.match(uid):
        raise RegistryError(
            f"{text!r} is not a tag UID (4 to 10 hex bytes such as 04:A2:19:C1): a garbled read?"
        )
    return uid


class TileRegistry(Mapping[str, Tile]):
    """UID -> tile code, with the set's rules; persisted when it has a ``path``."""

    def __init__(self, set_size: int = 144, path: Path | None = None) -> None:
        if set_size not in SET_SIZES:
            raise RegistryError(f"a set has 136 or 144 tiles, not {set_size}")
        self.set_size = set_size
        self.path = path
        self._tiles: dict[str, Entry] = {}
        self._counts: Counter[Tile] = Counter()

    # --- Mapping --------------------------------------------------------------------------------

    def __getitem__(self, uid: str) -> Tile:
        return self._tiles[uid].tile

    def __iter__(self) -> Iterator[str]:
        return iter(self._tiles)

    def __len__(self) -> int:
        return len(self._tiles)

    # --- the rules ------------------------------------------------------------------------------

    @property
    def bonus_tiles(self) -> bool:
        return self.set_size == 144

    def entries(self) -> list[Entry]:
        return list(self._tiles.values())

    def count(self, tile: Tile) -> int:
        return self._counts[tile]

    def check(self, uid: str, tile: str) -> tuple[str, Tile]:
        """Return the normalised (uid, tile) if it may be added, else raise RegistryError."""
        uid = normalize_uid(uid)
        try:
            tile = check_tile(tile)
        except TileError as exc:
            raise RegistryError(str(exc)) from None
        if uid in self._tiles:
            raise RegistryError(f"UID {uid} is already enrolled as {self._tiles[uid].tile}")
        if is_bonus(tile) and not self.bonus_tiles:
            raise RegistryError(
                f"{tile} is a flower or season, not in a 136-tile set: enroll with --set 144"
            )
        if self._counts[tile] >= copies_allowed(tile):
            raise RegistryError(
                f"all {copies_allowed(tile)} {tile} of the set are already enrolled: "
                f"this would be copy {self._counts[tile] + 1}"
            )
        return uid, tile

    def add(self, uid: str, tile: str, at: float = 0.0) -> Entry:
        """Register one tile (saved at once when the registry has a file)."""
        uid, tile = self.check(uid, tile)
        entry = Entry(uid, tile, at)
        if self.path is not None:
            with _connect(self.path) as conn:
                conn.execute("INSERT INTO tiles VALUES (?, ?, ?)", (uid, tile, at))
        self._remember(entry)
        return entry

    def add_all(self, pairs: Iterable[tuple[str, str]], at: float = 0.0) -> int:
        """Register many tiles, all or none: the first refusal names its entry and adds nothing.

        An entry the registry already holds, same UID and same tile, is skipped, so that the
        same file can be imported twice.
        """
        trial = TileRegistry(self.set_size)
        for entry in self.entries():
            trial._remember(entry)
        added: list[Entry] = []
        for line, (uid, tile) in enumerate(pairs, start=1):
            try:
                known = trial._tiles.get(normalize_uid(uid))
                if known is not None and known.tile == tile:
                    continue
                added.append(trial.add(uid, tile, at))
            except RegistryError as exc:
                raise RegistryError(f"entry {line}: {exc}; nothing was imported") from None
        if self.path is not None and added:
            with _connect(self.path) as conn:
                conn.executemany("INSERT INTO tiles VALUES (?, ?, ?)",
                                 [(e.uid, e.tile, e.enrolled_at) for e in added])
        for entry in added:
            self._remember(entry)
        return len(added)

    def remove(self, uid: str) -> Entry:
        """Forget a tag (a tile enrolled by mistake); raise RegistryError if unknown."""
        uid = normalize_uid(uid)
        entry = self._tiles.get(uid)
        if entry is None:
            raise RegistryError(f"UID {uid} is not in the registry")
        if self.path is not None:
            with _connect(self.path) as conn:
                conn.execute("DELETE FROM tiles WHERE uid = ?", (uid,))
        del self._tiles[uid]
        self._counts[entry.tile] -= 1
        return entry

    def _remember(self, entry: Entry) -> None:
        self._tiles[entry.uid] = entry
        self._counts[entry.tile] += 1

    # --- the set in order -----------------------------------------------------------------------

    def next_tile(self) -> Tile | None:
        """The first tile of the set, in set order, that still lacks a tag; None when complete."""
        seen: Counter[Tile] = Counter()
        for tile in tile_set(self.bonus_tiles):
            seen[tile] += 1
            if seen[tile] > self._counts[tile]:
                return tile
        return None

    # --- files ----------------------------------------------------------------------------------

    @classmethod
    def open(cls, data_dir: str | Path, set_size: int | None = None) -> TileRegistry:
        """Load (or create) ``registry.sqlite`` in ``data_dir``; a 136 set may grow to 144."""
        path = Path(data_dir) / REGISTRY_FILE
        if not path.parent.is_dir():
            raise RegistryError(f"the data directory {path.parent} does not exist: create it or "
                                "choose another --data-dir")
        try:
            with _connect(path) as conn:
                conn.executescript(_SCHEMA)
                row = conn.execute("SELECT value FROM meta WHERE key = 'set_size'").fetchone()
                rows = conn.execute("SELECT uid, tile, enrolled_at FROM tiles ORDER BY rowid")
                stored = [Entry(*r) for r in rows]
        except sqlite3.Error as exc:
            raise RegistryError(f"cannot use the tile registry {path}: {exc}; move it away and "
                                "enroll again, or import an exported copy") from None
        current = int(row[0]) if row else None
        size = set_size or current or 144
        registry = cls(size, path)
        for entry in stored:
            registry._remember(entry)
        if size == 136 and any(is_bonus(e.tile) for e in stored):
            raise RegistryError(f"the registry {path} holds flowers or seasons: it is a 144-tile "
                                "set; use --set 144")
        if size != current:
            with _connect(path) as conn:
                conn.execute("INSERT OR REPLACE INTO meta VALUES ('set_size', ?)", (str(size),))
        return registry


@contextmanager
def _connect(path: Path) -> Iterator[sqlite3.Connection]:
    """One short transaction on the registry file: committed (and synced) or rolled back."""
    conn = sqlite3.connect(path)
    with contextlib.suppress(OSError):  # readable by the service's user only (0600)
        os.chmod(path, 0o600)
    try:
        conn.execute("PRAGMA synchronous = FULL")
        with conn:
            yield conn
    finally:
        conn.close()
