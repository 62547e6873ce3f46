"""A stand-in for the ``time`` module inside one club module (``monkeypatch.setattr(module,
"time", FakeTime(...))``): ``time()`` and ``monotonic()`` both read ``now``, which a test
moves by setting it."""

from __future__ import annotations


class FakeTime:
    def __init__(self, now: float) -> None:
        self.now = now

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now
