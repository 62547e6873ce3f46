"""A virtual table: virtual boards speaking the real protocol over pseudo-terminals.

    table = VirtualTable()                  # 4 seat boards + a centre board, see default_layout
    ports = table.start()                   # {board serial: pty path}
    backend = SerialBackend(serials=list(ports), lookup=table.lookup)
    backend.start(sink)
    table.place("04:A2:19:C1:5E:22:80", "seat1/3"); table.remove("04:A2:19:C1:5E:22:80")
    table.unplug("seat2"); table.replug("seat2")        # a new pty path, found via lookup
    table.board("seat3").faults.bit_error_rate = 1e-3   # also lost bytes, ghosts, silence

Or both together: `open_backend("sim")` returns a SimBackend whose `.table` is the VirtualTable.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import fields
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from firmware_bridge.readers import ReaderBackend
from firmware_bridge.serial_backend import SerialBackend
from firmware_bridge.sim_board import BoardSpec, Faults, VirtualBoard
from firmware_bridge.types import Sink, uid_from_str, uid_to_str

if TYPE_CHECKING:
    from firmware_bridge.sim_process import BoardsProcess

__all__ = ["BoardSpec", "Faults", "SimBackend", "VirtualTable", "default_layout"]


def default_layout(
    seats: int = 4, rack: int = 18, melds: int = 16, centre: int = 1, prefix: str = "MJT",
    dora: int = 0,
) -> tuple[BoardSpec, ...]:
    """One board per seat ("seat1".., rack channels then meld channels) plus a "centre" board;
    ``dora``: the riichi indicator pad's channels on the centre board (TABLE.md), after the
    discard pad's."""
    boards = [
        BoardSpec(f"seat{n}", f"{prefix}-SEAT{n}", ((f"rack:{n}", rack), (f"melds:{n}", melds)))
        for n in range(1, seats + 1)
    ]
    if centre:
        groups = (("discard", centre),) + ((("dora", dora),) if dora else ())
        boards.append(BoardSpec("centre", f"{prefix}-CENTRE", groups))
    return tuple(boards)


def check_board(name: str, boards: Iterable[str]) -> None:
    """A board of the table by name, or the ValueError that says which there are."""
    if name not in boards:
        raise ValueError(f"no virtual board {name!r}: have {sorted(boards)}")


def check_faults(names: Iterable[str]) -> None:
    """Fault knobs by name (see Faults), or the ValueError that names the unknown one."""
    known = {f.name for f in fields(Faults)}
    for key in names:
        if key not in known:
            raise ValueError(f"unknown fault {key!r}: see firmware_bridge.sim.Faults")


def layout_channels(specs: Sequence[BoardSpec]) -> list[str]:
    """Every channel of a layout, as "<board>/<n>"."""
    return [f"{s.name}/{n}" for s in specs for n in s.channels]


def layout_labels(specs: Sequence[BoardSpec]) -> dict[str, str]:
    """Channel -> its group label from the layout (e.g. "seat1/0" -> "rack:1")."""
    return {f"{s.name}/{n}": label for s in specs for n, label in s.labels().items()}


class VirtualTable:
    """Where virtual tags lie, the boards that scan them, and the serial -> pty registry."""

    def __init__(
        self,
        boards: Sequence[BoardSpec] | None = None,
        *,
        scan_ms: float = 5.0,
        snapshot_ms: float = 200.0,
        heartbeat_ms: float = 100.0,
        debounce_scans: int = 2,
        seed: int | None = None,
        registry_path: str | os.PathLike[str] | None = None,
    ) -> None:
        specs = tuple(boards) if boards is not None else default_layout()
        names = [s.name for s in specs]
        if len(set(names)) != len(names) or len({s.serial for s in specs}) != len(specs):
            raise ValueError("board names and serial numbers must be unique")
        self._lock = threading.Lock()
        self._where: dict[bytes, tuple[str, int]] = {}
        self._fields: dict[str, dict[int, set[bytes]]] = {s.name: {} for s in specs}
        self._views: dict[str, Mapping[int, frozenset[bytes]]] = {}  # per board, until a change
        self._registry: dict[str, str] = {}
        self.registry_path = Path(registry_path) if registry_path else None
        self.boards: dict[str, VirtualBoard] = {
            s.name: VirtualBoard(
                s, self._field_view(s.name), self._published, scan_ms=scan_ms,
                snapshot_ms=snapshot_ms, heartbeat_ms=heartbeat_ms,
                debounce_scans=debounce_scans, seed=None if seed is None else seed + i,
            )
            for i, s in enumerate(specs)
        }

    # ------------------------------------------------------------ life cycle
    def start(self) -> dict[str, str]:
        """Plug every board in; returns {board serial: pty path}."""
        for board in self.boards.values():
            board.start()
        return dict(self._registry)

    def stop(self) -> None:
        for board in self.boards.values():
            board.stop()

    def __enter__(self) -> VirtualTable:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------ the world above
    def place(self, uid: str, channel: str) -> None:
        """Put the tag uid on channel "<board>/<n>" (moving it from wherever it was)."""
        board, n = self._parse_channel(channel)
        raw = uid_from_str(uid)
        with self._lock:
            self._take_locked(raw)
            self._where[raw] = (board, n)
            self._fields[board].setdefault(n, set()).add(raw)
            self._views.pop(board, None)

    def place_together(self, uids: Iterable[str], channel: str) -> None:
        """Put several tags on one channel at the same instant (two tiles laid on the discard
        pad at once: the board's next sweep finds them together)."""
        board, n = self._parse_channel(channel)
        raws = [uid_from_str(u) for u in uids]
        with self._lock:
            for raw in raws:
                self._take_locked(raw)
                self._where[raw] = (board, n)
                self._fields[board].setdefault(n, set()).add(raw)
            self._views.pop(board, None)

    def cross_read(self, uid: str, channel: str, sweeps: int = 1) -> None:
        """Channel "<board>/<n>" also reads the tag uid in its board's next ``sweeps`` sweeps,
        wherever the tag lies (a neighbouring coil's field reaching it)."""
        board, n = self._parse_channel(channel)
        self.boards[board].cross_read(n, uid_from_str(uid), sweeps)

    def remove(self, uid: str) -> None:
        """Take the tag uid off the table (back to the wall); unknown UIDs are ignored."""
        with self._lock:
            self._take_locked(uid_from_str(uid))

    def clear(self) -> None:
        with self._lock:
            self._where.clear()
            for field in self._fields.values():
                field.clear()
            self._views.clear()

    def where(self, uid: str) -> str | None:
        with self._lock:
            spot = self._where.get(uid_from_str(uid))
        return f"{spot[0]}/{spot[1]}" if spot else None

    def contents(self) -> dict[str, frozenset[str]]:
        """Every occupied channel and the UIDs on it."""
        with self._lock:
            return {
                f"{b}/{n}": frozenset(uid_to_str(u) for u in uids)
                for b, field in self._fields.items() for n, uids in field.items() if uids
            }

    # ------------------------------------------------------------ boards, faults, registry
    def board(self, name: str) -> VirtualBoard:
        check_board(name, self.boards)
        return self.boards[name]

    def set_faults(self, board: str | None = None, **faults: Any) -> None:
        """Set fault knobs (see Faults) on one board, or on all when board is None."""
        check_faults(faults)
        for b in [self.board(board)] if board else self.boards.values():
            for key, value in faults.items():
                setattr(b.faults, key, value)

    def unplug(self, board: str) -> None:
        b = self.board(board)
        b.unplug()
        with self._lock:
            self._registry.pop(b.spec.serial, None)
        self._write_registry()

    def replug(self, board: str) -> str:
        """Plug the board back in on a fresh pty; returns its new path."""
        return self.board(board).plug()

    def lookup(self, serial: str) -> str | None:
        """The current pty path of the board with this USB serial number (None: unplugged)."""
        with self._lock:
            return self._registry.get(serial)

    @property
    def serials(self) -> list[str]:
        return [b.spec.serial for b in self.boards.values()]

    def names(self) -> dict[str, str]:
        """USB serial number -> board name: the virtual table's commissioning."""
        return {b.spec.serial: name for name, b in self.boards.items()}

    def channels(self) -> list[str]:
        return layout_channels([b.spec for b in self.boards.values()])

    def labels(self) -> dict[str, str]:
        """Channel -> its group label from the layout (e.g. "seat1/0" -> "rack:1")."""
        return layout_labels([b.spec for b in self.boards.values()])

    # ------------------------------------------------------------ internals
    def _field_view(self, board: str) -> Any:
        """What the board's antennas see; the same (unchanged) object until a tag under this
        board moves, so a board can tell "nothing changed" by identity (``VirtualBoard``)."""
        def view() -> Mapping[int, frozenset[bytes]]:
            with self._lock:
                seen = self._views.get(board)
                if seen is None:
                    seen = MappingProxyType(
                        {n: frozenset(u) for n, u in self._fields[board].items() if u})
                    self._views[board] = seen
                return seen
        return view

    def _published(self, board: VirtualBoard) -> None:
        with self._lock:
            if board.path:
                self._registry[board.spec.serial] = board.path
        self._write_registry()

    def _write_registry(self) -> None:
        if self.registry_path is None:
            return
        with self._lock:
            text = json.dumps(self._registry, indent=1, sort_keys=True)
        fd, tmp = tempfile.mkstemp(dir=self.registry_path.parent, prefix=".registry")
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, self.registry_path)  # atomic: a reader never sees half a file

    def _take_locked(self, raw: bytes) -> None:
        spot = self._where.pop(raw, None)
        if spot:
            self._fields[spot[0]][spot[1]].discard(raw)
            self._views.pop(spot[0], None)

    def _parse_channel(self, channel: str) -> tuple[str, int]:
        board, _, n = channel.rpartition("/")
        if board not in self.boards or not n.isdigit() or int(n) not in self.boards[
                board].spec.channels:
            raise ValueError(f"no channel {channel!r} on the virtual table: see channels()")
        return board, int(n)


def registry_lookup(path: str | os.PathLike[str]) -> Any:
    """A lookup(serial) reading a VirtualTable registry file (for a sim in another process)."""

    def lookup(serial: str) -> str | None:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError):
            return None
        found = data.get(serial)
        return found if isinstance(found, str) else None

    return lookup


class SimBackend(ReaderBackend):
    """The "sim" back-end: a VirtualTable read through the real serial back-end."""

    name = "sim"

    def __init__(self, table: VirtualTable | BoardsProcess | None = None, *,
                 serial_options: dict[str, Any] | None = None, **table_options: Any) -> None:
        super().__init__()
        # a BoardsProcess (firmware_bridge.sim_process): the same boards in a process of their own
        self.table = table if table is not None else VirtualTable(**table_options)
        self._serial_options = serial_options or {}
        self.serial: SerialBackend | None = None

    def start(self, sink: Sink | None = None) -> None:
        super().start(sink)
        self.table.start()
        self.serial = SerialBackend(serials=self.table.serials, lookup=self.table.lookup,
                                    names=self.table.names(), **self._serial_options)
        self.serial.read_on(self.event_loop)
        self.serial.start(self.post)

    def stop(self) -> None:
        if self.serial is not None:
            self.serial.stop()
        self.table.stop()
        super().stop()

    def send(self, board: str, name: str, **args: Any) -> Future[bool]:
        if self.serial is None:
            raise RuntimeError("the sim back-end is not started: call start() first")
        return self.serial.send(board, name, **args)

    def stats(self) -> dict[str, int]:
        return self.serial.stats() if self.serial else {}
