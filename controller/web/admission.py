"""Who gets a WebSocket (issue 22): token holders always, anonymous sockets within a share.

495 anonymous `/ws` sockets once filled the cap of 500 and a seat's phone with a valid token
was refused. Now the cap (``[server] max_ws_clients``) keeps ``ws_reserved`` sockets that only
a token holder may take (a seat with its seat token, the operator with the admin token, shown
at the handshake as the subprotocol ``token.TOKEN``), and one address holds at most
``ws_per_address`` anonymous sockets. Anonymous: the public view, and a seat socket that shows
its token only in its first message (it counts as anonymous until then; the pages show it at
the handshake)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

#: The subprotocol the service answers with; the token rides on a second one, ``token.TOKEN``.
SUBPROTOCOL = "mahjong-table"
TOKEN_PREFIX = "token."


def offered_token(subprotocols: list[str]) -> str | None:
    """The token a client shows at the handshake (``Sec-WebSocket-Protocol: mahjong-table,
    token.TOKEN``), or None."""
    for offered in subprotocols:
        if offered.startswith(TOKEN_PREFIX):
            return offered[len(TOKEN_PREFIX):]
    return None


@dataclass
class Admission:
    """The sockets open, by kind; ``admit`` says whether one more may come in."""

    limit: int
    reserved: int
    per_address: int
    holders: int = 0
    anonymous: int = 0
    by_address: Counter[str] = field(default_factory=Counter)
    refused: int = 0

    @property
    def sockets(self) -> int:
        return self.holders + self.anonymous

    def admit(self, address: str, holder: bool) -> str | None:
        """Take one socket in; the reason it is refused otherwise (said in the close)."""
        why = self._refusal(address, holder)
        if why is not None:
            self.refused += 1
            return why
        if holder:
            self.holders += 1
        else:
            self.anonymous += 1
            self.by_address[address] += 1
        return None

    def _refusal(self, address: str, holder: bool) -> str | None:
        if self.sockets >= self.limit:
            return f"too many clients ({self.limit}): try again later"
        if holder:
            return None
        if self.anonymous >= self.limit - self.reserved:
            return "the remaining places are kept for the players and the operator: try later"
        if self.by_address[address] >= self.per_address:
            return f"too many sockets from this address ({self.per_address})"
        return None

    def promote(self, address: str) -> None:
        """An anonymous socket has shown a valid token (a seat's first message)."""
        self.leave(address, holder=False)
        self.holders += 1

    def leave(self, address: str, holder: bool) -> None:
        if holder:
            self.holders -= 1
            return
        self.anonymous -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]
