"""Test support: the real game loop (engine, SQLite store in tmp_path) behind the real app, and
a helper that plays table events chosen by the Director through the loop's queue."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from controller.app import System
from controller.loop import Applied
from controller.players.director import Director

View = dict[str, Any]


class Table:
    """A started app: the HTTP client, the game loop, its tokens and a Director to play with."""

    def __init__(self, client: TestClient, system: System, seed: int = 5) -> None:
        self.system = system
        self.client = client
        self.loop = system.loop
        self.tokens = system.tokens
        self.director = Director(system.config.session.ruleset, hands=50, seed=seed)
        self.closed = False

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.client.__exit__(None, None, None)

    def admin(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens.admin}"}

    def seat(self, position: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens.seats[position]}"}

    def submit(self, event: dict[str, Any], source: str = "test") -> Applied:
        result: Applied = self.client.portal.call(self.loop.submit, event, source)  # type: ignore[union-attr]
        return result

    def step(self) -> dict[str, Any] | None:
        """Play the Director's next table event; None when it has nothing more."""
        event = self.director.next_action(self.loop.state)
        while event is not None and "session" in event:
            event = self.director.next_action(self.loop.state)
        if event is not None:
            self.submit(event, "simulation")
        return event

    def play_until(self, done: Callable[[View], bool], limit: int = 4000,
                   each: Callable[[], None] | None = None) -> View:
        for _ in range(limit):
            view = self.loop.public_view()
            if done(view):
                return view
            if self.step() is None:
                break
            if each is not None:
                each()
        raise AssertionError("the game did not get there")


@contextmanager
def memory_dir(fallback: Path, prefix: str = "mahjong-test-") -> Iterator[Path]:
    """A new folder in /dev/shm (memory) where the host has a writable one, else ``fallback``;
    removed afterwards. For the SQLite log of a service that a test plays thousands of events
    through when the log's durability is not its subject: the store syncs every event to disk
    (``synchronous=FULL``), 8 ms an event on the CI host's disk against 1.7 ms in memory
    (docs/testing.md, "CI wall time"). The store and its SQLite are the real ones."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield fallback
        return
    made = Path(tempfile.mkdtemp(prefix=prefix, dir=shm))
    try:
        yield made
    finally:
        shutil.rmtree(made, ignore_errors=True)


def in_play(view: View) -> bool:
    hand = view.get("hand") or {}
    return hand.get("phase") == "play"


def hand_over(view: View) -> bool:
    hand = view.get("hand") or {}
    return hand.get("phase") == "over"




def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def served(app: Any, wait: float = 20.0, options: dict[str, Any] | None = None) -> Iterator[str]:
    """The app on a real uvicorn (the service's own options, or ``options``) in a thread on a
    free port, for browsers and sockets; yields its base URL and stops it afterwards."""
    import uvicorn

    from controller.web.app import UVICORN_OPTIONS

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning",
                                           **(options or UVICORN_OPTIONS)))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + wait
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), "the service did not start"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
