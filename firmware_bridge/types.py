"""The immutable objects every reader back-end posts upward (architecture.md, Contract 5)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

HealthState = Literal["up", "down", "resync"]


@dataclass(frozen=True, slots=True)
class ChannelScan:
    """The full set of UIDs one antenna sees now; channel is "<board>/<n>"."""

    channel: str
    uids: frozenset[str]
    t: float


@dataclass(frozen=True, slots=True)
class BoardHealth:
    """A board (or SPI bus) came up, went down or is being resynchronised."""

    board: str
    state: HealthState
    t: float
    detail: str = ""


@dataclass(frozen=True, slots=True)
class ButtonPress:
    """A debounced seat button press (CALL, READY or MAHJONG)."""

    seat: int
    button: str
    t: float


BridgeEvent = ChannelScan | BoardHealth | ButtonPress
Sink = Callable[[BridgeEvent], None]


def uid_to_str(uid: bytes | Iterable[int]) -> str:
    """Format UID bytes the contract's way: upper-case hex bytes joined by colons."""
    return ":".join(f"{b:02X}" for b in bytes(uid))


def uid_from_str(text: str) -> bytes:
    """Parse "04:A2:19:C1" (or "04a219c1") back into bytes; raises ValueError when malformed."""
    cleaned = text.replace(":", "").strip()
    if len(cleaned) % 2 or not cleaned:
        raise ValueError(f"UID {text!r} is not whole hex bytes, e.g. 04:A2:19:C1")
    return bytes.fromhex(cleaned)


def channel_name(board: str, n: int) -> str:
    """The contract's channel name for antenna n of a board."""
    return f"{board}/{n}"
