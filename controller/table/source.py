"""The table as an event source of the service: reader back-end -> presence tracker -> events.

``plug(service, config, simulate)`` is the hook ``mahjong-table serve`` calls; the async
generator of :func:`table_source` runs on the service's loop, reader threads only post scans.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from controller.table.presence import PresenceTracker
from controller.table.registry import RegistryError, TileRegistry
from firmware_bridge.readers import ReaderBackend

log = logging.getLogger("controller.table")

SOURCE = "table"
#: Seat buttons (firmware_bridge ButtonPress.button) -> the declaration they make.
BUTTON_CALLS = {"call": "claim", "ready": "ready", "mahjong": "mahjong"}
#: The name the seat buttons' health goes by (service.reader_health, `readers`).
BUTTONS_BOARD = "buttons"
Event = dict[str, Any]
#: Zones no reader sees (controller.game.zones.OFF_TABLE).
OFF_TABLE = ("wall", "river")


def plug(service: Any, config: Any, simulate: bool) -> bool:
    """Add the readers of ``config`` as the service's table source; False when not plugged.

    With ``simulate`` the virtual table is plugged: simulated players move tagged tiles on
    virtual reader boards, read back through the real serial path (controller.sim).
    """
    if simulate:
        from controller.sim.runner import SimOptions, virtual_table_source

        sim = config.simulation
        service.add_source(SOURCE, virtual_table_source(SimOptions(
            seed=sim.seed, hands=sim.hands, pace=sim.pace, hand_pause=max(3.0, 8 * sim.pace))))
        return True
    try:
        registry = TileRegistry.open(service.data_dir)
    except RegistryError as exc:
        log.error("no table source: %s", exc)
        return False
    if not len(registry):
        log.warning("no tiles are enrolled in %s: every read is an unknown UID; run "
                    "`mahjong-table enroll --data-dir %s`", service.data_dir, service.data_dir)
    readers = config.readers
    channels = dict(config.table.channels) or _sim_channels(readers.backend)
    if not channels:
        log.error("no table source: the config maps no reader channel to a zone; add "
                  "[table.channels], e.g. \"centre/0\" = \"discard\"")
        return False
    tracker = PresenceTracker(channels, registry,
                              absent_after=readers.absent_after,
                              move_window=max(1.0, 4 * readers.absent_after),
                              silent_after=max(3.0, 20 * readers.scan_interval))
    service.add_source(SOURCE, table_source(lambda: open_reader(readers, config.table), tracker,
                                            tick_every=readers.scan_interval))
    return True


def _sim_channels(backend: str) -> dict[str, str]:
    """The virtual table's own channel -> zone map, when the config gives none."""
    if backend != "sim":
        return {}
    from firmware_bridge.sim import default_layout

    return {f"{b.name}/{n}": label for b in default_layout() for n, label in b.labels().items()}


def open_reader(readers: Any, table: Any = None) -> Any:
    """The configured firmware_bridge back-end (not started); ValueError when it cannot be.

    With ``table`` (the config's [table]) giving seat button pins or a buzzer, the back-end
    comes wrapped in :class:`WithSeatIO`, so that button presses join the scans.
    """
    from firmware_bridge.readers import open_backend

    if readers.backend == "serial":
        backend = open_backend("serial", ports=list(readers.serial.ports),
                               baudrate=readers.serial.baudrate)
    elif readers.backend == "sim":
        backend = open_backend("sim", seed=readers.sim.seed)
    elif readers.backend == "mfrc522":
        spi = readers.mfrc522
        if not spi.chips:
            raise ValueError("the mfrc522 back-end has no chips: list them in [readers.mfrc522] "
                             "chips, e.g. [{bus = 0, device = 0, pin_rst = 25}]")
        # cycle_s: a pause between poll cycles, so that a table of few chips does not spin
        backend = open_backend("mfrc522", readers=spi.readers(), board=spi.board,
                               speed_hz=spi.speed_hz, cycle_s=readers.scan_interval / 2)
    else:
        raise ValueError(f"unknown reader back-end {readers.backend!r}")
    if table is not None and (table.seat_pins() or table.buzzer_pin is not None):
        return WithSeatIO(backend, table.seat_pins(), table.buzzer_pin)
    return backend


class WithSeatIO(ReaderBackend):
    """A reader back-end and the seat buttons (firmware_bridge.seat_io) as one back-end.

    Presses are posted beside the scans. Seat I/O that cannot start (no RPi.GPIO off a Pi, pins
    in use) is reported as ``BoardHealth("buttons", "down")``; the readers go on without it.
    """

    name = "with-seat-io"

    def __init__(self, backend: ReaderBackend, seats: dict[int, dict[str, int]],
                 buzzer_pin: int | None = None) -> None:
        from firmware_bridge.seat_io import SeatIO

        super().__init__()
        self.backend = backend
        self.seat_io = SeatIO(seats, buzzer_pin=buzzer_pin, on_press=self.post)
        self.buttons_up = False

    def start(self, sink: Any = None) -> None:
        from firmware_bridge.types import BoardHealth

        super().start(sink)
        self.backend.start(self.post)
        try:
            self.seat_io.start()
        except (ImportError, RuntimeError, OSError, ValueError) as exc:
            self.post(BoardHealth(BUTTONS_BOARD, "down", time.monotonic(),
                                  f"seat buttons not started ({exc}): on a Pi install the `pi` "
                                  "extra and check the pins in [table.seats]"))
            return
        self.buttons_up = True
        self.post(BoardHealth(BUTTONS_BOARD, "up", time.monotonic(),
                              f"{len(self.seat_io.seats)} seat(s) with buttons"))

    def stop(self) -> None:
        if self.buttons_up:
            self.seat_io.stop()
            self.buttons_up = False
        self.backend.stop()
        super().stop()

    def set_turn(self, seat: int | None) -> None:
        """Light the turn LED of ``seat`` (None: all off), when the buttons run."""
        if self.buttons_up:
            self.seat_io.set_turn(seat)

    def flag_violation(self, seconds: float = 0.4) -> None:
        """Sound the buzzer: the game has just refused a move or a call (TABLE.md)."""
        if self.buttons_up:
            self.seat_io.buzz(seconds)

    def stats(self) -> dict[str, int]:
        return self.backend.stats()


def table_source(
    open_backend: Callable[[], Any], tracker: PresenceTracker, tick_every: float = 0.1,
    clock: Callable[[], float] = time.monotonic,
) -> Callable[[Any], AsyncIterator[tuple[Event, str]]]:
    """An EventSource: scans from the back-end through ``tracker``; moves, anomalies and
    button declarations go to the service. ``clock`` must be the back-end's scan clock."""

    async def source(service: Any) -> AsyncIterator[tuple[Event, str]]:
        from firmware_bridge.readers import asyncio_sink

        queue: asyncio.Queue[Any] = asyncio.Queue()
        tracker.set_hand_over(hand_is_over(service))  # first: it drops earlier adoptions
        tracker.adopt(game_zones(service))  # a restarted service: the tiles are already out
        backend = open_backend()
        backend.start(asyncio_sink(asyncio.get_running_loop(), queue))
        set_turn = getattr(backend, "set_turn", None)
        flag = getattr(backend, "flag_violation", None)
        unsubscribe = service.subscribe(_buzzer(flag)) if flag is not None else None
        last_tick = clock()
        reader = QueueReader(queue)
        seen = Followed()
        try:
            while True:
                item = await reader.get(tick_every)
                follow_corrections(service, tracker, seen)  # an operator's undo, a misread
                events = follow_hand(service, tracker) + bridge_events(item, tracker, service)
                if clock() - last_tick >= tick_every:
                    last_tick = clock()
                    events += tracker.tick(last_tick)
                for event in events:
                    yield event, SOURCE
                    for cleared in follow_hand(service, tracker):
                        yield cleared, SOURCE
                    if set_turn is not None:  # the seat LEDs show whose turn it is
                        set_turn((service.public_view().get("hand") or {}).get("turn"))
        finally:
            if unsubscribe is not None:
                unsubscribe()
            reader.close()
            backend.stop()

    return source


def _buzzer(flag: Callable[[], None]) -> Callable[[Any], None]:
    """A service listener that sounds the table's buzzer for every violation, from any source
    (a move, a button, the dashboard): the table hears it the moment it happens."""

    def listener(change: Any) -> None:
        applied = getattr(change, "applied", None)
        if applied is not None and applied.violation is not None:
            flag()

    return listener


class QueueReader:
    """Takes from an asyncio queue with a timeout, never losing an item.

    ``asyncio.wait_for(queue.get(), t)`` can drop an item that arrives just as the timeout
    fires (CPython before 3.12): that could lose a seat's button press. Here the pending get
    survives the timeout and delivers its item on the next call.
    """

    def __init__(self, queue: asyncio.Queue[Any]) -> None:
        self.queue = queue
        self._get: asyncio.Future[Any] | None = None

    async def get(self, timeout: float) -> Any | None:
        """The next item, or None when none came within ``timeout`` seconds."""
        if self._get is None:
            self._get = asyncio.ensure_future(self.queue.get())
        done, _ = await asyncio.wait({self._get}, timeout=timeout)
        if not done:
            return None
        item, self._get = self._get.result(), None
        return item

    def close(self) -> None:
        if self._get is not None:
            self._get.cancel()


def bridge_events(item: Any, tracker: PresenceTracker, service: Any) -> list[Event]:
    """One thing from the bridge: a scan, a board's health, a seat button."""
    from firmware_bridge.types import BoardHealth, ButtonPress, ChannelScan

    if isinstance(item, ChannelScan):
        return tracker.scan(item)
    if isinstance(item, BoardHealth):
        service.reader_health[item.board] = {"ok": item.state == "up", "state": item.state,
                                             "message": item.detail}
        return []
    if isinstance(item, ButtonPress) and item.button in BUTTON_CALLS:
        return [{"declare": {"seat": item.seat, "call": BUTTON_CALLS[item.button]}}]
    return []


@dataclass
class Followed:
    """What :func:`follow_corrections` has told a tracker already."""

    seq: int = -1
    corrections: int = 0


def follow_corrections(service: Any, tracker: PresenceTracker, seen: Followed) -> None:
    """Tell the tracker what the game's corrections mean for the tiles (cheap when nothing
    changed): which tiles lying out of place are to go back to the wall (an undone draw), and,
    after an operator's correction, a misread tile's code (its tag is read as the corrected
    tile from now on; enroll it again)."""
    from controller.game import lying

    state = service.state
    if state.seq == seen.seq:
        return
    seen.seq = state.seq
    tracker.expect_to_wall((put, tile) for tile, put, home in state.misplaced
                           if home in OFF_TABLE and put.startswith(("rack:", "melds:")))
    if state.corrections == seen.corrections:
        return
    seen.corrections = state.corrections
    read = tracker.zone_tiles()
    for zone, counts in lying(state).items():
        if zone in OFF_TABLE:
            continue
        only_read, only_game = Counter(read.get(zone, [])) - counts, counts - Counter(
            read.get(zone, []))
        if sum(only_read.values()) == 1 and sum(only_game.values()) == 1:
            (old,), (new,) = only_read, only_game
            if tracker.relabel(zone, old, new):  # no tile codes in the log: they may be concealed
                log.warning("a misread tile in %s was corrected: its tag is read as the "
                            "corrected tile from now on; enroll it again", zone)


def follow_hand(service: Any, tracker: PresenceTracker) -> list[Event]:
    """Tell the tracker whether a hand is over (tiles then leave for the wall, not missing)."""
    over = hand_is_over(service)
    return tracker.set_hand_over(over) if over != tracker.hand_over else []


def hand_is_over(service: Any) -> bool:
    """No hand in play: none started yet, or the last one is over (its tiles may lie out)."""
    hand = service.public_view().get("hand") or {}
    return hand.get("phase") in (None, "over")


def game_zones(service: Any) -> dict[str, list[str]]:
    """Zone -> tile codes where the tiles lie as the service's game knows it (a finished hand
    that is not cleared yet included, tiles out of place where they were put)."""
    from controller.game import lying

    zones = lying(service.state)
    if not zones:
        return {}
    out = {zone: sorted(counts.elements()) for zone, counts in zones.items() if zone != "wall"}
    out.setdefault("river", [])
    return out
