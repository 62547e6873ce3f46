"""One way for the tests to wait for a condition: poll it until it holds or a generous deadline
passes (never decide on the wall clock: a busy machine only makes the wait longer)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any


def until(check: Callable[[], Any], timeout: float = 60.0, what: str = "",
          every: float = 0.05, status: Callable[[], Any] | None = None) -> Any:
    """``check()``'s first truthy answer, polled every ``every`` seconds; AssertionError
    naming ``what`` (and ``status()``, where the test stood) when ``timeout`` seconds pass
    without one. The timeout is only where a test gives up."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() >= deadline:
            raise AssertionError(f"not reached in {timeout} s: {what or 'the condition'}"
                                 + (f" ({status()})" if status else ""))
        time.sleep(every)


async def until_async(check: Callable[[], Any], timeout: float = 60.0, what: str = "",
                      every: float = 0.05) -> Any:
    """``until`` inside an event loop: polls with ``asyncio.sleep``, so the loop's own tasks (the
    code under test) run between the looks."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        got = check()
        if got:
            return got
        if asyncio.get_running_loop().time() >= deadline:
            raise AssertionError(f"not reached in {timeout} s: {what or 'the condition'}")
        await asyncio.sleep(every)
