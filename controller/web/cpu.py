"""The service's threads on one CPU (``[server] cpu``, ``serve --cpu``).

The game, the web and the reader threads take turns holding the interpreter's lock. When they
run on different CPUs, every hand-over wakes a thread on another CPU, and its cache goes with
it. On one CPU a hand-over is a plain switch. On the project's 2-core machine, with 50 screens
the last byte of a frame reached a screen with a p99 of 8.3-10.4 ms on one CPU against
16.0-16.4 ms spread over both, side by side; with one screen the same within noise
(benchmarks/bench_fullpath.py, docs/service.md). Python runs one of these threads at a time
anyway (the SQLite sync, which does not, waits for the disk, not a CPU).

``auto`` (the default) takes the last CPU this process may use, when it may use two or more: on
a Raspberry Pi CPU 0 also takes most interrupts. ``off`` leaves the scheduler to it. A number
takes that CPU. Linux only; elsewhere nothing is pinned.
"""

from __future__ import annotations

import logging
import os
from typing import Literal

log = logging.getLogger("controller.web.cpu")

CpuChoice = int | Literal["auto", "off"]


class CpuError(ValueError):
    """The CPU asked for cannot be used."""


def parse(text: str) -> CpuChoice:
    """``auto``, ``off`` or a CPU number, as written on a command line."""
    if text in ("auto", "off"):
        return text  # type: ignore[return-value]
    try:
        return int(text)
    except ValueError:
        raise ValueError(
            f"{text!r} is not a CPU: give auto, off or a CPU number (0, 1, ...)") from None


def choose(choice: CpuChoice, allowed: set[int]) -> int | None:
    """The CPU to run on (None: do not pin)."""
    if choice == "off" or not allowed:
        return None
    if choice == "auto":
        return max(allowed) if len(allowed) >= 2 else None
    if choice not in allowed:
        raise CpuError(f"CPU {choice} is not one this process may use "
                       f"({', '.join(str(c) for c in sorted(allowed))}): set [server] cpu "
                       "(or serve --cpu) to one of them, to auto, or to off")
    return choice


def for_service(choice: CpuChoice) -> int | None:
    """The CPU ``choice`` means on this machine (None: do not pin, or not on Linux); a CPU
    this process may not use is a :class:`CpuError`, said before anything starts."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    return choose(choice, set(os.sched_getaffinity(0)))


def pin(cpu: int | None) -> None:
    """Run every thread of this process, and those it starts later, on ``cpu``."""
    if cpu is None:
        return
    try:
        threads = [int(t) for t in os.listdir("/proc/self/task")]
    except OSError:
        threads = [0]
    for tid in threads:
        try:
            os.sched_setaffinity(tid, {cpu})
        except OSError:  # a thread that ended meanwhile
            continue
    log.info("the service's threads run on CPU %d ([server] cpu)", cpu)
