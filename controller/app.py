"""The composition root: the one place where the system is put together.

    system = build(config, data_dir, table="readers")   # nothing is opened yet
    system.app          # the FastAPI app around the game loop (serve)
    system.loop         # the game loop, with the table source plugged in
    system.tokens       # the data directory's access tokens (made on first use)
    system.reader()     # the configured reader back-end, not started (readers, monitor, enroll)
    system.registry()   # the data directory's tile registry (enroll, monitor)
    system.tracker(registry)   # a presence tracker with the config's zones and timing

``serve``, ``simulate``, ``enroll``, ``monitor`` and ``readers`` all start here; every part is
made on first use, so a command that only probes the readers opens no event log and makes no
tokens. Nothing below this module imports it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Literal

from fastapi import FastAPI

from controller.config import Config, default_config
from controller.loop import GameLoop
from controller.sources.backends import channel_map, confirm_reads, open_reader
from controller.sources.base import EventSource
from controller.sources.simulation import simulation_source
from controller.sources.table import table_source
from controller.sources.virtual import SimOptions, virtual_table_source
from controller.store.tokens import Tokens, load_or_create_tokens
from controller.table import PresenceTracker, RegistryError, RegistryFile, TileRegistry
from controller.web.app import create_app
from firmware_bridge.readers import ReaderBackend

log = logging.getLogger("controller.service")

#: What feeds the game: the physical table's readers, the virtual table (simulated players on
#: virtual boards), the in-process simulation (the director's events straight to the loop), or
#: nothing but the pages (declarations and corrections only).
TableKind = Literal["readers", "virtual", "simulation", None]
#: The name the table's event source goes by (the loop's health, the log's ``source``).
TABLE_SOURCE = "table"


@dataclass
class System:
    """The parts of one table controller, each made on first use from the config."""

    config: Config
    data_dir: Path
    table: TableKind = None
    clock: Callable[[], float] = time.time
    extra_sources: dict[str, EventSource] = field(default_factory=dict)
    game_thread: bool = False  # serve: the game loop on a thread of its own (web/gamethread.py)

    # --- the hardware ---------------------------------------------------------------------

    def channels(self) -> dict[str, str]:
        """Channel -> zone: ``[table.channels]``, or the virtual table's layout for ``sim``."""
        return channel_map(self.config)

    def reader(self, buttons: bool = False) -> ReaderBackend:
        """The configured back-end, not started (with the seat buttons when ``buttons``).
        Raises firmware_bridge.errors.BridgeConfigError when the config cannot be used."""
        return open_reader(self.config, buttons)

    def registry(self, set_size: int | None = None) -> TileRegistry:
        """The data directory's tile registry (RegistryError when it cannot be used);
        ``set_size`` 136 or 144 for a new one (default: as stored, or 144)."""
        return TileRegistry.open(self.data_dir, set_size)

    def tracker(self, registry: Mapping[str, str], channels: Mapping[str, str] | None = None,
                ) -> PresenceTracker:
        """A presence tracker with the config's zones and timing."""
        readers = self.config.readers
        return PresenceTracker(dict(channels if channels is not None else self.channels()),
                               registry, absent_after=readers.absent_after,
                               move_window=max(1.0, 4 * readers.absent_after),
                               silent_after=max(3.0, 20 * readers.scan_interval),
                               confirm_reads=confirm_reads(self.config))

    # --- the service ----------------------------------------------------------------------

    @cached_property
    def loop(self) -> GameLoop:
        """The game loop with its event sources (not started: the app's lifespan starts it)."""
        loop = GameLoop(self.config, self.data_dir, self.clock)
        table = self._table_source()
        if table is not None:
            loop.add_source(*table)
        for name, source in self.extra_sources.items():
            loop.add_source(name, source)
        return loop

    @cached_property
    def tokens(self) -> Tokens:
        return load_or_create_tokens(self.data_dir)

    @cached_property
    def app(self) -> FastAPI:
        return create_app(self.loop, self.tokens, RegistryFile(self.data_dir),
                          game_thread=self.game_thread)

    def _table_source(self) -> tuple[str, EventSource] | None:
        if self.table == "virtual":
            sim = self.config.simulation
            return TABLE_SOURCE, virtual_table_source(SimOptions(
                seed=sim.seed, hands=sim.hands, pace=sim.pace,
                hand_pause=max(3.0, 8 * sim.pace), scan_ms=sim.scan_ms,
                snapshot_ms=sim.snapshot_ms, boards_apart=sim.boards_apart))
        if self.table == "simulation":
            sim = self.config.simulation
            return "simulation", simulation_source(sim.pace, sim.seed, sim.hands)
        if self.table == "readers":
            return self._readers_source()
        return None

    def _readers_source(self) -> tuple[str, EventSource] | None:
        """The physical table: readers -> presence -> moves (None, logged, when it cannot be)."""
        try:
            registry = self.registry()
        except RegistryError as exc:
            log.error("no table source: %s", exc)
            return None
        if not len(registry):
            log.warning("no tiles are enrolled in %s: every read is an unknown UID; run "
                        "`mahjong-table enroll --data-dir %s`", self.data_dir, self.data_dir)
        channels = self.channels()
        if not channels:
            log.error("no table source: the config maps no reader channel to a zone; add "
                      "[table.channels], e.g. \"centre/0\" = \"discard\"")
            return None
        source = table_source(lambda: self.reader(buttons=True), self.tracker(registry, channels),
                              tick_every=self.config.readers.scan_interval)
        return TABLE_SOURCE, source


def build(config: Config | None = None, data_dir: Path | None = None, *,
          table: TableKind = None, clock: Callable[[], float] = time.time,
          sources: Mapping[str, EventSource] | None = None) -> System:
    """The whole system from the config and the data directory (default: the config's
    ``[data] dir``); ``table`` chooses what feeds the game, ``sources`` adds more."""
    config = config or default_config()
    return System(config, Path(data_dir or config.data.dir), table, clock, dict(sources or {}))
