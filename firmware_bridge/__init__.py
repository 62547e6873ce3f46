"""Readers and the wire: UIDs, channels, frames. Knows nothing of mahjong.

`open_backend(name, **config)` builds a reader back-end ("serial", "sim", "mfrc522"); every
back-end posts ChannelScan / BoardHealth objects (firmware_bridge.types). See hardware_docs/.
"""

from firmware_bridge.readers import ReaderBackend, asyncio_sink, open_backend
from firmware_bridge.types import BoardHealth, ButtonPress, ChannelScan, uid_from_str, uid_to_str

__all__ = [
    "BoardHealth",
    "ButtonPress",
    "ChannelScan",
    "ReaderBackend",
    "asyncio_sink",
    "open_backend",
    "uid_from_str",
    "uid_to_str",
]
