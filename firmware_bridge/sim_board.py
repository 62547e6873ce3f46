"""One virtual reader board: scans a virtual field, speaks the real protocol over a pty.

The board end of the pty stays open in this process; `unplug()` closes it (the host then reads
EIO) and `plug()` opens a fresh pty, whose path the owner publishes in its registry.
"""

from __future__ import annotations

import errno
import logging
import os
import random
import select
import threading
import time
import tty
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from firmware_bridge import protocol as P
from firmware_bridge.sim_timing import sweep_s

FIRMWARE_VERSION = "sim-1.0"
#: a heartbeat this much later than due is logged: the board's thread was held up (a host
#: that gave the virtual boards' process no CPU), which a real board, a device of its own,
#: never is. With the 0.1 s between heartbeats, the host's watchdog has then gone 0.5 s
#: without a frame (serial_backend.LinkOptions.heartbeat_timeout): it may say the board is down
HELD_UP_S = 0.4

log = logging.getLogger("firmware_bridge.sim_board")


@dataclass
class Faults:
    """Fault injection knobs for one board; change them at any time."""

    bit_error_rate: float = 0.0  # per bit, both directions
    lost_byte_rate: float = 0.0  # per byte, board -> host
    ghost_rate: float = 0.0  # per channel per scan: a random UID read for one scan (never reported)
    muted: bool = False  # board stays plugged in but sends nothing (silence)
    drop_commands: int = 0  # ignore the next n host commands entirely (no ack)
    drop_only: str = ""  # when set, only commands of this name are dropped (and counted)
    # per occupied channel per sweep: a neighbouring channel of the same board (n - 1 or
    # n + 1) also reads one of its tags for that sweep (a cross-read through a neighbour's
    # field; hardware_docs/timing.md, "The virtual table")
    cross_read_rate: float = 0.0


@dataclass(frozen=True)
class BoardSpec:
    """A board's name, USB serial number and channel groups (label, count), numbered in order."""

    name: str
    serial: str
    groups: tuple[tuple[str, int], ...]

    @property
    def channels(self) -> tuple[int, ...]:
        return tuple(range(sum(n for _, n in self.groups)))

    def labels(self) -> dict[int, str]:
        """Channel number -> group label (e.g. 0 -> "rack:1")."""
        out: dict[int, str] = {}
        for label, count in self.groups:
            for _ in range(count):
                out[len(out)] = label
        return out


@dataclass
class BoardOutputs:
    """What the host has commanded: for tests and the demo."""

    leds_on: int = 0
    leds_blink: int = 0
    buzzer_ms: list[int] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)


@dataclass
class _Outgoing:
    """A snapshot being delivered: its channel ranges and the parts the host has."""

    snap: int
    ranges: list[tuple[int, int]]
    acked: int = 0
    resend_at: float = 0.0

    @property
    def done(self) -> int:
        return (1 << len(self.ranges)) - 1


class VirtualBoard:
    """A seat or centre board: debounced scan events, periodic snapshots, heartbeats, acks.

    With ``physics`` (the default) it sweeps as the firmware on the model does
    (firmware_bridge.sim_timing): a sweep takes the time the firmware's own code takes for the
    tags in its fields (5.1 ms a field group, longer for each tag, much longer for several
    tags in one field), never less than ``scan_ms``; like the firmware it reports a tag (in a scan
    event and in every snapshot) only once it has been read in two sweeps in a row (the two
    agreeing reads: a tag read in one sweep alone is never reported)."""

    def __init__(
        self,
        spec: BoardSpec,
        field_view: Callable[[], Mapping[int, frozenset[bytes]]],
        on_plug: Callable[[VirtualBoard], None],
        *,
        scan_ms: float = 5.0,
        snapshot_ms: float = 200.0,
        heartbeat_ms: float = 100.0,
        debounce_scans: int = 2,
        resend_ms: float = 20.0,
        seed: int | None = None,
        physics: bool = True,
    ) -> None:
        self.spec = spec
        self.physics = physics
        self.sweep_s = 0.0  # the last sweep's time by the model (0 without physics)
        self.faults = Faults()
        self.outputs = BoardOutputs()
        #: how late the latest heartbeats held up were (HELD_UP_S), the last hundred
        self.held_up: deque[float] = deque(maxlen=100)
        self.scan_s = scan_ms / 1000
        self.snapshot_s = snapshot_ms / 1000
        self.heartbeat_s = heartbeat_ms / 1000
        self.debounce_scans = debounce_scans
        self.resend_s = resend_ms / 1000
        self.path: str | None = None
        self._field_view = field_view
        self._on_plug = on_plug
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._master = -1
        self._slave = -1
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._boot()

    # ------------------------------------------------------------ plug and power
    def _boot(self) -> None:
        """Power-on state: nothing reported yet, counters from zero."""
        self.reported: dict[int, set[bytes]] = {ch: set() for ch in self.spec.channels}
        self._missing: dict[tuple[int, bytes], int] = {}
        self._once: set[tuple[int, bytes]] = set()  # read in the last sweep only: not reported
        self._last_view: object = None  # the field last scanned, when reported exactly
        self._cross: dict[tuple[int, bytes], int] = {}  # injected cross-reads: sweeps left
        self._seq = 0
        self._snap = 0
        self._scans = 0
        self._boot_t = time.monotonic()
        self._decoder = P.StreamDecoder()
        self._tail = b""  # the part of a block the pty did not take
        self._out: _Outgoing | None = None  # the snapshot whose parts are not all acknowledged

    def plug(self) -> str:
        """Connect (power up) the board on a fresh pty; returns the host-side path."""
        with self._lock:
            self._close_fds()
            master, slave = os.openpty()
            tty.setraw(slave)
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            self.path = os.ttyname(slave)
            self._boot()
            self._send_locked(self._hello())
        self._on_plug(self)
        return self.path

    def unplug(self) -> None:
        """Pull the USB cable: both pty ends close, the host's next read fails."""
        with self._lock:
            self._close_fds()
            self.path = None

    @property
    def plugged(self) -> bool:
        return self._master >= 0

    def _close_fds(self) -> None:
        for fd in (self._master, self._slave):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1

    # ------------------------------------------------------------ the board's main loop
    def start(self) -> str:
        path = self.plug()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"sim-{self.spec.name}",
                                        daemon=True)
        self._thread.start()
        return path

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        with self._lock:
            self._close_fds()

    def _run(self) -> None:
        next_scan = next_snap = next_beat = time.monotonic()
        while not self._stop.is_set():
            now = time.monotonic()
            due = min(next_scan, next_snap, next_beat)
            if self._out is not None:
                due = min(due, self._out.resend_at)
            self._poll_commands(max(0.0, due - now))
            now = time.monotonic()
            with self._lock:
                if self._master < 0:
                    next_beat = now  # unplugged: no heartbeat is due
                    continue
                if now >= next_scan:
                    self._scan_locked()
                    next_scan = now + max(self.scan_s, self.sweep_s)
                if self._out is not None:
                    next_snap = now + self.snapshot_s
                    if now >= self._out.resend_at:
                        self._resend_locked()
                elif now >= next_snap:
                    self._snapshot_locked()
                    next_snap = now + self.snapshot_s
                if now >= next_beat:
                    self._held_up(now - next_beat)
                    uptime = int((now - self._boot_t) * 1000) & 0xFFFFFFFF
                    self._emit_locked("heartbeat", uptime_ms=uptime, scans=self._scans)
                    next_beat = now + self.heartbeat_s

    def _held_up(self, late: float) -> None:
        if late >= HELD_UP_S:
            self.held_up.append(late)
            log.warning("virtual board %s: its heartbeat went out %.2f s late (its thread "
                        "got no CPU: the host is overloaded); the service may report it down "
                        "and its channels silent", self.spec.name, late)

    def _poll_commands(self, timeout: float) -> None:
        fd = self._master
        if fd < 0:
            time.sleep(timeout or 0.001)
            return
        try:
            ready, _, _ = select.select([fd], [], [], timeout)
            data = os.read(fd, 4096) if ready else b""
        except OSError:  # unplugged meanwhile, or the host end is closed
            time.sleep(0.001)
            return
        if data:
            with self._lock:
                data = self._corrupt(data)
                for blk in self._decoder.feed(data):
                    self._command_locked(blk)

    # ------------------------------------------------------------ scanning
    def _scan_locked(self) -> None:
        self._scans += 1
        seen = self._field_view()
        if self.physics:
            self.sweep_s = sweep_s(len(self.spec.channels),
                                   {ch: len(uids) for ch, uids in seen.items() if uids})
        cross = self._cross_reads_locked(seen)
        if seen is self._last_view and not self.faults.ghost_rate and not cross:
            return  # the field reported exactly, unchanged since: nothing to say
        ghosted = bool(cross)
        once, self._once = self._once, set()
        for ch in self.spec.channels:
            now_seen = set(seen.get(ch, ())) | cross.get(ch, set())
            if self.faults.ghost_rate and self._rng.random() < self.faults.ghost_rate:
                now_seen.add(bytes([0x04]) + self._rng.randbytes(6))
                ghosted = True
            reported = self.reported[ch]
            for uid in now_seen - reported:
                if (ch, uid) not in once:  # a first read: reported only if the next agrees
                    self._once.add((ch, uid))
                    continue
                reported.add(uid)
                self._emit_locked("scan", channel=ch, present=1, uid=uid)
            for uid in list(reported - now_seen):
                misses = self._missing.get((ch, uid), 0) + 1
                if misses >= self.debounce_scans:
                    reported.discard(uid)
                    self._missing.pop((ch, uid), None)
                    self._emit_locked("scan", channel=ch, present=0, uid=uid)
                else:
                    self._missing[(ch, uid)] = misses
            for key in [k for k in self._missing if k[0] == ch and k[1] in now_seen]:
                del self._missing[key]
        # reported == seen now, unless a ghost was added, a departure is still debounced or a
        # first read waits for its second
        self._last_view = seen if not ghosted and not self._missing and not self._once else None

    def cross_read(self, channel: int, uid: bytes, sweeps: int = 1) -> None:
        """Channel ``channel`` reads the tag ``uid`` in its next ``sweeps`` sweeps, wherever
        the tag lies: a neighbour's field reaching it (what the jig checks a built rack for)."""
        with self._lock:
            self._cross[(channel, uid)] = sweeps

    def cross_reads_left(self) -> int:
        """How many injected cross-read sweeps are still to come (0: all swept)."""
        with self._lock:
            return sum(self._cross.values())

    @property
    def sweeps(self) -> int:
        """Sweeps since power-up (the heartbeat's ``scans``)."""
        return self._scans

    def _cross_reads_locked(self, seen: Mapping[int, frozenset[bytes]]) -> dict[int, set[bytes]]:
        """This sweep's cross-reads: the injected ones, and at ``cross_read_rate`` a tag of an
        occupied channel read by a neighbouring channel too."""
        out: dict[int, set[bytes]] = {}
        for key, left in list(self._cross.items()):
            out.setdefault(key[0], set()).add(key[1])
            if left <= 1:
                del self._cross[key]
            else:
                self._cross[key] = left - 1
        rate = self.faults.cross_read_rate
        if rate:
            for ch, uids in seen.items():
                if uids and self._rng.random() < rate:
                    n = ch + self._rng.choice((-1, 1))
                    if n in self.spec.channels:
                        out.setdefault(n, set()).add(self._rng.choice(sorted(uids)))
        return out

    def _entries_locked(self) -> list[tuple[int, bytes]]:
        return P.fit_entries((ch, uid) for ch in self.spec.channels for uid in self.reported[ch])

    def _snapshot_locked(self) -> None:
        """A new snapshot: every part sent now, and again until the host acknowledges it."""
        while self._scans < 2:  # just plugged in: the field is read twice first, or every
            self._scan_locked()  # channel would be reported empty
        entries = self._entries_locked()
        self._snap = (self._snap + 1) & 0xFF
        out = _Outgoing(self._snap, P.snapshot_ranges(entries))
        self._out = out
        self._send_parts_locked(out, entries, range(len(out.ranges)))

    def _resend_locked(self) -> None:
        """Resend the unacknowledged parts with their ranges' state now (a range that no
        longer fits one block starts a new snapshot)."""
        out = self._out
        assert out is not None
        entries = self._entries_locked()
        if any(sum(2 + len(u) for c, u in entries if a <= c <= b) > P.SNAPSHOT_ROOM
               for a, b in out.ranges):
            self._snapshot_locked()
            return
        todo = [i for i in range(len(out.ranges)) if not out.acked >> i & 1]
        self._send_parts_locked(out, entries, todo)

    def _send_parts_locked(self, out: _Outgoing, entries: list[tuple[int, bytes]],
                           parts: Iterable[int]) -> None:
        for i in parts:
            first, last = out.ranges[i]
            self._emit_locked("snapshot", snap=out.snap, part=i, parts=len(out.ranges),
                              first=first, last=last, entries=P.in_range(entries, (first, last)))
        out.resend_at = time.monotonic() + self.resend_s

    def _snapshot_acked_locked(self, snap: int, mask: int) -> None:
        out = self._out
        if out is None or snap != out.snap:
            return
        out.acked |= mask
        if out.acked & out.done == out.done:
            self._out = None

    # ------------------------------------------------------------ commands from the host
    def _command_locked(self, blk: P.Block) -> None:
        msg = blk.message
        if blk.direction != "host":
            return
        if self.faults.drop_commands > 0 and self.faults.drop_only in ("", msg.name):
            self.faults.drop_commands -= 1
            return
        if msg.name == "snapshot_ack":  # never acknowledged itself
            self._snapshot_acked_locked(msg["snap"], msg["parts"])
            return
        self.outputs.commands.append(msg.name)
        self._apply_locked(msg)  # before the ack: once acknowledged, the effect is visible
        self._emit_locked("ack", ack_seq=blk.seq, status=P.ACK_OK)
        if msg.name == "identify":
            self._send_locked(self._hello())
        elif msg.name == "request_snapshot":
            self._snapshot_locked()

    def _apply_locked(self, msg: P.Message) -> None:
        if msg.name == "set_leds":
            self.outputs.leds_on, self.outputs.leds_blink = msg["on"], msg["blink"]
        elif msg.name == "buzzer":
            self.outputs.buzzer_ms.append(msg["ms"])
        elif msg.name == "scan_rate":
            self.scan_s = max(1, msg["scan_ms"]) / 1000
            self.snapshot_s = max(10, msg["snapshot_ms"]) / 1000

    def _hello(self) -> bytes:
        mask = 0
        for ch in self.spec.channels:
            mask |= 1 << ch
        block = P.encode("hello", self._seq, proto=P.PROTOCOL_VERSION,
                         firmware=FIRMWARE_VERSION, serial=self.spec.serial,
                         board=self.spec.name, channels=mask)
        self._seq = P.next_seq(self._seq)
        return block

    # ------------------------------------------------------------ the wire, with faults
    def _emit_locked(self, name: str, **args: object) -> None:
        block = P.encode(name, self._seq, **args)
        self._seq = P.next_seq(self._seq)
        self._send_locked(block)

    def _send_locked(self, block: bytes) -> None:
        if self._master < 0 or self.faults.muted:
            return
        data = self._corrupt(block)
        if self.faults.lost_byte_rate:
            rate = self.faults.lost_byte_rate
            data = bytes(b for b in data if self._rng.random() >= rate)
        data, self._tail = self._tail + data, b""
        try:
            sent = os.write(self._master, data)
        except OSError as exc:  # host not reading (buffer full) or gone: a real board drops too
            if exc.errno not in (errno.EAGAIN, errno.EIO, errno.EBADF):
                raise
            return
        if sent < len(data):  # the pty took part of a block: the rest goes first next time,
            self._tail = data[sent:]  # as a USB CDC board finishes a packet it has begun

    def _corrupt(self, data: bytes) -> bytes:
        ber = self.faults.bit_error_rate
        if not ber:
            return data
        out = bytearray(data)
        for i in range(len(out)):
            for bit in range(8):
                if self._rng.random() < ber:
                    out[i] ^= 1 << bit
        return bytes(out)
