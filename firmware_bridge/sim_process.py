"""The virtual boards in a process of their own, as real boards are devices of their own.

    table = BoardsProcess(scan_ms=20, snapshot_ms=250)   # the firmware's own timings
    backend = SimBackend(table=table)                    # the real serial back-end reads them

`BoardsProcess` has the `VirtualTable` calls the simulation uses (place, remove, clear, faults,
unplug/replug, lookup, labels); each is one JSON line on the child's stdin, carried out there
in order by a `VirtualTable` whose boards write their frames on pseudo-terminals that this
process opens by path. The child answers on its stdout with the board registry (serial ->
pty path) whenever it changes. So the boards' scanning threads take no time from the host's
interpreter, as on the table, where each board is a microcontroller.

The child ends when its stdin closes (the host stopped or died): no board outlives the host.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterable, Sequence
from typing import IO, Any

from firmware_bridge.sim import (
    VirtualTable,
    check_board,
    check_faults,
    default_layout,
    layout_channels,
    layout_labels,
)
from firmware_bridge.sim_board import BoardSpec
from firmware_bridge.types import uid_from_str

__all__ = ["BoardsProcess", "main"]

#: How long the host waits for the child's registry after starting it or replugging a board.
START_TIMEOUT = 20.0


class BoardsProcessError(RuntimeError):
    """The boards' process did not start or stopped answering."""


class BoardsProcess:
    """A `VirtualTable` (default layout) run by a child process; see the module docstring."""

    #: The child's command line; it must end in ``main()`` of this module.
    command: Sequence[str] = (sys.executable, "-m", "firmware_bridge.sim_process")

    def __init__(self, *, scan_ms: float = 20.0, snapshot_ms: float = 250.0,
                 heartbeat_ms: float = 100.0, debounce_scans: int = 2,
                 seed: int | None = None, dora: int = 0) -> None:
        self.options = {"scan_ms": scan_ms, "snapshot_ms": snapshot_ms,
                        "heartbeat_ms": heartbeat_ms, "debounce_scans": debounce_scans,
                        "seed": seed, "dora": dora}
        self.specs: tuple[BoardSpec, ...] = default_layout(dora=dora)
        self.boards = tuple(s.name for s in self.specs)  # as VirtualTable.boards' keys
        self._channels = frozenset(self.channels())
        self._registry: dict[str, str] = {}
        self._changed = threading.Condition()
        self._version = 0
        self._child: subprocess.Popen[str] | None = None
        self._write_lock = threading.Lock()

    # ------------------------------------------------------------ life cycle
    def start(self) -> dict[str, str]:
        """Start the child with every board plugged in; returns {board serial: pty path}."""
        self._child = subprocess.Popen(
            [*self.command, json.dumps(self.options)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, bufsize=1)
        threading.Thread(target=self._read, args=(self._child.stdout,),
                         name="sim-boards-process", daemon=True).start()
        self._wait_registry(0, "start")
        with self._changed:
            return dict(self._registry)

    def stop(self) -> None:
        child, self._child = self._child, None
        if child is None:
            return
        try:
            if child.stdin is not None:
                child.stdin.close()  # the child's signal to stop
        except OSError:
            pass
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait(timeout=5)

    def __enter__(self) -> BoardsProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------ the world above
    def place(self, uid: str, channel: str) -> None:
        """Put the tag uid on channel "<board>/<n>" (moving it from wherever it was)."""
        if channel not in self._channels:
            raise ValueError(f"no channel {channel!r} on the virtual table: see channels()")
        uid_from_str(uid)  # a malformed UID is the caller's error here, not the child's end
        self._send({"op": "place", "uid": uid, "channel": channel})

    def remove(self, uid: str) -> None:
        uid_from_str(uid)
        self._send({"op": "remove", "uid": uid})

    def clear(self) -> None:
        self._send({"op": "clear"})

    def set_faults(self, board: str | None = None, **faults: Any) -> None:
        """Set fault knobs (see Faults) on one board, or on all when board is None; checked
        here, so that a wrong name is the caller's error and never stops the boards."""
        if board is not None:
            check_board(board, self.boards)
        check_faults(faults)
        self._send({"op": "faults", "board": board, "faults": faults})

    def unplug(self, board: str) -> None:
        self._plug(board, "unplug")

    def replug(self, board: str) -> str:
        """Plug the board back in on a fresh pty; returns its new path."""
        self._plug(board, "replug")
        serial = next(s.serial for s in self.specs if s.name == board)
        return self.lookup(serial) or ""

    # ------------------------------------------------------------ as VirtualTable
    def lookup(self, serial: str) -> str | None:
        with self._changed:
            return self._registry.get(serial)

    @property
    def serials(self) -> list[str]:
        return [s.serial for s in self.specs]

    def names(self) -> dict[str, str]:
        """USB serial number -> board name, as `VirtualTable.names`."""
        return {s.serial: s.name for s in self.specs}

    def channels(self) -> list[str]:
        return layout_channels(self.specs)

    def labels(self) -> dict[str, str]:
        return layout_labels(self.specs)

    # ------------------------------------------------------------ internals
    def _plug(self, board: str, op: str) -> None:
        """Unplug or replug ``board`` and wait for the child's new registry."""
        check_board(board, self.boards)
        with self._changed:
            version = self._version
        self._send({"op": op, "board": board})
        self._wait_registry(version, f"{op} {board}")

    def _send(self, message: dict[str, Any]) -> None:
        child = self._child
        if child is None or child.stdin is None:
            raise BoardsProcessError("the virtual boards' process is not running: start() it")
        line = json.dumps(message) + "\n"
        try:
            with self._write_lock:
                child.stdin.write(line)
                child.stdin.flush()
        except (BrokenPipeError, ValueError) as exc:
            raise BoardsProcessError(
                f"the virtual boards' process has stopped (exit code {child.poll()})") from exc

    def _read(self, out: IO[str] | None) -> None:
        assert out is not None
        for line in out:
            try:
                registry = json.loads(line)["registry"]
            except (ValueError, KeyError, TypeError):
                continue
            with self._changed:
                self._registry = {str(k): str(v) for k, v in registry.items()}
                self._version += 1
                self._changed.notify_all()
        with self._changed:  # the child is gone: nobody waits for an answer in vain
            self._version = -1
            self._changed.notify_all()

    def _wait_registry(self, version: int, what: str) -> None:
        with self._changed:
            self._changed.wait_for(lambda: self._version != version, timeout=START_TIMEOUT)
            if self._version == -1 or self._version == version:
                code = self._child.poll() if self._child is not None else None
                raise BoardsProcessError(
                    f"the virtual boards' process did not answer {what!r} "
                    f"(exit code {code}): see its error output above")


def main(argv: Sequence[str] | None = None, cpus: Iterable[int] | None = None) -> None:
    """The child: a VirtualTable carrying out the host's JSON lines until stdin closes;
    ``cpus``: the CPUs it runs on (default: any)."""
    # Ctrl-C at the terminal reaches the whole process group: the host decides when the
    # boards stop (it closes the pipe), so a Ctrl-C neither kills them first nor prints here.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # a board held up (sim_board.HELD_UP_S) says so on stderr, the host's log, as it says its own
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if hasattr(os, "sched_setaffinity"):  # a device of its own: not held to the CPU of a host
        try:  # that runs on one (serve --cpu, controller/web/cpu.py)
            os.sched_setaffinity(0, range(os.cpu_count() or 1) if cpus is None else cpus)
        except OSError:
            pass
    args = list(sys.argv[1:] if argv is None else argv)
    options = json.loads(args[0]) if args else {}
    dora = int(options.pop("dora", 0))
    table = VirtualTable(boards=default_layout(dora=dora), **options)

    def tell() -> None:
        registry = {s: path for s in table.serials if (path := table.lookup(s))}
        print(json.dumps({"registry": registry}), flush=True)

    table.start()
    tell()
    try:
        for line in sys.stdin:
            message = json.loads(line)
            op = message["op"]
            if op == "place":
                table.place(message["uid"], message["channel"])
            elif op == "remove":
                table.remove(message["uid"])
            elif op == "clear":
                table.clear()
            elif op == "faults":
                table.set_faults(message["board"], **message["faults"])
            elif op == "unplug":
                table.unplug(message["board"])
                tell()
            elif op == "replug":
                table.replug(message["board"])
                tell()
            else:
                raise ValueError(f"unknown operation {op!r} from the host")
    finally:
        table.stop()


if __name__ == "__main__":
    main()
