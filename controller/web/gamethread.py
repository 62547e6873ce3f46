"""The game loop on a thread and event loop of its own, apart from the web's.

Under 200 pollers the web's event loop always has a request ready; asyncio serves ready
callbacks in turn, so every step of the game (a scan handed to the tracker, an event stored and
applied, a simulated player's next move) waited behind them and the game slowed to a crawl. On
its own thread the game loop takes its turns by the interpreter's thread switching (every
5 ms at most) however busy the web is. The web reads the game's immutable state and its cached
views; whatever changes the game (``submit``, sessions) is run on the game's own loop
(``GameLoop._enqueue`` forwards), and the game's change notices reach the sockets through the
web's loop (``Broadcaster.on_change``).
"""

from __future__ import annotations

import asyncio
import sys
import threading

from controller.loop import GameLoop

SWITCH_INTERVAL = 0.001


class GameThread:
    def __init__(self, game: GameLoop) -> None:
        self.game = game
        self.aio: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None

    async def start(self) -> None:
        # The thread that waits for the interpreter lock asks for it after this long (5 ms by
        # default): every step of the game waits at most 1 ms for a busy web thread.
        sys.setswitchinterval(SWITCH_INTERVAL)
        self.aio = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name="game-loop", daemon=True)
        self.thread.start()
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(self.game.start(), self.aio))

    def _run(self) -> None:
        assert self.aio is not None
        asyncio.set_event_loop(self.aio)
        self.aio.run_forever()

    async def stop(self) -> None:
        aio, thread = self.aio, self.thread
        if aio is None or thread is None:
            return
        try:
            await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(self.game.stop(), aio))
        finally:
            aio.call_soon_threadsafe(aio.stop)
            await asyncio.to_thread(thread.join, 10)
            if not thread.is_alive():
                aio.close()
            self.aio = self.thread = None
