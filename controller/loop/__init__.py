"""The game loop (architecture.md, Contract 7): one asyncio task owns the game state.

    loop = GameLoop(config, data_dir)         # built by controller.app
    loop.add_source(name, source)            # before start()
    await loop.start() / await loop.stop()
    await loop.submit(event, source) -> Applied
    loop.status() -> LoopStatus               # halted, session, seq, reader health, ...
"""

from controller.loop.game_loop import LOG_FILE, GameLoop, Listener
from controller.loop.results import (
    Applied,
    Change,
    HandInPlay,
    LoopStatus,
    NoSession,
    ServiceError,
    ServiceHalted,
    SessionChanged,
)

__all__ = [
    "LOG_FILE",
    "Applied",
    "Change",
    "GameLoop",
    "HandInPlay",
    "Listener",
    "LoopStatus",
    "NoSession",
    "ServiceError",
    "ServiceHalted",
    "SessionChanged",
]
