"""The "serial" back-end: microcontroller boards on USB serial (pyserial), one thread per board.

    backend = SerialBackend(serials=["MJT-SEAT1"])          # found via serial.tools.list_ports
    backend = SerialBackend(ports=["/dev/ttyACM0"])           # or explicit paths
    backend = SerialBackend(serials=table.serials, lookup=table.lookup)   # the virtual table
    backend.start(sink); backend.send("seat1", "buzzer", ms=200).result()

Each board thread only decodes frames and posts immutable ChannelScan / BoardHealth objects;
it keeps the per-channel UID sets needed to turn arrive/leave events into full sets.

    backend.read_on(loop); backend.start(asyncio_sink(loop, queue))   # as the service runs it

With ``read_on(loop)`` the ports are read on that event loop (the game's own) instead of in the
boards' threads: a frame is decoded and posted where it is used, one hand-over between threads
less on the way from the pty to the screens (benchmarks/bench_hops.py). Each board's thread
then only opens its port, waits while the loop serves the connection (its reads, and every
``read_timeout`` the watchdog, retransmits and requests), and opens it again when it ends.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any

import serial

from firmware_bridge import protocol as P
from firmware_bridge.errors import BridgeConfigError
from firmware_bridge.readers import ReaderBackend, running_loop
from firmware_bridge.types import BoardHealth, ChannelScan, uid_to_str

Lookup = Callable[[str], str | None]

try:  # pyserial's POSIX port raises termios.error (not an OSError) when a tty hangs up mid-open
    from termios import error as _TermiosError
    _PORT_ERRORS: tuple[type[BaseException], ...] = (serial.SerialException, OSError,
                                                     _TermiosError)
except ImportError:  # pragma: no cover - not a POSIX host
    _PORT_ERRORS = (serial.SerialException, OSError)


def find_port(serial_number: str) -> str | None:
    """The device path of the USB serial port with this serial number, if plugged in."""
    from serial.tools import list_ports

    for port in list_ports.comports():  # hex digits in either case name the same board
        if (port.serial_number or "").lower() == serial_number.lower():
            return str(port.device)
    return None


def _why(exc: BaseException) -> str:
    """One line for a board-down report: termios.error's args are (errno, text)."""
    args: tuple[Any, ...] = exc.args
    if len(args) == 2 and isinstance(args[0], int) and not isinstance(exc, OSError):
        return f"{args[1]} (errno {args[0]})"
    return str(exc) or type(exc).__name__


class BoardDown(Exception):
    """The board stopped answering (read error, EIO, or heartbeat silence)."""


_LINK_ERRORS: tuple[type[BaseException], ...] = (*_PORT_ERRORS, BoardDown)


@dataclass
class _Pending:
    frame: bytes
    future: Future[bool]
    deadline: float
    tries: int = 1
    name: str = ""  # the command's name (a hello answers every identify still pending)


@dataclass
class LinkOptions:
    baudrate: int = 115200
    heartbeat_timeout: float = 0.5  # silence longer than this = board down
    ack_timeout: float = 0.05  # retransmit an unacknowledged command after this
    retries: int = 5  # attempts before a command's future resolves False
    reconnect_s: float = 0.1  # pause between reconnect attempts
    read_timeout: float = 0.01  # also the retransmit / watchdog granularity
    # A write the port cannot take in this long (a board that stopped reading, its buffer
    # full) is dropped, not waited for: the command is retried or fails, the link goes on.
    write_timeout: float = 0.05


#: Seconds between asking a board for its hello again, until one comes on this connection.
IDENTIFY_AGAIN_S = 0.2
#: Least seconds between two snapshot requests while channels are stale (a noisy line loses a
#: block every few: the parts the board resends refresh the channels meanwhile).
RESYNC_MIN_S = 0.05
#: Seconds a link's thread waits for the event loop to let go of its port when stopping from
#: another thread (a loop that is stopping itself lets go at once: SerialBackend.stop).
LET_GO_S = 2.0
#: A pause of the link's own thread longer than this (beyond its read timeout) is the host's
#: stall, not the board's silence: the heartbeat watchdog does not count it.
STALL_S = 0.05


class BoardLink:
    """One board: connect, decode, keep channel sets, acknowledge/retry, reconnect."""

    def __init__(self, backend: SerialBackend, target: str, by_serial: bool,
                 opts: LinkOptions, lookup: Lookup | None) -> None:
        self.backend = backend
        self.target = target
        self.by_serial = by_serial
        self.opts = opts
        self.lookup = lookup
        self.name: str | None = None
        self.serial_number: str | None = target if by_serial else None
        self.channels: dict[int, set[bytes]] = {}
        self.counters = dict.fromkeys(
            ("frames", "bad_frames", "resyncs", "reconnects", "gaps", "retries", "orphans"), 0)
        self._ser: serial.Serial | None = None
        self._wlock = threading.Lock()
        self._tx_seq = 0
        self._pending: dict[int, _Pending] = {}
        self._connects = 0
        self._identified = float("-inf")
        self._greeted = False
        self._down_reported = False
        self._down_as: str | None = None  # the name the last "down" went by
        self._last_rx = self._awake = 0.0  # the last frame; the link last awake (a connection's)
        self._end: Callable[[BaseException | None], None] | None = None  # served on a loop

    # ------------------------------------------------------------ thread body
    def run(self) -> None:
        stop = self.backend.stop_event
        while not stop.is_set():
            path = self._resolve()
            if path is None:
                self._report_down(f"no serial port for board {self.target!r}: check its USB "
                                  "cable and serial number")
                stop.wait(self.opts.reconnect_s)
                continue
            try:
                self._connect(path)
                aio = self.backend.event_loop
                if aio is None:
                    self._loop()
                else:
                    self._serve_on(aio)
            except _LINK_ERRORS as exc:
                # e.g. the port vanished between its lookup and its open (a cable pulled, a
                # board reset): down, and the next turn looks the port up again.
                self._report_down(_why(exc))
            finally:
                self._disconnect()
            stop.wait(self.opts.reconnect_s)

    def _resolve(self) -> str | None:
        if not self.by_serial:
            return self.target
        if self.lookup is not None:
            return self.lookup(self.target)
        return find_port(self.target)

    def _connect(self, path: str) -> None:
        ser = serial.Serial(path, self.opts.baudrate, timeout=self.opts.read_timeout,
                            write_timeout=self.opts.write_timeout)
        with self._wlock:
            self._ser = ser
        self._decoder = P.StreamDecoder()
        self._expect: int | None = None
        self._acked_snap, self._acked_parts, self._last_seen = -1, 0, False
        # Until a snapshot part covering it arrives a channel's set may be stale (tags moved
        # while the cable was out, or a lost event): a delta on it could report a tag that left.
        self._stale: set[int] = set(self.channels)
        self._requested = float("-inf")
        self._connects += 1
        if self._connects > 1:
            self.counters["reconnects"] += 1
        # Each connection asks the board who it is until a hello comes: the hello it sent on
        # power-up was flushed by the port's open, and an identify can be lost like any command
        # (its retries run out on a busy line or a slow board). Only the hello says "up".
        self._greeted = False
        self._identified = self.backend.clock()
        self.send("identify")
        self._resync()

    def _disconnect(self) -> None:
        with self._wlock:
            ser, self._ser = self._ser, None
            pending, self._pending = self._pending, {}
        for p in pending.values():
            if not p.future.done():
                p.future.set_result(False)
        if ser is not None:
            try:
                ser.close()
            except _PORT_ERRORS:
                pass

    def _loop(self) -> None:
        """The connection served by this thread: read (waiting at most ``read_timeout``), then
        the housekeeping."""
        ser = self._ser
        assert ser is not None
        clock = self.backend.clock
        self._last_rx = self._awake = clock()
        stop = self.backend.stop_event
        while not stop.is_set():
            data = ser.read(max(1, ser.in_waiting))
            now = clock()
            self._woke(now)
            if data:
                self._feed(data, now)
            self._housekeep(ser, now)

    def _serve_on(self, aio: asyncio.AbstractEventLoop) -> None:
        """The connection served by ``aio``: the port's reads as they come (``add_reader``) and
        the housekeeping every ``read_timeout``; this thread waits until the connection ends
        (a port error, the watchdog: raised here as in ``_loop``) or the back-end stops."""
        ser = self._ser
        assert ser is not None
        clock = self.backend.clock
        ended: Future[BaseException | None] = Future()
        timer: asyncio.TimerHandle | None = None
        fd = ser.fileno()

        def end(exc: BaseException | None) -> None:
            nonlocal timer
            aio.remove_reader(fd)
            if timer is not None:
                timer.cancel()
                timer = None
            if not ended.done():
                ended.set_result(exc)

        def readable() -> None:
            try:
                data = ser.read(max(1, ser.in_waiting))  # what waits; a hang-up raises
                now = clock()
                if data:
                    self._feed(data, now)
            except Exception as exc:  # ends the connection, as in the thread's own loop
                end(exc)

        def tick() -> None:
            nonlocal timer
            try:
                now = clock()
                self._woke(now)
                self._housekeep(ser, now)
            except Exception as exc:
                end(exc)
                return
            timer = aio.call_later(self.opts.read_timeout, tick)

        def attach() -> None:
            nonlocal timer
            if ended.done():  # let go of before it was taken (stopping)
                return
            self._last_rx = self._awake = clock()
            aio.add_reader(fd, readable)
            timer = aio.call_later(self.opts.read_timeout, tick)

        stop = self.backend.stop_event
        if stop.is_set():
            return
        self._end = end  # for a stop() on the loop's own thread (SerialBackend.stop)
        try:
            aio.call_soon_threadsafe(attach)
        except RuntimeError as exc:  # the loop is closed: the service is stopping
            self._end = None
            raise BoardDown(f"no event loop to read on ({exc})") from None
        why: BaseException | None = None
        try:
            while not stop.is_set():
                try:
                    why = ended.result(timeout=0.1)
                    break
                except FutureTimeout:
                    continue
            # Stopping from another thread: the loop lets go of the port before it is closed.
            # (A stop on the loop's own thread has let go already; a loop that no longer runs
            # reads nothing more.)
            if not ended.done() and aio.is_running():
                try:
                    aio.call_soon_threadsafe(end, None)
                    ended.result(timeout=LET_GO_S)
                except (RuntimeError, FutureTimeout):
                    pass
        finally:
            self._end = None
        if why is not None:
            raise why

    def let_go(self) -> None:
        """On the loop's own thread: stop serving this link's port there (stop())."""
        end = self._end
        if end is not None:
            end(None)

    def _woke(self, now: float) -> None:
        # Silence is counted only while the link was awake to hear: a stall of the host (a
        # starved thread or loop, a busy machine) is credited to the board, whose frames wait
        # in the port's buffer meanwhile; a board that is really quiet stays quiet after it.
        stall = now - self._awake - self.opts.read_timeout
        if stall > STALL_S:
            self._last_rx += stall
        self._awake = now

    def _housekeep(self, ser: serial.Serial, now: float) -> None:
        """The watchdog, a hello asked for again, a resync due, the retransmits."""
        if now - self._last_rx > self.opts.heartbeat_timeout and not ser.in_waiting:
            raise BoardDown(f"silent for {now - self._last_rx:.2f} s")
        if not self._greeted and now - self._identified >= IDENTIFY_AGAIN_S:
            self._identified = now  # no hello yet on this connection: ask again
            self.send("identify")
        if self._stale and self.name is not None and now - self._requested >= RESYNC_MIN_S:
            self._resync()
        self._retransmit(now)

    # ------------------------------------------------------------ receiving
    def _feed(self, data: bytes, now: float) -> None:
        """Bytes from the board, read at ``now`` (the watchdog hears them)."""
        self._last_rx = now
        dec = self._decoder
        bad_before = dec.bad_frames
        blocks = dec.feed(data)
        self.counters["bad_frames"] += dec.bad_frames - bad_before
        for blk in blocks:
            if blk.direction != "board":
                self.counters["bad_frames"] += 1
                continue
            self.counters["frames"] += 1
            if self._expect is not None and blk.seq != self._expect:
                self.counters["gaps"] += 1
                self._stale = set(self.channels)
                if now - self._requested >= RESYNC_MIN_S:
                    self._resync()
            self._expect = P.next_seq(blk.seq)
            self._handle(blk.message, now)

    def _handle(self, msg: P.Message, now: float) -> None:
        kind = msg.name
        if kind == "hello":
            self._hello(msg, now)
        elif kind == "ack":
            self._acked(msg["ack_seq"], msg["status"])
        elif self.name is None:
            self.counters["orphans"] += 1  # before the hello we cannot name channels
        elif kind == "scan":
            uids = self.channels.get(msg["channel"])
            if uids is None:
                self.counters["orphans"] += 1
                return
            (uids.add if msg["present"] else uids.discard)(msg["uid"])
            if msg["channel"] not in self._stale:
                self._post_channel(msg["channel"], now)
        elif kind == "snapshot":
            self._snapshot_part(msg, now)

    def _hello(self, msg: P.Message, now: float) -> None:
        mask = msg["channels"]
        wanted = {ch for ch in range(64) if mask >> ch & 1}
        name = self.backend.names.get(msg["serial"].lower(), msg["board"])
        if self.name != name or set(self.channels) != wanted:
            self.channels = {ch: set() for ch in sorted(wanted)}
            self._stale = set(self.channels)
        if self._down_as not in (None, name):  # said down under its serial, before it was named
            self.backend.post(BoardHealth(self._down_as, "up", now, f"this is board {name}"))
        self._down_as = None
        self.name = name
        self.serial_number = msg["serial"]
        self._down_reported = False
        self._greeted = True
        self._answered("identify")
        self.backend.post(BoardHealth(self.name, "up", now, f"firmware {msg['firmware']}"))

    def _snapshot_part(self, msg: P.Message, now: float) -> None:
        """One part: its channels take exactly its UIDs (each part stands alone), then the
        part is acknowledged so that the board stops resending it."""
        first, last, entries = msg["first"], msg["last"], msg["entries"]
        if first > last or msg["part"] >= msg["parts"] or any(
                not first <= ch <= last for ch, _ in entries):
            self.counters["bad_frames"] += 1
            return
        covered = [ch for ch in self.channels if first <= ch <= last]
        for ch in covered:
            self.channels[ch] = {uid for c, uid in entries if c == ch}
            self._stale.discard(ch)
        for ch in covered:
            self._post_channel(ch, now)
        if msg["snap"] != self._acked_snap:
            self._acked_snap, self._acked_parts, self._last_seen = msg["snap"], 0, False
        self._acked_parts |= 1 << msg["part"]
        # One acknowledgement per snapshot on a clean line (at its last part); after that
        # every part that comes is a resend, and each is acknowledged.
        self._last_seen = self._last_seen or msg["part"] == msg["parts"] - 1
        if self._last_seen:
            self.send_once("snapshot_ack", snap=msg["snap"], parts=self._acked_parts)

    def _post_channel(self, ch: int, now: float) -> None:
        uids = frozenset(uid_to_str(u) for u in self.channels[ch])
        self.backend.post(ChannelScan(f"{self.name}/{ch}", uids, now))

    def _resync(self) -> None:
        self._requested = self.backend.clock()
        self.counters["resyncs"] += 1
        if self.name is not None:
            self.backend.post(BoardHealth(self.name, "resync", self.backend.clock()))
        self.send("request_snapshot")

    def _report_down(self, why: str) -> None:
        if self._down_reported:
            return
        self._down_reported = True
        # Before its first hello a board goes by the name commissioning gave its serial number
        # (the config's [table.boards]), else by that number until the hello names it.
        self._down_as = self.name or self.backend.names.get(self.target.lower(), self.target)
        self.backend.post(BoardHealth(self._down_as, "down", self.backend.clock(), why))

    # ------------------------------------------------------------ commands, ack and retry
    def send(self, name: str, **args: Any) -> Future[bool]:
        """Queue a host -> board command; the future resolves True when acknowledged."""
        fut: Future[bool] = Future()
        with self._wlock:
            if self._ser is None:
                fut.set_result(False)
                return fut
            seq = self._tx_seq
            self._tx_seq = P.next_seq(seq)
            frame = P.encode(name, seq, **args)
            old = self._pending.pop(seq, None)
            self._pending[seq] = _Pending(frame, fut, self.backend.clock() + self.opts.ack_timeout,
                                          name=name)
            self._write_locked(frame)
        if old is not None and not old.future.done():
            old.future.set_result(False)
        return fut

    def send_once(self, name: str, **args: Any) -> None:
        """A message the board never acknowledges (snapshot_ack): written once, no retry, no
        sequence number used up (the board ignores it for these)."""
        with self._wlock:
            if self._ser is not None:
                self._write_locked(P.encode(name, self._tx_seq, **args))

    def _write_locked(self, frame: bytes) -> None:
        # A failed write is not fatal here: the reader loop sees the same fault and reconnects,
        # and an unacknowledged command is retried or resolves False.
        try:
            if self._ser is not None:
                self._ser.write(frame)
        except _PORT_ERRORS:
            pass

    def _acked(self, seq: int, status: int) -> None:
        with self._wlock:
            pending = self._pending.pop(seq, None)
        if pending is not None and not pending.future.done():
            pending.future.set_result(status == P.ACK_OK)

    def _answered(self, name: str) -> None:
        """Every ``name`` command still pending is answered (a hello answers each identify):
        none is sent again. Several identifies may be pending at once (the one on connecting,
        those asked again while a busy line lost them); retrying them after the hello would
        only make the board say hello again."""
        with self._wlock:
            done = [self._pending.pop(s) for s, p in list(self._pending.items()) if p.name == name]
        for p in done:
            if not p.future.done():
                p.future.set_result(True)

    def _retransmit(self, now: float) -> None:
        failed: list[_Pending] = []
        with self._wlock:
            for seq, p in list(self._pending.items()):
                if now < p.deadline or self._ser is None:
                    continue
                if p.tries >= self.opts.retries:
                    failed.append(self._pending.pop(seq))
                    continue
                p.tries += 1
                p.deadline = now + self.opts.ack_timeout
                self.counters["retries"] += 1
                self._write_locked(p.frame)
        for p in failed:
            if not p.future.done():
                p.future.set_result(False)


class SerialBackend(ReaderBackend):
    """Boards on USB serial, by serial number (list_ports or lookup) or by explicit path."""

    name = "serial"

    def __init__(
        self,
        ports: Sequence[str] = (),
        serials: Sequence[str] = (),
        lookup: Lookup | None = None,
        clock: Callable[[], float] = time.monotonic,
        names: Mapping[str, str] | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if not ports and not serials:
            raise BridgeConfigError("serial back-end needs ports=[...] or serials=[...] to open")
        self.clock = clock
        # USB serial number -> board name, tied at commissioning: the config, not the board's
        # own name, says which seat a board serves
        self.names = {k.lower(): v for k, v in (names or {}).items()}
        opts = LinkOptions(**options)
        self.links = [BoardLink(self, p, False, opts, None) for p in ports]
        self.links += [BoardLink(self, s, True, opts, lookup) for s in serials]

    @property
    def stop_event(self) -> threading.Event:
        return self._stop

    def start(self, sink: Any = None) -> None:
        super().start(sink)
        for link in self.links:
            self.spawn(link.run, f"serial-{link.target}")

    def stop(self) -> None:
        aio = self.event_loop
        if aio is not None and running_loop() is aio:
            # Stopped on the loop the ports are read on (a source's clean-up): it lets go of
            # them here, since it cannot run what the links' threads would ask of it meanwhile.
            for link in self.links:
                link.let_go()
        super().stop()

    def link(self, board: str) -> BoardLink:
        for link in self.links:
            if board in (link.name, link.serial_number, link.target):
                return link
        raise ValueError(f"no board {board!r} on the serial back-end")

    def send(self, board: str, name: str, **args: Any) -> Future[bool]:
        """Send a command (see protocol.MESSAGES) to a board by name, serial or port."""
        return self.link(board).send(name, **args)

    def stats(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for link in self.links:
            for key, value in link.counters.items():
                total[key] = total.get(key, 0) + value
        return total
